package admin

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/fault"
)

func TestRemoteAnswers(t *testing.T) {
	var seen http.Header
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		seen = r.Header.Clone()
		switch r.URL.Path {
		case "/base/v2/agencies/7/credit/preview":
			w.WriteHeader(http.StatusBadRequest)
			fmt.Fprint(w, `{"code":100001,"data":{"fields":{"creditLimit":"Please enter the credit limit"}},"message":"Some fields need your attention."}`)
		case "/base/v2/agencies/8":
			w.WriteHeader(http.StatusBadGateway)
			fmt.Fprint(w, `<html>bad gateway</html>`)
		case "/base/v2/sub/statements/7/9/export":
			w.WriteHeader(http.StatusNotFound)
			fmt.Fprint(w, `{"code":100004,"data":null,"message":"Not Found"}`)
		case "/base/v2/agencies/9":
			fmt.Fprint(w, `{"code":0,"data":{"id":9,"name":"Nine","settlementCurrency":"HKD","balance":"1.50"},"message":""}`)
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	r, err := NewRemote(srv.URL+"/", "vk_abc_secret", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()

	d, err := r.Agency(ctx, 9)
	if err != nil || d.Name != "Nine" || d.Currency != "HKD" || d.Balance != "1.50" {
		t.Errorf("agency: %+v %v", d.Summary, err)
	}
	if seen.Get("X-Api-Key") != "vk_abc_secret" || seen.Get("Accept-Language") != "en" {
		t.Errorf("headers: %v", seen)
	}

	_, err = r.PreviewCredit(ctx, 7, agency.CreditRequest{CreditLimit: "-1"})
	var re *Error
	if !errors.As(err, &re) || re.Code != fault.CodeValidation || re.Status != 400 || Code(err) != fault.CodeValidation ||
		err.Error() != "Some fields need your attention. (creditLimit: Please enter the credit limit) [code 100001]" {
		t.Errorf("validation answer: %v", err)
	}
	if _, err := r.Agency(ctx, 8); err == nil || !strings.Contains(err.Error(), "HTTP 502 without an API answer") {
		t.Errorf("a proxy's page: %v", err)
	}
	var buf bytes.Buffer
	if err := r.ExportStatement(ctx, &buf, 7, 9, "csv", "zh-tw"); Code(err) != fault.CodeNotFound || buf.Len() != 0 {
		t.Errorf("export of a missing statement: %v, %d bytes", err, buf.Len())
	}
	if seen.Get("Accept-Language") != "zh-tw" {
		t.Errorf("export language: %q", seen.Get("Accept-Language"))
	}
	if r.Actor() != "apikey:abc at "+strings.TrimPrefix(srv.URL, "http://") {
		t.Errorf("actor %q", r.Actor())
	}
}

func TestNewRemoteRefuses(t *testing.T) {
	for _, tt := range []struct{ server, key, want string }{
		{"ftp://host", "k", "http(s) URL"},
		{"http://", "k", "http(s) URL"},
		{"https://voyage.example.com", " ", "--api-key is required"},
	} {
		if _, err := NewRemote(tt.server, tt.key, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("NewRemote(%q, %q) = %v, want %q", tt.server, tt.key, err, tt.want)
		}
	}
}

func TestDescribe(t *testing.T) {
	tests := []struct {
		err  error
		want string
	}{
		{fmt.Errorf("agency: %w", fault.Validation(map[string]string{"rate": "ledger.error.rate", "currency": "ledger.error.currency"})),
			"Some fields need your attention. (currency: This currency is not supported; rate: "},
		{fault.NotFound(""), "[code 100004]"},
		{errors.New("reach host: refused"), "reach host: refused"},
		{&Error{Code: 100009, Message: "Conflict"}, "Conflict [code 100009]"},
	}
	for _, tt := range tests {
		if got := Describe(tt.err); !strings.HasPrefix(got, tt.want) && !strings.HasSuffix(got, tt.want) {
			t.Errorf("Describe(%v) = %q, want %q", tt.err, got, tt.want)
		}
	}
}

func TestDescribeSentences(t *testing.T) {
	v := fault.Validation(map[string]string{"reference": "ledger.error.reference", "amountReceived": "ledger.error.amount"})
	got := Describe(fmt.Errorf("agency: add funds: %w", v))
	want := "Some fields need your attention. (amountReceived: The amount must be greater than zero; reference: Please enter the reference number) [code 100001]"
	if got != want {
		t.Errorf("Describe(validation) = %q, want %q", got, want)
	}
	// Anything that is not a service fault (a remote API error, a network
	// failure) says itself.
	if got := Describe(errors.New("Not found [code 100004]")); got != "Not found [code 100004]" {
		t.Errorf("Describe(other) = %q", got)
	}
	// An internal fault is not dressed as a user message.
	internal := &fault.Error{Code: fault.CodeInternal, Status: 500, Key: "error.internal", Err: errors.New("disk full")}
	if got := Describe(internal); !strings.Contains(got, "disk full") {
		t.Errorf("Describe(internal) = %q", got)
	}
}

// TestRemoteWaitsOutTheRateLimit: a call over the key's rate limit (429,
// refused before anything was done) is sent again after the server's
// Retry-After, the body each time whole; one still refused after
// maxRateLimitWaits waits answers the 429.
func TestRemoteWaitsOutTheRateLimit(t *testing.T) {
	t.Parallel()
	var calls int
	var bodies []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		var b bytes.Buffer
		_, _ = b.ReadFrom(r.Body)
		bodies = append(bodies, b.String())
		if r.URL.Path == "/base/v2/agencies/9" && calls <= 2 || r.URL.Path == "/base/v2/agencies/10" {
			w.Header().Set("Retry-After", "0")
			w.WriteHeader(http.StatusTooManyRequests)
			fmt.Fprint(w, `{"code":200029,"data":null,"message":"Too many requests"}`)
			return
		}
		fmt.Fprint(w, `{"code":0,"data":{"id":9,"name":"Nine","settlementCurrency":"HKD","balance":"1.50"},"message":""}`)
	}))
	defer srv.Close()
	r, err := NewRemote(srv.URL+"/", "vk_abc_secret", nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	d, err := r.UpdateAgency(ctx, 9, agency.Profile{Name: "Nine"})
	if err != nil || d.Name != "Nine" || calls != 3 {
		t.Fatalf("after two 429s: %+v %v, %d calls", d.Summary, err, calls)
	}
	for _, b := range bodies {
		if b != bodies[0] || !strings.Contains(b, `"Nine"`) {
			t.Errorf("bodies sent: %q", bodies)
		}
	}
	calls = 0
	if _, err := r.Agency(ctx, 10); Code(err) != 200029 || calls != maxRateLimitWaits+1 {
		t.Errorf("always over the limit: %v after %d calls", err, calls)
	}
}
