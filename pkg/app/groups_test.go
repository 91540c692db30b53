package app_test

import (
	"archive/zip"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/group/grouptest"
	"github.com/voyage/voyage/pkg/ledger"
)

const groupsPath = "/order/v2/flight/group/orders"

// groupRequestBody asks for PEK→SHA 60 days out for the default group (10
// adults, 10 children).
func groupRequestBody() string {
	date := time.Now().AddDate(0, 0, 60).Format(time.DateOnly)
	return fmt.Sprintf(`{"journeys":[{"origin":"PEK","destination":"SHA","date":%q,"remark":"school trip"}],"isChangeDate":true,
		"acceptChangeFlight":false,"cabinClass":"economy","contact":{"name":"Li Lei","email":"li.lei@example.com","phone":"+86 138 0000 1111"},
		"remark":"25th anniversary trip"}`, date)
}

func groupView(t testing.TB, env envelope) group.View {
	t.Helper()
	var v group.View
	if err := json.Unmarshal(env.Data, &v); err != nil {
		t.Fatalf("group view: %v %s", err, env.Data)
	}
	return v
}

func groupCall(t testing.TB, srv *httptest.Server, token, method, path, body string, wantStatus int, hdr ...string) group.View {
	t.Helper()
	resp, env := call(t, srv, method, path, "en", body, append(bearer(token), hdr...)...)
	if resp.StatusCode != wantStatus || env.Code != 0 {
		t.Fatalf("%s %s: %d %+v, want %d", method, path, resp.StatusCode, env, wantStatus)
	}
	return groupView(t, env)
}

func requestGroup(t testing.TB, srv *httptest.Server, token, key string) group.View {
	t.Helper()
	return groupCall(t, srv, token, "POST", groupsPath, groupRequestBody(), http.StatusCreated, "Idempotency-Key", key)
}

// quoteBody is 1000.00 an adult and 800.00 a child (18000.00 for the
// default group) in three deposits and the final payment.
func quoteBody(stages ...string) string {
	now := time.Now().UTC()
	at := func(d time.Duration) string { return now.Add(d).Format(time.RFC3339) }
	amounts := map[string]string{"first": "1800.00", "second": "3600.00", "third": "3600.00", "final": "9000.00"}
	if len(stages) == 0 {
		stages = []string{"first", "second", "third", "final"}
	}
	if len(stages) == 2 {
		amounts["first"], amounts["final"] = "5400.00", "12600.00"
	}
	var inst []string
	for i, s := range stages {
		inst = append(inst, fmt.Sprintf(`{"stage":%q,"amount":%q,"deadline":%q}`, s, amounts[s], at(time.Duration(72+24*i)*time.Hour)))
	}
	return fmt.Sprintf(`{"fares":[{"passengerType":"adult","amount":"1000.00","taxes":"120.00"},{"passengerType":"child","amount":"800.00","taxes":"90.00"}],
		"confirmBefore":%q,"passengerListDeadline":%q,"freeDropSeats":2,"installments":[%s]}`, at(48*time.Hour), at(47*time.Hour), strings.Join(inst, ","))
}

func uploadList(t testing.TB, srv *httptest.Server, token string, id int64, data []byte, lang string) (*http.Response, envelope) {
	t.Helper()
	var buf bytes.Buffer
	mw := multipart.NewWriter(&buf)
	fw, _ := mw.CreateFormFile("file", "passengers.xlsx")
	_, _ = fw.Write(data)
	_ = mw.Close()
	req := newRequest(t, "PUT", fmt.Sprintf("%s%s/%d/passengers", srv.URL, groupsPath, id), &buf)
	req.Header.Set("Content-Type", mw.FormDataContentType())
	req.Header.Set("Authorization", "Bearer "+token)
	req.Header.Set("Accept-Language", lang)
	resp, raw := send(t, srv.Client(), req)
	env := asEnvelope(t, "upload", raw)
	return resp, env
}

func payGroup(t *testing.T, srv *httptest.Server, token string, id int64, stage, key string) (*http.Response, envelope) {
	t.Helper()
	return call(t, srv, "POST", fmt.Sprintf("%s/%d/payment", groupsPath, id), "en", fmt.Sprintf(`{"channel":"balance","stage":%q}`, stage),
		append(bearer(token), "Idempotency-Key", key)...)
}

// groupParties logs in the two sides of a group order: the agency's
// operator who requests and pays, and the provider who quotes and grants
// the seats (its token).
func groupParties(t *testing.T, srv *httptest.Server) (op meData, provider string) {
	t.Helper()
	return loginAs(t, srv, "demo-operator", "demo-pass-1"), loginAs(t, srv, "provider-admin", "provider-pass-1").Token
}

