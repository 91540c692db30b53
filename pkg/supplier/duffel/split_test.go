package duffel

import (
	"context"
	"errors"
	"net/http"
	"reflect"
	"testing"

	"github.com/voyage/voyage/pkg/supplier"
)

const (
	splitOut  = "off_0000B7qXvSpL1tOutWa001"
	splitBack = "off_0000B7qXvSpL1tBckWa002"
	splitRef2 = splitOut + "+" + splitBack
)

// splitFake answers the usual search, the itineraries view with split
// tickets, and the two one-way offers.
func splitFake(t *testing.T) *fakeDuffel {
	return newFake(t).
		onFunc("POST /air/offer_requests", func(r recorded) reply {
			if r.query["view"] != nil {
				return reply{status: http.StatusCreated, file: "offer_request_itineraries.json"}
			}
			return reply{status: http.StatusCreated, file: "offer_request_return.json"}
		}).
		on("GET /air/offers/"+splitOut, reply{file: "offer_split_out.json"}).
		on("GET /air/offers/"+splitBack, reply{file: "offer_split_back.json"})
}

func TestSearchSplitTickets(t *testing.T) {
	f := splitFake(t)
	c := newTestClient(t, f, Config{SplitTickets: true})
	offers, err := c.Search(context.Background(), returnSearch)
	if err != nil {
		t.Fatal(err)
	}
	if len(offers) != 3 {
		t.Fatalf("%d offers, want 2 single tickets and 1 split", len(offers))
	}
	var split *supplier.Offer
	for i := range offers {
		if offers[i].Ref == splitRef2 {
			split = &offers[i]
		}
	}
	if split == nil {
		t.Fatalf("no split-ticket offer %s among %v", splitRef2, offers)
	}

	var viewReq *recorded
	for _, r := range f.requests("POST /air/offer_requests") {
		if r.query["view"] != nil {
			viewReq = &r
		}
	}
	if viewReq == nil || viewReq.query["view"][0] != "itineraries" || viewReq.body["data"].(map[string]any)["include_split_ticket"] != true {
		t.Fatalf("split search request %+v", viewReq)
	}

	// Outbound Aer Lingus 615.40 + inbound British Airways 702.15 (the
	// cheaper of the two inbound split offers), per traveller to the cent.
	if split.Total() != 131755 {
		t.Errorf("total %d, want 131755", split.Total())
	}
	wantFares := []supplier.PaxFare{
		{Type: supplier.Adult, Count: 1, Base: 33000, Taxes: 10919},
		{Type: supplier.Adult, Count: 1, Base: 33000, Taxes: 10918},
		{Type: supplier.Child, Count: 1, Base: 33000, Taxes: 10918},
	}
	if !reflect.DeepEqual(split.Fares, wantFares) {
		t.Errorf("fares %+v", split.Fares)
	}
	if !reflect.DeepEqual(split.Journeys, [][]int{{0, 1}, {2}}) || split.Segments[2].FlightNumber != "BA112" {
		t.Errorf("journeys %v segments %+v", split.Journeys, split.Segments)
	}
	// The outbound ticket cannot be refunded, so neither can the trip;
	// the change fees add up: 60.00/3 + 30.00/3.
	if split.Conditions != (supplier.Conditions{Changeable: true, ChangeFee: 3000}) {
		t.Errorf("conditions %+v", split.Conditions)
	}
}

