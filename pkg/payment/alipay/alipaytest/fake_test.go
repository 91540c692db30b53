package alipaytest_test

import (
	"crypto/rsa"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/payment/rsakey/rsakeytest"

	"github.com/voyage/voyage/pkg/payment/rsakey"

	"github.com/voyage/voyage/pkg/payment/alipay"
	"github.com/voyage/voyage/pkg/payment/alipay/alipaytest"
)

func keys() [2]*rsa.PrivateKey { return [2]*rsa.PrivateKey{rsakeytest.Key(0), rsakeytest.Key(1)} }

var now = time.Date(2026, 12, 3, 10, 0, 0, 0, alipay.Beijing)

func newFake(t *testing.T) *alipaytest.Server {
	t.Helper()
	merchant, ali := keys()[0], keys()[1]
	s := alipaytest.New(alipaytest.Options{
		MerchantKeyPEM: alipaytest.PublicKeyPEM(&merchant.PublicKey), AlipayKey: ali,
		Now: func() time.Time { return now },
	})
	t.Cleanup(s.Close)
	return s
}

// call sends a request signed with key, edited by edit after signing, and
// answers the response node's name and fields once the answer's signature
// verifies with the fake's Alipay key.
func call(t *testing.T, s *alipaytest.Server, key *rsa.PrivateKey, method string, biz map[string]any, edit func(url.Values)) (string, map[string]any) {
	t.Helper()
	b, _ := json.Marshal(biz)
	form := url.Values{
		"app_id": {s.AppID()}, "method": {method}, "format": {"JSON"}, "charset": {"utf-8"},
		"sign_type": {"RSA2"}, "timestamp": {now.Format(alipay.TimeLayout)}, "version": {"1.0"},
		"biz_content": {string(b)},
	}
	sign, err := alipay.Sign(key, []byte(alipay.SignContent(form, "sign")))
	if err != nil {
		t.Fatal(err)
	}
	form.Set("sign", sign)
	if edit != nil {
		edit(form)
	}
	req := httptest.NewRequest(http.MethodPost, "/gateway.do", strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded;charset=utf-8")
	w := httptest.NewRecorder()
	s.ServeHTTP(w, req)
	var env map[string]json.RawMessage
	if err := json.Unmarshal(w.Body.Bytes(), &env); err != nil || len(env) != 2 {
		t.Fatalf("answer %d %s", w.Code, w.Body)
	}
	var signed string
	json.Unmarshal(env["sign"], &signed)
	pub, _ := rsakey.ParsePublic(s.PublicKeyPEM())
	for name, node := range env {
		if name == "sign" {
			continue
		}
		if err := alipay.Verify(pub, node, signed); err != nil {
			t.Fatalf("the answer's signature: %v", err)
		}
		var fields map[string]any
		json.Unmarshal(node, &fields)
		return name, fields
	}
	t.Fatalf("no response node in %s", w.Body)
	return "", nil
}

func TestGatewayRefusals(t *testing.T) {
	t.Parallel()
	s := newFake(t)
	merchant, other := keys()[0], keys()[1]
	query := map[string]any{"out_trade_no": "T1"}
	tests := []struct {
		name      string
		key       *rsa.PrivateKey
		method    string
		edit      func(url.Values)
		node      string
		code, sub string
	}{
		{"known trade missing", merchant, alipay.MethodQuery, nil, "alipay_trade_query_response", "40004", "ACQ.TRADE_NOT_EXIST"},
		{"signed by another key", other, alipay.MethodQuery, nil, "alipay_trade_query_response", "40002", "isv.invalid-signature"},
		{"signed, then changed", merchant, alipay.MethodQuery, func(v url.Values) { v.Set("biz_content", `{"out_trade_no":"T2"}`) }, "alipay_trade_query_response", "40002", "isv.invalid-signature"},
		{"no signature", merchant, alipay.MethodQuery, func(v url.Values) { v.Del("sign") }, "alipay_trade_query_response", "40001", "isv.missing-signature"},
		{"RSA1", merchant, alipay.MethodQuery, func(v url.Values) { v.Set("sign_type", "RSA") }, "alipay_trade_query_response", "40002", "isv.invalid-signature-type"},
		{"another application", merchant, alipay.MethodQuery, func(v url.Values) { v.Set("app_id", "2021000000000999") }, "alipay_trade_query_response", "40002", "isv.invalid-app-id"},
		{"stale timestamp", merchant, alipay.MethodQuery, func(v url.Values) { v.Set("timestamp", now.Add(-time.Hour).Format(alipay.TimeLayout)) }, "alipay_trade_query_response", "40002", "isv.invalid-timestamp"},
		{"unknown method", merchant, "alipay.trade.pay.nope", nil, "error_response", "40002", "isv.invalid-method"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			node, f := call(t, s, tt.key, tt.method, query, tt.edit)
			if node != tt.node || f["code"] != tt.code || f["sub_code"] != tt.sub || f["msg"] == "" || f["sub_msg"] == "" {
				t.Errorf("%s %v", node, f)
			}
		})
	}
}