// groupMoneyTest runs fn on the seeded app of each engine with the group
// order's two parties logged in and the agency's wallet funded with 20,000
// CNY; whatever fn pays, refunds or forfeits, the ledger must still sum to
// zero after it.
func groupMoneyTest(t *testing.T, fn func(t *testing.T, a *app.App, srv *httptest.Server, op meData, provider string)) {
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		op, provider := groupParties(t, srv)
		fund(t, a, op.Company.ID, "20000")
		fn(t, a, srv, op, provider)
		ledgerZero(t, a)
	})
}

// confirmedGroup takes a new request to to_be_pay_first: quoted, list
// uploaded, confirmed, seats granted.
func confirmedGroup(t *testing.T, srv *httptest.Server, op, provider, key string, stages ...string) group.View {
	t.Helper()
	v := requestGroup(t, srv, op, key)
	p := fmt.Sprintf("%s/%d", groupsPath, v.ID)
	groupCall(t, srv, provider, "POST", p+"/quote", quoteBody(stages...), 200)
	if resp, env := uploadList(t, srv, op, v.ID, grouptest.Workbook(t, grouptest.Rows(10, 10)), "en"); resp.StatusCode != 200 || env.Code != 0 {
		t.Fatalf("upload: %d %+v", resp.StatusCode, env)
	}
	groupCall(t, srv, op, "POST", p+"/confirmation", "", 200)
	return groupCall(t, srv, provider, "POST", p+"/seats", `{"result":"granted"}`, 200)
}

// depositPaidGroup is confirmedGroup (key) with its first deposit paid
// from the wallet (key-first).
func depositPaidGroup(t *testing.T, srv *httptest.Server, op, provider, key string) group.View {
	t.Helper()
	v := confirmedGroup(t, srv, op, provider, key)
	if resp, env := payGroup(t, srv, op, v.ID, "first", key+"-first"); resp.StatusCode != 200 || env.Code != 0 {
		t.Fatalf("pay the first deposit: %d %+v", resp.StatusCode, env)
	}
	return v
}

// ledgerZero checks that every currency's accounts sum to zero: money moved,
// none made or lost.
func ledgerZero(t *testing.T, a *app.App) {
	t.Helper()
	for _, r := range ledgerSums(t, a) {
		if r.Sum != 0 {
			t.Errorf("ledger accounts in %s sum to %d, want 0", r.Currency, r.Sum)
		}
	}
}

func installment(v group.View, stage string) group.Installment {
	for _, in := range v.Installments {
		if in.Stage == stage {
			return in
		}
	}
	return group.Installment{}
}

func hasEntry(v group.View, typ, amount string) bool {
	for _, e := range v.Ledger {
		if e.Type == typ && e.Amount.Amount == amount {
			return true
		}
	}
	return false
}

func waitGroup(t *testing.T, srv *httptest.Server, token string, id int64, want group.Status) group.View {
	t.Helper()
	var v group.View
	until(t, 60*time.Second, func() error {
		if v = groupCall(t, srv, token, "GET", fmt.Sprintf("%s/%d", groupsPath, id), "", 200); v.Status != want {
			return fmt.Errorf("group order %d stayed %s, want %s", id, v.Status, want)
		}
		return nil
	})
	return v
}

