//go:build chaos

package chaos

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/payment/wechatpay/wechatpaytest"
)

// channelRig is WeChat Pay for the cluster: the provider's fake (a real
// HTTP server enforcing the signed protocol), and the public address its
// notifications reach the instances at, spread over the live ones as a load
// balancer would. lose makes the fake's notifications fail before they
// leave it, so that only the status check can settle that payment.
type channelRig struct {
	fake   *wechatpaytest.Server
	api    *httptest.Server
	public *httptest.Server
	lose   atomic.Bool

	mu     sync.Mutex
	trades map[string]int64 // trade no → flight order id, of payments the payer paid
}

// errLost is a notification the rig dropped on purpose.
var errLost = errors.New("chaos: notification lost on purpose")

type roundTrip func(*http.Request) (*http.Response, error)

func (f roundTrip) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

func newChannelRig(t *testing.T, c *cluster) *channelRig {
	rig := &channelRig{trades: map[string]int64{}}
	client := &http.Client{Timeout: 10 * time.Second,
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
		Transport: roundTrip(func(r *http.Request) (*http.Response, error) {
			if rig.lose.Load() {
				return nil, errLost
			}
			return http.DefaultTransport.RoundTrip(r)
		})}
	// A notification sent to an instance as it is killed fails; the fake
	// sends it again at once (no wait: the test's time is short), to the
	// next live instance.
	rig.fake = wechatpaytest.New(wechatpaytest.Options{Wait: func(time.Duration) {}, MaxTries: 6, Client: client})
	rig.api = httptest.NewServer(rig.fake)
	var n atomic.Int64
	rig.public = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		target := &url.URL{Scheme: "http", Host: c.addr(int(n.Add(1)))}
		httputil.NewSingleHostReverseProxy(target).ServeHTTP(w, r)
	}))
	t.Cleanup(func() { rig.public.Close(); rig.api.Close() })
	return rig
}

// env configures an instance for WeChat Pay against the fake, with its keys
// in files as an operator keeps them.
func (rig *channelRig) env(t *testing.T, dir string) []string {
	write := func(name, content string) string {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
			t.Fatal(err)
		}
		return path
	}
	return []string{
		"VOYAGE_PAYMENT_PUBLIC_URL=" + rig.public.URL,
		"VOYAGE_PAYMENT_WECHAT_PAY_MCH_ID=" + wechatpaytest.MchID,
		"VOYAGE_PAYMENT_WECHAT_PAY_APP_ID=" + wechatpaytest.AppID,
		"VOYAGE_PAYMENT_WECHAT_PAY_MERCHANT_SERIAL_NO=" + wechatpaytest.MerchantSerialNo,
		"VOYAGE_PAYMENT_WECHAT_PAY_MERCHANT_PRIVATE_KEY_FILE=" + write("wechat-merchant.pem", wechatpaytest.PrivateKeyPEM(wechatpaytest.TestKeys().Merchant)),
		"VOYAGE_PAYMENT_WECHAT_PAY_API_V3_KEY_FILE=" + write("wechat-apiv3.key", rig.fake.APIv3Key()),
		"VOYAGE_PAYMENT_WECHAT_PAY_PLATFORM_PUBLIC_KEY_FILE=" + write("wechat-platform.pem", rig.fake.PlatformPublicKeyPEM()),
		"VOYAGE_PAYMENT_WECHAT_PAY_PLATFORM_SERIAL=" + rig.fake.PlatformSerial(),
		"VOYAGE_PAYMENT_WECHAT_PAY_ENDPOINT=" + rig.api.URL,
	}
}

