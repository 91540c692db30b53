package web

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/templates"
)

// Wallets is what the wallet page and the add-funds form need of pkg/ledger;
// *ledger.Ledger implements it.
type Wallets interface {
	WalletBalance(ctx context.Context, agencyID int64, currency string) (ledger.Balance, error)
	Entries(ctx context.Context, agencyID int64, f ledger.EntryFilter) ([]ledger.Entry, int, error)
	BuildStatement(ctx context.Context, agencyID int64, currency string, from, to time.Time) (ledger.Statement, error)
}

const (
	walletPageSize = 20
	// chartDays is how far back the balance chart looks.
	chartDays = 90
)

// walletPage is /bills/wallet: the caller's agency's balance, its entries
// with filters, and the balance over the last 90 days.
func (s *Server) walletPage(w http.ResponseWriter, r *http.Request) {
	ctx := r.Context()
	// The route's rule (Finance) has admitted the caller.
	v := viewerFrom(ctx)
	if s.wallets == nil {
		s.ServerError(w, r)
		return
	}
	agencyID := v.Principal.AgencyID
	currency := v.Agency.SettlementCurrency
	if v.Agency.ID == 0 || currency == "" {
		currency = v.Principal.Subject.Common.SettlementCurrency
	}
	if currency == "" {
		currency = "CNY"
	}
	q := r.URL.Query()
	view := templates.Wallet{Currency: currency, Type: q.Get("type"), From: strings.TrimSpace(q.Get("from")), To: strings.TrimSpace(q.Get("to")), Errors: map[string]string{}}
	if !slices.Contains(ledger.PaymentTypes, view.Type) {
		view.Type = ""
	}
	f := ledger.EntryFilter{Currency: currency, Type: view.Type, PageSize: walletPageSize}
	f.From, f.To = viewerDays(ctx, view.From, view.To, "wallet.error.date", view.Errors)
	f.Page, _ = strconv.Atoi(q.Get("page"))
	f.Page = max(f.Page, 1)

	bal, err := s.wallets.WalletBalance(ctx, agencyID, currency)
	if err != nil {
		slog.ErrorContext(ctx, "wallet: balance", "err", err)
		s.ServerError(w, r)
		return
	}
	amt := func(minor int64) string { return formatMinor(money.Amount{Minor: minor, Currency: currency}) }
	view.Balance, view.CreditLimit, view.Available = amt(bal.Balance), amt(bal.CreditLimit), amt(bal.Available())

	var entries []ledger.Entry
	total := 0
	if len(view.Errors) == 0 {
		if entries, total, err = s.wallets.Entries(ctx, agencyID, f); err != nil {
			slog.ErrorContext(ctx, "wallet: entries", "err", err)
			s.ServerError(w, r)
			return
		}
	}
	labels := s.entryLabels(ctx, agencyID, entries)
	for _, e := range entries {
		signed := amt(e.Amount)
		if e.Amount > 0 {
			signed = "+" + signed
		}
		view.Entries = append(view.Entries, templates.WalletRow{Type: e.Type, PaidAt: e.PaidAt, OrderID: e.OrderID, Reference: e.Reference,
			Amount: signed, Negative: e.Amount < 0, BalanceAfter: amt(e.BalanceAfter), Description: e.Description, Label: labels[e.ID], Remark: e.Remark})
	}
	filter := url.Values{}
	for _, k := range []string{"type", "from", "to"} {
		if val := q.Get(k); val != "" && len(view.Errors) == 0 {
			filter.Set(k, val)
		}
	}
	view.Pager = templates.NewPager(listURL(pathWallet, filter), f.Page, walletPageSize, total)

	// The chart's days are the user's days.
	now := s.now().In(display.Zone(ctx))
	from := time.Date(now.Year(), now.Month(), now.Day(), 0, 0, 0, 0, now.Location()).AddDate(0, 0, -(chartDays - 1))
	st, err := s.wallets.BuildStatement(ctx, agencyID, currency, from, now.Add(time.Second))
	if err != nil {
		slog.ErrorContext(ctx, "wallet: chart", "err", err)
		s.ServerError(w, r)
		return
	}
	view.Chart = balanceChart(st, from, now)

	p := s.page(w, r, "bills-wallet").WithStyles("/static/manager.css")
	render(w, r, http.StatusOK, templates.WalletPage(p, view))
}

// viewerDays reads a filter's inclusive from and to days (YYYY-MM-DD) as
// the instants [from, to) on the viewer's clock, as the pages show times;
// a bad day (or a last day before the first) is a field error with key.
func viewerDays(ctx context.Context, from, to, key string, errs map[string]string) (time.Time, time.Time) {
	start, end, err := display.DayRangeIn(ctx, from, to)
	if errors.Is(err, display.ErrFromDay) {
		errs["from"] = key
	}
	if errors.Is(err, display.ErrToDay) {
		errs["to"] = key
	}
	return start, end
}

// Chart geometry, in SVG user units.
const (
	chartWidth  = 640
	chartHeight = 240
	chartLeft   = 96
	chartRight  = 624
	chartTop    = 16
	chartBottom = 200
)

// balanceChart draws the wallet balance from the statement of [from, now]:
// a step line (the balance holds until the next entry) from the opening
// balance through each entry's balance after, to now.
func balanceChart(st ledger.Statement, from, now time.Time) templates.BalanceChart {
	c := templates.BalanceChart{Width: chartWidth, Height: chartHeight, Left: chartLeft, Right: chartRight, Top: chartTop, Bottom: chartBottom}
	if len(st.Entries) == 0 {
		c.Empty = true
		return c
	}
	amt := func(minor int64) string { return formatMinor(money.Amount{Minor: minor, Currency: st.Currency}) }
	lo, hi := min(int64(0), st.Opening), max(int64(0), st.Opening)
	for _, e := range st.Entries {
		lo, hi = min(lo, e.BalanceAfter), max(hi, e.BalanceAfter)
	}
	if lo == hi {
		hi = lo + 1
	}
	span := now.Sub(from)
	x := func(t time.Time) int {
		if span <= 0 {
			return chartRight
		}
		f := float64(t.Sub(from)) / float64(span)
		f = min(max(f, 0), 1)
		return chartLeft + int(f*float64(chartRight-chartLeft)+0.5)
	}
	y := func(v int64) int {
		f := float64(v-lo) / float64(hi-lo)
		return chartBottom - int(f*float64(chartBottom-chartTop)+0.5)
	}
	var pts []string
	add := func(px, py int) { pts = append(pts, strconv.Itoa(px)+","+strconv.Itoa(py)) }
	prev := st.Opening
	add(chartLeft, y(prev))
	if st.Opening != 0 {
		c.Rows = append(c.Rows, templates.ChartRow{At: from, Balance: amt(st.Opening)})
	}
	for _, e := range st.Entries {
		ex := x(e.PaidAt)
		add(ex, y(prev))
		add(ex, y(e.BalanceAfter))
		c.Dots = append(c.Dots, templates.ChartDot{X: ex, Y: y(e.BalanceAfter)})
		c.Rows = append(c.Rows, templates.ChartRow{At: e.PaidAt, Balance: amt(e.BalanceAfter)})
		prev = e.BalanceAfter
	}
	add(chartRight, y(prev))
	c.Points = strings.Join(pts, " ")
	c.MaxLabel, c.MinLabel = amt(hi), amt(lo)
	if hi == lo+1 && lo == 0 {
		c.MaxLabel = amt(0)
	}
	c.ZeroY, c.ShowZero = y(0), lo < 0
	c.FromLabel, c.ToLabel = from.Format(time.DateOnly), now.Format(time.DateOnly)
	return c
}