// TestGroupOrderLifecycle runs a group through the API from the request to
// the tickets: quote (and a re-quote with history), a refused list that
// stores nothing, a valid list, confirmation (locking the list), seats,
// three deposits and the final payment from the wallet (one replayed), and
// ticketing in the background; the wallet pays the quote's total exactly
// and the ledger sums to zero.
func TestGroupOrderLifecycle(t *testing.T) {
	seededWithJobs(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		op, provider := groupParties(t, srv)
		agencyID := op.Company.ID
		fund(t, a, agencyID, "20000")
		before := walletMinor(t, a, agencyID)

		v := requestGroup(t, srv, op.Token, "grp-life")
		if v.Status != group.ToBeQuote || v.Passengers.Adult != 10 || v.Passengers.Child != 10 || v.Passengers.Infant != 0 {
			t.Fatalf("request: %+v", v)
		}
		if again := requestGroup(t, srv, op.Token, "grp-life"); again.ID != v.ID {
			t.Fatalf("a replayed request made order %d, want %d", again.ID, v.ID)
		}
		p := fmt.Sprintf("%s/%d", groupsPath, v.ID)

		// The provider's queue holds the request; the quote finds real
		// flights in the simulated schedules.
		resp, env := call(t, srv, "GET", groupsPath+"/queue", "en", "", bearer(provider)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), v.BookingNumber) {
			t.Fatalf("queue: %d %s", resp.StatusCode, env.Data)
		}
		q1 := groupCall(t, srv, provider, "POST", p+"/quote", quoteBody(), 200)
		if q1.Status != group.ToBeConfirm || len(q1.Quotes) != 1 || len(q1.Quotes[0].Segments) == 0 || q1.Quotes[0].Segments[0].Origin != "PEK" {
			t.Fatalf("quote: %+v", q1)
		}
		q2 := groupCall(t, srv, provider, "POST", p+"/quote", quoteBody(), 200)
		if len(q2.Quotes) != 2 || q2.Quotes[1].Status != group.QuoteSuperseded || q2.Total.Amount != "18000.00" || len(q2.Installments) != 4 {
			t.Fatalf("re-quote keeps the history: %+v", q2)
		}

		// A list with a bad surname and a child born too early is refused
		// row by row, in the caller's language, and nothing is stored.
		rows := grouptest.Rows(10, 10)
		rows[3][1] = "Wang3"
		rows[15][4] = "1990-01-01"
		resp, env = uploadList(t, srv, op.Token, v.ID, grouptest.Workbook(t, rows), "zh-cn")
		var bad group.ListErrors
		_ = json.Unmarshal(env.Data, &bad)
		if resp.StatusCode != 400 || env.Code != 100001 || len(bad.Errors) != 2 || bad.Errors[0].Row != 4 || bad.Errors[0].Column != "surname" ||
			bad.Errors[0].Cell != "B4" || bad.Errors[1].Row != 16 || bad.Errors[1].Column != "type" || !strings.Contains(env.Message, "乘客名单") {
			t.Fatalf("bad list: %d %+v %+v", resp.StatusCode, env, bad)
		}
		if got := groupCall(t, srv, op.Token, "GET", p, "", 200); got.PassengerCount != 0 {
			t.Fatalf("a refused list stored %d passengers", got.PassengerCount)
		}
		if resp, env := uploadList(t, srv, op.Token, v.ID, grouptest.Workbook(t, grouptest.Rows(10, 10)), "en"); resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"accepted":20`) {
			t.Fatalf("upload: %d %+v", resp.StatusCode, env)
		}
		groupCall(t, srv, op.Token, "POST", p+"/quote/acceptance", "", 200)
		c := groupCall(t, srv, op.Token, "POST", p+"/confirmation", "", 200)
		if c.Status != group.ToBeApplySeat || !c.Locked {
			t.Fatalf("confirm: %+v", c)
		}
		if resp, env := uploadList(t, srv, op.Token, v.ID, grouptest.Workbook(t, grouptest.Rows(10, 10)), "en"); resp.StatusCode != 409 ||
			env.Message != "Passenger information cannot be changed after confirmation" {
			t.Fatalf("upload after confirmation: %d %+v", resp.StatusCode, env)
		}
		// The agency cannot answer for the airline.
		if resp, _ := call(t, srv, "POST", p+"/seats", "en", `{"result":"granted"}`, bearer(op.Token)...); resp.StatusCode != 403 {
			t.Fatalf("agency granting seats: %d", resp.StatusCode)
		}
		groupCall(t, srv, provider, "POST", p+"/seats", `{"result":"applying"}`, 200)
		g := groupCall(t, srv, provider, "POST", p+"/seats", `{"result":"granted"}`, 200)
		if g.Status != group.ToBePayFirst || installment(g, "first").Status != group.InstDue || installment(g, "second").Status != group.InstNotDue {
			t.Fatalf("granted: %+v", g)
		}

		want := map[string]group.Status{"first": group.ToBePaySecond, "second": group.ToBePayThird, "third": group.ToBePaidLast, "final": group.Proceeding}
		for _, stage := range []string{"first", "second", "third", "final"} {
			resp, env := payGroup(t, srv, op.Token, v.ID, stage, "pay-"+stage)
			if resp.StatusCode != 200 || groupView(t, env).Status != want[stage] {
				t.Fatalf("pay %s: %d %+v", stage, resp.StatusCode, env)
			}
			if stage == "first" {
				// The replay answers the first result and charges nothing.
				resp, env := payGroup(t, srv, op.Token, v.ID, stage, "pay-"+stage)
				if resp.StatusCode != 200 || groupView(t, env).Status != group.ToBePaySecond || walletMinor(t, a, agencyID) != before-180000 {
					t.Fatalf("replayed payment: %d %+v, wallet %d", resp.StatusCode, env, walletMinor(t, a, agencyID))
				}
			}
		}
		done := waitGroup(t, srv, op.Token, v.ID, group.Issued)
		seen := map[string]bool{}
		for _, tk := range done.Tickets {
			seen[tk.TicketNumber] = true
		}
		if len(done.Tickets) != 20 || len(seen) != 20 {
			t.Fatalf("tickets: %+v", done.Tickets)
		}
		if got := walletMinor(t, a, agencyID); got != before-1800000 {
			t.Fatalf("wallet paid %d, want 1800000", before-got)
		}
		if !hasEntry(done, ledger.TypeGroupDeposit, "1800.00") || !hasEntry(done, ledger.TypeGroupPayment, "9000.00") || len(done.Ledger) != 4 {
			t.Fatalf("order ledger: %+v", done.Ledger)
		}
		entries, _, err := a.Ledger.Entries(context.Background(), agencyID, ledger.EntryFilter{Currency: "CNY", OrderID: done.BookingNumber})
		if err != nil || len(entries) != 4 {
			t.Fatalf("wallet entries of the group: %v %+v", err, entries)
		}
		ledgerZero(t, a)
		// Every move is on the timeline with who, from and to, and in the
		// user log.
		var pays int
		for _, e := range done.Timeline {
			if e.Action == "pay" && e.Actor == "demo-operator" {
				pays++
			}
		}
		if pays != 4 || done.Timeline[len(done.Timeline)-1].ToStatus != string(group.Issued) {
			t.Fatalf("timeline: %+v", done.Timeline)
		}
		var logged int
		if err := a.DB.GetContext(context.Background(), &logged, a.DB.Rebind(`SELECT COUNT(*) FROM user_logs WHERE action = ? AND target = ?`), "group.pay", done.BookingNumber); err != nil || logged != 4 {
			t.Fatalf("user log: %d %v", logged, err)
		}
		// The flight documents print the group: every passenger's ticket.
		resp, raw := sendRaw(t, srv, "GET", fmt.Sprintf("%s/%d/documents/eticket?format=xlsx", groupsPath, v.ID), "", nil, false, bearer(op.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "spreadsheetml") {
			t.Fatalf("e-ticket: %d %.200s", resp.StatusCode, raw)
		}
		if wb, err := excelize.OpenReader(bytes.NewReader(raw)); err != nil {
			t.Fatal(err)
		} else {
			rows, _ := wb.GetRows(wb.GetSheetList()[0])
			text := fmt.Sprint(rows)
			if !strings.Contains(text, done.Tickets[0].TicketNumber) || !strings.Contains(text, done.Tickets[19].TicketNumber) {
				t.Fatalf("the e-ticket lacks the tickets: %.500s", text)
			}
			wb.Close()
		}
		if resp, _ := sendRaw(t, srv, "GET", fmt.Sprintf("%s/%d/documents/itinerary", groupsPath, v.ID), "", nil, false, bearer(op.Token)...); resp.StatusCode != 200 {
			t.Fatalf("itinerary: %d", resp.StatusCode)
		}
		// The counts see it.
		resp, env = call(t, srv, "GET", groupsPath+"/status", "en", "", bearer(op.Token)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `{"status":"issued","cnt":1}`) {
			t.Fatalf("counts: %s", env.Data)
		}
		// As every line's counts: the statuses asked, in that order, after
		// "all", their sum; a status the line does not have is refused.
		resp, env = call(t, srv, "GET", groupsPath+"/status?status=to_be_quote&status=issued", "en", "", bearer(op.Token)...)
		if want := `[{"status":"all","cnt":1},{"status":"to_be_quote","cnt":0},{"status":"issued","cnt":1}]`; resp.StatusCode != 200 || string(env.Data) != want {
			t.Errorf("counts of two statuses: %d %s, want %s", resp.StatusCode, env.Data, want)
		}
		if resp, env = call(t, srv, "GET", groupsPath+"/status?status=shipped", "en", "", bearer(op.Token)...); resp.StatusCode != 400 {
			t.Errorf("counts of a status groups do not have: %d %s", resp.StatusCode, env.Data)
		}
	})
}

// TestGroupMissedDeposit: a deposit deadline passes; paying then is refused
// with the spec's message, and the background sweep fails the order within
// a minute, forfeiting the first deposit (a ledger entry on the order).
func TestGroupMissedDeposit(t *testing.T) {
	t.Parallel()
	groupMoneyTest(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData, provider string) {
		v := depositPaidGroup(t, srv, op.Token, provider, "grp-miss")
		wallet := walletMinor(t, a, op.Company.ID)
		if _, err := a.DB.ExecContext(context.Background(), a.DB.Rebind(`UPDATE group_deadlines SET deadline = ? WHERE order_id = ? AND kind = 'second'`),
			time.Now().Add(-time.Minute).UTC(), v.ID); err != nil {
			t.Fatal(err)
		}
		resp, env := payGroup(t, srv, op.Token, v.ID, "second", "miss-2")
		if resp.StatusCode != 409 || env.Code != 100009 || env.Message != "Group payment time expired: contact the administrator" {
			t.Fatalf("late payment: %d %+v", resp.StatusCode, env)
		}
		runJobs(t, a)
		failed := waitGroup(t, srv, op.Token, v.ID, group.Failed)
		if installment(failed, "first").Status != group.InstForfeited || installment(failed, "second").Status != group.InstNotDue ||
			!hasEntry(failed, ledger.TypeGroupForfeit, "1800.00") || walletMinor(t, a, op.Company.ID) != wallet {
			t.Fatalf("missed deposit: %+v", failed)
		}
		last := failed.Timeline[len(failed.Timeline)-1]
		if last.Action != "miss" || last.Actor != "system" || last.FromStatus != string(group.ToBePaySecond) {
			t.Fatalf("timeline: %+v", last)
		}
	})
}

// TestGroupCancel: before any deposit cancelling costs nothing; after the
// first deposit it is forfeited. A two-stage quote skips the second and
// third deposits.
func TestGroupCancel(t *testing.T) {
	t.Parallel()
	groupMoneyTest(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData, provider string) {
		free := requestGroup(t, srv, op.Token, "grp-free")
		c := groupCall(t, srv, op.Token, "DELETE", fmt.Sprintf("%s/%d", groupsPath, free.ID), "", 200)
		if c.Status != group.Canceled || len(c.Ledger) != 0 {
			t.Fatalf("free cancel: %+v", c)
		}

		v := confirmedGroup(t, srv, op.Token, provider, "grp-cancel", "first", "final")
		resp, env := payGroup(t, srv, op.Token, v.ID, "first", "cancel-1")
		if resp.StatusCode != 200 || groupView(t, env).Status != group.ToBePaidLast {
			t.Fatalf("a two-stage quote goes from the first deposit to the final payment: %d %+v", resp.StatusCode, env)
		}
		wallet := walletMinor(t, a, op.Company.ID)
		c = groupCall(t, srv, op.Token, "DELETE", fmt.Sprintf("%s/%d", groupsPath, v.ID), "", 200)
		if c.Status != group.Canceled || installment(c, "first").Status != group.InstForfeited || !hasEntry(c, ledger.TypeGroupForfeit, "5400.00") ||
			walletMinor(t, a, op.Company.ID) != wallet {
			t.Fatalf("cancel after a deposit: %+v", c)
		}
		if resp, env := payGroup(t, srv, op.Token, v.ID, "final", "cancel-2"); resp.StatusCode != 409 || env.Code != 100009 {
			t.Fatalf("paying a cancelled group: %d %+v", resp.StatusCode, env)
		}
	})
}

// TestGroupScope: another agency neither sees nor acts on an order; the
// parent sees its sub-agency's; the agency cannot quote.
func TestGroupScope(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		op := loginAs(t, srv, "demo-operator", "demo-pass-1").Token
		sub := loginAs(t, srv, "sub-super", "demo-pass-1").Token
		stranger := loginAs(t, srv, "bluesky-super", "demo-pass-1").Token
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1").Token
		v := requestGroup(t, srv, op, "grp-scope")
		p := fmt.Sprintf("%s/%d", groupsPath, v.ID)
		for _, c := range []struct{ method, path, body string }{
			{"GET", p, ""}, {"GET", p + "/passengers", ""}, {"DELETE", p, ""}, {"POST", p + "/confirmation", ""},
			{"POST", p + "/quote/acceptance", ""}, {"POST", p + "/payment", `{"channel":"balance","stage":"first"}`},
		} {
			for name, tok := range map[string]string{"another agency": stranger, "a sub-agency": sub} {
				if resp, env := call(t, srv, c.method, c.path, "en", c.body, bearer(tok)...); resp.StatusCode != 404 || env.Code != 100004 {
					t.Errorf("%s: %s %s = %d %+v, want 404", name, c.method, c.path, resp.StatusCode, env)
				}
			}
		}
		if resp, _ := uploadList(t, srv, stranger, v.ID, grouptest.Workbook(t, grouptest.Rows(10, 10)), "en"); resp.StatusCode != 404 {
			t.Errorf("another agency uploading: %d", resp.StatusCode)
		}
		for _, tok := range []string{stranger, sub} {
			_, env := call(t, srv, "GET", groupsPath+"?status=all", "en", "", bearer(tok)...)
			if strings.Contains(string(env.Data), v.BookingNumber) {
				t.Errorf("another agency lists %s", v.BookingNumber)
			}
		}
		// The parent sees its sub-agency's request.
		sv := requestGroup(t, srv, sub, "grp-sub")
		groupCall(t, srv, op, "GET", fmt.Sprintf("%s/%d", groupsPath, sv.ID), "", 200)
		if resp, _ := call(t, srv, "POST", p+"/quote", "en", quoteBody(), bearer(op)...); resp.StatusCode != 403 {
			t.Errorf("the agency quoting its own request: %d", resp.StatusCode)
		}
		if got := groupCall(t, srv, provider, "GET", p, "", 200); len(got.Actions) != 2 || got.Actions[0] != group.ActQuote || got.Actions[1] != group.ActClose {
			t.Errorf("the provider's actions: %v", got.Actions)
		}
		// The provider may close the sub-agency's request it will not quote.
		if closed := groupCall(t, srv, provider, "POST", fmt.Sprintf("%s/%d/close", groupsPath, sv.ID), `{"remark":"no group space"}`, 200); closed.Status != group.Closed {
			t.Errorf("closed: %+v", closed)
		}
		// Bad requests change nothing: too small a group, a same-city
		// journey, a past date.
		for body, field := range map[string]string{
			strings.Replace(groupRequestBody(), `"cabinClass"`, `"passengers":{"adult":5,"child":2,"infant":0},"cabinClass"`, 1): "passengers",
			strings.Replace(groupRequestBody(), `"destination":"SHA"`, `"destination":"PKX"`, 1):                                 "journeys[0].destination",
			strings.Replace(groupRequestBody(), time.Now().AddDate(0, 0, 60).Format(time.DateOnly), "2020-01-01", 1):             "journeys[0].date",
		} {
			resp, env := call(t, srv, "POST", groupsPath, "en", body, append(bearer(op), "Idempotency-Key", "bad-"+field)...)
			if resp.StatusCode != 400 || !strings.Contains(string(env.Data), field) {
				t.Errorf("bad request (%s): %d %s", field, resp.StatusCode, env.Data)
			}
		}
	})
}

// TestGroupBadListFiles: files that are not lists are refused with a clear
// message and nothing stored.
func TestGroupBadListFiles(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		op := loginAs(t, srv, "demo-operator", "demo-pass-1").Token
		v := requestGroup(t, srv, op, "grp-files")
		formula := grouptest.Workbook(t, grouptest.Rows(10, 10))
		{
			f, err := excelize.OpenReader(bytes.NewReader(formula))
			if err != nil {
				t.Fatal(err)
			}
			_ = f.SetCellFormula("Sheet1", "C5", `CONCATENATE("A","B")`)
			var buf bytes.Buffer
			_ = f.Write(&buf)
			formula = buf.Bytes()
		}
		headers := grouptest.Rows(10, 10)
		headers[0][1] = "Family"
		for name, c := range map[string]struct {
			data []byte
			want string
		}{
			"text":       {[]byte("surname,given\nWANG,XIAO\n"), "The file is not an Excel (.xlsx) workbook"},
			"broken zip": {append([]byte("PK\x03\x04"), bytes.Repeat([]byte{1}, 200)...), "The file is not an Excel (.xlsx) workbook"},
			"headers":    {grouptest.Workbook(t, headers), "The column headers do not match the template: download the template and fill it in"},
			"formula":    {formula, "Cell C5 holds a formula: enter plain values only"},
			"zip bomb":   {zipBomb(t), "The workbook unpacks to far more data than a passenger list holds"},
			// The main namespace under a prefix, as some writers save it:
			// the formula check once looked for "<f" only.
			"prefixed formula": {withSheet(t, `<x:worksheet xmlns:x="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><x:sheetData>`+
				`<x:row r="1"><x:c r="A1" t="inlineStr"><x:is><x:t>type</x:t></x:is></x:c></x:row>`+
				`<x:row r="2"><x:c r="B2"><x:f>1+1</x:f><x:v>2</x:v></x:c></x:row></x:sheetData></x:worksheet>`),
				"Cell B2 holds a formula: enter plain values only"},
			// One cell in the last column on 500 rows: 8.7 kB that cost
			// 200 MB and 4 s of CPU once read.
			"column XFD": {withSheet(t, xfdSheet(500)), "Cell XFD1 is past the template's last column (L): keep to the template's columns"},
			// Cells without their reference are where the one before
			// leaves off: the thirteenth is past L.
			"thirteen cells": {withSheet(t, `<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData><row>`+
				strings.Repeat(`<c t="inlineStr"><is><t>x</t></is></c>`, 13)+`</row></sheetData></worksheet>`),
				"Cell M1 is past the template's last column (L): keep to the template's columns"},
		} {
			resp, env := uploadList(t, srv, op, v.ID, c.data, "en")
			if resp.StatusCode != 400 || env.Code != 100001 || env.Message != c.want {
				t.Errorf("%s: %d %+v", name, resp.StatusCode, env)
			}
		}
		resp, _ := sendRaw(t, srv, "GET", groupsPath+"/passengers/template?lang=zh-tw", "", nil, false, bearer(op)...)
		if resp.StatusCode != 200 || !strings.Contains(resp.Header.Get("Content-Type"), "spreadsheetml") {
			t.Fatalf("template: %d", resp.StatusCode)
		}
		if got := groupCall(t, srv, op, "GET", fmt.Sprintf("%s/%d", groupsPath, v.ID), "", 200); got.PassengerCount != 0 {
			t.Fatalf("a refused file stored %d passengers", got.PassengerCount)
		}
	})
}

