// Package server holds the HTTP plumbing shared by the API and the portal:
// request IDs, access logs, panic recovery, body limits, the request language,
// security headers and cross-origin protection.
package server

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"runtime/debug"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/voyage/voyage/pkg/i18n"
)

// Middleware wraps a handler.
type Middleware func(http.Handler) http.Handler

// Chain applies middlewares so that the first one listed runs first.
func Chain(h http.Handler, mws ...Middleware) http.Handler {
	for i := len(mws) - 1; i >= 0; i-- {
		h = mws[i](h)
	}
	return h
}

type requestIDKey struct{}

var cleanRequestID = regexp.MustCompile(`^[A-Za-z0-9._-]{1,64}$`)

// RequestID gives each request an ID, reusing a well-formed X-Request-Id from
// a proxy, and echoes it in the response.
func RequestID(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		id := r.Header.Get("X-Request-Id")
		if !cleanRequestID.MatchString(id) {
			b := make([]byte, 8)
			_, _ = rand.Read(b)
			id = hex.EncodeToString(b)
		}
		w.Header().Set("X-Request-Id", id)
		next.ServeHTTP(w, r.WithContext(context.WithValue(r.Context(), requestIDKey{}, id)))
	})
}

// RequestIDFrom returns the request's ID, or "".
func RequestIDFrom(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey{}).(string)
	return id
}

// LogHandler adds the request ID of the context to every record, so a log
// line can be traced back to its request.
type LogHandler struct{ slog.Handler }

// Handle implements slog.Handler.
func (h LogHandler) Handle(ctx context.Context, r slog.Record) error {
	if id := RequestIDFrom(ctx); id != "" {
		r.AddAttrs(slog.String("request_id", id))
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs implements slog.Handler.
func (h LogHandler) WithAttrs(as []slog.Attr) slog.Handler {
	return LogHandler{h.Handler.WithAttrs(as)}
}

// WithGroup implements slog.Handler.
func (h LogHandler) WithGroup(name string) slog.Handler { return LogHandler{h.Handler.WithGroup(name)} }

// StatusRecorder keeps the status and size of what a handler answered, for
// the middlewares that report it (the access log, the metrics).
type StatusRecorder struct {
	http.ResponseWriter
	status int
	bytes  int
}

// Status is the status code answered: the first one written, or 200 (as
// net/http answers) when the handler wrote none.
func (s *StatusRecorder) Status() int {
	if s.status == 0 {
		return http.StatusOK
	}
	return s.status
}

// Bytes is how many bytes of body were written.
func (s *StatusRecorder) Bytes() int { return s.bytes }

func (s *StatusRecorder) WriteHeader(code int) {
	if s.status == 0 {
		s.status = code
	}
	s.ResponseWriter.WriteHeader(code)
}

func (s *StatusRecorder) Write(b []byte) (int, error) {
	if s.status == 0 {
		s.status = http.StatusOK
	}
	n, err := s.ResponseWriter.Write(b)
	s.bytes += n
	return n, err
}

// Unwrap lets http.ResponseController reach the connection (flushes for
// the search's stream, deadlines).
func (s *StatusRecorder) Unwrap() http.ResponseWriter { return s.ResponseWriter }

// AccessLog logs the requests a server answers. A request that failed
// (status 400 and above) gets a line of its own, as do all of them when the
// logger is at DEBUG; the successful ones are counted and summed up in one
// INFO line per interval ("http requests": how many, by status class,
// bytes, mean and slowest duration). One synchronous line per request cost
// an order's four requests a measurable share of their time on a small
// machine, and said nothing a count does not.
type AccessLog struct {
	log   *slog.Logger
	mu    sync.Mutex
	sum   accessSum
	stop  chan struct{}
	done  chan struct{}
	close sync.Once
}

// accessSum is what the summary line reports.
type accessSum struct {
	count, ok2xx, redirect3xx int64
	bytes                     int64
	total, slowest            time.Duration
	slowestPath               string
}

// NewAccessLog starts an access log writing its summary to log (nil: the
// default logger at the time of writing) every interval; Close writes the
// last one.
func NewAccessLog(log *slog.Logger, every time.Duration) *AccessLog {
	l := &AccessLog{log: log, stop: make(chan struct{}), done: make(chan struct{})}
	go func() {
		defer close(l.done)
		t := time.NewTicker(every)
		defer t.Stop()
		for {
			select {
			case <-t.C:
				l.Flush()
			case <-l.stop:
				l.Flush()
				return
			}
		}
	}()
	return l
}

func (l *AccessLog) logger() *slog.Logger {
	if l.log != nil {
		return l.log
	}
	return slog.Default()
}

// Close stops the summaries after writing the last one.
func (l *AccessLog) Close() {
	l.close.Do(func() {
		close(l.stop)
		<-l.done
	})
}

// Flush writes the summary of the requests since the last one, if any.
func (l *AccessLog) Flush() {
	l.mu.Lock()
	s := l.sum
	l.sum = accessSum{}
	l.mu.Unlock()
	if s.count == 0 {
		return
	}
	l.logger().Info("http requests", "count", s.count, "2xx", s.ok2xx, "3xx", s.redirect3xx, "bytes", s.bytes,
		"mean", s.total/time.Duration(s.count), "slowest", s.slowest, "slowest_path", s.slowestPath)
}

// Handler is the middleware.
func (l *AccessLog) Handler(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		start := time.Now()
		rec := &StatusRecorder{ResponseWriter: w}
		next.ServeHTTP(rec, r)
		status, took := rec.Status(), time.Since(start)
		level := slog.LevelInfo
		switch {
		case r.URL.Path == "/readyz":
			// A load balancer asks every few seconds, and a 503 here is
			// the answer a draining or not-yet-migrated instance owes it
			// (the probe logs the database's own failures).
			level = slog.LevelDebug
		case status >= 500:
			level = slog.LevelError
		case r.URL.Path == "/healthz" || strings.HasPrefix(r.URL.Path, "/static/"):
			level = slog.LevelDebug
		case status < 400 && !l.logger().Enabled(r.Context(), slog.LevelDebug):
			l.mu.Lock()
			s := &l.sum
			s.count++
			if status < 300 {
				s.ok2xx++
			} else {
				s.redirect3xx++
			}
			s.bytes += int64(rec.Bytes())
			s.total += took
			if took > s.slowest {
				s.slowest, s.slowestPath = took, r.URL.Path
			}
			l.mu.Unlock()
			return
		}
		l.logger().Log(r.Context(), level, "http request", "method", r.Method, "path", r.URL.Path,
			"status", status, "bytes", rec.Bytes(), "duration", took, "remote", r.RemoteAddr)
	})
}

