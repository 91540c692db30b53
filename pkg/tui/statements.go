package tui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/charmbracelet/bubbles/key"
	tea "github.com/charmbracelet/bubbletea"
	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/docs"
	"github.com/voyage/voyage/pkg/i18n"
)

// statementState is finance's monthly screen: the selected agency's
// statements, newest first, with the selected one's totals; `n` makes the
// statement of a period, `x` writes one to a file (CSV, XLSX or PDF in a
// language).
type statementState = agencyList[admin.StatementSummary]

func newStatementState() statementState {
	return newAgencyList(statementsScreen, "statements", "statement",
		func(s admin.StatementSummary) int64 { return s.ID },
		func(ctx context.Context, b admin.Backend, agencyID int64, page, size int) ([]admin.StatementSummary, int, error) {
			p, err := b.Statements(ctx, agencyID, page, size)
			return p.Items, p.Total, err
		})
}

func (m *Model) statementsKey(msg tea.KeyMsg) tea.Cmd {
	cmd, handled := agencyKey(m, &m.sm.list, msg, newStatementAction, m.keys.Export, "statements.noneSelected", exportAction)
	if !handled && key.Matches(msg, m.keys.Back) {
		m.status = ""
	}
	return cmd
}

// openAction opens a form in the console's language.
func (m *Model) openAction(a *action) tea.Cmd {
	a.tr = m.tr()
	m.act = a
	m.status = ""
	return a.openCmd(m.ctx)
}

// lastMonth is the calendar month before now's, as inclusive days.
func lastMonth(now time.Time) (from, to string) {
	first := time.Date(now.Year(), now.Month(), 1, 0, 0, 0, 0, time.UTC)
	return first.AddDate(0, -1, 0).Format(time.DateOnly), first.AddDate(0, 0, -1).Format(time.DateOnly)
}

// newStatementAction makes agency a's statement of a period (last month
// unless changed). A statement of the same period already made is said on
// the confirmation: export that one rather than make a copy.
func newStatementAction(m *Model, a agency.Summary) *action {
	t := m.t
	from, to := lastMonth(m.opts.Now())
	ff := newField(t("statements.from"), "YYYY-MM-DD", false)
	ff.input.SetValue(from)
	tf := newField(t("statements.to"), "YYYY-MM-DD", false)
	tf.input.SetValue(to)
	existing := slices.Clone(m.sm.list.items)
	if m.sm.agencyID != a.ID {
		existing = nil
	}
	b := m.b
	return &action{
		id:       nextID(),
		title:    t("statements.newTitle", "name", a.Name, "code", a.Code),
		question: t("statements.newQuestion"),
		fields:   []field{ff, tf},
		check: func(_ context.Context, v []string) ([]string, error) {
			plan := []string{t("statements.newPlan", "name", a.Name, "from", v[0], "to", v[1], "currency", a.Currency)}
			for _, s := range existing {
				if s.From == v[0] && s.To == v[1] {
					plan = append(plan, t("statements.exists", "id", s.ID))
				}
			}
			return plan, nil
		},
		post: func(ctx context.Context, v []string) ([]string, string, error) {
			d, err := b.CreateStatement(ctx, a.ID, v[0], v[1])
			if err != nil {
				return nil, "", err
			}
			done := t("statements.created", "id", d.ID, "from", d.From, "to", d.To)
			return []string{done,
				labelled(t("statements.opening"), d.OpeningBalance.Amount+" "+d.OpeningBalance.Currency),
				labelled(t("statements.closing"), d.ClosingBalance.Amount+" "+d.ClosingBalance.Currency),
				labelled(t("statements.entries"), t("statements.entryCount", "count", len(d.Entries))),
			}, done, nil
		},
	}
}

var exportFormats = []string{"csv", "xlsx", "pdf"}

// exportAction writes statement st of agency a to a file: the format, the
// document's language and the file (by default named as the portal names
// it, in Options.ExportDir). The file appears whole or not at all.
func exportAction(m *Model, a agency.Summary, st admin.StatementSummary) *action {
	t := m.t
	format := newField(t("statements.format"), "csv, xlsx or pdf", false)
	format.input.SetValue("xlsx")
	lang := newField(t("statements.lang"), "en, zh-cn or zh-tw", false)
	lang.input.SetValue(m.lang())
	file := newField(t("statements.file"), t("statements.fileHint"), true)
	dir := m.opts.ExportDir
	b := m.b
	target := func(v []string) (format, lang, path string, err error) {
		format = strings.ToLower(v[0])
		if !slices.Contains(exportFormats, format) {
			return "", "", "", errors.New(t("statements.badFormat"))
		}
		lang = i18n.Normalize(v[1])
		if lang == "" {
			return "", "", "", errors.New(t("statements.badLang"))
		}
		path = v[2]
		if path == "" {
			from, _ := time.Parse(time.DateOnly, st.From)
			to, _ := time.Parse(time.DateOnly, st.To)
			path = filepath.Join(dir, docs.StatementFileName(a.Code, from, to.AddDate(0, 0, 1), format))
		}
		return format, lang, path, nil
	}
	return &action{
		id:       nextID(),
		title:    t("statements.exportTitle", "id", st.ID, "from", st.From, "to", st.To),
		question: t("statements.exportQuestion"),
		fields:   []field{format, lang, file},
		check: func(_ context.Context, v []string) ([]string, error) {
			format, lang, path, err := target(v)
			if err != nil {
				return nil, err
			}
			plan := []string{t("statements.exportPlan", "format", strings.ToUpper(format), "lang", lang), path}
			if _, err := os.Stat(path); err == nil {
				plan = append(plan, t("statements.replaces"))
			}
			return plan, nil
		},
		post: func(ctx context.Context, v []string) ([]string, string, error) {
			format, lang, path, err := target(v)
			if err != nil {
				return nil, "", err
			}
			n, err := writeExport(ctx, b, path, a.ID, st.ID, format, lang)
			if err != nil {
				return nil, "", err
			}
			done := t("statements.written", "path", path, "size", n)
			return []string{done}, done, nil
		},
	}
}