// channelAgent books flights and pays each by WeChat Pay: the payment is
// created at the channel (the order held, the payer shown a code); every
// other time the payer pays only after the next kill, so an instance dies
// between the charge and the settlement; every third notification is lost
// altogether, so the status check alone settles that payment.
func (l *load) channelAgent(ctx context.Context, rig *channelRig, kills *killSignal, db *sql.DB) {
	op := l.login("demo-operator", "demo-pass-1")
	for i := 0; ctx.Err() == nil; i++ {
		r := routes[i%len(routes)]
		quote, ok := l.quote(ctx, op, r, time.Now().AddDate(0, 0, 20+i%40).Format(time.DateOnly))
		if !ok {
			continue
		}
		code, env, err := l.json("POST", "/order/v2/flight/orders", op, fmt.Sprintf(passengerBody, quote), "Idempotency-Key", key("wxorder"))
		if err != nil || code != 201 {
			l.count("wechat_book_failed")
			continue
		}
		id := idOf(env)
		code, env, err = l.json("POST", fmt.Sprintf("/order/v2/flight/orders/%d/payment", id), op, `{"channel":"wechat-pay"}`,
			"Idempotency-Key", key("wxpay"))
		if err != nil || code != 200 || env.Code != 0 {
			// Lost with its instance: the order is held, its status check
			// closes the payment when its time is up; nothing was paid.
			l.count(fmt.Sprintf("wechat_create_%d_%d", code, env.Code))
			continue
		}
		var tradeNo string
		if err := db.QueryRow(`SELECT trade_no FROM channel_payments WHERE line = 'flight' AND booking_id = $1
			ORDER BY id DESC LIMIT 1`, id).Scan(&tradeNo); err != nil {
			l.count("wechat_no_record")
			continue
		}
		l.count("wechat_created")
		if i%2 == 0 {
			// The kill falls between the charge and the settlement.
			select {
			case <-kills.next():
			case <-ctx.Done():
				// The payer never paid: the payment stays pending, and
				// the order held, until the status check closes it.
				continue
			}
			l.count("wechat_paid_after_a_kill")
		}
		lost := i%3 == 1
		rig.lose.Store(lost)
		err = rig.fake.Pay(tradeNo)
		rig.lose.Store(false)
		rig.mu.Lock()
		rig.trades[tradeNo] = id
		rig.mu.Unlock()
		switch {
		case lost:
			l.count("wechat_paid_notification_lost")
		case err != nil:
			l.count("wechat_paid_notification_refused")
		default:
			l.count("wechat_paid_notified")
		}
	}
}

// channelSettled waits until every payment the payer paid at WeChat Pay is
// settled in Voyage (paid, received once in the ledger, its order no longer
// held), at most until deadline, and answers those that are not.
func (rig *channelRig) channelSettled(t *testing.T, db *sql.DB, deadline time.Time) []string {
	t.Helper()
	rig.mu.Lock()
	trades := make(map[string]int64, len(rig.trades))
	for k, v := range rig.trades {
		trades[k] = v
	}
	rig.mu.Unlock()
	var bad []string
	pollUntil(deadline, func() bool {
		bad = nil
		for tradeNo, id := range trades {
			p, ok := rig.fake.Payment(tradeNo)
			if !ok || p.State != "SUCCESS" {
				bad = append(bad, fmt.Sprintf("%s: the fake holds it %+v", tradeNo, p))
				continue
			}
			var state, status string
			var receipts int
			var received int64
			err := db.QueryRow(`SELECT c.state, o.status, COUNT(t.id), COALESCE(SUM(t.amount), 0) FROM channel_payments c
				JOIN flight_orders o ON o.id = c.booking_id
				LEFT JOIN ledger_transfers t ON t.idempotency_key = 'receipt-' || c.payment_key
				WHERE c.trade_no = $1 GROUP BY c.state, o.status`, tradeNo).Scan(&state, &status, &receipts, &received)
			switch {
			case err != nil:
				bad = append(bad, fmt.Sprintf("%s (order %d): %v", tradeNo, id, err))
			case state != "paid" || receipts != 1 || received != p.Total || status == "holding":
				bad = append(bad, fmt.Sprintf("%s (order %d): payment %s, order %s, %d receipts of %d for %d", tradeNo, id, state, status,
					receipts, received, p.Total))
			}
		}
		return len(bad) == 0
	})
	return bad
}
