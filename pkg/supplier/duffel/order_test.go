package duffel

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

const (
	offerA = "off_0000B7qXvb3PkE2HfC8tZ1"
	offerB = "off_0000B7qXvb3PkE2HfC8tZ2"
	orderA = "ord_0000B7qYk2Lh9dD0Xg3uQa"
)

var travellers = []supplier.Traveller{
	{Type: supplier.Adult, Surname: "Zhang", GivenName: "Wei", Gender: "M", Birthday: "1984-03-02", Nationality: "CN",
		DocumentType: "passport", DocumentNumber: "E12345678", DocumentExpiry: "2031-08-01", Phone: "+86 138 0013 8000",
		FrequentFlyer: "41250987", FFAirline: "BA"},
	{Type: supplier.Adult, Surname: "Chen", GivenName: "Li", Gender: "F", Birthday: "1986-11-19", Nationality: "CN",
		DocumentType: "passport", DocumentNumber: "E87654321", DocumentExpiry: "2030-02-14"},
	{Type: supplier.Child, Surname: "Zhang", GivenName: "Xiaoming", Gender: "M", Birthday: "2018-01-25", Nationality: "CN",
		DocumentType: "passport", DocumentNumber: "E11223344", DocumentExpiry: "2028-01-24"},
}

var contact = supplier.Contact{Name: "Wei Zhang", Email: "wei.zhang@example.com", Phone: "+8613800138000"}

// wantErr checks that err is want (errors.Is), or nil when want is.
func wantErr(t *testing.T, err, want error) {
	t.Helper()
	if !errors.Is(err, want) || (want == nil && err != nil) {
		t.Fatalf("err = %v, want %v", err, want)
	}
}

