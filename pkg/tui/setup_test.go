package tui

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"
	"github.com/shopspring/decimal"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/demo"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/store/storetest"
)

// env is a seeded SQLite application reached through admin.Local, as
// `voyage tui` reaches it in-process.
type env struct {
	ctx context.Context
	app *app.App
	b   *admin.Local
	// agencies are the demo agencies by name.
	agencies map[string]agency.Summary
}

func newEnv(t *testing.T) *env {
	t.Helper()
	// Each test has its own database and console: they run side by side.
	t.Parallel()
	ctx := context.Background()
	// apptest closes the application (and so the backend) when the test ends.
	a := apptest.Open(t, storetest.DSN(t, store.SQLite))
	if err := demo.Seed(ctx, a.DB, a.Site); err != nil {
		t.Fatal(err)
	}
	b, err := admin.NewLocal(ctx, a, "tui-test")
	if err != nil {
		t.Fatal(err)
	}
	e := &env{ctx: ctx, app: a, b: b, agencies: map[string]agency.Summary{}}
	page, err := b.Agencies(ctx, agency.ListFilter{PageSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range page.Items {
		e.agencies[s.Name] = s
	}
	for _, name := range []string{"Demo Travel", "Demo Sub Travel", "Blue Sky Travel"} {
		if _, ok := e.agencies[name]; !ok {
			t.Fatalf("demo agency %q missing from %v", name, page.Items)
		}
	}
	return e
}

// listed are the agencies in the list rows of an agencies screen (a row
// starts with the 2-cell marker and the agency's code).
func (e *env) listed(screen string) []string {
	var out []string
	for _, l := range strings.Split(screen, "\n") {
		for name, a := range e.agencies {
			if len(l) > 2 && strings.HasPrefix(l[2:], a.Code+" ") {
				out = append(out, name)
			}
		}
	}
	return out
}

func (e *env) id(name string) int64 { return e.agencies[name].ID }

// fund credits an agency through the backend, as another admin would.
func (e *env) fund(t *testing.T, name, amount, ref string) {
	t.Helper()
	s := e.agencies[name]
	if _, err := e.b.AddFunds(e.ctx, s.ID, ledger.TopUp{Currency: s.Currency, Amount: amount, AmountReceived: amount, ExchangeRate: "1",
		Reference: ref, IdempotencyKey: "test-" + ref}); err != nil {
		t.Fatal(err)
	}
}

// detail is an agency's detail as the backend tells it now.
func (e *env) detail(t *testing.T, name string) agency.Detail {
	t.Helper()
	d, err := e.b.Agency(e.ctx, e.id(name))
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func (e *env) entries(t *testing.T, name string) int {
	t.Helper()
	p, err := e.b.Entries(e.ctx, e.id(name), 1, 100)
	if err != nil {
		t.Fatal(err)
	}
	return p.Total
}

func dec(t *testing.T, s string) decimal.Decimal {
	t.Helper()
	d, err := decimal.NewFromString(s)
	if err != nil {
		t.Fatalf("amount %q: %v", s, err)
	}
	return d
}

// refundRequest puts a refund request of Demo Travel in the review queue
// and answers its id.
func (e *env) refundRequest(t *testing.T) int64 {
	t.Helper()
	return apptest.RefundRequest(t, e.app)
}

// refundOrder is a refund request put in the review queue, as the backend
// shows it.
func (e *env) refundOrder(t *testing.T) flight.View {
	t.Helper()
	v, err := e.b.Order(e.ctx, e.refundRequest(t))
	if err != nil {
		t.Fatal(err)
	}
	return v
}

// probe wraps the console to keep its latest rendered screen, so that a
// test can read the whole screen (teatest's output holds only the lines
// that changed).
type probe struct {
	tea.Model
	mu   sync.Mutex
	view string
	// drawn holds a value after a View the test has not waited for yet:
	// the program draws on its own goroutine, and a test waiting for a
	// screen wakes on each drawing rather than polling.
	drawn chan struct{}
}

func newProbe(m tea.Model) *probe { return &probe{Model: m, drawn: make(chan struct{}, 1)} }

func (p *probe) Update(msg tea.Msg) (tea.Model, tea.Cmd) {
	m, cmd := p.Model.Update(msg)
	p.Model = m
	return p, cmd
}

func (p *probe) View() string {
	v := p.Model.View()
	p.mu.Lock()
	p.view = v
	p.mu.Unlock()
	select {
	case p.drawn <- struct{}{}:
	default:
	}
	return v
}

func (p *probe) screen() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.view
}

// console is the TUI running under teatest at 80x24.
type console struct {
	t  *testing.T
	tm *teatest.TestModel
	p  *probe
}

// startOn starts the console on e's backend with the agency name selected.
func (e *env) startOn(t *testing.T, name string) *console {
	t.Helper()
	c := start(t, e.b, Options{})
	c.selectAgency(name)
	return c
}

func start(t *testing.T, b admin.Backend, opts Options) *console {
	t.Helper()
	p := newProbe(New(b, opts))
	tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(80, 24))
	c := &console{t: t, tm: tm, p: p}
	t.Cleanup(c.quit)
	return c
}

// quit ends the program and checks the final screen fits 80x24.
func (c *console) quit() {
	c.tm.Quit()
	final := c.tm.FinalModel(c.t, teatest.WithFinalTimeout(10*time.Second))
	assertFits(c.t, final.View(), 80, 24)
}

// waitFor looks at each screen drawn until cond holds, failing with the
// last screen after a deadline.
func (c *console) waitFor(what string, cond func(screen string) bool) string {
	c.t.Helper()
	s, ok := c.p.until(15*time.Second, cond)
	if !ok {
		c.t.Fatalf("waiting for %s; the screen is:\n%s", what, s)
	}
	return s
}

// until answers the first screen cond accepts, waking on each drawing, or
// the screen at the end of within and false.
func (p *probe) until(within time.Duration, cond func(screen string) bool) (string, bool) {
	timeout := time.After(within)
	for {
		s := p.screen()
		if cond(s) {
			return s, true
		}
		select {
		case <-p.drawn:
		case <-timeout:
			return p.screen(), false
		}
	}
}

// waitText waits until the screen shows every one of texts.
func (c *console) waitText(texts ...string) string {
	c.t.Helper()
	return c.waitFor(strings.Join(texts, " and "), func(s string) bool {
		for _, x := range texts {
			if !strings.Contains(s, x) {
				return false
			}
		}
		return true
	})
}

// waitFlat waits until the screen shows text, however it is wrapped.
func (c *console) waitFlat(text string) string {
	c.t.Helper()
	want := strings.Join(strings.Fields(text), " ")
	return c.waitFor(text, func(s string) bool { return strings.Contains(strings.Join(strings.Fields(s), " "), want) })
}

// press sends keys by name ("enter", "esc", "tab", "shift+tab", "up",
// "down", "right", "left", "ctrl+u") or as typed text.
func (c *console) press(keys ...string) {
	named := map[string]tea.KeyType{"enter": tea.KeyEnter, "esc": tea.KeyEsc, "tab": tea.KeyTab, "shift+tab": tea.KeyShiftTab,
		"up": tea.KeyUp, "down": tea.KeyDown, "right": tea.KeyRight, "left": tea.KeyLeft, "ctrl+u": tea.KeyCtrlU}
	for _, k := range keys {
		if kt, ok := named[k]; ok {
			c.tm.Send(tea.KeyMsg{Type: kt})
			continue
		}
		c.tm.Type(k)
	}
}

// selectAgency searches the agency by name so that it is the only one,
// and waits for its detail.
func (c *console) selectAgency(name string) string {
	c.t.Helper()
	c.waitText("agencies")
	c.press("/", strings.ToLower(name), "enter")
	return c.waitText("page 1/1 · 1 agency", "─ "+name+" ·", "Recent wallet entries")
}

// assertFits fails when a line of view is wider than w cells or there are
// more than h lines.
func assertFits(t *testing.T, view string, w, h int) {
	t.Helper()
	lines := strings.Split(view, "\n")
	if len(lines) > h {
		t.Errorf("%d lines, more than %d:\n%s", len(lines), h, view)
	}
	for i, l := range lines {
		if lw := lipgloss.Width(l); lw > w {
			t.Errorf("line %d is %d cells wide, more than %d: %q", i+1, lw, w, l)
		}
	}
}
