package wechatpaytest_test

import (
	"context"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/wechatpay"
	"github.com/voyage/voyage/pkg/payment/wechatpay/wechatpaytest"
)

var now = time.Date(2026, 12, 3, 2, 0, 0, 0, time.UTC)

func channel(t *testing.T, fake *wechatpaytest.Server, endpoint string) *wechatpay.Channel {
	t.Helper()
	ch, err := wechatpay.New(fake.ChannelConfig(endpoint, func() time.Time { return now }))
	if err != nil {
		t.Fatal(err)
	}
	return ch
}

// TestResend: a notification not acknowledged is sent again after the
// documented waits, until acknowledged or MaxTries sends were made.
func TestResend(t *testing.T) {
	t.Parallel()
	schedule := []time.Duration{15 * time.Second, 15 * time.Second, 30 * time.Second, 3 * time.Minute,
		10 * time.Minute, 20 * time.Minute, 30 * time.Minute, 30 * time.Minute, 30 * time.Minute,
		time.Hour, 3 * time.Hour, 3 * time.Hour, 3 * time.Hour, 6 * time.Hour, 6 * time.Hour}
	for _, c := range []struct {
		name     string
		maxTries int
		answers  []int // the merchant's answers in turn; the last repeats
		sends    int
		acked    bool
	}{
		{"acknowledged at once with 204", 0, []int{204}, 1, true},
		{"acknowledged with 200", 0, []int{200}, 1, true},
		{"acknowledged on the third send", 0, []int{500, 400, 204}, 3, true},
		{"a redirect is no acknowledgement", 0, []int{302, 204}, 2, true},
		{"never acknowledged, all 16 sends", 0, []int{500}, 16, false},
		{"never acknowledged, MaxTries 4", 4, []int{503}, 4, false},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			var mu sync.Mutex
			var waits []time.Duration
			var seen int
			merchant := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				mu.Lock()
				status := c.answers[min(seen, len(c.answers)-1)]
				seen++
				mu.Unlock()
				if status == http.StatusFound {
					w.Header().Set("Location", "/elsewhere")
				}
				w.WriteHeader(status)
			}))
			defer merchant.Close()
			fake := wechatpaytest.New(wechatpaytest.Options{
				Now:      func() time.Time { return now },
				Wait:     func(d time.Duration) { mu.Lock(); waits = append(waits, d); mu.Unlock() },
				MaxTries: c.maxTries,
			})
			api := httptest.NewServer(fake)
			defer api.Close()
			ch := channel(t, fake, api.URL)
			if _, err := ch.Create(context.Background(), payment.Create{Key: "B2412030100", Amount: 100,
				Currency: "CNY", Subject: "x", NotifyURL: merchant.URL + "/notify"}); err != nil {
				t.Fatal(err)
			}
			err := fake.Pay("B2412030100")
			if (err == nil) != c.acked {
				t.Errorf("pay = %v, acknowledged %v", err, c.acked)
			}
			ds := fake.Notifications()
			if len(ds) != c.sends || seen != c.sends {
				t.Fatalf("%d deliveries, merchant saw %d, want %d", len(ds), seen, c.sends)
			}
			for i, d := range ds {
				want := time.Duration(0)
				if i > 0 {
					want = schedule[i-1]
				}
				if d.Try != i+1 || d.Waited != want || d.ID != ds[0].ID || string(d.Body) != string(ds[0].Body) {
					t.Errorf("delivery %d: try %d waited %s id %s", i, d.Try, d.Waited, d.ID)
				}
			}
			if len(waits) != c.sends-1 {
				t.Errorf("waited %v", waits)
			}
		})
	}
}

