package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/store/storetest"
	"github.com/voyage/voyage/pkg/supplier/duffel"
)

// acceptingDuffel is a fake Duffel that answers an order with 202 Accepted
// (no booking reference yet) and shows it unfinished until the test says
// what the airline did: confirmed (the recorded held order) or declined
// (the order cancelled).
type acceptingDuffel struct {
	srv *httptest.Server
	// outcome: 0 still pending, 1 confirmed, 2 declined.
	outcome atomic.Int32
	mu      sync.Mutex
	creates int
}

const (
	airlinePending int32 = iota
	airlineConfirmed
	airlineDeclined
)

func newAcceptingDuffel(t *testing.T) *acceptingDuffel {
	t.Helper()
	// The recording was made on 2026-05-10; every date moves by the days
	// since, plus a month, so the offer is still valid and the flight ahead.
	recordedOn := time.Date(2026, 5, 10, 0, 0, 0, 0, time.UTC)
	shift := int(time.Since(recordedOn).Hours()/24) + 30
	date := regexp.MustCompile(`20\d\d-\d\d-\d\d`)
	load := func(name string, patch func(map[string]any)) []byte {
		raw, err := os.ReadFile(filepath.Join("..", "supplier", "duffel", "testdata", name))
		if err != nil {
			t.Fatal(err)
		}
		raw = date.ReplaceAllFunc(raw, func(d []byte) []byte {
			day, err := time.Parse(time.DateOnly, string(d))
			if err != nil {
				return d
			}
			return []byte(day.AddDate(0, 0, shift).Format(time.DateOnly))
		})
		if patch == nil {
			return raw
		}
		var doc map[string]any
		if err := json.Unmarshal(raw, &doc); err != nil {
			t.Fatal(err)
		}
		patch(doc["data"].(map[string]any))
		out, err := json.Marshal(doc)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	offer := load("offer.json", nil)
	var recorded struct{ Data json.RawMessage }
	if err := json.Unmarshal(offer, &recorded); err != nil {
		t.Fatal(err)
	}
	search := []byte(`{"data":{"id":"orq_test","offers":[` + string(recorded.Data) + `]}}`)
	accepted := load("order_hold.json", func(o map[string]any) { o["booking_reference"] = nil })
	confirmed := load("order_hold.json", nil)
	declined := load("order_hold.json", func(o map[string]any) { o["cancelled_at"] = time.Now().UTC().Format(time.RFC3339) })
	f := &acceptingDuffel{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body)
		status, body := http.StatusOK, []byte(nil)
		switch route := r.Method + " " + r.URL.Path; {
		case route == "POST /air/offer_requests":
			status, body = http.StatusCreated, search
		case strings.HasPrefix(route, "GET /air/offers/"):
			body = offer
		case route == "GET /air/orders":
			// Booking first looks for an order an earlier attempt made.
			body = []byte(`{"data":[]}`)
		case route == "POST /air/orders":
			f.mu.Lock()
			f.creates++
			f.mu.Unlock()
			status, body = http.StatusAccepted, accepted
		case strings.HasPrefix(route, "GET /air/orders/"):
			body = map[int32][]byte{airlinePending: accepted, airlineConfirmed: confirmed, airlineDeclined: declined}[f.outcome.Load()]
		default:
			t.Errorf("fake Duffel: unexpected %s", route)
			http.NotFound(w, r)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(status)
		_, _ = w.Write(body)
	}))
	t.Cleanup(f.srv.Close)
	return f
}

func (f *acceptingDuffel) ordersCreated() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.creates
}

// pendingDuffelOrder books Duffel's recorded London-New York return trip
// for two adults and a child, as the agency does through the API.
func pendingDuffelOrder(t *testing.T, srv *httptest.Server, token, key string) (*http.Response, envelope) {
	t.Helper()
	return call(t, srv, "POST", "/order/v2/flight/orders", "en", duffelOrderBody(t, srv, token), append(bearer(token), "Idempotency-Key", key)...)
}