// xfdSheet is a sheet of rows one cell each, in column XFD.
func xfdSheet(rows int) string {
	var b strings.Builder
	b.WriteString(`<worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`)
	for r := 1; r <= rows; r++ {
		fmt.Fprintf(&b, `<row r="%d"><c r="XFD%d" t="inlineStr"><is><t>x</t></is></c></row>`, r, r)
	}
	b.WriteString(`</sheetData></worksheet>`)
	return b.String()
}

// withSheet is a list workbook whose first sheet is sheetXML, written as a
// program other than Excel might.
func withSheet(t testing.TB, sheetXML string) []byte {
	t.Helper()
	return rewriteSheet(t, func(w io.Writer) {
		_, _ = io.WriteString(w, `<?xml version="1.0" encoding="UTF-8"?>`+sheetXML)
	})
}

// zipBomb is a workbook whose sheet inflates from about 40 kB to 40 MB.
func zipBomb(t *testing.T) []byte {
	t.Helper()
	return rewriteSheet(t, func(w io.Writer) {
		_, _ = w.Write([]byte(`<?xml version="1.0" encoding="UTF-8"?><worksheet xmlns="http://schemas.openxmlformats.org/spreadsheetml/2006/main"><sheetData>`))
		_, _ = w.Write(bytes.Repeat([]byte(" "), 40<<20))
		_, _ = w.Write([]byte(`</sheetData></worksheet>`))
	})
}

