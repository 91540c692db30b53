package server

import (
	"net/http"
	"net/http/httptest"
	"net/netip"
	"testing"
)

// Behind a trusted balancer the client is the right-most forwarded address
// that is not a proxy; from anywhere else the header is ignored, so a client
// cannot choose the address its limits are counted under.
func TestRealClient(t *testing.T) {
	t.Parallel()
	trusted := []netip.Prefix{netip.MustParsePrefix("127.0.0.1/32"), netip.MustParsePrefix("10.0.0.0/8")}
	for _, tc := range []struct {
		name, peer string
		xff        []string
		want       string
	}{
		{"direct client, no header", "203.0.113.7:5000", nil, "203.0.113.7:5000"},
		{"direct client forging the header", "203.0.113.7:5000", []string{"198.51.100.1"}, "203.0.113.7:5000"},
		{"through the balancer", "127.0.0.1:40000", []string{"198.51.100.1"}, "198.51.100.1:0"},
		{"client's own header before the balancer's", "127.0.0.1:40000", []string{"1.2.3.4, 198.51.100.1"}, "198.51.100.1:0"},
		{"two trusted hops", "127.0.0.1:40000", []string{"198.51.100.1", "10.1.2.3"}, "198.51.100.1:0"},
		{"balancer without the header", "127.0.0.1:40000", nil, "127.0.0.1:40000"},
		{"unreadable hop", "127.0.0.1:40000", []string{"198.51.100.1, garbage"}, "127.0.0.1:40000"},
		{"IPv6 client", "10.0.0.2:1", []string{"2001:db8::1"}, "[2001:db8::1]:0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var got string
			h := RealClient(trusted)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { got = r.RemoteAddr }))
			r := httptest.NewRequest("GET", "/", nil)
			r.RemoteAddr = tc.peer
			for _, v := range tc.xff {
				r.Header.Add("X-Forwarded-For", v)
			}
			h.ServeHTTP(httptest.NewRecorder(), r)
			if got != tc.want {
				t.Errorf("RemoteAddr %q, want %q", got, tc.want)
			}
		})
	}
}