func heldOffer(t *testing.T, file string) supplier.Offer {
	t.Helper()
	o, err := mapOffer([]wireOffer{wireOfferFile(t, file)})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func TestBookHoldOrder(t *testing.T) {
	f := newFake(t).
		on("GET /air/offers/"+offerA, reply{file: "offer.json"}).
		on("POST /air/orders", reply{status: http.StatusCreated, file: "order_hold.json"})
	c := newTestClient(t, f, Config{})

	b, err := c.Book(context.Background(), supplier.BookRequest{
		Offer: heldOffer(t, "offer.json"), Travellers: travellers, Contact: contact, Key: "bk-2026-05-10-0001",
	})
	if err != nil {
		t.Fatal(err)
	}
	want := supplier.Booking{
		Supplier: "duffel", Ref: orderA, PNR: "K7TQ2P", Total: 204587, Currency: "GBP",
		TicketBy: time.Date(2026, 5, 12, 17, 0, 0, 0, time.UTC),
	}
	if !reflect.DeepEqual(b, want) {
		t.Errorf("booking %+v, want %+v", b, want)
	}

	reqs := f.requests("POST /air/orders")
	if len(reqs) != 1 {
		t.Fatalf("%d orders created", len(reqs))
	}
	data := reqs[0].body["data"].(map[string]any)
	if data["type"] != "hold" || data["payments"] != nil {
		t.Errorf("type %v payments %v", data["type"], data["payments"])
	}
	if !reflect.DeepEqual(data["selected_offers"], []any{offerA}) {
		t.Errorf("selected_offers %v", data["selected_offers"])
	}
	if !reflect.DeepEqual(data["metadata"], map[string]any{"voyage_key": "bk-2026-05-10-0001", "voyage_total": "2045.87 GBP"}) {
		t.Errorf("metadata %v", data["metadata"])
	}
	pax := data["passengers"].([]any)
	first := pax[0].(map[string]any)
	wantFirst := map[string]any{
		"id": "pas_0000B7qXvTnEwNq4yq5Xa1", "title": "mr", "given_name": "Wei", "family_name": "Zhang",
		"gender": "m", "born_on": "1984-03-02", "email": "wei.zhang@example.com", "phone_number": "+8613800138000",
		"identity_documents": []any{map[string]any{"type": "passport", "unique_identifier": "E12345678",
			"issuing_country_code": "CN", "expires_on": "2031-08-01"}},
		"loyalty_programme_accounts": []any{map[string]any{"airline_iata_code": "BA", "account_number": "41250987"}},
	}
	if !reflect.DeepEqual(first, wantFirst) {
		t.Errorf("first passenger\n%v\nwant\n%v", first, wantFirst)
	}
	second, third := pax[1].(map[string]any), pax[2].(map[string]any)
	if second["id"] != "pas_0000B7qXvTnEwNq4yq5Xa2" || second["title"] != "ms" || second["gender"] != "f" {
		t.Errorf("second passenger %v", second)
	}
	if third["id"] != "pas_0000B7qXvTnEwNq4yq5Xc1" || third["born_on"] != "2018-01-25" {
		t.Errorf("child %v", third)
	}
}

func TestBookInstantWhenOfferCannotBeHeld(t *testing.T) {
	f := newFake(t).
		on("GET /air/offers/"+offerB, reply{file: "offer_instant.json"}).
		onFunc("POST /air/orders", func(recorded) reply {
			return reply{status: http.StatusCreated, body: patched(t, "order_ticketed.json", func(o map[string]any) {
				o["total_amount"], o["booking_reference"] = "1698.00", "EI4Q7Z"
			})}
		})
	c := newTestClient(t, f, Config{})
	b, err := c.Book(context.Background(), supplier.BookRequest{Offer: heldOffer(t, "offer_instant.json"), Travellers: travellers, Contact: contact})
	if err != nil {
		t.Fatal(err)
	}
	if b.PNR != "EI4Q7Z" || b.Total != 169800 || !b.TicketBy.IsZero() {
		t.Errorf("booking %+v", b)
	}
	data := f.requests("POST /air/orders")[0].body["data"].(map[string]any)
	if data["type"] != "instant" {
		t.Errorf("type %v", data["type"])
	}
	wantPay := []any{map[string]any{"type": "balance", "amount": "1698.00", "currency": "GBP"}}
	if !reflect.DeepEqual(data["payments"], wantPay) {
		t.Errorf("payments %v", data["payments"])
	}
	// The offer takes no identity documents: none are sent.
	if _, ok := data["passengers"].([]any)[0].(map[string]any)["identity_documents"]; ok {
		t.Error("identity documents sent for an offer that takes none")
	}
}

func TestBookRefusesMovedPrice(t *testing.T) {
	f := newFake(t).on("GET /air/offers/"+offerA, reply{body: patched(t, "offer.json", func(o map[string]any) {
		o["total_amount"], o["base_amount"] = "2101.87", "1566.00"
	})})
	c := newTestClient(t, f, Config{})
	_, err := c.bookHeld(t, travellers)
	wantErr(t, err, supplier.ErrOfferGone)
	f.wantSent(t, "POST /air/orders", 0, "orders created")
}

func TestBookValidationErrorRejected(t *testing.T) {
	f := newFake(t).
		on("GET /air/offers/"+offerA, reply{file: "offer.json"}).
		on("POST /air/orders", reply{status: http.StatusUnprocessableEntity, file: "error_validation.json"})
	c := newTestClient(t, f, Config{})
	_, err := c.bookHeld(t, travellers)
	wantErr(t, err, supplier.ErrRejected)
	var de *Error
	if !errors.As(err, &de) {
		t.Fatalf("err %T is not a *duffel.Error", err)
	}
	if de.Code != "invalid_phone_number" || de.RequestID != "Fq4mS0aP2nB7kEwAAAJh" ||
		de.Message != "phone_number must be an E.164 number such as +8613800138000" {
		t.Errorf("error %+v", de)
	}
	f.wantSent(t, "POST /air/orders", 1, "orders sent (a rejected one is not sent again)")
}

func TestTicketPaysHeldOrder(t *testing.T) {
	f := newFake(t).
		on("GET /air/orders/"+orderA, reply{file: "order_hold.json"}, reply{file: "order_ticketed.json"}).
		on("POST /air/payments", reply{status: http.StatusCreated, file: "payment.json"})
	c := newTestClient(t, f, Config{})

	tickets, err := c.Ticket(context.Background(), orderA)
	if err != nil {
		t.Fatal(err)
	}
	want := []supplier.Ticket{{Traveller: 0, Number: "1252148830271"}, {Traveller: 1, Number: "1252148830272"}, {Traveller: 2, Number: "1252148830273"}}
	if !reflect.DeepEqual(tickets, want) {
		t.Errorf("tickets %+v", tickets)
	}
	pays := f.requests("POST /air/payments")
	if len(pays) != 1 {
		t.Fatalf("%d payments", len(pays))
	}
	wantPay := map[string]any{"data": map[string]any{"order_id": orderA,
		"payment": map[string]any{"type": "balance", "amount": "2045.87", "currency": "GBP"}}}
	if !reflect.DeepEqual(pays[0].body, wantPay) {
		t.Errorf("payment %v", pays[0].body)
	}

	// Again: the order is paid now, so it is not paid twice.
	if _, err := c.Ticket(context.Background(), orderA); err != nil {
		t.Fatal(err)
	}
	f.wantSent(t, "POST /air/payments", 1, "payments after ticketing twice")
}

func TestTicketUnknownOrder(t *testing.T) {
	c := newTestClient(t, newFake(t), Config{})
	_, err := c.Ticket(context.Background(), "ord_0000Nope")
	wantErr(t, err, supplier.ErrNotFound)
}

func TestCancelHeldOrder(t *testing.T) {
	f := newFake(t).
		on("GET /air/orders/"+orderA, reply{file: "order_hold.json"}).
		on("POST /air/order_cancellations", reply{status: http.StatusCreated, body: patched(t, "order_cancellation.json", func(o map[string]any) {
			o["refund_amount"] = "0.00"
		})}).
		on("POST /air/order_cancellations/ore_0000B7qZc8nGmWq1sLr5Tz/actions/confirm", reply{file: "order_cancellation_confirmed.json"})
	c := newTestClient(t, f, Config{})
	if err := c.Cancel(context.Background(), orderA); err != nil {
		t.Fatal(err)
	}
	created := f.requests("POST /air/order_cancellations")
	if len(created) != 1 || !reflect.DeepEqual(created[0].body, map[string]any{"data": map[string]any{"order_id": orderA}}) {
		t.Errorf("cancellation requests %+v", created)
	}
	f.wantSent(t, "POST /air/order_cancellations/ore_0000B7qZc8nGmWq1sLr5Tz/actions/confirm", 1, "cancellation confirmations")
}

func TestCancelTicketedOrderRefused(t *testing.T) {
	f := newFake(t).on("GET /air/orders/"+orderA, reply{file: "order_ticketed.json"})
	c := newTestClient(t, f, Config{})
	wantErr(t, c.Cancel(context.Background(), orderA), supplier.ErrRejected)
	f.wantSent(t, "POST /air/order_cancellations", 0, "cancellation quotes of a ticketed order")
}

func TestRefundQuoteAndConfirm(t *testing.T) {
	const confirm = "POST /air/order_cancellations/ore_0000B7qZc8nGmWq1sLr5Tz/actions/confirm"
	f := newFake(t).
		on("GET /air/orders/"+orderA, reply{file: "order_ticketed.json"}).
		on("POST /air/order_cancellations", reply{status: http.StatusCreated, file: "order_cancellation.json"}).
		on("GET /air/order_cancellations/ore_0000B7qZc8nGmWq1sLr5Tz", reply{file: "order_cancellation.json"}, reply{file: "order_cancellation_confirmed.json"}).
		on("GET /air/order_cancellations", reply{body: listOf(t, "order_cancellation.json")}).
		on(confirm, reply{file: "order_cancellation_confirmed.json"})
	c := newTestClient(t, f, Config{})

	q, err := c.RefundQuote(context.Background(), orderA)
	if err != nil {
		t.Fatal(err)
	}
	want := supplier.Quote{Ref: "ore_0000B7qZc8nGmWq1sLr5Tz", Refund: 189587, RefundTo: supplier.RefundToBalance, Fee: 15000, Currency: "GBP",
		ExpiresAt: time.Date(2026, 5, 10, 10, 50, 2, 0, time.UTC)}
	if !reflect.DeepEqual(q, want) {
		t.Errorf("quote %+v, want %+v", q, want)
	}
	if len(f.requests(confirm)) != 0 {
		t.Fatal("quoting confirmed the cancellation")
	}

	if err := c.Refund(context.Background(), orderA, q.Ref); err != nil {
		t.Fatal(err)
	}
	if len(f.requests(confirm)) != 1 {
		t.Fatal("refund not confirmed")
	}
	// Confirming again finds it confirmed and does nothing.
	if err := c.Refund(context.Background(), orderA, q.Ref); err != nil {
		t.Fatal(err)
	}
	f.wantSent(t, confirm, 1, "refund confirmations")
}

func TestRefundChecksQuote(t *testing.T) {
	tests := []struct {
		name  string
		order string
		quote []byte
	}{
		{"other order", "ord_0000SomethingElse", readFile(t, "order_cancellation.json")},
		{"expired", orderA, patched(t, "order_cancellation.json", func(o map[string]any) { o["expires_at"] = "2026-05-10T10:04:00Z" })},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t).on("GET /air/order_cancellations/ore_0000B7qZc8nGmWq1sLr5Tz", reply{body: tc.quote})
			c := newTestClient(t, f, Config{})
			wantErr(t, c.Refund(context.Background(), tc.order, "ore_0000B7qZc8nGmWq1sLr5Tz"), supplier.ErrRejected)
			f.wantSent(t, "POST /air/order_cancellations/ore_0000B7qZc8nGmWq1sLr5Tz/actions/confirm", 0, "confirmations")
		})
	}
}