// rewriteSheet is a list workbook with its first sheet written by sheet.
func rewriteSheet(t testing.TB, sheet func(w io.Writer)) []byte {
	t.Helper()
	src := grouptest.Workbook(t, grouptest.Rows(10, 10))
	zr, err := zip.NewReader(bytes.NewReader(src), int64(len(src)))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	zw := zip.NewWriter(&buf)
	for _, f := range zr.File {
		w, err := zw.Create(f.Name)
		if err != nil {
			t.Fatal(err)
		}
		if f.Name == "xl/worksheets/sheet1.xml" {
			sheet(w)
			continue
		}
		r, _ := f.Open()
		_, _ = io.Copy(w, r)
		r.Close()
	}
	_ = zw.Close()
	return buf.Bytes()
}

// TestGroupRemindersAndWebhooks: every status change reaches the agency's
// webhook, and a deadline within the reminder time sends the contact an
// email and the webhook a group.reminder, once.
func TestGroupRemindersAndWebhooks(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		ctx := context.Background()
		op, provider := groupParties(t, srv)
		f := agency.DefaultFlightSettings()
		f.BookingNotifyURL = "https://hooks.example.com/voyage"
		raw, _ := json.Marshal(f)
		if _, err := a.DB.ExecContext(ctx, a.DB.Rebind(`UPDATE agencies SET flight_settings = ? WHERE id = ?`), string(raw), op.Company.ID); err != nil {
			t.Fatal(err)
		}
		// The row was written behind the agency cache's back: forget it, as
		// the product's own writes do.
		a.Agencies.Forget(op.Company.ID)
		v := confirmedGroup(t, srv, op.Token, provider, "grp-remind")
		var events []string
		if err := a.DB.SelectContext(ctx, &events, a.DB.Rebind(`SELECT payload FROM webhook_deliveries WHERE agency_id = ? AND event = 'group.status' ORDER BY id`), op.Company.ID); err != nil {
			t.Fatal(err)
		}
		// request, quote, confirm, grant.
		if len(events) != 4 || !strings.Contains(events[3], `"status":"to_be_pay_first"`) || !strings.Contains(events[3], v.BookingNumber) {
			t.Fatalf("webhooks: %v", events)
		}
		if _, err := a.DB.ExecContext(ctx, a.DB.Rebind(`UPDATE group_deadlines SET deadline = ? WHERE order_id = ? AND kind = 'first'`),
			time.Now().Add(3*time.Hour).UTC(), v.ID); err != nil {
			t.Fatal(err)
		}
		for round, want := range []int{1, 0} {
			n, err := a.Groups.Remind(ctx)
			if err != nil || n != want {
				t.Fatalf("reminders round %d: %d %v, want %d", round, n, err, want)
			}
		}
		var subjects []string
		if err := a.DB.SelectContext(ctx, &subjects, a.DB.Rebind(`SELECT subject FROM emails WHERE to_addr = ?`), "li.lei@example.com"); err != nil {
			t.Fatal(err)
		}
		if len(subjects) != 1 || subjects[0] != "Group "+v.BookingNumber+": first deposit due soon" {
			t.Fatalf("reminder emails: %v", subjects)
		}
		var reminders int
		if err := a.DB.GetContext(ctx, &reminders, a.DB.Rebind(`SELECT COUNT(*) FROM webhook_deliveries WHERE agency_id = ? AND event = 'group.reminder'`), op.Company.ID); err != nil || reminders != 1 {
			t.Fatalf("reminder webhooks: %d %v", reminders, err)
		}
	})
}