// duffelOrderBody searches Duffel's recorded London-New York return trip,
// verifies the first solution Duffel confirms, and is the order request
// booking it for its two adults and a child.
func duffelOrderBody(t *testing.T, srv *httptest.Server, token string) string {
	t.Helper()
	recordedOn := time.Date(2026, 5, 10, 0, 0, 0, 0, time.UTC)
	shift := int(time.Since(recordedOn).Hours()/24) + 30
	out := time.Date(2026, 6, 10, 0, 0, 0, 0, time.UTC).AddDate(0, 0, shift).Format(time.DateOnly)
	back := time.Date(2026, 6, 17, 0, 0, 0, 0, time.UTC).AddDate(0, 0, shift).Format(time.DateOnly)
	_, p := searchAPI(t, srv, token, "en", fmt.Sprintf(`{"journeys":[{"origin":"LHR","destination":"JFK","date":%q},{"origin":"JFK","destination":"LHR","date":%q}],
		"passengers":{"adult":2,"child":1,"infant":0},"cabinClass":"economy","bookingType":"return"}`, out, back))
	if len(p.Items) == 0 {
		t.Fatalf("no Duffel solution: %+v", p.Suppliers)
	}
	var quote string
	for _, sol := range p.Items {
		_, env := call(t, srv, "POST", "/shopping/v2/flight/solutions/"+sol.ID+"/verification", "en", "", bearer(token)...)
		var v struct {
			QuoteID string `json:"quoteId"`
		}
		if err := json.Unmarshal(env.Data, &v); err == nil && env.Code == 0 && v.QuoteID != "" {
			quote = v.QuoteID
			break
		}
		t.Logf("verification of %s: %+v", sol.ID, env)
	}
	if quote == "" {
		t.Fatalf("no verifiable Duffel solution: %+v", p.Suppliers)
	}
	traveller := func(typ, surname, given, gender, birthday, doc string) string {
		return fmt.Sprintf(`{"type":%q,"surname":%q,"givenName":%q,"gender":%q,"birthday":%q,"nationality":"CN","documentType":"passport","documentNumber":%q,"documentExpiry":"2034-01-01"}`,
			typ, surname, given, gender, birthday, doc)
	}
	return fmt.Sprintf(`{"quoteId":%q,"passengers":[%s,%s,%s],
		"contact":{"name":"Zhang Wei","email":"zhang.wei@example.com","phone":"+86 138 0000 0000"},"invoiceType":"Itinerary"}`, quote,
		traveller("adult", "ZHANG", "WEI", "male", "1985-04-02", "E12345678"),
		traveller("adult", "LI", "NA", "female", "1987-09-12", "E12345679"),
		traveller("child", "ZHANG", "XIAOMING", "male", time.Now().AddDate(-7, 0, 0).Format(time.DateOnly), "E12345670"))
}

// withAcceptingDuffel runs test on each engine with Duffel as the only
// supplier, answering 202 and confirming later; Book gives the airline no
// time, so the booking request ends with the order pending.
func withAcceptingDuffel(t *testing.T, test func(t *testing.T, a *app.App, srv *httptest.Server, duffel *acceptingDuffel)) {
	t.Parallel()
	for _, d := range storetest.Engines {
		t.Run(string(d), func(t *testing.T) {
			t.Parallel()
			duffel := newAcceptingDuffel(t)
			a, srv := newSeededApp(t, d, func(c *config.Config) {
				c.Shopping.Sim.Enabled = false
				c.Shopping.Duffel.Token = "duffel_test_k3y"
				c.Shopping.Duffel.BaseURL = duffel.srv.URL
				c.Shopping.Duffel.PendingWait = time.Nanosecond
				c.Shopping.Duffel.WebhookSecret = webhookSecret
			})
			test(t, a, srv, duffel)
		})
	}
}

const webhookSecret = "whsec_pending_test"

// webhook posts a Duffel event about the recorded order, signed with
// secret, and answers the status.
func webhook(t *testing.T, srv *httptest.Server, secret, eventType string) int {
	t.Helper()
	body := []byte(fmt.Sprintf(`{"id":"wev_%s","type":%q,"created_at":%q,"data":{"object":{"id":"ord_0000B7qYk2Lh9dD0Xg3uQa","booking_reference":null}}}`,
		strings.ReplaceAll(eventType, ".", "_"), eventType, time.Now().UTC().Format(time.RFC3339)))
	req := newRequest(t, "POST", srv.URL+"/supplier/v2/duffel/webhook", strings.NewReader(string(body)))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("X-Duffel-Signature", duffel.SignWebhook(secret, body, time.Now()))
	res, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	_ = res.Body.Close()
	return res.StatusCode
}

