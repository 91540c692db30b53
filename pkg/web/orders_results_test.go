package web

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/templates"
)

// The change search starts from each flight's local date at its origin: a
// flight leaving Beijing at 02:20 on 25 Dec (18:20 UTC on 24 Dec) prefills
// 25 Dec, one leaving London at 22:00 on 30 Dec prefills 30 Dec.
func TestOrderDetailChangeDatesAreLocal(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLocalizer(context.Background(), i18n.MustLoad(), i18n.EN)
	o := flight.View{Type: flight.TypeOrigin, Status: flight.Issued, Total: flight.Money{Amount: "100", Currency: "CNY"},
		Journeys: []shopping.JourneyView{
			{Origin: "PEK", Destination: "LHR", DepartAt: time.Date(2026, 12, 24, 18, 20, 0, 0, time.UTC)},
			{Origin: "LHR", Destination: "PEK", DepartAt: time.Date(2026, 12, 30, 22, 0, 0, 0, time.UTC)},
		}}
	d := orderDetailView(ctx, o)
	if len(d.Journeys) != 2 || d.Journeys[0].Date != "2026-12-25" || d.Journeys[1].Date != "2026-12-30" {
		t.Fatalf("change dates %+v, want 2026-12-25 then 2026-12-30", d.Journeys)
	}
	o.Journeys = nil
	o.Origin, o.DepartAt = "PEK", time.Date(2026, 12, 24, 18, 20, 0, 0, time.UTC)
	if d := orderDetailView(ctx, o); len(d.Journeys) != 1 || d.Journeys[0].Date != "2026-12-25" {
		t.Fatalf("change date without journeys %+v, want 2026-12-25", d.Journeys)
	}
}

// A refund or a change under review has no amount yet: it reads as to be
// confirmed, not as 0.00 (nothing back, or a change for free); once quoted
// the amount shows.
func TestOrderDetailUnderReviewAmount(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLocalizer(context.Background(), i18n.MustLoad(), i18n.EN)
	for _, c := range []struct {
		typ                string
		reviewing, quoted  flight.Status
		amount, wantAmount string
	}{
		{flight.TypeRefund, flight.RfdReviewing, flight.RfdToBeConfirm, "1234.50", "1,234.50"},
		{flight.TypeChange, flight.ChgReviewing, flight.ChgToBePaid, "400.00", "400.00"},
	} {
		o := flight.View{Type: c.typ, Status: c.reviewing, Total: flight.Money{Amount: "0.00", Currency: "CNY"}}
		if d := orderDetailView(ctx, o); !d.AmountPending {
			t.Fatalf("a %s under review with no amount should be pending", c.typ)
		}
		o.Status, o.Total.Amount = c.quoted, c.amount
		if d := orderDetailView(ctx, o); d.AmountPending || d.Total != c.wantAmount {
			t.Fatalf("a quoted %s shows its amount: pending %v total %q", c.typ, d.AmountPending, d.Total)
		}
	}
}

// A change request names the option chosen by its flights (the change
// order's), never by the option's id, which means nothing to the staff who
// read it; a change that named no option has no such row.
func TestOrderDetailChosenOption(t *testing.T) {
	t.Parallel()
	ctx := i18n.WithLocalizer(context.Background(), i18n.MustLoad(), i18n.EN)
	dep := time.Date(2026, 12, 20, 0, 30, 0, 0, time.UTC)
	segs := []shopping.SegmentView{
		{Segment: supplier.Segment{FlightNumber: "CA1501", Origin: "PEK", Destination: "SHA", DepartAt: dep, ArriveAt: dep.Add(2 * time.Hour)}},
		{Segment: supplier.Segment{FlightNumber: "CA1858", Origin: "SHA", Destination: "PEK", DepartAt: dep.Add(72 * time.Hour), ArriveAt: dep.Add(74 * time.Hour)}},
	}
	render := func(req flight.PostSale) string {
		t.Helper()
		o := flight.View{Type: flight.TypeChange, Status: flight.ChgReviewing, Total: flight.Money{Amount: "0.00", Currency: "CNY"},
			Request: &req, Segments: segs}
		var b strings.Builder
		if err := templates.OrderDetailPage(templates.Page{}, orderDetailView(ctx, o)).Render(ctx, &b); err != nil {
			t.Fatal(err)
		}
		return b.String()
	}
	body := render(flight.PostSale{OptionID: "80b14b56688d1ac4"})
	_, option, ok := strings.Cut(body, `id="order-request-option">`)
	option, _, _ = strings.Cut(option, "</dd>")
	if !ok || !strings.Contains(option, "CA1501 PEK → SHA") || !strings.Contains(option, "CA1858 SHA → PEK") ||
		!strings.Contains(option, `datetime="2026-12-20T00:30:00Z"`) {
		t.Errorf("the chosen option reads %q, want its flights with their departures", option)
	}
	if strings.Contains(body, "80b14b56688d1ac4") {
		t.Error("the page shows the option's id")
	}
	if body := render(flight.PostSale{}); strings.Contains(body, "Chosen option") {
		t.Error("a change that named no option shows a chosen option")
	}
	// Chinese separates the flight from its departure with its own comma.
	ctx = i18n.WithLocalizer(context.Background(), i18n.MustLoad(), i18n.ZhCN)
	if body := render(flight.PostSale{OptionID: "80b14b56688d1ac4"}); !strings.Contains(body, "CA1501 PEK → SHA，<time") {
		t.Error("the chosen option in Chinese lacks the Chinese comma before its departure")
	}
}

// The provider's list, and a parent agency's, name each order's agency; an
// agency seeing only its own orders gets no Agency column.
func TestOrderListAgencyColumn(t *testing.T) {
	t.Parallel()
	e := ordersFixture(t)
	cell := func(body, number string) string {
		t.Helper()
		i := strings.Index(body, `>`+number+`</a>`)
		if i < 0 {
			t.Fatalf("list lacks %s", number)
		}
		rest := body[i:]
		j := strings.Index(rest, `class="orders-col-agency"`)
		if j < 0 {
			return ""
		}
		rest = rest[j:]
		rest = rest[strings.Index(rest, ">")+1:]
		return rest[:strings.Index(rest, "<")]
	}
	_, body := e.page(t, "provider", "/flight/orders")
	if !strings.Contains(body, ">Agency</th>") {
		t.Fatal("the provider's list has no Agency column")
	}
	if got := cell(body, "X0006"); got != "Stranger Tours" {
		t.Errorf("X0006 agency %q, want Stranger Tours", got)
	}
	if got := cell(body, "F0001"); got != "Demo Travel" {
		t.Errorf("F0001 agency %q, want Demo Travel", got)
	}
	_, body = e.page(t, "operator", "/flight/orders")
	if got := cell(body, "F0003"); got != "Kowloon Tours" {
		t.Errorf("the parent's list names F0003's agency %q, want Kowloon Tours", got)
	}
	_, body = e.page(t, "operator", "/flight/orders?keyword=F0001")
	if strings.Contains(body, ">Agency</th>") {
		t.Error("a list of the agency's own orders shows an Agency column")
	}
}
