package app_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"
	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/shopping"
)

// seededWithJobs runs test in parallel on each seeded engine with the
// queue working.
func seededWithJobs(t *testing.T, test func(t *testing.T, a *app.App, srv *httptest.Server)) {
	t.Helper()
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		runJobs(t, a)
		test(t, a, srv)
	})
}

// runJobs works the queue for the test's lifetime (ticketing, refunds).
func runJobs(t testing.TB, a *app.App) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	if err := a.Queue.Start(ctx); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		cancel()
		stop, done := context.WithTimeout(context.Background(), 10*time.Second)
		defer done()
		_ = a.Queue.Stop(stop)
	})
}

// jobsWorked waits until the queue (runJobs) has no job due or running:
// every job committed before the call has been worked, or set aside for a
// retry later.
func jobsWorked(t testing.TB, a *app.App) {
	t.Helper()
	until(t, 30*time.Second, func() error {
		res, err := a.Queue.Client.JobList(context.Background(),
			river.NewJobListParams().States(rivertype.JobStateAvailable, rivertype.JobStateRunning).First(10))
		if err != nil {
			t.Fatal(err)
		}
		if len(res.Jobs) > 0 {
			return fmt.Errorf("jobs still due or running, the first a %s", res.Jobs[0].Kind)
		}
		return nil
	})
}

// fund tops an agency's CNY wallet up by amount (a decimal string).
func fund(t testing.TB, a *app.App, agencyID int64, amount string) {
	t.Helper()
	m, err := money.Parse(amount, "CNY")
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Ledger.Post(context.Background(), ledger.Transfer{AgencyID: agencyID, IdempotencyKey: fmt.Sprintf("test-fund-%d-%d", agencyID, time.Now().UnixNano()),
		From: ledger.Provider(ledger.KindFunding), To: ledger.Wallet(agencyID), Amount: m.Minor, Currency: "CNY", PaymentType: ledger.TypeTopUp, CreatedBy: "test"})
	if err != nil {
		t.Fatal(err)
	}
}

func walletMinor(t *testing.T, a *app.App, agencyID int64) int64 {
	t.Helper()
	b, err := a.Ledger.WalletBalance(context.Background(), agencyID, "CNY")
	if err != nil {
		t.Fatal(err)
	}
	return b.Balance
}

// quoteFor searches PEK→SHA one-way for one adult and verifies the cheapest
// solution, answering its quote id and total.
func quoteFor(t *testing.T, srv *httptest.Server, token string) (string, shopping.Solution) {
	t.Helper()
	return quoteWhere(t, srv, token, func(shopping.Solution) bool { return true })
}

// quoteWhere is quoteFor for the cheapest solution that ok accepts.
func quoteWhere(t *testing.T, srv *httptest.Server, token string, ok func(shopping.Solution) bool) (string, shopping.Solution) {
	t.Helper()
	date := time.Now().AddDate(0, 0, 20).Format(time.DateOnly)
	_, p := searchAPI(t, srv, token, "en", fmt.Sprintf(`{"journeys":[{"origin":"PEK","destination":"SHA","date":%q}],
		"passengers":{"adult":1,"child":0,"infant":0},"cabinClass":"economy","bookingType":"oneway"}`, date))
	for _, sol := range p.Items {
		if strings.HasPrefix(sol.TicketingSpeed, "special") || !ok(sol) {
			continue
		}
		_, env := call(t, srv, "POST", "/shopping/v2/flight/solutions/"+sol.ID+"/verification", "en", "", bearer(token)...)
		var v shopping.Verification
		_ = json.Unmarshal(env.Data, &v)
		if env.Code == 0 && v.QuoteID != "" && v.Solution != nil {
			return v.QuoteID, *v.Solution
		}
	}
	t.Fatal("no verifiable solution PEK-SHA")
	return "", shopping.Solution{}
}