// TestGroupGatewayPayment: an installment paid through a payment gateway
// leaves the wallet alone; a declined charge changes nothing.
func TestGroupGatewayPayment(t *testing.T) {
	t.Parallel()
	seededWith(t, func(c *config.Config) { c.Payment.TestGateway = true }, func(t *testing.T, a *app.App, srv *httptest.Server) {
		op, provider := groupParties(t, srv)
		v := confirmedGroup(t, srv, op.Token, provider, "grp-gateway")
		path := fmt.Sprintf("%s/%d/payment", groupsPath, v.ID)
		resp, env := call(t, srv, "POST", path, "en", `{"channel":"stripe","stage":"first","testOutcome":"failure"}`, append(bearer(op.Token), "Idempotency-Key", "gw-1")...)
		if resp.StatusCode != 402 || env.Code != 300002 {
			t.Fatalf("declined: %d %+v", resp.StatusCode, env)
		}
		if got := groupCall(t, srv, op.Token, "GET", fmt.Sprintf("%s/%d", groupsPath, v.ID), "", 200); got.Status != group.ToBePayFirst || len(got.Ledger) != 0 {
			t.Fatalf("a declined payment changed the order: %+v", got)
		}
		resp, env = call(t, srv, "POST", path, "en", `{"channel":"stripe","stage":"first"}`, append(bearer(op.Token), "Idempotency-Key", "gw-2")...)
		paid := groupView(t, env)
		if resp.StatusCode != 200 || paid.Status != group.ToBePaySecond || installment(paid, "first").Channel != "stripe" ||
			!hasEntry(paid, ledger.TypeGroupDeposit, "1800.00") || walletMinor(t, a, op.Company.ID) != 0 {
			t.Fatalf("gateway payment: %d %+v", resp.StatusCode, paid)
		}
		ledgerZero(t, a)
	})
}

