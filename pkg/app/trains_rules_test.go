package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/config"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/supplier/rail"
	"github.com/voyage/voyage/pkg/supplier/rail/railsim"
	"github.com/voyage/voyage/pkg/train"
)

const onePassenger = `[{"type":"adult","surname":"LI","givenName":"NA","documentType":"passport","documentNumber":"G12345678"}]`

func enableTrains(t *testing.T, a *app.App, agency int64, settings string) {
	t.Helper()
	_, err := a.DB.ExecContext(context.Background(), a.DB.Rebind(`UPDATE agencies SET enable_train_service = ?, train_settings = ? WHERE id = ?`),
		true, settings, agency)
	if err != nil {
		t.Fatal(err)
	}
	a.Agencies.Forget(agency)
}

// bookedAndPaid books one passenger on a G train days ahead and pays.
func bookedAndPaid(t *testing.T, srv *httptest.Server, token string, days int, key string) train.View {
	t.Helper()
	offer := secondClassOffer(t, srv, token, days, 1)
	resp, env, v := bookTrain(t, srv, token, offer.ID, onePassenger, key)
	if resp.StatusCode != 201 {
		t.Fatalf("create: %d %+v", resp.StatusCode, env)
	}
	if resp, env, _ := payTrain(t, srv, token, v.ID, key+"-pay"); resp.StatusCode != 200 {
		t.Fatalf("pay: %d %+v", resp.StatusCode, env)
	}
	return v
}