// writeExport writes the statement to path through a temporary file in the
// same folder, so that a failed export leaves no half file.
func writeExport(ctx context.Context, b admin.Backend, path string, agencyID, statementID int64, format, lang string) (int64, error) {
	f, err := os.CreateTemp(filepath.Dir(path), ".statement-*")
	if err != nil {
		return 0, err
	}
	defer os.Remove(f.Name())
	if err := b.ExportStatement(ctx, f, agencyID, statementID, format, lang); err != nil {
		f.Close()
		return 0, err
	}
	info, err := f.Stat()
	if err != nil {
		f.Close()
		return 0, err
	}
	if err := f.Close(); err != nil {
		return 0, err
	}
	if err := os.Chmod(f.Name(), 0o644); err != nil {
		return 0, err
	}
	return info.Size(), os.Rename(f.Name(), path)
}

func (m *Model) statementsView(w, h int) []string {
	l := &m.sm.list
	cols := func(w int) columns {
		amount := column{w: 12, right: true}
		if w >= 100 {
			amount.w = 14
		}
		return layout(w, column{min: 10}, amount, amount, amount, column{w: 8, right: true})
	}
	return agencyScreen(m, l, w, h, m.pageInfo(l.loaded, l.page, l.total, "statements.count"), "statements",
		[]string{"period", "opening", "closing", "change", "entries"}, cols,
		func(s admin.StatementSummary) []string {
			return []string{s.From + " – " + s.To, s.OpeningBalance.Amount, s.ClosingBalance.Amount,
				change(s.OpeningBalance.Amount, s.ClosingBalance.Amount), fmt.Sprint(s.EntryCount)}
		},
		m.statementDetailView)
}

// change is closing less opening, signed, in the amounts' decimals.
func change(opening, closing string) string {
	o, err1 := decimal.NewFromString(strings.ReplaceAll(opening, ",", ""))
	c, err2 := decimal.NewFromString(strings.ReplaceAll(closing, ",", ""))
	if err1 != nil || err2 != nil {
		return ""
	}
	places := int32(0)
	if i := strings.LastIndex(closing, "."); i >= 0 {
		places = int32(len(closing) - i - 1)
	}
	d := c.Sub(o)
	s := d.Abs().StringFixed(places)
	if strings.Contains(opening+closing, ",") {
		s = grouped(s)
	}
	switch d.Sign() {
	case 1:
		s = "+" + s
	case -1:
		s = "-" + s
	}
	return s
}

// grouped puts thousands separators in an unsigned decimal, as the amounts
// it is shown with have them.
func grouped(s string) string {
	whole, frac, _ := strings.Cut(s, ".")
	for i := len(whole) - 3; i > 0; i -= 3 {
		whole = whole[:i] + "," + whole[i:]
	}
	if frac != "" {
		return whole + "." + frac
	}
	return whole
}

// statementDetailView is the selected statement's totals.
func (m *Model) statementDetailView(w, h int) []string {
	s, ok := m.sm.list.current()
	if !ok {
		return nil
	}
	if _, ok := m.scopeAgency(); !ok {
		return nil
	}
	cur := " " + s.ClosingBalance.Currency
	lines := []string{
		m.rule(m.t("statements.detailTitle", "id", s.ID), w),
		m.field2("statements.period", s.From+" – "+s.To+" ("+statementZone(s)+")", w),
		m.field2("statements.currency", s.ClosingBalance.Currency, w),
		m.field2("statements.opening", s.OpeningBalance.Amount+cur, w),
		m.field2("statements.closing", s.ClosingBalance.Amount+cur, w),
		m.field2("statements.change", change(s.OpeningBalance.Amount, s.ClosingBalance.Amount)+cur, w),
		m.field2("statements.entries", m.t("statements.entryCount", "count", s.EntryCount), w),
		m.field2("statements.createdAt", utcText(s.CreatedAt), w),
		"",
		m.st.Muted.Render(fit(m.t("statements.keys"), w)),
	}
	return clip(lines, h)
}

// statementZone names the zone whose days a statement's period is; a
// statement without one (an older server's) was cut in UTC days.
func statementZone(s admin.StatementSummary) string {
	if s.TimeZone == "" {
		return "UTC"
	}
	return s.TimeZone
}
