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

// screens are the keys that open the screens, in the screens' order.
func (k keyMap) screens() [screenCount]key.Binding {
	return [screenCount]key.Binding{k.Agencies, k.Review, k.Groups, k.Orders, k.Statements, k.Rates, k.Users, k.Keys}
}

// newKeyMap is the keys with their help in the words of t.
func newKeyMap(t func(string, ...any) string) keyMap {
	return keyMap{
		// k is taken by "new API key", so moving is the arrow keys only.
		Up:       key.NewBinding(key.WithKeys("up"), key.WithHelp("↑", t("key.up"))),
		Down:     key.NewBinding(key.WithKeys("down"), key.WithHelp("↓", t("key.down"))),
		PrevPage: key.NewBinding(key.WithKeys("left", "pgup"), key.WithHelp("←", t("key.prevPage"))),
		NextPage: key.NewBinding(key.WithKeys("right", "pgdown"), key.WithHelp("→", t("key.nextPage"))),

		Agencies:   key.NewBinding(key.WithKeys("1"), key.WithHelp("1", t("key.agencies"))),
		Review:     key.NewBinding(key.WithKeys("2"), key.WithHelp("2", t("key.reviewQueue"))),
		Groups:     key.NewBinding(key.WithKeys("3"), key.WithHelp("3", t("key.groupQueue"))),
		Orders:     key.NewBinding(key.WithKeys("4"), key.WithHelp("4", t("key.orders"))),
		Statements: key.NewBinding(key.WithKeys("5"), key.WithHelp("5", t("key.statements"))),
		Rates:      key.NewBinding(key.WithKeys("6"), key.WithHelp("6", t("key.exchangeRates"))),
		Users:      key.NewBinding(key.WithKeys("7"), key.WithHelp("7", t("key.users"))),
		Keys:       key.NewBinding(key.WithKeys("8"), key.WithHelp("8", t("key.apiKeys"))),
		Switch:     key.NewBinding(key.WithKeys("tab"), key.WithHelp("tab", t("key.nextScreen"))),
		Search:     key.NewBinding(key.WithKeys("/"), key.WithHelp("/", t("key.search"))),
		Refresh:    key.NewBinding(key.WithKeys("ctrl+r"), key.WithHelp("ctrl+r", t("key.refresh"))),

		Funds:  key.NewBinding(key.WithKeys("f"), key.WithHelp("f", t("key.addFunds"))),
		Credit: key.NewBinding(key.WithKeys("c"), key.WithHelp("c", t("key.setCredit"))),
		APIKey: key.NewBinding(key.WithKeys("k"), key.WithHelp("k", t("key.newApiKey"))),

		Block:   key.NewBinding(key.WithKeys("b"), key.WithHelp("b", t("key.blockUnblock"))),
		Unblock: key.NewBinding(key.WithKeys("u"), key.WithHelp("u", t("key.unblockUser"))),
		New:     key.NewBinding(key.WithKeys("n"), key.WithHelp("n", t("key.newStatementKey"))),
		Export:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", t("key.exportRevoke"))),
		Kind:    key.NewBinding(key.WithKeys("t"), key.WithHelp("t", t("key.flightsTrainsGroups"))),
		Revoke:  key.NewBinding(key.WithKeys("x"), key.WithHelp("x", t("key.revokeKey"))),
		SetRate: key.NewBinding(key.WithKeys("s"), key.WithHelp("s", t("key.setRate"))),

		Approve: key.NewBinding(key.WithKeys("a"), key.WithHelp("a", t("key.approve"))),
		Reject:  key.NewBinding(key.WithKeys("r"), key.WithHelp("r", t("key.reject"))),
		Quote:   key.NewBinding(key.WithKeys("o"), key.WithHelp("o", t("key.quote"))),

		Help: key.NewBinding(key.WithKeys("?"), key.WithHelp("?", t("key.help"))),
		Quit: key.NewBinding(key.WithKeys("q", "ctrl+c"), key.WithHelp("q", t("key.quit"))),
		Back: key.NewBinding(key.WithKeys("esc"), key.WithHelp("esc", t("key.back"))),

		Apply:     key.NewBinding(key.WithKeys("enter"), key.WithHelp("enter", t("key.nextSubmit"))),
		NextField: key.NewBinding(key.WithKeys("tab", "down"), key.WithHelp("tab", t("key.nextField"))),
		PrevField: key.NewBinding(key.WithKeys("shift+tab", "up"), key.WithHelp("shift+tab", t("key.prevField"))),
		Cancel:    key.NewBinding(key.WithKeys("esc", "ctrl+c"), key.WithHelp("esc", t("key.cancel"))),

		Yes:  key.NewBinding(key.WithKeys("y", "enter"), key.WithHelp("y/enter", t("key.confirm"))),
		No:   key.NewBinding(key.WithKeys("n", "esc", "ctrl+c"), key.WithHelp("n/esc", t("key.cancel"))),
		Edit: key.NewBinding(key.WithKeys("e"), key.WithHelp("e", t("key.edit"))),

		Close: key.NewBinding(key.WithKeys("enter", "esc", "ctrl+c"), key.WithHelp("enter", t("key.close"))),
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