const adultBody = `{"quoteId":%q,"passengers":[{"type":"adult","surname":"ZHANG","givenName":"WEI","gender":"male","birthday":"1985-04-02",
	"nationality":"CN","documentType":"passport","documentNumber":"E12345678","documentExpiry":"2034-01-01"}],
	"contact":{"name":"Zhang Wei","email":"zhang.wei@example.com","phone":"+86 138 0000 0000"},"invoiceType":"Itinerary"}`

// quotedTotal is quoteFor with the solution's total as money.
func quotedTotal(t *testing.T, srv *httptest.Server, token string) (string, shopping.Solution, money.Amount) {
	t.Helper()
	quoteID, sol := quoteFor(t, srv, token)
	total, _ := money.Parse(sol.Total.Amount, "CNY")
	return quoteID, sol, total
}

// createOrder books the quote quoteID for one adult under the
// Idempotency-Key key.
func createOrder(t *testing.T, srv *httptest.Server, token, quoteID, key string) flight.View {
	t.Helper()
	return createOrderWith(t, srv, token, fmt.Sprintf(adultBody, quoteID), key)
}

// createOrderWith posts the order request body, which must be booked.
func createOrderWith(t *testing.T, srv *httptest.Server, token, body, key string) flight.View {
	t.Helper()
	resp, env := call(t, srv, "POST", "/order/v2/flight/orders", "en", body, append(bearer(token), "Idempotency-Key", key)...)
	return dataOf[flight.View](t, "create order", resp, env, http.StatusCreated)
}

func getOrder(t *testing.T, srv *httptest.Server, token string, id int64) flight.View {
	t.Helper()
	resp, env := call(t, srv, "GET", fmt.Sprintf("/order/v2/flight/orders/%d", id), "en", "", bearer(token)...)
	if resp.StatusCode != 200 {
		t.Fatalf("get order %d: %d %+v", id, resp.StatusCode, env)
	}
	var v flight.View
	_ = json.Unmarshal(env.Data, &v)
	return v
}

func waitStatus(t *testing.T, srv *httptest.Server, token string, id int64, want flight.Status) flight.View {
	t.Helper()
	var v flight.View
	until(t, 30*time.Second, func() error {
		if v = getOrder(t, srv, token, id); v.Status != want {
			return fmt.Errorf("order %d stayed %s, want %s", id, v.Status, want)
		}
		return nil
	})
	return v
}

