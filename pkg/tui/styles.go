package tui

import "github.com/charmbracelet/lipgloss"

// styles are few and quiet: bold for titles, one accent, grey for what is
// secondary. Nothing depends on colour: the selected row also carries a ">"
// marker, the active screen brackets, an error the word "error".
type styles struct {
	Title, Tab, ActiveTab, Header, Selected, Muted, Label, Error, Note, Key lipgloss.Style
}

func newStyles() styles {
	accent := lipgloss.AdaptiveColor{Light: "#1F5FAD", Dark: "#7AB8FF"}
	muted := lipgloss.AdaptiveColor{Light: "#6B6B6B", Dark: "#9A9A9A"}
	return styles{
		Title:     lipgloss.NewStyle().Bold(true),
		Tab:       lipgloss.NewStyle().Foreground(muted),
		ActiveTab: lipgloss.NewStyle().Bold(true).Foreground(accent),
		Header:    lipgloss.NewStyle().Bold(true).Underline(true),
		Selected:  lipgloss.NewStyle().Bold(true).Foreground(accent),
		Muted:     lipgloss.NewStyle().Foreground(muted),
		Label:     lipgloss.NewStyle().Foreground(muted),
		Error:     lipgloss.NewStyle().Foreground(lipgloss.AdaptiveColor{Light: "#B00020", Dark: "#FF6B6B"}),
		Note:      lipgloss.NewStyle().Foreground(accent),
		Key:       lipgloss.NewStyle().Bold(true),
	}
}
