package yeepaytest_test

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/clock/clocktest"
	"github.com/voyage/voyage/pkg/payment/yeepay"
	"github.com/voyage/voyage/pkg/payment/yeepay/internal/yop"
	"github.com/voyage/voyage/pkg/payment/yeepay/yeepaytest"
)

// The fake mounted under /yop-center, as the production gateway's path is,
// serves a client whose Endpoint carries the prefix; the expiry, cashier
// and notification controls follow the fake's clock.
func TestMountedFake(t *testing.T) {
	t.Parallel()
	merchant, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	clk := clocktest.New(time.Date(2026, 12, 3, 10, 0, 0, 0, time.UTC))
	fake := yeepaytest.New(yeepaytest.Options{MerchantPublicKeyPEM: yop.PublicKeyPEM(&merchant.PublicKey),
		AppKey: "app_1", Now: clk.Now, Wait: func(int) {}, MaxNotify: 1})
	mux := http.NewServeMux()
	mux.Handle("/yop-center/", fake)
	mux.Handle("/cashier/std", fake)
	srv := httptest.NewServer(mux)
	defer srv.Close()
	c, err := yeepay.NewClient(yeepay.Config{AppKey: "app_1", ParentMerchantNo: "1001", MerchantNo: "1001",
		PrivateKeyPEM: yop.PrivateKeyPEM(merchant), YeepayPublicKeyPEM: fake.PublicKeyPEM(),
		Endpoint: srv.URL + "/yop-center", CashierURL: srv.URL + "/cashier/std", Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	o := yeepay.Order{OrderID: "exp-1", Amount: 8400, GoodsName: "机票 PEK-SHA 含税", NotifyURL: "http://127.0.0.1:1/n", ExpiresAt: clk.Now().Add(15 * time.Minute)}
	res, err := c.TradeOrder(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	page, err := c.CashierPage(res.Token, yeepay.CardCredit, "exp-1")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name, url string
		code      int
	}{
		{"signed", page, http.StatusOK},
		{"card type changed", strings.Replace(page, "cardType=CREDIT", "cardType=DEBIT", 1), http.StatusBadRequest},
		{"unsigned", srv.URL + "/cashier/std?token=" + res.Token, http.StatusBadRequest},
	}
	for _, tc := range cases {
		resp, err := http.Get(tc.url)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != tc.code {
			t.Errorf("cashier %s: %d, want %d", tc.name, resp.StatusCode, tc.code)
		}
	}
	if _, err := fake.NoticeBody("exp-1"); err == nil {
		t.Error("NoticeBody of an unpaid order")
	}
	clk.Add(16 * time.Minute)
	if s, err := c.Query(ctx, "exp-1"); err != nil || s.Status != "TIME_OUT" || s.OrderAmount != 8400 {
		t.Fatalf("Query after expiry = %+v, %v", s, err)
	}
	if err := fake.Pay("exp-1"); err == nil {
		t.Error("an expired order was paid")
	}
	// The signature is good for its 1800 seconds, no longer.
	late, err := yeepay.NewClient(yeepay.Config{AppKey: "app_1", ParentMerchantNo: "1001", MerchantNo: "1001",
		PrivateKeyPEM: yop.PrivateKeyPEM(merchant), YeepayPublicKeyPEM: fake.PublicKeyPEM(),
		Endpoint: srv.URL + "/yop-center", Now: func() time.Time { return clk.Now().Add(-31 * time.Minute) }})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := late.Query(ctx, "exp-1"); err == nil {
		t.Error("a request signed 31 minutes ago was served")
	}
}

func TestFee(t *testing.T) {
	t.Parallel()
	k, err := rsa.GenerateKey(rand.Reader, 1024)
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		bp, amount, fee int64
	}{
		{0, 1234, 7}, {0, 10000, 60}, {0, 1, 0}, {0, 84, 1}, {0, 83, 0}, {38, 10000, 38},
	}
	for _, c := range cases {
		f := yeepaytest.New(yeepaytest.Options{MerchantPublicKeyPEM: yop.PublicKeyPEM(&k.PublicKey), PrivateKey: k, FeeBasisPoints: c.bp})
		if got := f.Fee(c.amount); got != c.fee {
			t.Errorf("Fee(%d) at %d bp = %d, want %d", c.amount, c.bp, got, c.fee)
		}
	}
}