// Recover turns a panic into a 500 so one bad request cannot take the server
// down; onPanic writes the response (an envelope for the API, a page for the
// portal).
func Recover(onPanic func(w http.ResponseWriter, r *http.Request)) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			defer func() {
				if p := recover(); p != nil {
					if p == http.ErrAbortHandler {
						panic(p)
					}
					slog.ErrorContext(r.Context(), "panic in handler", "panic", fmt.Sprint(p), "stack", string(debug.Stack()))
					onPanic(w, r)
				}
			}()
			next.ServeHTTP(w, r)
		})
	}
}

// LimitBody caps request bodies; reading past the cap fails with
// *http.MaxBytesError, which handlers report as 413.
func LimitBody(limit int64) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// Logo and avatar uploads may be 2MB (spec §9), above the
			// default limit of 1 MiB; those routes cap their own body with
			// http.MaxBytesReader instead (pkg/api company logo, avatar).
			if strings.HasSuffix(r.URL.Path, "/logo") || strings.HasSuffix(r.URL.Path, "/avatar") {
				next.ServeHTTP(w, r)
				return
			}
			max := limit
			// Post-sale requests carry up to five 2 MB proofs (spec §9).
			if proofUpload(r.URL.Path) {
				max = ProofUploadBytes
			}
			if r.URL.Path == RecognitionPath {
				max = RecognitionUploadBytes
			}
			// The reader carries the real limit even when the declared length
			// is already over it: the 413 answer reports the reader's limit
			// (it once said "the limit is 0 bytes"). Reading stops at max+1
			// bytes either way.
			r.Body = http.MaxBytesReader(w, r.Body, max)
			next.ServeHTTP(w, r)
		})
	}
}

// ProofUploadBytes bounds a post-sale request: five 2 MB proofs and the
// form around them.
const ProofUploadBytes = 5*(2<<20) + 1<<20