// orderByAPI reads order id as the agency does.
func orderByAPI(t *testing.T, srv *httptest.Server, token string, id int64) flight.View {
	t.Helper()
	resp, env := call(t, srv, "GET", fmt.Sprintf("/order/v2/flight/orders/%d", id), "en", "", bearer(token)...)
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("read order %d: %d %+v", id, resp.StatusCode, env)
	}
	var v flight.View
	if err := json.Unmarshal(env.Data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// An order the airline has not confirmed within the booking request is
// kept pending at the airline: the agency is told so (API, page in en and
// zh-cn), never that nothing was booked; nothing can be paid or done on it;
// once the airline confirms, the status check moves it to to_be_paid once,
// however many checks run.
func TestDuffelOrderPendingAtTheAirline(t *testing.T) {
	withAcceptingDuffel(t, func(t *testing.T, a *app.App, srv *httptest.Server, duffel *acceptingDuffel) {
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		fund(t, a, op.Company.ID, "500000")
		resp, env := pendingDuffelOrder(t, srv, op.Token, "pending-1")
		if resp.StatusCode != http.StatusCreated || env.Code != 0 {
			t.Fatalf("create: %d %+v, want the order pending at the airline", resp.StatusCode, env)
		}
		var o flight.View
		if err := json.Unmarshal(env.Data, &o); err != nil {
			t.Fatal(err)
		}
		if o.Status != flight.Reviewing || !o.AwaitingAirline || len(o.Actions) != 0 || o.PayBy != nil || o.PNR != "" {
			t.Fatalf("order %s awaiting=%v actions=%v payBy=%v pnr=%q, want reviewing, awaiting the airline, no actions",
				o.Status, o.AwaitingAirline, o.Actions, o.PayBy, o.PNR)
		}
		if n := duffel.ordersCreated(); n != 1 {
			t.Fatalf("Duffel got %d orders, want 1", n)
		}

		web := portalAs(t, srv, op.Token)
		for lang, want := range map[string]string{"en": "The airline has accepted this booking and not confirmed it yet", "zh-cn": "航空公司已受理此预订，尚未确认"} {
			_, body := get(t, web, fmt.Sprintf("%s/flight/orders/%d", srv.URL, o.ID), "Accept-Language", lang)
			if !strings.Contains(body, want) || strings.Contains(body, "Nothing was booked") || strings.Contains(body, "未预订任何航班") {
				t.Errorf("%s page does not say the order is pending at the airline", lang)
			}
			if strings.Contains(body, fmt.Sprintf(`action="/flight/orders/%d/actions/pay"`, o.ID)) {
				t.Errorf("%s page offers to pay an order the airline has not confirmed", lang)
			}
		}
		if code, env := pay(t, srv, op.Token, o.ID, `{"channel":"balance"}`); code != http.StatusConflict || !strings.Contains(env.Message, "pending at the airline") {
			t.Fatalf("pay while pending: %d %+v, want refused", code, env)
		}

		// Still pending: the check fails (to be tried again), nothing moves.
		ctx := context.Background()
		if err := a.Orders.FinishPending(ctx, o.ID); err == nil {
			t.Fatal("status check of an unconfirmed order succeeded")
		}
		// A forged event (another secret) is refused and changes nothing.
		duffel.outcome.Store(airlineConfirmed)
		if code := webhook(t, srv, "not-the-secret", "order.created"); code != http.StatusUnauthorized {
			t.Fatalf("forged webhook: %d, want 401", code)
		}
		if got := orderByAPI(t, srv, op.Token, o.ID); !got.AwaitingAirline || got.Status != flight.Reviewing {
			t.Fatalf("a forged webhook moved the order to %s", got.Status)
		}
		// The genuine event, delivered twice, and status checks side by
		// side: one completion.
		var wg sync.WaitGroup
		errs := make([]error, 2)
		codes := make([]int, 2)
		for i := range errs {
			wg.Add(2)
			go func() { defer wg.Done(); errs[i] = a.Orders.FinishPending(ctx, o.ID) }()
			go func() { defer wg.Done(); codes[i] = webhook(t, srv, webhookSecret, "order.created") }()
		}
		wg.Wait()
		for _, c := range codes {
			if c != http.StatusNoContent {
				t.Fatalf("webhook answered %d, want 204", c)
			}
		}
		for _, err := range errs {
			if err != nil {
				t.Fatal(err)
			}
		}
		got := orderByAPI(t, srv, op.Token, o.ID)
		if got.Status != flight.ToBePaid || got.AwaitingAirline || got.PNR != "K7TQ2P" || got.PayBy == nil {
			t.Fatalf("confirmed order %s awaiting=%v pnr=%q payBy=%v, want to_be_paid with the airline's PNR", got.Status, got.AwaitingAirline, got.PNR, got.PayBy)
		}
		moves := 0
		for _, e := range got.Events {
			if e.FromStatus == string(flight.Reviewing) {
				moves++
			}
		}
		if moves != 1 {
			t.Fatalf("%d moves out of reviewing, want one: %+v", moves, got.Events)
		}
	})
}

// An order the airline declines (Duffel's order.creation_failed) ends as
// origin_failed, and a later check leaves it so.
func TestDuffelOrderDeclinedByTheAirline(t *testing.T) {
	withAcceptingDuffel(t, func(t *testing.T, a *app.App, srv *httptest.Server, duffel *acceptingDuffel) {
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		resp, env := pendingDuffelOrder(t, srv, op.Token, "pending-2")
		if resp.StatusCode != http.StatusCreated {
			t.Fatalf("create: %d %+v", resp.StatusCode, env)
		}
		var o flight.View
		if err := json.Unmarshal(env.Data, &o); err != nil {
			t.Fatal(err)
		}
		// Duffel gave up: its signed event fails the order (the order is
		// no longer found by its id, so only the event can say so).
		if code := webhook(t, srv, webhookSecret, "order.creation_failed"); code != http.StatusNoContent {
			t.Fatalf("webhook: %d", code)
		}
		// A later check leaves the failed order alone.
		duffel.outcome.Store(airlineConfirmed)
		ctx := context.Background()
		if err := a.Orders.FinishPending(ctx, o.ID); err != nil {
			t.Fatal(err)
		}
		got := orderByAPI(t, srv, op.Token, o.ID)
		if got.Status != flight.OriginFailed || got.AwaitingAirline || len(got.Actions) != 0 && got.Actions[0] == flight.ActPay {
			t.Fatalf("declined order %s awaiting=%v actions=%v, want origin_failed", got.Status, got.AwaitingAirline, got.Actions)
		}
	})
}
