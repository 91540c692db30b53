package app_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/voyage/voyage/pkg/app"
	"github.com/voyage/voyage/pkg/money"
)

// answer is one HTTP answer, as a concurrent client saw it.
type answer struct {
	status int
	env    envelope
	err    error
}

// concurrently sends n copies of one request at once and collects what each
// got back.
func concurrently(srv *httptest.Server, n int, method, path, body string, hdr ...string) []answer {
	out := make([]answer, n)
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			<-start
			req, err := http.NewRequest(method, srv.URL+path, strings.NewReader(body))
			if err != nil {
				out[i].err = err
				return
			}
			req.Header.Set("Content-Type", "application/json")
			req.Header.Set("Accept-Language", "en")
			for j := 0; j+1 < len(hdr); j += 2 {
				req.Header.Set(hdr[j], hdr[j+1])
			}
			resp, err := srv.Client().Do(req)
			if err != nil {
				out[i].err = err
				return
			}
			defer resp.Body.Close()
			b, _ := io.ReadAll(resp.Body)
			out[i].status = resp.StatusCode
			out[i].err = json.Unmarshal(b, &out[i].env)
		}()
	}
	close(start)
	wg.Wait()
	return out
}

// TestConcurrentReplaysAnswerTheFirst: 50 copies of one payment, and of one
// top-up, sent at once with the same Idempotency-Key. One charge, one
// credit, and every copy answers what the first did: no "not allowed in the
// current status" for a payment that succeeded, and every replayed top-up
// says so.
func TestConcurrentReplaysAnswerTheFirst(t *testing.T) {
	t.Parallel()
	const n = 50
	seeded(t, func(t *testing.T, a *app.App, srv *httptest.Server) {
		ctx := context.Background()
		op := loginAs(t, srv, "demo-operator", "demo-pass-1")
		provider := loginAs(t, srv, "provider-admin", "provider-pass-1")
		agencyID := op.Company.ID
		fund(t, a, agencyID, "20000")
		quoteID, _ := quoteFor(t, srv, op.Token)

		t.Run("payment", func(t *testing.T) {
			o := createOrder(t, srv, op.Token, quoteID, "replayed-payment")
			before := walletMinor(t, a, agencyID)
			got := concurrently(srv, n, "POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", o.ID), `{"channel":"balance"}`,
				append(bearer(op.Token), "Idempotency-Key", "pay-once")...)
			for i, g := range got {
				if g.err != nil || g.status != 200 || g.env.Code != 0 || !strings.Contains(string(g.env.Data), fmt.Sprintf(`"id":%d`, o.ID)) {
					t.Errorf("copy %d: %d %+v %v", i, g.status, g.env, g.err)
				}
			}
			total, err := money.Parse(o.Total.Amount, "CNY")
			if err != nil {
				t.Fatal(err)
			}
			if spent := before - walletMinor(t, a, agencyID); spent != total.Minor {
				t.Errorf("the wallet paid %d, want one charge of %d", spent, total.Minor)
			}
			var charges int
			if err := a.DB.GetContext(ctx, &charges, a.DB.Rebind(`SELECT COUNT(*) FROM ledger_transfers WHERE order_id = ? AND payment_type = 'origin-flight'`), o.BookingNumber); err != nil {
				t.Fatal(err)
			}
			if charges != 1 {
				t.Errorf("%d charges for one payment", charges)
			}
		})

		t.Run("top-up", func(t *testing.T) {
			before := walletMinor(t, a, agencyID)
			got := concurrently(srv, n, "POST", fmt.Sprintf("/base/v2/agencies/%d/balance", agencyID),
				`{"amountReceived":"250","exchangeRate":"1","reference":"WIRE-R"}`, append(bearer(provider.Token), "Idempotency-Key", "wire-once")...)
			first := 0
			for i, g := range got {
				if g.err != nil || g.status != 200 || !strings.Contains(string(g.env.Data), `"credited":"250.00"`) {
					t.Errorf("copy %d: %d %+v %v", i, g.status, g.env, g.err)
					continue
				}
				if strings.Contains(string(g.env.Data), `"replayed":false`) {
					first++
				}
			}
			if first != 1 {
				t.Errorf("%d of %d copies say they were not replayed, want 1", first, n)
			}
			if got := walletMinor(t, a, agencyID) - before; got != 25000 {
				t.Errorf("credited %d, want 25000 once", got)
			}
		})
		ledgerSumsToZero(t, a)
	})
}
