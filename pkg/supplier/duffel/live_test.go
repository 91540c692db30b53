package duffel

import (
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

// TestLiveCheck runs search → hold → pay → cancel against Duffel's test
// mode, the one check of the connector against the real API rather than
// recorded answers. Duffel is an external, paid service and no token is
// kept with the code, so it runs only when DUFFEL_TEST_TOKEN holds a test
// token (duffel_test_…) and skips otherwise, CI=true included:
//
//	DUFFEL_TEST_TOKEN=duffel_test_… go test -v -run TestLiveCheck ./pkg/supplier/duffel/
//
// It books Duffel Airways (ZZ), the test airline, one adult a month from
// now, pays the hold from the test balance and cancels the paid order,
// logging each step. A live token is refused: it would buy a real ticket.
func TestLiveCheck(t *testing.T) {
	token := strings.TrimSpace(os.Getenv("DUFFEL_TEST_TOKEN"))
	if token == "" {
		t.Skip("DUFFEL_TEST_TOKEN is not set: Duffel is an external paid service, checked only with a test token")
	}
	if !strings.HasPrefix(token, "duffel_test_") {
		t.Fatal("DUFFEL_TEST_TOKEN is not a test-mode token (duffel_test_…): refusing to book for real")
	}
	c, err := New(Config{Token: token, BaseURL: os.Getenv("DUFFEL_BASE_URL")})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()

	day := time.Now().AddDate(0, 1, 0).Format(time.DateOnly)
	offers, err := c.Search(ctx, supplier.SearchRequest{
		Journeys:   []supplier.JourneyQuery{{Origin: "LHR", Destination: "JFK", Date: day}},
		Passengers: supplier.Passengers{Adult: 1},
		Cabin:      supplier.CabinEconomy,
		Carriers:   []string{"ZZ"},
	})
	if err != nil && len(offers) == 0 {
		t.Fatalf("search: %v", err)
	}
	if len(offers) == 0 {
		t.Fatal("search: Duffel Airways offered nothing LHR-JFK on " + day)
	}
	offer := offers[0]
	for _, o := range offers[1:] {
		if o.Total() < offer.Total() {
			offer = o
		}
	}
	t.Logf("search: %d offers LHR-JFK on %s; cheapest %s at %d %s (documents required: %v)",
		len(offers), day, offer.Ref, offer.Total(), offer.Currency, offer.Restrictions.IdentityDocumentsRequired)

	priced, err := c.Price(ctx, offer, supplier.Passengers{Adult: 1})
	if err != nil {
		t.Fatalf("price: %v", err)
	}
	t.Logf("price: %s", priced.Status)
	if priced.Status != supplier.PriceOK {
		offer = priced.Offer
	}

	traveller := supplier.Traveller{Type: supplier.Adult, Surname: "Earhart", GivenName: "Amelia", Gender: "F",
		Birthday: "1987-07-24", Nationality: "GB", DocumentType: "passport", DocumentNumber: "123456789",
		DocumentExpiry: time.Now().AddDate(5, 0, 0).Format(time.DateOnly), Email: "amelia@example.com", Phone: "+442080160508"}
	b, err := c.Book(ctx, supplier.BookRequest{Offer: offer, Travellers: []supplier.Traveller{traveller},
		Contact: supplier.Contact{Name: "Amelia Earhart", Email: "amelia@example.com", Phone: "020 8016 0508"},
		Key:     "voyage-live-check-" + time.Now().UTC().Format("20060102T150405")})
	if err != nil {
		t.Fatalf("hold: %v", err)
	}
	t.Logf("hold: order %s, PNR %s, %d %s, pay by %s", b.Ref, b.PNR, b.Total, b.Currency, b.TicketBy.Format(time.RFC3339))

	tickets, err := c.Ticket(ctx, b.Ref)
	if err != nil {
		t.Fatalf("pay: %v", err)
	}
	t.Logf("pay: paid from the balance, %d ticket(s): %+v", len(tickets), tickets)

	q, err := c.RefundQuote(ctx, b.Ref)
	if err != nil {
		t.Fatalf("cancel (quote): %v", err)
	}
	t.Logf("cancel: quote %s returns %d %s to %s (credit %d, unknown %v), expires %s",
		q.Ref, q.Refund, q.Currency, q.RefundTo, q.Credit, q.RefundUnknown, q.ExpiresAt.Format(time.RFC3339))
	if err := c.Refund(ctx, b.Ref, q.Ref); err != nil {
		t.Fatalf("cancel (confirm): %v", err)
	}
	t.Logf("cancel: confirmed; order %s cancelled", b.Ref)
}