// tinyPNG is a valid 1×1 PNG.
var tinyPNG = []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x01\x00\x00\x00\x01\x08\x06\x00\x00\x00\x1f\x15\xc4\x89\x00\x00\x00\rIDATx\x9cc\xf8\x0f\x00\x00\x01\x01\x00\x05\x18\xd8N\x00\x00\x00\x00IEND\xaeB`\x82")

func multipartCall(t *testing.T, srv *httptest.Server, path, token string, fields map[string]string, files map[string][]byte) (*http.Response, envelope) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	for k, v := range fields {
		_ = mw.WriteField(k, v)
	}
	for name, data := range files {
		fw, _ := mw.CreateFormFile("proofs", name)
		_, _ = fw.Write(data)
	}
	_ = mw.Close()
	req := newRequest(t, "POST", srv.URL+path, &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept-Language", "en")
	resp, raw := send(t, srv.Client(), req)
	return resp, asEnvelope(t, path, raw)
}

// askAfterSale has the agency (token) ask for the after-sale kind ("void",
// "refund" or "change") of flight order id with the form's fields and proof
// files: the request's order, which must be created.
func askAfterSale(t *testing.T, srv *httptest.Server, token string, id int64, kind string, fields map[string]string, files map[string][]byte) flight.View {
	t.Helper()
	resp, env := multipartCall(t, srv, fmt.Sprintf("/order/v2/flight/orders/%d/%s", id, kind), token, fields, files)
	return dataOf[flight.View](t, kind+" request", resp, env, http.StatusCreated)
}

// askVoid asks to void flight order id as a duplicate, with a proof.
func askVoid(t *testing.T, srv *httptest.Server, token string, id int64) flight.View {
	t.Helper()
	return askAfterSale(t, srv, token, id, "void", map[string]string{"reason": "4", "remark": "duplicate"}, map[string][]byte{"p.png": tinyPNG})
}

// askRefund asks to refund flight order id as plans changed, with a proof.
func askRefund(t *testing.T, srv *httptest.Server, token string, id int64) flight.View {
	t.Helper()
	return askAfterSale(t, srv, token, id, "refund", map[string]string{"reason": "0", "remark": "plans changed"}, map[string][]byte{"p.png": tinyPNG})
}

// reviewAfterSale has the provider (token) take action ("approve" or
// "quote") on the after-sale request id, which must succeed: the request's
// order as the answer gives it.
func reviewAfterSale(t *testing.T, srv *httptest.Server, token string, id int64, action string) flight.View {
	t.Helper()
	resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/review", id), "en", fmt.Sprintf(`{"action":%q}`, action), bearer(token)...)
	if resp.StatusCode != 200 || env.Code != 0 {
		t.Fatalf("%s request %d: %d %+v", action, id, resp.StatusCode, env)
	}
	var v flight.View
	if err := json.Unmarshal(env.Data, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

// TestFlightOrderLifecycle books, pays from the balance, tickets, refunds
// with a proof after the provider's quote, checking the wallet and who sees
// what at each step.
func TestFlightOrderLifecycle(t *testing.T) {
	seededWithJobs(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		stranger := loginAs(t, srv, "bluesky-super", "demo-pass-1")
		agencyID := op.Company.ID
		fund(t, a, agencyID, "50000")

		quoteID, sol := quoteFor(t, srv, op.Token)
		o := createOrder(t, srv, op.Token, quoteID, "key-1")
		if o.Status != flight.ToBePaid || o.PNR == "" || o.Total.Amount != sol.Total.Amount || o.PriceBreakdown.SaleTotal.Amount != sol.Total.Amount {
			t.Fatalf("new order = %+v (solution total %s)", o, sol.Total.Amount)
		}
		if o.Passengers[0].Surname != "ZHANG" || len(o.Segments) == 0 || o.PriceBreakdown.CostPrice.Amount == "0.00" {
			t.Fatalf("order content = %+v", o)
		}
		// The booking number is F, the day and the id; the answer and the
		// stored row agree (PostgreSQL writes both with the row).
		if want := fmt.Sprintf("F%s%08d", time.Now().UTC().Format("060102"), o.ID); o.BookingNumber != want {
			t.Fatalf("booking number %q, want %q", o.BookingNumber, want)
		}
		var stored struct {
			Number string `db:"booking_number"`
			Root   int64  `db:"root_id"`
		}
		if err := a.DB.GetContext(context.Background(), &stored, a.DB.Rebind(`SELECT booking_number, root_id FROM flight_orders WHERE id = ?`), o.ID); err != nil ||
			stored.Number != o.BookingNumber || stored.Root != o.ID {
			t.Fatalf("stored number %+v (%v), want %s root %d", stored, err, o.BookingNumber, o.ID)
		}
		// A replay of the same request answers the same order; the same key
		// with another body is refused.
		if again := createOrder(t, srv, op.Token, quoteID, "key-1"); again.ID != o.ID {
			t.Fatalf("replay made order %d, first was %d", again.ID, o.ID)
		}
		resp, env := call(t, srv, "POST", "/order/v2/flight/orders", "en", strings.Replace(fmt.Sprintf(adultBody, quoteID), "WEI", "LEI", 1),
			append(bearer(op.Token), "Idempotency-Key", "key-1")...)
		if resp.StatusCode != 409 {
			t.Fatalf("same key, other body: %d %+v", resp.StatusCode, env)
		}
		// Bad passengers: translated field errors, nothing stored.
		bad := strings.Replace(fmt.Sprintf(adultBody, quoteID), `"ZHANG"`, `"Zh4ng"`, 1)
		bad = strings.Replace(bad, `"1985-04-02"`, `"2020-04-02"`, 1)
		resp, env = call(t, srv, "POST", "/order/v2/flight/orders", "zh-cn", bad, append(bearer(op.Token), "Idempotency-Key", "key-bad")...)
		var fields struct {
			Fields map[string]string `json:"fields"`
		}
		_ = json.Unmarshal(env.Data, &fields)
		if resp.StatusCode != 400 || env.Code != 100001 || fields.Fields["passengers[0].surname"] == "" || fields.Fields["passengers[0].type"] == "" {
			t.Fatalf("bad passenger: %d %+v", resp.StatusCode, env)
		}

		// Only the agency (and its ancestors) see the order.
		resp, _ = call(t, srv, "GET", fmt.Sprintf("/order/v2/flight/orders/%d", o.ID), "en", "", bearer(stranger.Token)...)
		if resp.StatusCode != 404 {
			t.Fatalf("stranger sees order: %d", resp.StatusCode)
		}
		_, env = call(t, srv, "GET", "/order/v2/flight/orders", "en", "", bearer(stranger.Token)...)
		var page flight.Page
		_ = json.Unmarshal(env.Data, &page)
		if page.Total != 0 {
			t.Fatalf("stranger lists %d orders", page.Total)
		}
		resp, _ = call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"balance"}`, bearer(stranger.Token)...)
		if resp.StatusCode != 404 {
			t.Fatalf("stranger pays: %d", resp.StatusCode)
		}

		_, env = call(t, srv, "GET", "/order/v2/flight/orders/status?status=to_be_paid&status=issued", "en", "", bearer(op.Token)...)
		var counts []flight.StatusCount
		_ = json.Unmarshal(env.Data, &counts)
		if len(counts) != 2 || counts[0].Status != "to_be_paid" || counts[0].Cnt != 1 || counts[1].Cnt != 0 {
			t.Fatalf("status counts = %+v", counts)
		}

		before := walletMinor(t, a, agencyID)
		total, _ := money.Parse(o.Total.Amount, "CNY")
		resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"balance"}`,
			append(bearer(op.Token), "Idempotency-Key", "pay-1")...)
		if resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("pay: %d %+v", resp.StatusCode, env)
		}
		if got := walletMinor(t, a, agencyID); got != before-total.Minor {
			t.Fatalf("wallet after pay = %d, want %d", got, before-total.Minor)
		}
		// Paying again: the replay answers the order, another key is a
		// state conflict, and the wallet is charged once.
		resp, _ = call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"balance"}`,
			append(bearer(op.Token), "Idempotency-Key", "pay-1")...)
		if resp.StatusCode != 200 {
			t.Fatalf("payment replay: %d", resp.StatusCode)
		}
		resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), "en", `{"channel":"balance"}`,
			append(bearer(op.Token), "Idempotency-Key", "pay-2")...)
		if resp.StatusCode != 409 || env.Code != 100009 {
			t.Fatalf("second payment: %d %+v", resp.StatusCode, env)
		}
		if got := walletMinor(t, a, agencyID); got != before-total.Minor {
			t.Fatalf("wallet after second payment = %d", got)
		}

		issued := waitStatus(t, srv, op.Token, o.ID, flight.Issued)
		if len(issued.TicketNumbers) == 0 || issued.Passengers[0].TicketNumber == "" {
			t.Fatalf("issued without tickets: %+v", issued)
		}
		if len(issued.Events) < 3 {
			t.Fatalf("timeline = %+v", issued.Events)
		}
		// The booking's own entry opens it: written with the order, by whom
		// and when it was made.
		first := issued.Events[0]
		for _, e := range issued.Events {
			if e.ID < first.ID {
				first = e
			}
		}
		if first.Action != "create" || first.FromStatus != "" || first.ToStatus != string(flight.ToBePaid) || first.Actor == "" ||
			!first.CreatedAt.Equal(issued.CreatedAt) {
			t.Fatalf("first timeline entry = %+v, order made at %v", first, issued.CreatedAt)
		}

		// The itinerary downloads as a PDF with the bearer token.
		dl, pdf := rawGet(t, srv, fmt.Sprintf("/order/v2/flight/orders/%d/documents/itinerary?format=pdf", o.ID), bearer(op.Token)...)
		if dl.StatusCode != 200 || !bytes.HasPrefix(pdf, []byte("%PDF")) {
			t.Fatalf("itinerary: %d %q", dl.StatusCode, pdf[:min(len(pdf), 40)])
		}
		// Its passport numbers are masked unless documentNumbers=full.
		for q, full := range map[string]bool{"": false, "&documentNumbers=full": true} {
			dl, x := rawGet(t, srv, fmt.Sprintf("/order/v2/flight/orders/%d/documents/itinerary?format=xlsx%s", o.ID, q), bearer(op.Token)...)
			f, err := excelize.OpenReader(bytes.NewReader(x))
			if err != nil {
				t.Fatalf("itinerary xlsx%s: %d %v", q, dl.StatusCode, err)
			}
			rows, _ := f.GetRows(f.GetSheetList()[0])
			f.Close()
			text := fmt.Sprint(rows)
			if strings.Contains(text, "E12345678") != full || (!full && !strings.Contains(text, "*****5678")) {
				t.Errorf("itinerary%s, full numbers %v:\n%s", q, full, text)
			}
		}

		// Refund: reason and proof required; a text file is refused.
		path := fmt.Sprintf("/order/v2/flight/orders/%d/refund", o.ID)
		resp, env = multipartCall(t, srv, path, op.Token, map[string]string{"reason": "0"}, map[string][]byte{"note.txt": []byte("hello")})
		if resp.StatusCode != 400 || env.Code != 100001 {
			t.Fatalf("text proof: %d %+v", resp.StatusCode, env)
		}
		resp, env = multipartCall(t, srv, path, op.Token, map[string]string{"remark": "plans changed"}, map[string][]byte{"p.png": tinyPNG})
		if resp.StatusCode != 400 {
			t.Fatalf("no reason: %d %+v", resp.StatusCode, env)
		}
		resp, env = multipartCall(t, srv, path, op.Token, map[string]string{"reason": "0", "remark": "plans changed"}, map[string][]byte{"p.png": tinyPNG})
		if resp.StatusCode != 201 || env.Code != 0 {
			t.Fatalf("refund request: %d %+v", resp.StatusCode, env)
		}
		var rf flight.View
		_ = json.Unmarshal(env.Data, &rf)
		if rf.Status != flight.RfdReviewing || rf.Type != flight.TypeRefund || rf.OriginalID != o.ID || len(rf.Proofs) != 1 {
			t.Fatalf("refund order = %+v", rf)
		}
		resp, env = multipartCall(t, srv, path, op.Token, map[string]string{"reason": "0"}, nil)
		if resp.StatusCode != 409 || env.Code != 100009 {
			t.Fatalf("second refund request: %d %+v", resp.StatusCode, env)
		}
		// The agency cannot approve its own refund.
		resp, _ = call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/review", rf.ID), "en", `{"action":"approve"}`, bearer(op.Token)...)
		if resp.StatusCode != 403 {
			t.Fatalf("agency approves: %d", resp.StatusCode)
		}
		resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/review", rf.ID), "en", `{"action":"approve","remark":"ok"}`, bearer(provider.Token)...)
		if resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("provider approves: %d %+v", resp.StatusCode, env)
		}
		var quoted flight.View
		_ = json.Unmarshal(env.Data, &quoted)
		if quoted.Status != flight.RfdToBeConfirm || quoted.ConfirmBy == nil {
			t.Fatalf("quoted refund = %+v", quoted)
		}
		refund, _ := money.Parse(quoted.PriceBreakdown.RefundAmount.Amount, "CNY")
		if refund.Minor <= 0 || refund.Minor > total.Minor {
			t.Fatalf("refund amount %d of %d paid", refund.Minor, total.Minor)
		}
		paidWallet := walletMinor(t, a, agencyID)
		resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/confirmation", rf.ID), "en", "", bearer(op.Token)...)
		if resp.StatusCode != 200 || env.Code != 0 {
			t.Fatalf("confirm refund: %d %+v", resp.StatusCode, env)
		}
		waitStatus(t, srv, op.Token, rf.ID, flight.RefundedReimbursed)
		if got := walletMinor(t, a, agencyID); got != paidWallet+refund.Minor {
			t.Fatalf("wallet after refund = %d, want %d", got, paidWallet+refund.Minor)
		}
		if orig := getOrder(t, srv, op.Token, o.ID); orig.Status != flight.Closed || len(orig.Related) != 1 {
			t.Fatalf("original after refund = %s %+v", orig.Status, orig.Related)
		}
		ledgerZero(t, a)
	})
}

