package tui

import "github.com/charmbracelet/bubbles/key"

// keyMap is every key the console answers to. The help line shows the ones
// that apply where the focus is; `?` shows them all.
type keyMap struct {
	Up, Down, PrevPage, NextPage key.Binding
	Agencies, Review, Switch     key.Binding
	Groups, Orders, Statements   key.Binding
	Rates, Users, Keys           key.Binding
	Block, Unblock, New, Export  key.Binding
	Kind, Revoke, SetRate        key.Binding
	Search, Refresh              key.Binding
	Funds, Credit, APIKey        key.Binding
	Approve, Reject, Quote       key.Binding
	Help, Quit, Back             key.Binding

	// In a search box or a form.
	Apply, NextField, PrevField, Cancel key.Binding
	// On a confirmation.
	Yes, No, Edit key.Binding
	// On a result.
	Close key.Binding
}

func newKeyMap() keyMap {
	return keyMap{
		// k is taken by "new API key", so moving is the arrow keys only.
		Up:       key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", "up")),
		Down:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", "down")),
		PrevPage: key.NewBinding(key.WithKeys("left", "pgup"), key.WithHelp("←", "prev page")),
		NextPage: key.NewBinding(key.WithKeys("right", "pgdown"), key.WithHelp("→", "next page")),

		Agencies:   key.NewBinding(key.WithKeys("1"), key.WithHelp("1", "agencies")),
		Review:     key.NewBinding(key.WithKeys("2"), key.WithHelp("2", "review queue")),
		Groups:     key.NewBinding(key.WithKeys("3"), key.WithHelp("3", "group queue")),
		Orders:     key.NewBinding(key.WithKeys("4"), key.WithHelp("4", "orders")),
		Statements: key.NewBinding(key.WithKeys("5"), key.WithHelp("5", "statements")),
		Rates:      key.NewBinding(key.WithKeys("6"), key.WithHelp("6", "exchange rates")),
		Users:      key.NewBinding(key.WithKeys("7"), key.WithHelp("7", "users")),
		Keys:       key.NewBinding(key.WithKeys("8"), key.WithHelp("8", "API keys")),
		Switch:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", "next screen")),
		Search:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", "search")),
		Refresh:    key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", "refresh")),

		Funds:  key.NewBinding(key.WithKeys("f"), key.WithHelp("f", "add funds")),
		Credit: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", "set credit")),
		APIKey: key.NewBinding(key.WithKeys("k"), key.WithHelp("k", "new API key")),

		Block:   key.NewBinding(key.WithKeys("b"), key.WithHelp("b", "block/unblock")),
		Unblock: key.NewBinding(key.WithKeys("u"), key.WithHelp("u", "unblock user")),
		New:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", "new statement/key")),
		Export:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "export/revoke")),
		Kind:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", "flights/trains/groups")),
		Revoke:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", "revoke key")),
		SetRate: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", "set rate")),

		Approve: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", "approve")),
		Reject:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", "reject")),
		Quote:   key.NewBinding(key.WithKeys("o"), key.WithHelp("o", "quote")),

		Help: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", "help")),
		Quit: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", "quit")),
		Back: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", "back")),

		Apply:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", "next/submit")),
		NextField: key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", "next field")),
		PrevField: key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", "prev field")),
		Cancel:    key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", "cancel")),

		Yes:  key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y/enter", "confirm")),
		No:   key.NewBinding(key.WithKeys("n", "esc", "ctrl+c"), key.WithHelp("n/esc", "cancel")),
		Edit: key.NewBinding(key.WithKeys("e"), key.WithHelp("e", "edit")),

		Close: key.NewBinding(key.WithKeys("enter", "esc", "ctrl+c"), key.WithHelp("enter", "close")),
	}
}

// bindings is a help.KeyMap of fixed lists.
type bindings struct {
	short []key.Binding
	full  [][]key.Binding
}

func (b bindings) ShortHelp() []key.Binding  { return b.short }
func (b bindings) FullHelp() [][]key.Binding { return b.full }

// fullHelp is the whole keymap in two rows of columns, so that it fits 80
// columns without the help model cutting a column off.
func (k keyMap) fullHelp() [2][][]key.Binding {
	return [2][][]key.Binding{
		{
			{k.Up, k.Down, k.PrevPage, k.NextPage},
			{k.Agencies, k.Review, k.Groups, k.Orders, k.Statements},
			{k.Rates, k.Users, k.Keys, k.Switch, k.Refresh},
			{k.Search, k.Help, k.Back, k.Quit},
		},
		{
			{k.Funds, k.Credit, k.APIKey, k.Block},
			{k.New, k.Export, k.Kind, k.SetRate, k.Unblock},
			{k.Approve, k.Reject, k.Quote},
			{k.Apply, k.NextField, k.Edit},
		},
	}
}