// RecognitionPath is document recognition, whose image may be 10 MB (spec
// §9). RecognitionUploadBytes lets its body run well past that, so that the
// handler reads an oversized upload to its end and answers 413 rather than
// closing a connection the client is still writing to (which the client
// sees as a reset, not as the answer).
const (
	RecognitionPath        = "/base/v2/analysis/document"
	RecognitionUploadBytes = 32 << 20
)

func proofUpload(p string) bool {
	if !strings.HasPrefix(p, "/order/v2/flight/orders/") && !strings.HasPrefix(p, "/flight/orders/") {
		return false
	}
	return strings.HasSuffix(p, "/refund") || strings.HasSuffix(p, "/change") || strings.HasSuffix(p, "/void")
}

// LangCookie is the cookie the footer's language selector sets.
const LangCookie = "lang"

// Language puts the catalog and the request's language into the context: the
// lang query parameter, else the lang cookie, else Accept-Language, else
// English for a machine caller (an X-Api-Key request), else the site
// default.
func Language(cat *i18n.Catalog, siteDefault string) Middleware {
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			cookie := ""
			if c, err := r.Cookie(LangCookie); err == nil {
				cookie = c.Value
			}
			if q := i18n.Normalize(r.URL.Query().Get("lang")); q != "" {
				cookie = q
			}
			def := siteDefault
			if r.Header.Get("X-Api-Key") != "" {
				def = i18n.EN
			}
			lang := i18n.Negotiate(cookie, r.Header.Get("Accept-Language"), def)
			w.Header().Add("Vary", "Accept-Language, Cookie")
			w.Header().Set("Content-Language", i18n.HTMLLang(lang))
			next.ServeHTTP(w, r.WithContext(i18n.WithLocalizer(r.Context(), cat, lang)))
		})
	}
}

// ContentSecurityPolicy allows only our own scripts and styles: the islands are
// built files under /static, and props travel in data attributes, so no inline
// script or style is needed.
const ContentSecurityPolicy = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; " +
	"font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'self'; object-src 'none'; frame-ancestors 'self'"

// ContentSecurityPolicyWith is ContentSecurityPolicy with more sources:
// extra maps a directive (script-src, frame-src…) to the origins it also
// allows. A directive the policy does not name starts from default-src's
// sources, so that adding frame-src keeps the frames default-src allowed.
// It is for the one response that needs them (a page showing a payment
// provider's card form sets it over the baseline); every other page keeps
// the baseline.
func ContentSecurityPolicyWith(extra map[string][]string) string {
	directives := strings.Split(ContentSecurityPolicy, "; ")
	names := make([]string, len(directives))
	var defaults string
	for i, d := range directives {
		names[i], _, _ = strings.Cut(d, " ")
		if names[i] == "default-src" {
			_, defaults, _ = strings.Cut(d, " ")
		}
	}
	added := make([]string, 0, len(extra))
	for name := range extra {
		if !slices.Contains(names, name) {
			added = append(added, name)
		}
	}
	slices.Sort(added)
	for _, name := range added {
		directives = append(directives, name+" "+defaults)
		names = append(names, name)
	}
	for i, name := range names {
		for _, src := range extra[name] {
			if !slices.Contains(strings.Fields(directives[i])[1:], src) {
				directives[i] += " " + src
			}
		}
	}
	return strings.Join(directives, "; ")
}

// SecurityHeaders sets the baseline headers on every response.
func SecurityHeaders(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := w.Header()
		h.Set("Content-Security-Policy", ContentSecurityPolicy)
		h.Set("X-Content-Type-Options", "nosniff")
		h.Set("X-Frame-Options", "SAMEORIGIN")
		h.Set("Referrer-Policy", "strict-origin-when-cross-origin")
		h.Set("Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()")
		h.Set("Cross-Origin-Opener-Policy", "same-origin")
		next.ServeHTTP(w, r)
	})
}

// CrossOrigin rejects cross-site state-changing browser requests (Go's
// Sec-Fetch-Site/Origin check). Requests without browser headers, such as an
// agency's server calling the API, pass.
func CrossOrigin(onReject http.Handler) Middleware {
	cop := http.NewCrossOriginProtection()
	cop.SetDenyHandler(onReject)
	return cop.Handler
}
