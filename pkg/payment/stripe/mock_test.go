package stripe

import (
	"bytes"
	"fmt"
	"go/build"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// The tests talk to the real stripe-mock (github.com/stripe/stripe-mock,
// Stripe's OpenAPI-driven mock of its API), started once for the package
// on a free port. stripe-mock keeps no state: it answers every call with
// its fixture for the endpoint (one search result, intents in
// requires_payment_method, refunds succeeded), echoing some parameters.
// The tests are written to those answers; what it cannot show (a paid
// intent, an empty search, a 5xx, a redirect) is served by small handlers
// shaped as Stripe answers.

// mockURL is the running stripe-mock, empty when it is not installed.
var mockURL string

func TestMain(m *testing.M) {
	stop, err := startMock()
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	code := m.Run()
	stop()
	os.Exit(code)
}

// mockBinary is $STRIPE_MOCK, else stripe-mock in GOPATH/bin.
func mockBinary() string {
	if p := os.Getenv("STRIPE_MOCK"); p != "" {
		return p
	}
	gopath := os.Getenv("GOPATH")
	if gopath == "" {
		gopath = build.Default.GOPATH
	}
	p := filepath.Join(filepath.SplitList(gopath)[0], "bin", "stripe-mock")
	if _, err := os.Stat(p); err != nil {
		return ""
	}
	return p
}

func startMock() (stop func(), err error) {
	bin := mockBinary()
	if bin == "" {
		if os.Getenv("CI") == "true" {
			return nil, fmt.Errorf("stripe-mock is not installed: run `go install github.com/stripe/stripe-mock@v0.203.0` or set STRIPE_MOCK to its path")
		}
		return func() {}, nil
	}
	addr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	// stripe-mock also serves HTTPS, on 12112 unless told otherwise: a
	// second free port keeps two test runs from colliding there.
	tlsAddr, err := freeAddr()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin, "-http-addr", addr, "-https-addr", tlsAddr)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start stripe-mock %s: %w", bin, err)
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	stop = func() {
		_ = cmd.Process.Kill()
		<-exited
	}
	deadline := time.NewTimer(30 * time.Second)
	defer deadline.Stop()
	poll := time.NewTicker(20 * time.Millisecond)
	defer poll.Stop()
	client := &http.Client{Timeout: time.Second}
	for {
		select {
		case err := <-exited:
			return nil, fmt.Errorf("stripe-mock exited: %v\n%s", err, out.String())
		case <-deadline.C:
			stop()
			return nil, fmt.Errorf("stripe-mock on %s did not answer in 30s\n%s", addr, out.String())
		case <-poll.C:
		}
		resp, err := client.Get("http://" + addr + "/v1/balance")
		if err == nil {
			resp.Body.Close()
			mockURL = "http://" + addr
			return stop, nil
		}
	}
}

func freeAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func needMock(t *testing.T) {
	t.Helper()
	if mockURL == "" {
		t.Skip("stripe-mock not installed (go install github.com/stripe/stripe-mock@v0.203.0, or STRIPE_MOCK=path)")
	}
}

// call is one request that reached stripe-mock through a recorder.
type call struct {
	Method, Path string
	Query        url.Values
	Form         url.Values
	Idempotency  string
	Auth         string
}

// recorder is a proxy to stripe-mock that keeps what the channel sent,
// since stripe-mock echoes little of it.
type recorder struct {
	*httptest.Server
	mu    sync.Mutex
	calls []call
}

func newRecorder(t *testing.T) *recorder {
	t.Helper()
	needMock(t)
	target, _ := url.Parse(mockURL)
	proxy := httputil.NewSingleHostReverseProxy(target)
	rec := &recorder{}
	rec.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		form, _ := url.ParseQuery(string(body))
		rec.mu.Lock()
		rec.calls = append(rec.calls, call{
			Method: r.Method, Path: r.URL.Path, Query: r.URL.Query(), Form: form,
			Idempotency: r.Header.Get("Idempotency-Key"), Auth: r.Header.Get("Authorization"),
		})
		rec.mu.Unlock()
		r.Body = io.NopCloser(bytes.NewReader(body))
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(rec.Close)
	return rec
}

func (r *recorder) log() []call {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]call(nil), r.calls...)
}