// TestTrainScope: an order is seen by its agency and the agencies above
// it, acted on by its own agency only; a company without the train
// service gets 200003.
func TestTrainScope(t *testing.T) {
	seededWithJobs(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		demo, sub := agencyID(t, a, "Demo Travel"), agencyID(t, a, "Demo Sub Travel")
		fund(t, a, demo, "5000.00")
		op := loginAs(t, srv, "demo-operator", "demo-pass-1").Token

		blue := loginAs(t, srv, "bluesky-super", "demo-pass-1").Token
		resp, env, _ := trainSearch(t, srv, blue, "zh-cn", fmt.Sprintf(`{"origin":"VNP","destination":"AOH","date":%q}`, chinaDate(2)))
		if resp.StatusCode != 403 || env.Code != fault.CodeNoAccess || env.Message == "" {
			t.Fatalf("search without the train service: %d %+v", resp.StatusCode, env)
		}
		if resp, env := call(t, srv, "GET", "/order/v2/train/orders", "en", "", bearer(blue)...); resp.StatusCode != 403 || env.Code != fault.CodeNoAccess {
			t.Fatalf("list without the train service: %d %+v", resp.StatusCode, env)
		}

		v := bookedAndPaid(t, srv, op, 4, "scope-1")
		waitTrain(t, srv, op, v.ID, train.Issued)

		// The list's days are the agency's (Asia/Shanghai): today's order
		// is today's, tomorrow holds none.
		for _, c := range []struct {
			from string
			want int
		}{{chinaDate(0), 1}, {chinaDate(1), 0}} {
			page := okData[train.Page](t, srv, "list by day", "GET", "/order/v2/train/orders?from="+c.from+"&to="+c.from, "", bearer(op)...)
			if page.Total != c.want {
				t.Errorf("orders created on %s (the agency's day): %d, want %d", c.from, page.Total, c.want)
			}
		}

		// Another agency, trains on, sees and does nothing.
		enableTrains(t, a, 222, `{"notifyUrl":"","manual":false}`)
		blue = loginAs(t, srv, "bluesky-super", "demo-pass-1").Token
		base := fmt.Sprintf("/order/v2/train/orders/%d", v.ID)
		for _, c := range []struct{ method, path, body string }{
			{"GET", base, ""}, {"POST", base + "/payment", `{"channel":"balance"}`}, {"POST", base + "/refund", `{}`},
			{"POST", base + "/confirmation", ""}, {"DELETE", base, ""}, {"DELETE", base + "/quote", ""},
			{"POST", base + "/change", `{"offerId":"cr-sim~x","seatClass":"second"}`}, {"GET", base + "/documents/eticket", ""},
		} {
			resp, env := call(t, srv, c.method, c.path, "en", c.body, append(bearer(blue), "Idempotency-Key", "blue-1")...)
			if resp.StatusCode != 404 || env.Code != fault.CodeNotFound {
				t.Errorf("other agency %s %s: %d %+v", c.method, c.path, resp.StatusCode, env)
			}
		}
		_, env = call(t, srv, "GET", "/order/v2/train/orders", "en", "", bearer(blue)...)
		if !strings.Contains(string(env.Data), `"total":0`) {
			t.Errorf("other agency's list: %s", env.Data)
		}
		_, env = call(t, srv, "GET", "/order/v2/train/orders/status?status=issued", "en", "", bearer(blue)...)
		if string(env.Data) != `[{"status":"issued","cnt":0}]` {
			t.Errorf("other agency's counts: %s", env.Data)
		}

		// A sub-agency's order is seen by its parent, not acted on; the sub
		// does not see its parent's.
		enableTrains(t, a, sub, `{"notifyUrl":"","manual":false}`)
		subTok := loginAs(t, srv, "sub-super", "demo-pass-1").Token
		offer := secondClassOffer(t, srv, subTok, 5, 1)
		resp, env, sv := bookTrain(t, srv, subTok, offer.ID, onePassenger, "sub-1")
		if resp.StatusCode != 201 {
			t.Fatalf("sub create: %d %+v", resp.StatusCode, env)
		}
		super := loginAs(t, srv, "demo-super", "demo-pass-1").Token
		if code, got := trainOrder(t, srv, super, sv.ID); code != 200 || len(got.Actions) != 0 {
			t.Errorf("parent reads the sub's order: %d actions %v", code, got.Actions)
		}
		if resp, env, _ := payTrain(t, srv, super, sv.ID, "parent-pays"); resp.StatusCode != 403 {
			t.Errorf("parent pays the sub's order: %d %+v", resp.StatusCode, env)
		}
		_, env = call(t, srv, "GET", "/order/v2/train/orders", "en", "", bearer(super)...)
		if !strings.Contains(string(env.Data), `"total":2`) {
			t.Errorf("parent's list holds its own and the sub's: %s", env.Data)
		}
		if code, _ := trainOrder(t, srv, subTok, v.ID); code != 404 {
			t.Errorf("sub reads its parent's order: %d", code)
		}
		// The provider sees every order and is not the one to pay.
		prov := loginAs(t, srv, "provider-admin", "provider-pass-1").Token
		if code, _ := trainOrder(t, srv, prov, sv.ID); code != 200 {
			t.Errorf("provider reads an order: %d", code)
		}
		// The agency itself cancels its unpaid order.
		resp, env = call(t, srv, "DELETE", fmt.Sprintf("/order/v2/train/orders/%d", sv.ID), "en", "", bearer(subTok)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"status":"canceled"`) {
			t.Errorf("cancel: %d %s", resp.StatusCode, env.Data)
		}
		// Its train orders keep the sub-agency from being deleted.
		resp, env = call(t, srv, "DELETE", fmt.Sprintf("/base/v2/agencies/%d", sub), "en", "", bearer(super)...)
		if resp.StatusCode != 409 || env.Message != "This agency has train orders and cannot be deleted" {
			t.Errorf("delete an agency with train orders: %d %+v", resp.StatusCode, env)
		}
	})
}

// TestTrainBadInput: each refusal is a translated message on the field at
// fault, and nothing is booked or charged.
func TestTrainBadInput(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		demo, start, op := fundedTrainAgent(t, a, srv, "5000.00")
		fields := func(env envelope) map[string]string {
			var d struct {
				Fields map[string]string `json:"fields"`
			}
			_ = json.Unmarshal(env.Data, &d)
			return d.Fields
		}
		for _, c := range []struct {
			name, body, field, zh string
		}{
			{"same city", fmt.Sprintf(`{"origin":"VNP","destination":"BJP","date":%q}`, chinaDate(2)), "destination", "出发地与目的地为同一城市"},
			{"beyond the sales window", fmt.Sprintf(`{"origin":"VNP","destination":"AOH","date":%q}`, chinaDate(30)), "date", "该日期车票未在售（提前15天开售）"},
			{"in the past", fmt.Sprintf(`{"origin":"VNP","destination":"AOH","date":%q}`, chinaDate(-1)), "date", "该日期车票未在售（提前15天开售）"},
			{"unknown station", fmt.Sprintf(`{"origin":"ZZZ","destination":"AOH","date":%q}`, chinaDate(2)), "origin", "未知车站，请从列表中选择"},
		} {
			resp, env, _ := trainSearch(t, srv, op, "zh-cn", c.body)
			if resp.StatusCode != 400 || env.Code != fault.CodeValidation || fields(env)[c.field] != c.zh {
				t.Errorf("%s: %d %+v", c.name, resp.StatusCode, env)
			}
			_, env, _ = trainSearch(t, srv, op, "en", c.body)
			if m := fields(env)[c.field]; m == "" || m == c.zh || strings.HasPrefix(m, "train.") {
				t.Errorf("%s: English message %q", c.name, m)
			}
		}

		offer := secondClassOffer(t, srv, op, 2, 1)
		for _, c := range []struct{ name, pax, field string }{
			{"bad ID card check digit", `[{"type":"adult","surname":"张","givenName":"伟","documentType":"id_card","documentNumber":"110105194912310021"}]`, "passengers[0].documentNumber"},
			{"child alone", `[{"type":"child","surname":"LI","givenName":"XIAO","documentType":"passport","documentNumber":"G1234567"}]`, "passengers"},
			{"unknown ticket type", `[{"type":"infant","surname":"LI","givenName":"XIAO","documentType":"passport","documentNumber":"G1234567"}]`, "passengers[0].type"},
			{"seat letter E", `[{"type":"adult","surname":"LI","givenName":"NA","documentType":"passport","documentNumber":"G1234567","seatLetter":"E"}]`, "passengers[0].seatLetter"},
		} {
			resp, env, _ := bookTrain(t, srv, op, offer.ID, c.pax, "bad-"+c.name)
			if resp.StatusCode != 400 || fields(env)[c.field] == "" {
				t.Errorf("%s: %d %+v", c.name, resp.StatusCode, env)
			}
		}
		resp, env := call(t, srv, "POST", "/order/v2/train/orders", "en",
			fmt.Sprintf(`{"offerId":%q,"seatClass":"second","passengers":%s,"contact":%s}`, offer.ID, onePassenger, trainContact), bearer(op)...)
		if resp.StatusCode != 400 || fields(env)["Idempotency-Key"] == "" {
			t.Errorf("no Idempotency-Key: %d %+v", resp.StatusCode, env)
		}

		// An expired offer (its validity is in its reference).
		i := strings.LastIndex(offer.ID, ".")
		stale := offer.ID[:i+1] + fmt.Sprint(time.Now().Add(-time.Minute).Unix())
		resp, env, _ = bookTrain(t, srv, op, stale, onePassenger, "stale-offer")
		if resp.StatusCode != 409 || env.Code != fault.CodeQuoteExpired || !strings.Contains(env.Message, "15") {
			t.Errorf("expired offer: %d %+v", resp.StatusCode, env)
		}

		// Sold out: a class with a few seats left, asked for one more.
		_, _, res := trainSearch(t, srv, op, "en", fmt.Sprintf(`{"origin":"VNP","destination":"AOH","date":%q}`, chinaDate(1)))
		var soldOut bool
		for _, o := range res.Items {
			for _, s := range o.Seats {
				if s.Available < 1 || s.Available > 4 {
					continue
				}
				var pax []string
				for k := 0; k <= s.Available; k++ {
					pax = append(pax, fmt.Sprintf(`{"type":"adult","surname":"WANG","givenName":"P%d","documentType":"passport","documentNumber":"E9000000%d"}`, k, k))
				}
				body := fmt.Sprintf(`{"offerId":%q,"seatClass":%q,"passengers":[%s],"contact":%s}`, o.ID, s.Class, strings.Join(pax, ","), trainContact)
				resp, env := call(t, srv, "POST", "/order/v2/train/orders", "zh-cn", body, append(bearer(op), "Idempotency-Key", "sold-out")...)
				if resp.StatusCode != 409 || env.Code != fault.CodeNoFlight || env.Message != "该席别余票不足，请选择其他席别或车次" {
					t.Errorf("sold out %s %s: %d %+v", o.TrainNumber, s.Class, resp.StatusCode, env)
				}
				soldOut = true
				break
			}
			if soldOut {
				break
			}
		}
		if !soldOut {
			t.Fatal("no class with 1–4 seats left tomorrow")
		}

		// An expired hold: payment refused, the order canceled.
		_, _, v := bookTrain(t, srv, op, offer.ID, onePassenger, "hold")
		if _, err := a.DB.ExecContext(context.Background(), a.DB.Rebind(`UPDATE train_orders SET hold_expires_at = ? WHERE id = ?`),
			time.Now().Add(-time.Second).UTC(), v.ID); err != nil {
			t.Fatal(err)
		}
		resp, env, _ = payTrain(t, srv, op, v.ID, "hold-pay")
		if resp.StatusCode != 409 || env.Code != fault.CodeQuoteExpired {
			t.Errorf("pay after the hold: %d %+v", resp.StatusCode, env)
		}
		if _, got := trainOrder(t, srv, op, v.ID); got.Status != train.Canceled {
			t.Errorf("order after its hold: %s", got.Status)
		}

		if got := walletMinor(t, a, demo); got != start {
			t.Fatalf("bad input charged the wallet: %d, want %d", got, start)
		}
		_, env = call(t, srv, "GET", "/order/v2/train/orders", "en", "", bearer(op)...)
		if !strings.Contains(string(env.Data), `"total":1`) {
			t.Errorf("only the expired order was stored: %s", env.Data)
		}
	})
}

// TestTrainManualMode: the agency's manual train setting leaves paid orders
// to the provider, who issues them (or fails them with the money back);
// every status change is queued for the train notification URL.
func TestTrainManualMode(t *testing.T) {
	seededWithJobs(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		demo := agencyID(t, a, "Demo Travel")
		enableTrains(t, a, demo, `{"notifyUrl":"https://agency.example/train-hook","manual":true}`)
		fund(t, a, demo, "5000.00")
		start := walletMinor(t, a, demo)
		op := loginAs(t, srv, "demo-operator", "demo-pass-1").Token
		prov := loginAs(t, srv, "provider-admin", "provider-pass-1").Token

		v := bookedAndPaid(t, srv, op, 3, "manual-1")
		// Once the queue has worked what the payment queued, nothing has
		// issued the order, and no ticketing job waits for it.
		jobsWorked(t, a)
		tickets, err := a.Queue.Client.JobList(context.Background(), river.NewJobListParams().Kinds(train.TicketArgs{}.Kind()).First(1000))
		if err != nil {
			t.Fatal(err)
		}
		for _, j := range tickets.Jobs {
			var args train.TicketArgs
			if err := json.Unmarshal(j.EncodedArgs, &args); err != nil || args.OrderID == v.ID {
				t.Fatalf("a ticketing job (%s) for the manual order: %s %v", j.State, j.EncodedArgs, err)
			}
		}
		_, got := trainOrder(t, srv, op, v.ID)
		if got.Status != train.Proceeding || !got.Manual || len(got.Tickets) != 0 {
			t.Fatalf("manual order after payment: %s manual=%v tickets=%d", got.Status, got.Manual, len(got.Tickets))
		}
		path := fmt.Sprintf("/order/v2/train/orders/%d/tickets", v.ID)
		if resp, _ := call(t, srv, "POST", path, "en", "", bearer(op)...); resp.StatusCode != 403 {
			t.Errorf("agency confirms its own tickets: %d", resp.StatusCode)
		}
		resp, env := call(t, srv, "POST", path, "en", "", bearer(prov)...)
		var issued train.View
		_ = json.Unmarshal(env.Data, &issued)
		if resp.StatusCode != 200 || issued.Status != train.Issued || len(issued.Tickets) != 1 || issued.Tickets[0].Seat == "" {
			t.Fatalf("provider confirms: %d %+v", resp.StatusCode, env)
		}

		w := bookedAndPaid(t, srv, op, 3, "manual-2")
		resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/tickets", w.ID), "en", `{"fail":true,"remark":"no seats at the counter"}`, bearer(prov)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), `"status":"failed_reimbursed"`) {
			t.Fatalf("provider fails: %d %s", resp.StatusCode, env.Data)
		}
		if got := walletMinor(t, a, demo); got != start-parseCNY(t, v.Total) {
			t.Errorf("wallet = %d, want only the issued order paid (%d)", got, start-parseCNY(t, v.Total))
		}

		var rows []struct {
			Event string `db:"event"`
			URL   string `db:"url"`
		}
		if err := a.DB.SelectContext(context.Background(), &rows, a.DB.Rebind(`SELECT event, url FROM webhook_deliveries WHERE agency_id = ?`), demo); err != nil {
			t.Fatal(err)
		}
		// Per order: booked, paid, then issued / failed and reimbursed.
		if len(rows) != 7 {
			t.Errorf("%d webhook deliveries, want 7: %+v", len(rows), rows)
		}
		for _, r := range rows {
			if r.Event != train.EventStatus || r.URL != "https://agency.example/train-hook" {
				t.Errorf("delivery %+v", r)
			}
		}
	})
}

// TestTrainChange moves a ticket to another train once, with the fare
// difference through the wallet.
func TestTrainChange(t *testing.T) {
	seededWithJobs(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		demo, start, op := fundedTrainAgent(t, a, srv, "5000.00")
		v := bookedAndPaid(t, srv, op, 5, "change-1")
		before := waitTrain(t, srv, op, v.ID, train.Issued)

		_, _, res := trainSearch(t, srv, op, "en", fmt.Sprintf(`{"origin":"VNP","destination":"AOH","date":%q,"trainTypes":["G"],"sort":"price"}`, chinaDate(6)))
		var target train.OfferView
		for _, o := range res.Items {
			if o.TrainNumber != before.TrainNumber {
				target = o
				break
			}
		}
		path := fmt.Sprintf("/order/v2/train/orders/%d", v.ID)
		resp, env := call(t, srv, "POST", path+"/change", "en", fmt.Sprintf(`{"offerId":%q,"seatClass":"first"}`, target.ID), bearer(op)...)
		var q train.ChangeQuoteView
		_ = json.Unmarshal(env.Data, &q)
		if resp.StatusCode != 200 || q.Status != train.ChgToBeConfirm || q.Train.TrainNumber != target.TrainNumber {
			t.Fatalf("change quote: %d %+v", resp.StatusCode, env)
		}
		due, back := parseCNY(t, q.Due), parseCNY(t, q.RefundAmount)
		resp, env = call(t, srv, "POST", path+"/confirmation", "en", "", bearer(op)...)
		var changed train.View
		_ = json.Unmarshal(env.Data, &changed)
		if resp.StatusCode != 200 || changed.Status != train.Changed || changed.TrainNumber != target.TrainNumber {
			t.Fatalf("confirm change: %d %+v", resp.StatusCode, env)
		}
		// Every passenger moved: the order travels in the new class, as
		// its answer and a later read say.
		_, env = call(t, srv, "GET", path, "en", "", bearer(op)...)
		var read train.View
		_ = json.Unmarshal(env.Data, &read)
		if changed.SeatClass != "first" || read.SeatClass != "first" {
			t.Errorf("seat class after moving every passenger to first: answered %q, read %q", changed.SeatClass, read.SeatClass)
		}
		var old, cur int
		for _, tk := range changed.Tickets {
			switch tk.Status {
			case train.TicketExchanged:
				old++
			case train.TicketIssued:
				cur++
				if tk.TrainNumber != target.TrainNumber || tk.Class != "first" || tk.Exchanges != 1 {
					t.Errorf("new ticket %+v", tk)
				}
				// Its own train's arrival, which its e-ticket prints.
				if tk.ArriveAt == nil || !tk.ArriveAt.Equal(target.ArriveAt) {
					t.Errorf("new ticket arrives %v, its train %v", tk.ArriveAt, target.ArriveAt)
				}
			}
		}
		if old != 1 || cur != 1 {
			t.Errorf("tickets after the change: %+v", changed.Tickets)
		}
		if got, want := walletMinor(t, a, demo), start-parseCNY(t, v.Total)-due+back; got != want {
			t.Errorf("wallet = %d, want %d (due %d, back %d)", got, want, due, back)
		}
		resp, env = call(t, srv, "POST", path+"/change", "en", fmt.Sprintf(`{"offerId":%q,"seatClass":"second"}`, target.ID), bearer(op)...)
		if resp.StatusCode != 422 || env.Code != fault.CodeConflict {
			t.Errorf("second change of the ticket: %d %+v", resp.StatusCode, env)
		}
	})
}

// TestTrainRefundClosesBeforeDeparture runs the service on a railway whose
// clock the test moves: 20 minutes before departure refunds and changes are
// closed; 2 hours before, the fee is the under-24-hours band's 20%.
func TestTrainRefundClosesBeforeDeparture(t *testing.T) {
	t.Parallel()
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		ctx := context.Background()
		demo := agencyID(t, a, "Demo Travel")
		fund(t, a, demo, "5000.00")
		clock := time.Now()
		now := func() time.Time { return clock }
		cfg := railsim.Steady(7)
		cfg.Clock = now
		sup, err := railsim.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		svc := train.New(train.Options{Deps: booking.Deps{DB: a.DB, Ledger: a.Ledger, Agencies: a.Agencies, Now: now}, Supplier: sup, Stations: sup})
		ag, err := a.Agencies.Get(ctx, demo)
		if err != nil {
			t.Fatal(err)
		}
		var userID int64
		if err := a.DB.GetContext(ctx, &userID, a.DB.Rebind(`SELECT id FROM users WHERE username = ?`), "demo-operator"); err != nil {
			t.Fatal(err)
		}
		who := auth.Principal{UserID: userID, AgencyID: demo, Username: "demo-operator",
			Subject: auth.Subject{Roles: []string{auth.RoleOperator}, ProxyLevel: ag.ProxyLevel, Common: ag.Common()}}
		res, err := svc.Search(ctx, who, train.SearchRequest{Origin: "VNP", Destination: "AOH", Date: chinaDate(2)})
		if err != nil || len(res.Items) == 0 {
			t.Fatalf("search: %v", err)
		}
		o := res.Items[0]
		var p []train.Passenger
		_ = json.Unmarshal([]byte(onePassenger), &p)
		v, err := svc.Create(ctx, who, "closing", train.CreateRequest{OfferID: o.ID, SeatClass: o.Seats[len(o.Seats)-1].Class, Passengers: p,
			Contact: train.Contact{Name: "Li Na", Phone: "13800138000"}})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := svc.Pay(ctx, who, v.ID, "closing-pay", train.PayRequest{Channel: train.ChannelBalance}); err != nil {
			t.Fatal(err)
		}
		if err := svc.Ticket(ctx, v.ID); err != nil {
			t.Fatal(err)
		}

		clock = o.DepartAt.Add(-20 * time.Minute)
		_, err = svc.RefundQuote(ctx, who, v.ID, train.RefundRequest{})
		if fe, ok := fault.As(err); !ok || fe.Key != "train.error.refundClosed" || fe.Status != 422 {
			t.Fatalf("refund 20 minutes before departure: %v", err)
		}
		_, err = svc.ChangeQuote(ctx, who, v.ID, train.ChangeRequest{OfferID: o.ID, SeatClass: "second"})
		if fe, ok := fault.As(err); !ok || fe.Key != "train.error.refundClosed" {
			t.Fatalf("change 20 minutes before departure: %v", err)
		}
		if got, _ := svc.Get(ctx, who, v.ID); got.Status != train.Issued {
			t.Fatalf("a refused refund changed the order: %s", got.Status)
		}

		clock = o.DepartAt.Add(-2 * time.Hour)
		q, err := svc.RefundQuote(ctx, who, v.ID, train.RefundRequest{})
		if err != nil {
			t.Fatal(err)
		}
		fare := parseCNY(t, q.Fare)
		if want, _ := rail.ChinaRailway().RefundFee(fare, o.DepartAt, clock); parseCNY(t, q.Fee) != want || want < fare*20/100-50 {
			t.Errorf("fee 2 h before departure %s of %s, want 20%% (%d)", q.Fee.Amount, q.Fare.Amount, want)
		}
	})
}

// TestTrainGatewayPayment pays through the (test) payment gateway the
// flight orders use: the wallet is not touched, the ledger records the
// money from the funding account; a declined payment leaves the order
// payable, and a gateway that did not answer settles through the check.
func TestTrainGatewayPayment(t *testing.T) {
	t.Parallel()
	seededWith(t, func(c *config.Config) { c.Payment.TestGateway = true }, func(t *testing.T, a *app.App, srv *httptest.Server) {
		runJobs(t, a)
		demo := agencyID(t, a, "Demo Travel")
		start := walletMinor(t, a, demo)
		op := loginAs(t, srv, "demo-operator", "demo-pass-1").Token
		offer := secondClassOffer(t, srv, op, 3, 1)
		pay := func(id int64, outcome, key string) (int, envelope) {
			resp, env := call(t, srv, "POST", fmt.Sprintf("/order/v2/train/orders/%d/payment", id), "en",
				fmt.Sprintf(`{"channel":"alipay","testOutcome":%q}`, outcome), append(bearer(op), "Idempotency-Key", key)...)
			return resp.StatusCode, env
		}

		_, _, v := bookTrain(t, srv, op, offer.ID, onePassenger, "gw-1")
		if code, env := pay(v.ID, "failure", "gw-1-a"); code != 402 || env.Code != fault.CodePaymentFailed {
			t.Fatalf("declined: %d %+v", code, env)
		}
		if _, got := trainOrder(t, srv, op, v.ID); got.Status != train.ToBePaid {
			t.Fatalf("after a declined payment: %s", got.Status)
		}
		if code, env := pay(v.ID, "success", "gw-1-b"); code != 200 || !strings.Contains(string(env.Data), `"status":"proceeding"`) {
			t.Fatalf("paid: %d %+v", code, env)
		}
		if code, _ := pay(v.ID, "success", "gw-1-b"); code != 200 {
			t.Errorf("replay of the gateway payment: %d", code)
		}
		waitTrain(t, srv, op, v.ID, train.Issued)

		_, _, w := bookTrain(t, srv, op, offer.ID, onePassenger, "gw-2")
		if code, env := pay(w.ID, "timeout", "gw-2-a"); code != 504 || env.Code != fault.CodePaymentFailed {
			t.Fatalf("timeout: %d %+v", code, env)
		}
		if _, got := trainOrder(t, srv, op, w.ID); got.Status != train.Holding || len(got.Actions) != 0 {
			t.Fatalf("after a time-out: %s %v", got.Status, got.Actions)
		}
		if err := a.Trains.CheckPayment(context.Background(), w.ID); err != nil {
			t.Fatal(err)
		}
		waitTrain(t, srv, op, w.ID, train.Issued)

		if got := walletMinor(t, a, demo); got != start {
			t.Errorf("gateway payments touched the wallet: %d, want %d", got, start)
		}
		var n int
		if err := a.DB.GetContext(context.Background(), &n, a.DB.Rebind(`SELECT COUNT(*) FROM ledger_transfers WHERE payment_type = ? AND order_id IN (?, ?)`),
			"origin-train", v.BookingNumber, w.BookingNumber); err != nil {
			t.Fatal(err)
		}
		if n != 2 {
			t.Errorf("%d origin-train ledger transfers for the two gateway payments, want 2", n)
		}
	})
}
