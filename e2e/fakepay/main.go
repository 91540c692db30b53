// Command fakepay serves Alipay's fake gateway (alipaytest) as a process of
// its own, for the browser tests: `voyage serve` pays through it as through
// Alipay, and the test has the payer scan and pay through a control
// endpoint, whereupon the fake sends its signed notification to the
// notify_url the server gave at precreate. It is a test tool, built into
// bin/fakepay by `make fakepay` (test-browser builds it), never part of
// the voyage binary.
//
// It makes a merchant key and an Alipay key, writes the merchant's private
// key and Alipay's public key as files into -dir, listens on -addr and
// prints one line of JSON to standard output:
//
//	{"url":"http://127.0.0.1:41234","env":{"VOYAGE_PAYMENT_ALIPAY_APP_ID":…}}
//
// env is the configuration that points voyage's payment.alipay at the fake
// (payment.public_url is the server's own address, the caller's to add).
// Routes:
//
//	/gateway.do            the fake gateway (alipay.trade.precreate, query, close, refund)
//	POST /fakepay/pay      qr_code=…: the payer scans that code and pays; answers
//	                       the trade and how the merchant answered its notification
//
// It stops on SIGINT or SIGTERM, and with -stdin when its standard input
// closes (the test that started it is gone).
package main

import (
	"context"
	"crypto/rand"
	"crypto/rsa"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/voyage/voyage/pkg/payment/alipay"
	"github.com/voyage/voyage/pkg/payment/alipay/alipaytest"
	"github.com/voyage/voyage/pkg/payment/rsakey"
)

func main() {
	addr := flag.String("addr", "127.0.0.1:0", "listen address")
	dir := flag.String("dir", "", "directory for the key files (default: a temporary one, removed on exit)")
	stdin := flag.Bool("stdin", false, "stop when standard input closes")
	flag.Parse()
	log.SetFlags(0)
	log.SetPrefix("fakepay: ")
	if err := run(*addr, *dir, *stdin); err != nil {
		log.Fatal(err)
	}
}

func run(addr, dir string, stdin bool) error {
	if dir == "" {
		tmp, err := os.MkdirTemp("", "fakepay-")
		if err != nil {
			return err
		}
		defer os.RemoveAll(tmp)
		dir = tmp
	}
	merchant, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return fmt.Errorf("the merchant's key: %w", err)
	}
	ali, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		return fmt.Errorf("Alipay's key: %w", err)
	}
	// Each notification is sent once: the control endpoint answers how the
	// merchant answered it, so a test sees a refused notification at once
	// instead of after Alipay's resend schedule (alipaytest's Go tests
	// cover the resends).
	fake := alipaytest.New(alipaytest.Options{MerchantKey: &merchant.PublicKey, AlipayKey: ali, MaxTries: 1})
	defer fake.Close()

	keyFile, pubFile := filepath.Join(dir, "alipay-merchant-private.pem"), filepath.Join(dir, "alipay-public.pem")
	if err := os.WriteFile(keyFile, []byte(rsakey.PrivatePEM(merchant)), 0o600); err != nil {
		return err
	}
	if err := os.WriteFile(pubFile, []byte(fake.PublicKeyPEM()), 0o600); err != nil {
		return err
	}

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	url := "http://" + ln.Addr().String()
	mux := http.NewServeMux()
	mux.Handle("/gateway.do", fake)
	mux.HandleFunc("POST /fakepay/pay", func(w http.ResponseWriter, r *http.Request) { pay(fake, w, r) })
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}

	ready, err := json.Marshal(map[string]any{"url": url, "env": map[string]string{
		"VOYAGE_PAYMENT_ALIPAY_APP_ID":                 fake.AppID(),
		"VOYAGE_PAYMENT_ALIPAY_PRIVATE_KEY_FILE":       keyFile,
		"VOYAGE_PAYMENT_ALIPAY_ALIPAY_PUBLIC_KEY_FILE": pubFile,
		"VOYAGE_PAYMENT_ALIPAY_ENDPOINT":               url + "/gateway.do",
	}})
	if err != nil {
		return err
	}
	fmt.Println(string(ready))

	ctx, stop := signal.NotifyContext(context.Background(), syscall.SIGINT, syscall.SIGTERM)
	defer stop()
	if stdin {
		go func() {
			_, _ = io.Copy(io.Discard, os.Stdin)
			stop()
		}()
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()
	select {
	case err := <-served:
		return err
	case <-ctx.Done():
	}
	shut, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := srv.Shutdown(shut); err != nil {
		return err
	}
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// paid is the control endpoint's answer.
type paid struct {
	OutTradeNo    string     `json:"outTradeNo"`
	TradeNo       string     `json:"tradeNo"`
	Status        string     `json:"status"`
	Amount        string     `json:"amount"`
	Notifications []delivery `json:"notifications"`
	Error         string     `json:"error,omitempty"`
}

// delivery is one notification of the trade and the merchant's answers.
type delivery struct {
	URL       string   `json:"url"`
	Status    string   `json:"tradeStatus"`
	Answers   []string `json:"answers"`
	Delivered bool     `json:"delivered"`
}

// pay is the payer scanning qr_code and paying: the fake marks the trade
// paid and notifies the merchant; the answer comes once that notification
// was answered (or failed).
func pay(fake *alipaytest.Server, w http.ResponseWriter, r *http.Request) {
	code := r.PostFormValue("qr_code")
	no, ok := fake.Scanned(code)
	if !ok {
		answer(w, http.StatusNotFound, paid{Error: fmt.Sprintf("no trade has the QR code %q", code)})
		return
	}
	if err := fake.Pay(no); err != nil {
		answer(w, http.StatusConflict, paid{OutTradeNo: no, Error: err.Error()})
		return
	}
	fake.Drain()
	t, _ := fake.Trade(no)
	out := paid{OutTradeNo: no, TradeNo: t.TradeNo, Status: t.Status, Amount: alipay.Yuan(t.Amount), Notifications: []delivery{}}
	for _, n := range fake.Notifications() {
		if n.OutTradeNo == no {
			out.Notifications = append(out.Notifications, delivery{URL: n.URL, Status: n.TradeStatus, Answers: n.Answers, Delivered: n.Delivered})
		}
	}
	answer(w, http.StatusOK, out)
}

func answer(w http.ResponseWriter, status int, v paid) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}
