package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/ledger"
)

// channelRefund is what a booking's refund through its channel left: the
// refund's record.
type channelRefund struct {
	State     string `db:"state"`
	Amount    int64  `db:"amount"`
	Channel   string `db:"channel"`
	Reference string `db:"reference"`
	Detail    string `db:"detail"`
}

// refundsOf are the channel refunds of a line's booking, oldest first.
func refundsOf(t *testing.T, a *app.App, line string, bookingID int64) []channelRefund {
	t.Helper()
	var rows []channelRefund
	if err := a.DB.SelectContext(context.Background(), &rows, a.DB.Rebind(`SELECT state, amount, channel, reference, detail
		FROM channel_refunds WHERE line = ? AND booking_id = ? ORDER BY id`), line, bookingID); err != nil {
		t.Fatal(err)
	}
	return rows
}

// voidThroughTheChannel tickets a flight order paid by channel, voids it
// on the day through the API (the agency asks, the provider approves: the
// price less the service fee is given back) and works the queue, which
// asks the channel for the refund. It checks that the refund went to the
// channel for the void's amount (refunded, what the channel's fake holds,
// when it keeps state), in the state the channel leaves it (done, or
// processing for a channel that settles refunds later), that the wallet
// ends where it was before the void, and that finance finds the refund in
// Transactions.
func voidThroughTheChannel(t *testing.T, a *app.App, srv *httptest.Server, op meData, o flight.View, channel, state string,
	refunded func() int64) {
	t.Helper()
	ctx := context.Background()
	if err := a.Orders.Ticket(ctx, o.ID, false); err != nil {
		t.Fatal(err)
	}
	if got := getOrder(t, srv, op.Token, o.ID); got.Status != flight.Issued {
		t.Fatalf("order %s after ticketing", got.Status)
	}
	before := walletMinor(t, a, op.Company.ID)
	finance := loginAs(t, srv, "demo-finance", "demo-pass-1").Token
	txBefore := transactions(t, srv, finance)
	resp, env := multipartCall(t, srv, fmt.Sprintf("/order/v2/flight/orders/%d/void", o.ID), op.Token,
		map[string]string{"reason": "4", "remark": "duplicate"}, map[string][]byte{"p.png": tinyPNG})
	if resp.StatusCode != 201 {
		t.Fatalf("void request: %d %+v", resp.StatusCode, env)
	}
	var v flight.View
	_ = json.Unmarshal(env.Data, &v)
	provider := loginAs(t, srv, "provider-admin", "provider-pass-1").Token
	resp, env = call(t, srv, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/review", v.ID), "en", `{"action":"approve"}`, bearer(provider)...)
	if resp.StatusCode != 200 {
		t.Fatalf("approve void: %d %+v", resp.StatusCode, env)
	}
	voided := getOrder(t, srv, op.Token, v.ID)
	if voided.Status != flight.VoidedReimbursed {
		t.Fatalf("void order %s", voided.Status)
	}
	back := minorOf(t, voided.Total.Amount)
	if back <= 0 || back > minorOf(t, o.Total.Amount) {
		t.Fatalf("void gives back %d of %s", back, o.Total.Amount)
	}
	runJobs(t, a)
	jobsWorked(t, a)
	rs := refundsOf(t, a, "flight", o.ID)
	if len(rs) != 1 || rs[0].Amount != back || rs[0].Channel != channel || rs[0].State != state || rs[0].Reference == "" {
		t.Fatalf("refunds through %s: %+v, want one %s of %d", channel, rs, state, back)
	}
	if refunded != nil {
		if got := refunded(); got != back {
			t.Fatalf("%s holds %d refunded, want %d", channel, got, back)
		}
	}
	// The wallet took the void's money in and sent it on to the channel.
	if after := walletMinor(t, a, op.Company.ID); after != before {
		t.Fatalf("wallet %d before the void, %d after: the refund went to the channel, not the wallet", before, after)
	}
	txAfter := transactions(t, srv, finance)
	if len(txAfter) != len(txBefore)+1 || txAfter[0].PaymentMethod != channel || txAfter[0].OriginalID != v.BookingNumber ||
		minorOf(t, txAfter[0].Net) != -back {
		t.Fatalf("Transactions after the refund: %d then %d, newest %+v", len(txBefore), len(txAfter), txAfter[0])
	}
	// The wallet entries list it under its own type, translated.
	super := loginAs(t, srv, "demo-super", "demo-pass-1").Token
	for lang, label := range map[string]string{"en": "Refund to the payment channel", "zh-CN": "退回原支付渠道", "zh-TW": "退回原付款管道"} {
		resp, env = call(t, srv, "GET", "/base/v2/wallet/entries?type="+ledger.TypeChannelRefund, lang, "", bearer(super)...)
		if resp.StatusCode != 200 || !strings.Contains(string(env.Data), v.BookingNumber) {
			t.Fatalf("wallet entries of type %s: %d %s", ledger.TypeChannelRefund, resp.StatusCode, env.Data)
		}
		_, body := get(t, portalAs(t, srv, finance), srv.URL+"/bills/wallet?type="+ledger.TypeChannelRefund, "Accept-Language", lang)
		if !strings.Contains(body, label) {
			t.Fatalf("the wallet page (%s) does not name the channel refund %q", lang, label)
		}
	}
	ledgerZero(t, a)
}