func TestNotificationShape(t *testing.T) {
	t.Parallel()
	s := newFake(t)
	merchant := keys()[0]
	_, f := call(t, s, merchant, alipay.MethodPrecreate, map[string]any{"out_trade_no": "T1", "total_amount": "12.34", "subject": "Flight"}, nil)
	if f["code"] != "10000" || !strings.HasPrefix(f["qr_code"].(string), "https://qr.alipay.com/") {
		t.Fatalf("precreate %v", f)
	}
	if err := s.Pay("T1"); err != nil {
		t.Fatal(err)
	}
	if err := s.Pay("T1"); err == nil {
		t.Error("paid twice")
	}
	body, err := s.NotificationBody("T1")
	if err != nil {
		t.Fatal(err)
	}
	form, _ := url.ParseQuery(string(body))
	// The parameters "异步通知说明" lists for a paid face-to-face trade.
	for k, want := range map[string]string{
		"notify_type": "trade_status_sync", "app_id": s.AppID(), "charset": "utf-8", "version": "1.0",
		"sign_type": "RSA2", "out_trade_no": "T1", "total_amount": "12.34", "receipt_amount": "12.34",
		"trade_status": "TRADE_SUCCESS", "gmt_payment": now.Format(alipay.TimeLayout),
	} {
		if got := form.Get(k); got != want {
			t.Errorf("%s=%q, want %q", k, got, want)
		}
	}
	for _, k := range []string{"notify_time", "notify_id", "trade_no", "sign"} {
		if form.Get(k) == "" {
			t.Errorf("no %s", k)
		}
	}
	pub, _ := rsakey.ParsePublic(s.PublicKeyPEM())
	if err := alipay.Verify(pub, []byte(alipay.SignContent(form, "sign", "sign_type")), form.Get("sign")); err != nil {
		t.Errorf("the notification's signature: %v", err)
	}
	// No notify_url was given: nothing is sent.
	if n := s.Notifications(); len(n) != 0 {
		t.Errorf("sent %+v", n)
	}
}

func TestRefundIdempotent(t *testing.T) {
	t.Parallel()
	s := newFake(t)
	merchant := keys()[0]
	call(t, s, merchant, alipay.MethodPrecreate, map[string]any{"out_trade_no": "T1", "total_amount": "10.00", "subject": "Flight"}, nil)
	if err := s.Pay("T1"); err != nil {
		t.Fatal(err)
	}
	refund := func(req, amount string) map[string]any {
		_, f := call(t, s, merchant, alipay.MethodRefund, map[string]any{"out_trade_no": "T1", "refund_amount": amount, "out_request_no": req}, nil)
		return f
	}
	for _, step := range []struct {
		req, amount, change, total, sub string
	}{
		{"R1", "4.00", "Y", "4.00", ""},
		{"R1", "4.00", "N", "4.00", ""},
		{"R1", "5.00", "", "", "ACQ.INVALID_PARAMETER"},
		{"R2", "7.00", "", "", "ACQ.REFUND_AMT_NOT_EQUAL_TOTAL"},
		{"R2", "6.00", "Y", "10.00", ""},
	} {
		f := refund(step.req, step.amount)
		if step.sub != "" {
			if f["sub_code"] != step.sub {
				t.Errorf("%s %s: %v, want %s", step.req, step.amount, f, step.sub)
			}
			continue
		}
		if f["code"] != "10000" || f["fund_change"] != step.change || f["refund_fee"] != step.total {
			t.Errorf("%s %s: %v", step.req, step.amount, f)
		}
	}
	if tr, _ := s.Trade("T1"); tr.Status != alipay.TradeClosed || tr.Refunded != 1000 {
		t.Errorf("trade %+v", tr)
	}
}

// TestScanned: the payer's phone finds the trade by the code the merchant
// shows, and only that trade.
func TestScanned(t *testing.T) {
	t.Parallel()
	s := newFake(t)
	merchant := keys()[0]
	codes := map[string]string{}
	for _, no := range []string{"T1", "T2"} {
		_, f := call(t, s, merchant, alipay.MethodPrecreate, map[string]any{"out_trade_no": no, "total_amount": "1.00", "subject": "Flight"}, nil)
		codes[no], _ = f["qr_code"].(string)
	}
	for no, code := range codes {
		if got, ok := s.Scanned(code); !ok || got != no {
			t.Errorf("Scanned(%q) = %q, %v; want %s", code, got, ok, no)
		}
	}
	if got, ok := s.Scanned("https://qr.alipay.com/bax0unknown"); ok {
		t.Errorf("an unknown code found %q", got)
	}
}