// flightMoneyTest runs fn on the seeded app of each engine (configured by
// mod when given) with demo-operator logged in and its agency's wallet
// funded with funds (not at all when empty); whatever fn books, pays and
// refunds, the ledger must still balance after it.
func flightMoneyTest(t *testing.T, mod func(*config.Config), funds string, fn func(t *testing.T, a *app.App, srv *httptest.Server, op meData)) {
	onEachEngine(t, newSeededApp, mod, func(t *testing.T, a *app.App, srv *httptest.Server) {
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		if funds != "" {
			fund(t, a, op.Company.ID, funds)
		}
		fn(t, a, srv, op)
		ledgerZero(t, a)
	})
}

// currencySum is what a currency's ledger accounts hold together.
type currencySum struct {
	Currency string `db:"currency"`
	Sum      int64  `db:"s"`
}

// ledgerSums sums the ledger's accounts by currency; each sum is zero
// when money only moved.
func ledgerSums(t *testing.T, a *app.App) []currencySum {
	t.Helper()
	var rows []currencySum
	if err := a.DB.SelectContext(context.Background(), &rows, `SELECT currency, SUM(balance) AS s FROM ledger_accounts GROUP BY currency`); err != nil {
		t.Fatal(err)
	}
	return rows
}

// TestConcurrentPaymentsStopAtTheLimit pays 20 orders at once from an agency
// whose balance plus credit covers exactly 5.
func TestConcurrentPaymentsStopAtTheLimit(t *testing.T) {
	t.Parallel()
	flightMoneyTest(t, nil, "", func(t *testing.T, a *app.App, srv *httptest.Server, op meData) {
		agencyID := op.Company.ID
		quoteID, _, total := quotedTotal(t, srv, op.Token)
		ids := make([]int64, 20)
		for i := range ids {
			ids[i] = createOrder(t, srv, op.Token, quoteID, fmt.Sprintf("c-%d", i)).ID
		}
		// Balance 3 orders, credit 2 more.
		start := walletMinor(t, a, agencyID)
		if start < 0 {
			t.Fatalf("demo wallet starts below zero: %d", start)
		}
		if err := a.Ledger.SetCreditLimit(context.Background(), agencyID, "CNY", 2*total.Minor); err != nil {
			t.Fatal(err)
		}
		fund(t, a, agencyID, money.Amount{Minor: 3*total.Minor - start, Currency: "CNY"}.String())

		var wg sync.WaitGroup
		codes := make([]int, len(ids))
		for i, id := range ids {
			wg.Add(1)
			go func() {
				defer wg.Done()
				_, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", id), "en", `{"channel":"balance"}`,
					append(bearer(op.Token), "Idempotency-Key", fmt.Sprintf("p-%d", i))...)
				codes[i] = env.Code
			}()
		}
		wg.Wait()
		paid, short := 0, 0
		for _, c := range codes {
			switch c {
			case 0:
				paid++
			case 300001:
				short++
			default:
				t.Errorf("payment answered code %d", c)
			}
		}
		if paid != 5 || short != 15 {
			t.Fatalf("paid %d, insufficient %d; want 5 and 15", paid, short)
		}
		if got := walletMinor(t, a, agencyID); got != -2*total.Minor {
			t.Fatalf("wallet = %d, want %d (credit fully used)", got, -2*total.Minor)
		}
		var proceeding int
		_ = a.DB.GetContext(context.Background(), &proceeding, `SELECT COUNT(*) FROM flight_orders WHERE status = 'proceeding'`)
		if proceeding != 5 {
			t.Fatalf("%d orders proceeding, want 5", proceeding)
		}
	})
}