// TestRefusesUnsigned: the fake answers a request without a valid
// signature 401 {"code":"SIGN_ERROR","message":…}, signed like every answer.
func TestRefusesUnsigned(t *testing.T) {
	t.Parallel()
	fake := wechatpaytest.New(wechatpaytest.Options{Now: func() time.Time { return now }})
	for _, c := range []struct {
		name, auth string
	}{
		{"no authorization", ""},
		{"another scheme", `Bearer abc`},
		{"malformed", `WECHATPAY2-SHA256-RSA2048 mchid=1230000109`},
		{"bad signature", `WECHATPAY2-SHA256-RSA2048 mchid="1230000109",nonce_str="N",signature="AAAA",timestamp="` +
			strconv.FormatInt(now.Unix(), 10) + `",serial_no="` + wechatpaytest.MerchantSerialNo + `"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			t.Parallel()
			r := httptest.NewRequest(http.MethodGet, "/v3/pay/transactions/out-trade-no/B2412030200?mchid=1230000109", nil)
			if c.auth != "" {
				r.Header.Set("Authorization", c.auth)
			}
			w := httptest.NewRecorder()
			fake.ServeHTTP(w, r)
			var body struct{ Code, Message string }
			if err := json.Unmarshal(w.Body.Bytes(), &body); err != nil || w.Code != http.StatusUnauthorized || body.Code != "SIGN_ERROR" {
				t.Errorf("answer = %d %s", w.Code, w.Body)
			}
			if w.Header().Get("Wechatpay-Signature") == "" || w.Header().Get("Wechatpay-Serial") != fake.PlatformSerial() {
				t.Errorf("error answer unsigned: %v", w.Header())
			}
		})
	}
}

// TestMountedUnderPrefix: mounted in-process under a path, the fake checks
// the signature over the URL as the merchant sent it.
func TestMountedUnderPrefix(t *testing.T) {
	t.Parallel()
	fake := wechatpaytest.New(wechatpaytest.Options{Now: func() time.Time { return now }})
	mux := http.NewServeMux()
	mux.Handle("/fake/wechat-pay/", http.StripPrefix("/fake/wechat-pay", fake))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	ch := channel(t, fake, srv.URL+"/fake/wechat-pay")
	ctx := context.Background()
	if _, err := ch.Status(ctx, "B2412030300"); !errors.Is(err, payment.ErrUnknownPayment) {
		t.Errorf("status of unknown = %v", err)
	}
	p, err := ch.Create(ctx, payment.Create{Key: "B2412030300", Amount: 100, Currency: "CNY", Subject: "x", NotifyURL: "https://merchant.example/notify"})
	if err != nil || !strings.HasPrefix(p.QRCode, "weixin://") {
		t.Fatalf("create = %+v, %v", p, err)
	}
}

// TestNotificationShape: the notification is the documented envelope and
// its resource decrypts to the documented transaction.
func TestNotificationShape(t *testing.T) {
	t.Parallel()
	fake := wechatpaytest.New(wechatpaytest.Options{Now: func() time.Time { return now }, Wait: func(time.Duration) {}})
	api := httptest.NewServer(fake)
	defer api.Close()
	ch := channel(t, fake, api.URL)
	if _, err := ch.Create(context.Background(), payment.Create{Key: "B2412030400", Amount: 8800, Currency: "CNY", Subject: "x", NotifyURL: "https://merchant.example/notify"}); err != nil {
		t.Fatal(err)
	}
	if _, err := fake.BuildNotification("B2412030400"); err == nil {
		t.Error("a notification of an unpaid order")
	}
	if err := fake.Decline("B2412030400"); err != nil {
		t.Fatal(err)
	}
	if err := fake.Pay("B2412030400"); err == nil {
		t.Error("a declined order was paid")
	}
	if _, err := ch.Create(context.Background(), payment.Create{Key: "B2412030401", Amount: 8800, Currency: "CNY", Subject: "x", NotifyURL: "http://127.0.0.1:1/notify"}); err != nil {
		t.Fatal(err)
	}
	_ = fake.Pay("B2412030401") // nobody listens: every send fails
	n, err := fake.BuildNotification("B2412030401")
	if err != nil {
		t.Fatal(err)
	}
	var env struct {
		ID, CreateTime, EventType, ResourceType, Summary string
		Resource                                         map[string]string
	}
	dec := json.NewDecoder(strings.NewReader(string(n.Body)))
	if err := dec.Decode(&env); err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	_ = json.Unmarshal(n.Body, &raw)
	for _, k := range []string{"id", "create_time", "event_type", "resource_type", "summary", "resource"} {
		if _, ok := raw[k]; !ok {
			t.Errorf("notification lacks %q: %s", k, n.Body)
		}
	}
	if env.Resource["algorithm"] != "AEAD_AES_256_GCM" || env.Resource["original_type"] != "transaction" ||
		len(env.Resource["nonce"]) != 12 || env.Resource["associated_data"] != "transaction" {
		t.Errorf("resource = %v", env.Resource)
	}
	var tx map[string]any
	if err := json.Unmarshal(n.Transaction, &tx); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"mchid": wechatpaytest.MchID, "appid": wechatpaytest.AppID,
		"out_trade_no": "B2412030401", "trade_state": "SUCCESS", "trade_type": "NATIVE",
		"success_time": "2026-12-03T10:00:00+08:00"} {
		if tx[k] != want {
			t.Errorf("transaction %s = %v, want %v", k, tx[k], want)
		}
	}
	amount, _ := tx["amount"].(map[string]any)
	if amount["total"] != 8800.0 || amount["payer_total"] != 8800.0 || amount["currency"] != "CNY" {
		t.Errorf("transaction amount = %v", amount)
	}
	st, err := ch.Notice(context.Background(), n.Request("/notify"), n.Body)
	if err != nil || st.State != payment.StatePaid || st.Amount != 8800 {
		t.Errorf("notice = %+v, %v", st, err)
	}
	if got := len(fake.Notifications()); got != 16 {
		t.Errorf("%d sends to a dead endpoint, want 16", got)
	}
}
