package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier/rail"
	"github.com/voyage/voyage/pkg/train"
)

// chinaDate is a date n days from today in China (the railway's calendar).
func chinaDate(n int) string {
	return time.Now().In(time.FixedZone("CST", 8*3600)).AddDate(0, 0, n).Format(time.DateOnly)
}

func trainSearch(t *testing.T, srv *httptest.Server, token, lang, body string) (*http.Response, envelope, train.SearchResult) {
	t.Helper()
	resp, env := call(t, srv, "POST", "/shopping/v2/train/search", lang, body, bearer(token)...)
	var res train.SearchResult
	_ = json.Unmarshal(env.Data, &res)
	return resp, env, res
}

// secondClassOffer searches Beijing South → Shanghai Hongqiao days ahead
// and answers the first G train with n second-class seats left.
func secondClassOffer(t *testing.T, srv *httptest.Server, token string, days, n int) train.OfferView {
	t.Helper()
	resp, env, res := trainSearch(t, srv, token, "en", fmt.Sprintf(`{"origin":"VNP","destination":"AOH","date":%q,"passengers":{"adult":%d}}`, chinaDate(days), n))
	if resp.StatusCode != 200 || len(res.Items) == 0 {
		t.Fatalf("search: %d %+v", resp.StatusCode, env)
	}
	for _, o := range res.Items {
		if o.TrainType != "G" {
			continue
		}
		for _, s := range o.Seats {
			if s.Class == rail.ClassSecond && s.Available >= n {
				return o
			}
		}
	}
	t.Fatal("no G train with second class seats")
	return train.OfferView{}
}

// Passengers: a resident ID card (valid GB 11643 check digit) and a passport.
const twoPassengers = `[
 {"type":"adult","surname":"张","givenName":"伟","gender":"male","birthday":"1949-12-31","nationality":"CN","documentType":"id_card","documentNumber":"11010519491231002X","seatLetter":"F"},
 {"type":"adult","surname":"SMITH","givenName":"ANNA","gender":"female","birthday":"1990-02-03","nationality":"GB","documentType":"passport","documentNumber":"E12345678"}]`

const trainContact = `{"name":"Zhang Wei","email":"zhang.wei@example.com","phone":"+86 138 0000 0000"}`

func bookTrain(t *testing.T, srv *httptest.Server, token, offerID, passengers, key string) (*http.Response, envelope, train.View) {
	t.Helper()
	body := fmt.Sprintf(`{"offerId":%q,"seatClass":"second","passengers":%s,"contact":%s}`, offerID, passengers, trainContact)
	resp, env := call(t, srv, "POST", "/order/v2/train/orders", "en", body, append(bearer(token), "Idempotency-Key", key)...)
	var v train.View
	_ = json.Unmarshal(env.Data, &v)
	return resp, env, v
}

func trainOrder(t *testing.T, srv *httptest.Server, token string, id int64) (int, train.View) {
	t.Helper()
	resp, env := call(t, srv, "GET", fmt.Sprintf("/order/v2/train/orders/%d", id), "en", "", bearer(token)...)
	var v train.View
	_ = json.Unmarshal(env.Data, &v)
	return resp.StatusCode, v
}

func waitTrain(t *testing.T, srv *httptest.Server, token string, id int64, want train.Status) train.View {
	t.Helper()
	var v train.View
	until(t, 30*time.Second, func() error {
		if _, v = trainOrder(t, srv, token, id); v.Status != want {
			return fmt.Errorf("train order %d stayed %s, want %s", id, v.Status, want)
		}
		return nil
	})
	return v
}

func payTrain(t *testing.T, srv *httptest.Server, token string, id int64, key string) (*http.Response, envelope, train.View) {
	t.Helper()
	resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/payment", id), "en", `{"channel":"balance"}`,
		append(bearer(token), "Idempotency-Key", key)...)
	var v train.View
	_ = json.Unmarshal(env.Data, &v)
	return resp, env, v
}

func agencyID(t *testing.T, a *app.App, name string) int64 {
	t.Helper()
	var id int64
	if err := a.DB.GetContext(context.Background(), &id, a.DB.Rebind(`SELECT id FROM agencies WHERE name = ?`), name); err != nil {
		t.Fatal(err)
	}
	return id
}