func TestVoid(t *testing.T) {
	const confirm = "POST /air/order_cancellations/ore_0000B7qZc8nGmWq1sLr5Tz/actions/confirm"
	tests := []struct {
		name      string
		refund    string
		wantErr   error
		confirmed int
	}{
		{"full refund inside the void window", "2045.87", nil, 1},
		{"partial refund: window passed", "1895.87", supplier.ErrRejected, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			f := newFake(t).
				on("GET /air/orders/"+orderA, reply{file: "order_ticketed.json"}).
				on("POST /air/order_cancellations", reply{status: http.StatusCreated, body: patched(t, "order_cancellation.json", func(o map[string]any) {
					o["refund_amount"] = tc.refund
				})}).
				on(confirm, reply{file: "order_cancellation_confirmed.json"})
			c := newTestClient(t, f, Config{})
			err := c.Void(context.Background(), orderA)
			wantErr(t, err, tc.wantErr)
			f.wantSent(t, confirm, tc.confirmed, "confirmations")
		})
	}
}

func TestChangeQuotesAndChange(t *testing.T) {
	f := newFake(t).
		on("GET /air/orders/"+orderA, reply{file: "order_ticketed.json"}, reply{file: "order_changed.json"}).
		on("POST /air/order_change_requests", reply{status: http.StatusCreated, file: "order_change_request.json"}).
		on("POST /air/order_changes", reply{status: http.StatusCreated, file: "order_change.json"}).
		on("POST /air/order_changes/oce_0000B7qZkTq2xM3dYwB8r4/actions/confirm", reply{file: "order_change_confirmed.json"})
	c := newTestClient(t, f, Config{})

	// Fly out on the 12th instead of the 10th; keep the way back.
	journeys := []supplier.JourneyQuery{
		{Origin: "LON", Destination: "NYC", Date: "2026-06-12"},
		{Origin: "JFK", Destination: "LHR", Date: "2026-06-17"},
	}
	quotes, err := c.ChangeQuotes(context.Background(), orderA, journeys)
	if err != nil {
		t.Fatal(err)
	}
	body := f.requests("POST /air/order_change_requests")[0].body
	wantBody := map[string]any{"data": map[string]any{
		"order_id": orderA,
		"slices": map[string]any{
			"remove": []any{map[string]any{"slice_id": "sli_0000B7qXvbAk1Rr2bTq0Ba"}},
			"add":    []any{map[string]any{"origin": "LON", "destination": "NYC", "departure_date": "2026-06-12", "cabin_class": "economy"}},
		},
	}}
	if !reflect.DeepEqual(body, wantBody) {
		t.Errorf("change request\n%v\nwant\n%v", body, wantBody)
	}
	if len(quotes) != 2 {
		t.Fatalf("%d quotes", len(quotes))
	}
	expires := time.Date(2026, 5, 10, 10, 50, 4, 907310000, time.UTC)
	// 120.00 in all, of which 45.00 is the airline's penalty.
	q := quotes[0]
	if q.Ref != "oco_0000B7qZhQx0dOc1VnRkA1" || q.Due != 7500 || q.Fee != 4500 || q.Refund != 0 || q.Currency != "GBP" || !q.ExpiresAt.Equal(expires) {
		t.Errorf("first quote %+v", q)
	}
	// The cheaper flight refunds 35.50.
	if q2 := quotes[1]; q2.Refund != 3550 || q2.Due != 0 || q2.Fee != 0 {
		t.Errorf("second quote %+v", q2)
	}
	o := q.Offer
	if o == nil || len(o.Segments) != 2 || o.Total() != 216587 {
		t.Fatalf("new itinerary %+v", o)
	}
	london, _ := time.LoadLocation("Europe/London")
	if s := o.Segments[0]; s.FlightNumber != "BA117" || !s.DepartAt.Equal(time.Date(2026, 6, 12, 8, 20, 0, 0, london)) {
		t.Errorf("new outbound %+v", s)
	}
	if s := o.Segments[1]; s.FlightNumber != "BA112" {
		t.Errorf("kept inbound %+v", s)
	}

	b, err := c.Change(context.Background(), orderA, q.Ref)
	if err != nil {
		t.Fatal(err)
	}
	if b.Ref != orderA || b.PNR != "K7TQ2P" || b.Total != 216587 {
		t.Errorf("booking after change %+v", b)
	}
	created := f.requests("POST /air/order_changes")[0].body
	if !reflect.DeepEqual(created, map[string]any{"data": map[string]any{"selected_order_change_offer": q.Ref}}) {
		t.Errorf("order change %v", created)
	}
	confirmed := f.requests("POST /air/order_changes/oce_0000B7qZkTq2xM3dYwB8r4/actions/confirm")[0].body
	wantConfirm := map[string]any{"data": map[string]any{"payment": map[string]any{"type": "balance", "amount": "120.00", "currency": "GBP"}}}
	if !reflect.DeepEqual(confirmed, wantConfirm) {
		t.Errorf("confirm %v", confirmed)
	}
}

func TestChangeQuotesNothingToChange(t *testing.T) {
	f := newFake(t).on("GET /air/orders/"+orderA, reply{file: "order_ticketed.json"})
	c := newTestClient(t, f, Config{})
	_, err := c.ChangeQuotes(context.Background(), orderA, []supplier.JourneyQuery{
		{Origin: "LHR", Destination: "JFK", Date: "2026-06-10"},
		{Origin: "JFK", Destination: "LHR", Date: "2026-06-17"},
	})
	wantErr(t, err, supplier.ErrRejected)
}
