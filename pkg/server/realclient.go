package server

import (
	"net"
	"net/http"
	"net/netip"
	"strings"
)

// RealClient makes r.RemoteAddr the client's address when the connection
// comes from one of the trusted proxies (the load balancer in front of the
// instances): the right-most address of X-Forwarded-For that is not itself
// a trusted proxy. Behind a balancer every request otherwise came from the
// balancer, so the per-address limits on login and the public forms were one
// bucket for everybody. A connection from anywhere else keeps its own
// address, header or not, so a client cannot pick the address it is counted
// under. Everything downstream (rate limits, the user log, sessions' devices)
// reads r.RemoteAddr.
func RealClient(trusted []netip.Prefix) func(http.Handler) http.Handler {
	return func(next http.Handler) http.Handler {
		if len(trusted) == 0 {
			return next
		}
		isTrusted := func(a netip.Addr) bool {
			a = a.Unmap()
			for _, p := range trusted {
				if p.Contains(a) {
					return true
				}
			}
			return false
		}
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			host, _, err := net.SplitHostPort(r.RemoteAddr)
			peer, perr := netip.ParseAddr(host)
			if err != nil || perr != nil || !isTrusted(peer) {
				next.ServeHTTP(w, r)
				return
			}
			var hops []string
			for _, h := range r.Header.Values("X-Forwarded-For") {
				hops = append(hops, strings.Split(h, ",")...)
			}
			for i := len(hops) - 1; i >= 0; i-- {
				a, err := netip.ParseAddr(strings.TrimSpace(hops[i]))
				if err != nil {
					// A hop we cannot read ends what we can trust.
					break
				}
				if isTrusted(a) {
					continue
				}
				r2 := r.Clone(r.Context())
				r2.RemoteAddr = net.JoinHostPort(a.Unmap().String(), "0")
				next.ServeHTTP(w, r2)
				return
			}
			next.ServeHTTP(w, r)
		})
	}
}