func TestSplitTicketsNeedMoreThanOneJourney(t *testing.T) {
	f := splitFake(t)
	c := newTestClient(t, f, Config{SplitTickets: true})
	req := returnSearch
	req.Journeys = req.Journeys[:1]
	if _, err := c.Search(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	f.wantSent(t, "POST /air/offer_requests", 1, "offer requests for a one-way search")
}

func splitOrder(t *testing.T, id, pnr, total string) []byte {
	return patched(t, "order_hold.json", func(o map[string]any) {
		o["id"], o["booking_reference"], o["total_amount"] = id, pnr, total
	})
}

func TestBookSplitTicketsMakesOneOrderPerPart(t *testing.T) {
	f := splitFake(t).onFunc("POST /air/orders", func(r recorded) reply {
		offer := r.body["data"].(map[string]any)["selected_offers"].([]any)[0]
		if offer == splitOut {
			return reply{status: http.StatusCreated, body: splitOrder(t, "ord_0000SplitOut", "EIX7QA", "615.40")}
		}
		return reply{status: http.StatusCreated, body: splitOrder(t, "ord_0000SplitBack", "BAY2RT", "702.15")}
	})
	c := newTestClient(t, f, Config{SplitTickets: true})
	parts := []wireOffer{wireOfferFile(t, "offer_split_out.json"), wireOfferFile(t, "offer_split_back.json")}
	offer, err := mapOffer(parts)
	if err != nil {
		t.Fatal(err)
	}
	b, err := c.Book(context.Background(), supplier.BookRequest{Offer: offer, Travellers: travellers, Contact: contact, Key: "bk-split-1"})
	if err != nil {
		t.Fatal(err)
	}
	if b.Ref != "ord_0000SplitOut+ord_0000SplitBack" || b.PNR != "EIX7QA/BAY2RT" || b.Total != 131755 {
		t.Errorf("booking %+v", b)
	}
	orders := f.requests("POST /air/orders")
	if len(orders) != 2 {
		t.Fatalf("%d orders", len(orders))
	}
	meta := orders[1].body["data"].(map[string]any)["metadata"]
	if !reflect.DeepEqual(meta, map[string]any{"voyage_key": "bk-split-1", "voyage_part": "2/2", "voyage_total": "702.15 GBP"}) {
		t.Errorf("metadata %v", meta)
	}
}

func TestBookSplitTicketsCancelsFirstWhenSecondFails(t *testing.T) {
	f := splitFake(t).
		onFunc("POST /air/orders", func(r recorded) reply {
			if r.body["data"].(map[string]any)["selected_offers"].([]any)[0] == splitOut {
				return reply{status: http.StatusCreated, body: splitOrder(t, "ord_0000SplitOut", "EIX7QA", "615.40")}
			}
			return reply{status: http.StatusUnprocessableEntity, file: "error_offer_gone.json"}
		}).
		on("POST /air/order_cancellations", reply{status: http.StatusCreated, body: patched(t, "order_cancellation.json", func(o map[string]any) {
			o["order_id"], o["refund_amount"] = "ord_0000SplitOut", "0.00"
		})}).
		on("POST /air/order_cancellations/ore_0000B7qZc8nGmWq1sLr5Tz/actions/confirm", reply{file: "order_cancellation_confirmed.json"})
	c := newTestClient(t, f, Config{SplitTickets: true})
	offer, err := mapOffer([]wireOffer{wireOfferFile(t, "offer_split_out.json"), wireOfferFile(t, "offer_split_back.json")})
	if err != nil {
		t.Fatal(err)
	}
	_, err = c.Book(context.Background(), supplier.BookRequest{Offer: offer, Travellers: travellers, Contact: contact})
	wantErr(t, err, supplier.ErrOfferGone)
	created := f.requests("POST /air/order_cancellations")
	if len(created) != 1 || created[0].body["data"].(map[string]any)["order_id"] != "ord_0000SplitOut" {
		t.Fatalf("cancellations %+v", created)
	}
	f.wantSent(t, "POST /air/order_cancellations/ore_0000B7qZc8nGmWq1sLr5Tz/actions/confirm", 1, "releases of the first order")
}

func TestChangeSplitTicketsNotSupported(t *testing.T) {
	c := newTestClient(t, newFake(t), Config{})
	if _, err := c.ChangeQuotes(context.Background(), "ord_A+ord_B", returnSearch.Journeys); !errors.Is(err, supplier.ErrNotSupported) {
		t.Errorf("ChangeQuotes err = %v", err)
	}
	if _, err := c.Change(context.Background(), "ord_A+ord_B", "oco_X"); !errors.Is(err, supplier.ErrNotSupported) {
		t.Errorf("Change err = %v", err)
	}
}