// fundedTrainAgent tops Demo Travel's wallet up by amount and logs
// demo-operator in: the agency, its wallet after the top-up and the
// operator's token, where most train tests start.
func fundedTrainAgent(t *testing.T, a *app.App, srv *httptest.Server, amount string) (demo, start int64, op string) {
	t.Helper()
	demo = agencyID(t, a, "Demo Travel")
	fund(t, a, demo, amount)
	return demo, walletMinor(t, a, demo), loginAs(t, srv, "demo-operator", "demo-pass-1").Token
}

// trainEntries are the agency's CNY wallet entries of a booking.
func trainEntries(t *testing.T, a *app.App, agency int64, booking string) []ledger.Entry {
	t.Helper()
	entries, _, err := a.Ledger.Entries(context.Background(), agency, ledger.EntryFilter{Currency: "CNY", OrderID: booking, Page: 1, PageSize: 100})
	if err != nil {
		t.Fatal(err)
	}
	return entries
}

// TestTrainBookingLifecycle is the done-when: search Beijing →
// Shanghai, book two passengers in second class, pay, issued with coach and
// seat each, refund one passenger with the railway's fee, and the wallet
// and the ledger agree.
func TestTrainBookingLifecycle(t *testing.T) {
	seededWithJobs(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		demo, start, op := fundedTrainAgent(t, a, srv, "10000.00")

		resp, env := call(t, srv, "GET", "/shopping/v2/train/stations?q=beijingnan", "zh-cn", "", bearer(op)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"code":"VNP","name":"北京南"`) {
			t.Fatalf("stations: %d %s", resp.StatusCode, env.Data)
		}

		resp, env = call(t, srv, "GET", "/shopping/v2/train/config", "en", "", bearer(op)...)
		if first, last := chinaDate(0), chinaDate(14); resp.StatusCode != 200 ||
			!strings.Contains(string(env.Data), fmt.Sprintf(`"salesFrom":%q,"salesTo":%q`, first, last)) {
			t.Errorf("config: %d %s", resp.StatusCode, env.Data)
		}

		offer := secondClassOffer(t, srv, op, 3, 2)
		if offer.ExpiresAt.Sub(time.Now()) > 15*time.Minute+time.Second || offer.DurationMinutes <= 0 || len(offer.Stops) < 2 {
			t.Fatalf("offer: %+v", offer)
		}
		resp, env, v := bookTrain(t, srv, op, offer.ID, twoPassengers, "train-book-1")
		if resp.StatusCode != 201 || v.Status != train.ToBePaid || v.HoldExpiresAt == nil || v.TrainNumber != offer.TrainNumber || len(v.Passengers) != 2 {
			t.Fatalf("create: %d %+v", resp.StatusCode, env)
		}
		if hold := time.Until(*v.HoldExpiresAt); hold < 25*time.Minute || hold > 31*time.Minute {
			t.Errorf("hold expires in %s, want the railway's 30 minutes", hold)
		}
		if !contains(v.Actions, train.ActPay) || !contains(v.Actions, train.ActCancel) {
			t.Errorf("actions to be paid: %v", v.Actions)
		}
		// The first stop has no arrival and the last no departure: absent,
		// never the year-1 time, in the order's API (each language alike).
		for _, lang := range []string{"en", "zh-cn"} {
			resp, env := call(t, srv, "GET", fmt.Sprintf("/order/v2/train/orders/%d", v.ID), lang, "", bearer(op)...)
			var got struct {
				Stops []map[string]any `json:"stops"`
			}
			_ = json.Unmarshal(env.Data, &got)
			stops := got.Stops
			if resp.StatusCode != 200 || strings.Contains(string(env.Data), "0001-01-01") || len(stops) < 2 {
				t.Fatalf("%s: order with year-1 times or no stops: %d %s", lang, resp.StatusCode, env.Data)
			}
			if _, ok := stops[0]["arrive"]; ok {
				t.Errorf("%s: the first stop has an arrival: %v", lang, stops[0])
			}
			if _, ok := stops[len(stops)-1]["depart"]; ok {
				t.Errorf("%s: the last stop has a departure: %v", lang, stops[len(stops)-1])
			}
			if _, ok := stops[0]["depart"]; !ok {
				t.Errorf("%s: the first stop has no departure: %v", lang, stops[0])
			}
		}
		_, _, again := bookTrain(t, srv, op, offer.ID, twoPassengers, "train-book-1")
		if again.ID != v.ID {
			t.Fatalf("replayed create made order %d, want %d", again.ID, v.ID)
		}
		total := parseCNY(t, v.Total)
		if walletMinor(t, a, demo) != start {
			t.Fatal("booking charged the wallet before payment")
		}

		resp, env, paid := payTrain(t, srv, op, v.ID, "train-pay-1")
		if resp.StatusCode != 200 || paid.Status != train.Proceeding {
			t.Fatalf("pay: %d %+v", resp.StatusCode, env)
		}
		resp, _, replay := payTrain(t, srv, op, v.ID, "train-pay-1")
		if resp.StatusCode != 200 || replay.ID != v.ID {
			t.Fatalf("pay replay: %d %+v", resp.StatusCode, replay)
		}
		if got := walletMinor(t, a, demo); got != start-total {
			t.Fatalf("wallet after pay (and its replay) = %d, want %d", got, start-total)
		}
		if resp, env, _ := payTrain(t, srv, op, v.ID, "train-pay-other"); resp.StatusCode != 409 || env.Code != 100009 {
			t.Errorf("second payment with another key: %d %+v", resp.StatusCode, env)
		}

		issued := waitTrain(t, srv, op, v.ID, train.Issued)
		if len(issued.Tickets) != 2 {
			t.Fatalf("tickets: %+v", issued.Tickets)
		}
		var fare2 int64
		var depart time.Time
		for _, tk := range issued.Tickets {
			if tk.Coach == "" || tk.Seat == "" || tk.Number == "" || tk.Status != train.TicketIssued || tk.TrainNumber != offer.TrainNumber {
				t.Fatalf("ticket without coach, seat or number: %+v", tk)
			}
			if tk.Passenger == 1 && !strings.HasSuffix(tk.Seat, "F") {
				t.Errorf("passenger 1 asked for a window seat F, got %s", tk.Seat)
			}
			if tk.Passenger == 2 {
				fare2, depart = parseCNY(t, tk.Fare), tk.DepartAt
			}
		}
		if len(issued.Timeline) < 3 {
			t.Errorf("timeline: %+v", issued.Timeline)
		}

		// Refund passenger 2: departure is 2–4 days away, the 5% band (or
		// 10% inside 48 h when the train leaves early in the day).
		resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/refund", v.ID), "en", `{"passengers":[2]}`, bearer(op)...)
		var q train.RefundQuoteView
		_ = json.Unmarshal(env.Data, &q)
		if resp.StatusCode != 200 || q.Status != train.RfdToBeConfirm || q.Order.Quote == nil {
			t.Fatalf("refund quote: %d %+v", resp.StatusCode, env)
		}
		wantFee, err := rail.ChinaRailway().RefundFee(fare2, depart, time.Now())
		if err != nil {
			t.Fatal(err)
		}
		fee, refund := parseCNY(t, q.Fee), parseCNY(t, q.RefundAmount)
		if fee != wantFee || fee == 0 || refund != fare2-fee || q.ValidUntil.Before(time.Now()) {
			t.Fatalf("quote fee %d refund %d, want fee %d of fare %d: %+v", fee, refund, wantFee, fare2, q)
		}
		if left := time.Until(depart); left > 48*time.Hour && fee != max((fare2*5/100+25)/50*50, 200) {
			t.Errorf("fee %d is not 5%% of %d", fee, fare2)
		}

		resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/confirmation", v.ID), "en", "", bearer(op)...)
		var done train.View
		_ = json.Unmarshal(env.Data, &done)
		if resp.StatusCode != 200 || done.Status != train.PartiallyRefunded {
			t.Fatalf("confirm refund: %d %+v", resp.StatusCode, env)
		}
		for _, tk := range done.Tickets {
			if want := map[int]string{1: train.TicketIssued, 2: train.TicketRefunded}[tk.Passenger]; tk.Status != want {
				t.Errorf("passenger %d ticket %s, want %s", tk.Passenger, tk.Status, want)
			}
		}
		if got := walletMinor(t, a, demo); got != start-total+refund {
			t.Fatalf("wallet after refund = %d, want %d", got, start-total+refund)
		}
		// The ledger: one origin-train of the total, one refund-train of the
		// refund; their sum is what the wallet moved.
		var sum int64
		kinds := map[string]int64{}
		for _, e := range trainEntries(t, a, demo, v.BookingNumber) {
			sum += e.Amount
			kinds[e.Type] += e.Amount
		}
		if kinds[ledger.TypeOriginTrain] != -total || kinds[ledger.TypeRefundTrain] != refund || sum != walletMinor(t, a, demo)-start {
			t.Fatalf("ledger entries %v (sum %d) disagree with the wallet (moved %d)", kinds, sum, walletMinor(t, a, demo)-start)
		}
		resp, env = call(t, srv, "GET", "/base/v2/wallet/entries?type=refund-train", "en", "", bearer(loginAs(t, srv, "demo-super", "demo-pass-1").Token)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), v.BookingNumber) {
			t.Errorf("wallet entries API: %d %s", resp.StatusCode, env.Data)
		}

		// The order page and its timeline say what came back, with its
		// currency and thousands, in the reader's words.
		refundText, feeText := money.GroupDecimal(q.RefundAmount.Amount)+" CNY", money.GroupDecimal(q.Fee.Amount)+" CNY"
		portal := portalAs(t, srv, op)
		for lang, want := range map[string][]string{
			"en":    {"Refunded", "Refunded " + refundText + " (railway fee " + feeText + ")"},
			"zh-cn": {"已退款", "已退款 " + refundText + "（铁路退票费 " + feeText + "）"},
		} {
			res, body := get(t, portal, srv.URL+fmt.Sprintf("/train/orders/%d", v.ID), "Cookie", "lang="+lang)
			if res.StatusCode != 200 || !strings.Contains(body, `id="train-order-refunded">`+refundText) {
				t.Errorf("%s: the order page does not show the refund %s: %d", lang, refundText, res.StatusCode)
			}
			for _, w := range want {
				if !strings.Contains(body, w) {
					t.Errorf("%s: the order page lacks %q", lang, w)
				}
			}
		}

		// A second refund of the same passenger is refused; nothing moves.
		resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/refund", v.ID), "en", `{"passengers":[2]}`, bearer(op)...)
		if resp.StatusCode != 400 || env.Code != 100001 {
			t.Errorf("refund of a refunded ticket: %d %+v", resp.StatusCode, env)
		}

		// List, counts, e-ticket.
		resp, env = call(t, srv, "GET", "/order/v2/train/orders?status=partially_refunded", "en", "", bearer(op)...)
		var page train.Page
		_ = json.Unmarshal(env.Data, &page)
		if resp.StatusCode != 200 || page.Total != 1 || page.Items[0].ID != v.ID {
			t.Errorf("list: %d %s", resp.StatusCode, env.Data)
		}
		resp, env = call(t, srv, "GET", "/order/v2/train/orders/status", "en", "", bearer(op)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `{"status":"partially_refunded","cnt":1}`) {
			t.Errorf("counts: %d %s", resp.StatusCode, env.Data)
		}
		for _, lang := range []string{"en", "zh-cn", "zh-tw"} {
			req, _ := http.NewRequest("GET", fmt.Sprintf("%s/order/v2/train/orders/%d/documents/eticket", srv.URL, v.ID), nil)
			req.Header.Set("Authorization", "Bearer "+op)
			req.Header.Set("Accept-Language", lang)
			r, err := srv.Client().Do(req)
			if err != nil {
				t.Fatal(err)
			}
			b, _ := io.ReadAll(r.Body)
			r.Body.Close()
			if r.StatusCode != 200 || r.Header.Get("Content-Type") != "application/pdf" || !strings.HasPrefix(string(b), "%PDF") {
				t.Errorf("e-ticket %s: %d %s", lang, r.StatusCode, r.Header.Get("Content-Type"))
			}
		}
	})
}

func contains[T comparable](list []T, v T) bool {
	for _, x := range list {
		if x == v {
			return true
		}
	}
	return false
}

func parseCNY(t *testing.T, m train.Money) int64 {
	t.Helper()
	var units, cents int64
	whole, frac, _ := strings.Cut(m.Amount, ".")
	if _, err := fmt.Sscan(whole, &units); err != nil {
		t.Fatalf("amount %q", m.Amount)
	}
	frac = (frac + "00")[:2]
	fmt.Sscan(frac, &cents)
	return units*100 + cents
}
