package tui

import (
	"context"
	"strings"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/siteinfo"
)

// rateHistory is how many of a currency's rates the detail shows.
const rateHistory = 12

// rateState is the exchange rates as the product models them: for each
// currency, what one unit is worth in the default currency, the newest in
// force; the selected currency's history beside it; `s` sets a rate.
type rateState struct {
	list pagedList[siteinfo.Rate, []siteinfo.Rate]
}

type ratesMsg struct {
	rates []siteinfo.Rate
	err   error
}

// currencyID is a currency code as a list id (three letters in an int).
func currencyID(c string) int64 {
	var id int64
	for i := 0; i < len(c) && i < 4; i++ {
		id = id<<8 | int64(c[i])
	}
	return id
}

func idCurrency(id int64) string {
	var b []byte
	for ; id > 0; id >>= 8 {
		b = append([]byte{byte(id & 0xff)}, b...)
	}
	return string(b)
}

func newRateState() rateState {
	return rateState{list: newPagedList(listSource[siteinfo.Rate, []siteinfo.Rate]{
		screen: ratesScreen, what: "rates", item: "rate",
		id: func(r siteinfo.Rate) int64 { return currencyID(r.Currency) },
		loadPage: func(m *Model, _ int) tea.Cmd {
			b := m.b
			ctx, cancel := m.call()
			return func() tea.Msg {
				defer cancel()
				rates, err := b.Rates(ctx)
				return ratesMsg{rates: rates, err: err}
			}
		},
		fetchDetail: func(ctx context.Context, b admin.Backend, id int64) ([]siteinfo.Rate, error) {
			return b.RateHistory(ctx, idCurrency(id), rateHistory)
		},
	})}
}

func (m *Model) ratesLoaded(msg ratesMsg) tea.Cmd {
	m.ra.list.answered(m.ra.list.page)
	return m.ra.list.pageLoaded(m, msg.rates, len(msg.rates), msg.err)
}

func (m *Model) ratesKey(msg tea.KeyMsg) tea.Cmd {
	if cmd, handled := m.ra.list.key(m, msg); handled {
		return cmd
	}
	if key.Matches(msg, m.keys.SetRate) {
		r, _ := m.ra.list.current()
		return m.openAction(rateAction(m, r, m.ra.list.items))
	}
	return nil
}

// rateAction sets a currency's rate (the selected one's unless changed);
// the confirmation shows the rate in force and the new one.
func rateAction(m *Model, sel siteinfo.Rate, rates []siteinfo.Rate) *action {
	t := m.t
	cur := newField(t("rates.currency"), "USD", false)
	cur.input.SetValue(sel.Currency)
	rate := newField(t("rates.rate"), sel.Rate, false)
	b := m.b
	base := sel.Base
	return &action{
		id:       nextID(),
		title:    t("rates.setTitle"),
		question: t("rates.setQuestion"),
		fields:   []field{cur, rate},
		check: func(_ context.Context, v []string) ([]string, error) {
			c, d, err := siteinfo.ParseRate(v[0], v[1])
			if err != nil {
				return nil, err
			}
			now := t("rates.none")
			for _, r := range rates {
				if r.Currency == c {
					now = r.Rate
				}
			}
			return []string{t("rates.setPlan", "currency", c, "rate", d.String(), "base", base), labelled(t("rates.inForce"), now)}, nil
		},
		post: func(ctx context.Context, v []string) ([]string, string, error) {
			hist, err := b.SetRate(ctx, v[0], v[1])
			if err != nil {
				return nil, "", err
			}
			c := strings.ToUpper(strings.TrimSpace(v[0]))
			r := v[1]
			if len(hist) > 0 {
				c, r = hist[0].Currency, hist[0].Rate
			}
			done := t("rates.set", "currency", c, "rate", r)
			return []string{done}, done, nil
		},
	}
}

func (m *Model) ratesView(w, h int) []string {
	l := &m.ra.list
	st := m.st
	// currency, rate, source, since
	row := func(w int, mark string, cells ...string) string {
		return layout(w, column{w: 8}, column{w: 16, right: true}, column{min: 6}, column{w: 20}).row(mark, cells...)
	}
	top := func(w int) []string {
		info := ""
		if l.loaded {
			info = m.t("rates.count", "count", l.total)
		}
		base := ""
		if len(l.items) > 0 {
			base = m.t("rates.base", "base", l.items[0].Base)
		}
		return []string{spread(st.Muted.Render(base), st.Muted.Render(info), w),
			st.Header.Render(row(w, "", m.t("rates.currency"), m.t("rates.rate"), m.t("rates.source"), m.t("rates.since")))}
	}
	rows := func(w, n int) []string {
		return l.rows(m, w, n, "rates", func(mark string, r siteinfo.Rate) string {
			return row(w, mark, r.Currency, r.Rate, r.Source, utcText(r.CreatedAt))
		})
	}
	return m.paned(w, h, len(l.items), top, rows, m.paneOr(m.rateDetailView))
}

// rateDetailView is the selected currency's latest rates, newest first.
func (m *Model) rateDetailView(w, h int) []string {
	r, ok := m.ra.list.current()
	if !ok {
		return nil
	}
	hist, lines, ok := m.ra.list.detailOf(m, currencyID(r.Currency), w,
		[]string{m.rule(m.t("rates.historyTitle", "currency", r.Currency, "base", r.Base), w)})
	if !ok {
		return lines
	}
	for _, x := range hist {
		lines = append(lines, fit("  "+utcText(x.CreatedAt)+"  "+fitRight(x.Rate, 14)+"  "+x.Source, w))
	}
	lines = append(lines, "", m.st.Muted.Render(fit(m.t("rates.keys"), w)))
	return clip(lines, h)
}