// TestGroupConcurrentPayments: eight payments of the same installment at
// once, each with its own key, charge the wallet once; each answers the
// order with the installment paid.
func TestGroupConcurrentPayments(t *testing.T) {
	t.Parallel()
	groupMoneyTest(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData, provider string) {
		v := confirmedGroup(t, srv, op.Token, provider, "grp-race")
		before := walletMinor(t, a, op.Company.ID)
		codes := make(chan int, 8)
		var wg sync.WaitGroup
		for i := 0; i < 8; i++ {
			wg.Add(1)
			go func(i int) {
				defer wg.Done()
				req, _ := http.NewRequest("POST", fmt.Sprintf("%s%s/%d/payment", srv.URL, groupsPath, v.ID), strings.NewReader(`{"channel":"balance","stage":"first"}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer "+op.Token)
				req.Header.Set("Idempotency-Key", fmt.Sprintf("race-%d", i))
				resp, err := srv.Client().Do(req)
				if err != nil {
					codes <- 0
					return
				}
				resp.Body.Close()
				codes <- resp.StatusCode
			}(i)
		}
		wg.Wait()
		close(codes)
		for c := range codes {
			if c != 200 {
				t.Errorf("a concurrent payment answered %d, want 200 (the installment paid)", c)
			}
		}
		if paid := before - walletMinor(t, a, op.Company.ID); paid != 180000 {
			t.Fatalf("the wallet paid %d, want one 1800.00", paid)
		}
	})
}

// TestGroupPaymentNamesItsInstallment: a payment names the installment it
// pays. Two clicks on "pay the second deposit" with different keys pay it
// once and leave the third deposit due (they paid both before); a payment
// naming none, or one not yet due, is refused and changes nothing.
func TestGroupPaymentNamesItsInstallment(t *testing.T) {
	t.Parallel()
	groupMoneyTest(t, func(t *testing.T, a *app.App, srv *httptest.Server, op meData, provider string) {
		v := depositPaidGroup(t, srv, op.Token, provider, "grp-named")
		before := walletMinor(t, a, op.Company.ID)
		path := fmt.Sprintf("%s/%d/payment", groupsPath, v.ID)
		for _, c := range []struct{ body, field string }{
			{`{"channel":"balance"}`, "stage"},
			{`{"channel":"balance","stage":""}`, "stage"},
			{`{"channel":"balance","stage":"deposit"}`, "stage"},
		} {
			resp, env := call(t, srv, "POST", path, "zh-cn", c.body, append(bearer(op.Token), "Idempotency-Key", "named-bad")...)
			if resp.StatusCode != 400 || fieldsOf(t, env)[c.field] == "" {
				t.Errorf("%s: %d %+v, want 400 on %s", c.body, resp.StatusCode, env, c.field)
			}
		}
		if resp, env := payGroup(t, srv, op.Token, v.ID, "third", "named-third-early"); resp.StatusCode != 409 {
			t.Errorf("the third deposit while the second is due: %d %+v, want 409", resp.StatusCode, env)
		}
		for i, key := range []string{"click-1", "click-2", "click-1"} {
			resp, env := payGroup(t, srv, op.Token, v.ID, "second", key)
			got := groupView(t, env)
			if resp.StatusCode != 200 || installment(got, "second").Status != group.InstPaid || installment(got, "third").Status == group.InstPaid {
				t.Fatalf("click %d (%s) on the second deposit: %d %+v", i+1, key, resp.StatusCode, got.Installments)
			}
		}
		if paid := before - walletMinor(t, a, op.Company.ID); paid != 360000 {
			t.Fatalf("the wallet paid %d for the second deposit, want 3600.00 once", paid)
		}
	})
}
