package api

import (
	"context"
	"log/slog"
	"net/http"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/audit"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/idempotency"
	"github.com/voyage/voyage/pkg/ratelimit"
)

// HandlerFunc handles an API request and returns the envelope's data, or an
// error that becomes an error envelope.
type HandlerFunc func(w http.ResponseWriter, r *http.Request) (any, error)

// Operation documents one route in the OpenAPI document. Registering a route
// without one is impossible, which keeps the document complete.
type Operation struct {
	ID      string
	Summary string
	Tag     string
	// Public routes need no session or API key.
	Public bool
	// Role, when set, is required of the caller (SuperUser passes).
	Role string
	// Allow, when set, is a further access rule of spec §6.
	Allow func(auth.Subject) bool
	// UserOnly routes need a logged-in user, not an API key.
	UserOnly bool
	// SelfAudited routes write their own user-log entry (login, logout,
	// password changes); the router records every other successful
	// state-changing call.
	SelfAudited bool
	// Reads marks a POST that changes nothing (a search and its polls, a
	// price check, the reading of a pasted PNR or a document): the user
	// log keeps what users changed, not every read.
	Reads bool
	// Request is a value of the JSON body type, nil for no body.
	Request any
	// Response is a value of the envelope's data type, nil for no data.
	Response any
	// Status is the success status, 200 when zero.
	Status int
	// Query documents query-string parameters.
	Query []Param
	// Errors lists the API codes this route can answer besides 100001/500001.
	Errors []int
	// OptionalBody: the JSON body may be left out.
	OptionalBody bool
	// Multipart: Request documents a multipart/form-data body (its json
	// names are the form fields; []byte fields are files).
	Multipart bool
	// RawBody lists the content types of a raw (not JSON) request body.
	RawBody []string
	// Produces lists the content types of a raw route's success body.
	Produces []string
	// Idempotency documents the Idempotency-Key header of the route.
	Idempotency Idempotency
	// StringPath names the path parameters that are not integer ids.
	StringPath []string
	// PathEnum lists the values of enumerated path parameters.
	PathEnum map[string][]string
}

// Param is a documented query parameter.
type Param struct {
	Name        string
	Description string
	Type        string // string, integer, boolean
	Required    bool
	Array       bool
	Enum        []string
}

// Route is a registered method and path with its documentation.
type Route struct {
	Method string
	Path   string
	Op     Operation
}

// Authenticator resolves the credentials of a request; pkg/auth implements it.
type Authenticator interface {
	Authenticate(ctx context.Context, token string) (auth.Principal, error)
	AuthenticateAPIKey(ctx context.Context, key string, m auth.Meta) (auth.Principal, error)
}

// Auditor records a state-changing call in the user log.
type Auditor interface {
	Record(ctx context.Context, e audit.Entry) error
}

// KeyLocker serialises the requests that carry the same Idempotency-Key;
// pkg/idempotency implements it across instances.
type KeyLocker interface {
	// Hold returns a context carrying the lock, which the request's last
	// write may release itself (idempotency.ReleaseItem).
	Hold(ctx context.Context, scope, key string) (_ context.Context, release func(), err error)
}

// Router registers API routes on a ServeMux and remembers them for OpenAPI.
type Router struct {
	mux     *http.ServeMux
	auth    Authenticator
	auditor Auditor
	locks   KeyLocker
	routes  []Route
	limiter ratelimit.Limiter
	limits  Limits
}

// Limits are the API's rate limits, each a bucket of its own: one per API
// key, one per user (however many sessions the user has: five logins of
// one user once got five times the allowance), and one per address for the
// public routes (login, the partnership form, the site's settings), whose
// callers have no name yet.
type Limits struct {
	Key, User, Anonymous ratelimit.Limit
}

// RateLimit limits the calls as limits say, counted by l.
func (rt *Router) RateLimit(l ratelimit.Limiter, limits Limits) {
	rt.limiter, rt.limits = l, limits
}

// limit takes the request from its caller's bucket and sets the RateLimit
// headers; a caller over its limit gets a 429 error. A limiter that fails
// (Redis unreachable) lets the request through.
func (rt *Router) limit(w http.ResponseWriter, r *http.Request) error {
	if rt.limiter == nil {
		return nil
	}
	p, ok := auth.PrincipalFrom(r.Context())
	var key string
	var l ratelimit.Limit
	switch {
	case ok && p.APIKeyID != 0:
		key, l = "key:"+strconv.FormatInt(p.APIKeyID, 10), rt.limits.Key
	case ok && p.UserID != 0:
		key, l = "user:"+strconv.FormatInt(p.UserID, 10), rt.limits.User
	default:
		key, l = "addr:"+peerIP(r), rt.limits.Anonymous
	}
	if l.Rate <= 0 {
		return nil
	}
	res, err := rt.limiter.Take(r.Context(), key, l)
	if err != nil {
		slog.WarnContext(r.Context(), "api: rate limit unavailable; request let through", "err", err)
		return nil
	}
	h := w.Header()
	secs := func(d time.Duration) string { return strconv.FormatInt(int64((d+time.Second-1)/time.Second), 10) }
	h.Set("RateLimit-Limit", strconv.Itoa(res.Limit))
	h.Set("RateLimit-Remaining", strconv.Itoa(res.Remaining))
	h.Set("RateLimit-Reset", secs(res.Reset))
	h.Set("RateLimit-Policy", strconv.Itoa(res.Limit)+";w="+secs(time.Duration(float64(res.Limit)/l.Rate*float64(time.Second))))
	if !res.Allowed {
		return fault.RateLimited("apidocs.error.rateLimited", res.RetryAfter,
			"rate", strconv.FormatFloat(l.Rate, 'f', -1, 64), "burst", l.Burst, "seconds", secs(res.RetryAfter))
	}
	return nil
}

// SerialiseKeys makes the state-changing requests of one caller's agency
// that carry the same Idempotency-Key run one after another: a replay waits
// for the first and answers what the first left (the service's own replay
// rule), never a conflict with a request still running.
func (rt *Router) SerialiseKeys(l KeyLocker) { rt.locks = l }

// lockKey holds the request's Idempotency-Key for its agency until release;
// the request it answers carries the lock.
func (rt *Router) lockKey(r *http.Request, method string) (_ *http.Request, release func(), err error) {
	key := r.Header.Get("Idempotency-Key")
	if rt.locks == nil || key == "" || len(key) > 200 || method == http.MethodGet || method == http.MethodHead {
		return r, func() {}, nil
	}
	p, _ := auth.PrincipalFrom(r.Context())
	ctx, release, err := rt.locks.Hold(r.Context(), "agency:"+strconv.FormatInt(p.AgencyID, 10), key)
	if err != nil {
		return r, nil, err
	}
	return r.WithContext(ctx), release, nil
}

// NewRouter returns a router that registers on mux, authenticates the
// non-public routes with a and records their successful writes with log.
func NewRouter(mux *http.ServeMux, a Authenticator, log Auditor) *Router {
	return &Router{mux: mux, auth: a, auditor: log}
}

// SessionCookie is the portal's login cookie; the API accepts it too, so the
// portal's own scripts call the API without handling the token.
const SessionCookie = "voyage_session"

// authenticate finds the caller: a bearer token, an API key or the portal's
// session cookie, in that order.
func (rt *Router) authenticate(r *http.Request) (auth.Principal, error) {
	if h := r.Header.Get("Authorization"); h != "" {
		scheme, token, _ := strings.Cut(h, " ")
		if !strings.EqualFold(scheme, "Bearer") {
			return auth.Principal{}, fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, "axios.login.timeout")
		}
		return rt.auth.Authenticate(r.Context(), strings.TrimSpace(token))
	}
	if key := r.Header.Get("X-Api-Key"); key != "" {
		return rt.auth.AuthenticateAPIKey(r.Context(), key, Meta(r))
	}
	if c, err := r.Cookie(SessionCookie); err == nil && c.Value != "" {
		return rt.auth.Authenticate(r.Context(), c.Value)
	}
	return auth.Principal{}, fault.New(fault.CodeSessionInvalid, http.StatusUnauthorized, "router.login")
}

// admit authenticates the request and applies the operation's access rules.
func (rt *Router) admit(r *http.Request, op Operation) (*http.Request, error) {
	p, err := rt.authenticate(r)
	if err != nil {
		return r, err
	}
	if op.UserOnly && p.UserID == 0 {
		return r, fault.Forbidden()
	}
	if op.Role != "" && !p.Subject.HasRole(op.Role) {
		return r, fault.Forbidden()
	}
	if op.Allow != nil && !op.Allow(p.Subject) {
		return r, fault.Forbidden()
	}
	return r.WithContext(audit.WithIP(auth.WithPrincipal(r.Context(), p), peerIP(r))), nil
}

// Handle registers h for pattern ("METHOD /path/{param}").
func (rt *Router) Handle(pattern string, op Operation, h HandlerFunc) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok || method == "" || !strings.HasPrefix(path, "/") {
		panic("api: route pattern must be \"METHOD /path\": " + pattern)
	}
	rt.add(method, path, op)
	status := op.Status
	if status == 0 {
		status = http.StatusOK
	}
	rt.mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, err := rt.enter(w, r, op)
		if err == nil && op.Idempotency != IdempotencyNone {
			err = idempotency.Check(r.Header.Get("Idempotency-Key"), op.Idempotency == IdempotencyRequired)
		}
		if err != nil {
			WriteError(w, r, err)
			return
		}
		r, release, err := rt.lockKey(r, method)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		defer release()
		recorded := !op.Public && !op.SelfAudited && !op.Reads && method != http.MethodGet && method != http.MethodHead
		var facts audit.Facts
		if recorded {
			var ctx context.Context
			ctx, facts = audit.Collect(r.Context())
			r = r.WithContext(ctx)
		}
		data, err := h(w, r)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if recorded {
			rt.record(r, op, factsOf(data, facts))
		}
		WriteJSON(w, status, data)
	}))
}

// enter admits a request to a route that is not public (who, with which
// role) and counts it against the caller's rate limit.
func (rt *Router) enter(w http.ResponseWriter, r *http.Request, op Operation) (*http.Request, error) {
	if op.Public {
		return r, rt.limit(w, r)
	}
	r, err := rt.admit(r, op)
	if err != nil {
		return r, err
	}
	return r, rt.limit(w, r)
}

// HandleRaw registers a route whose success answer is not the JSON envelope
// (an image, a CSV or PDF download): documented in OpenAPI and admitted like
// any other route; errors still answer the envelope.
func (rt *Router) HandleRaw(pattern string, op Operation, h func(w http.ResponseWriter, r *http.Request) error) {
	method, path, ok := strings.Cut(pattern, " ")
	if !ok || method != http.MethodGet || !strings.HasPrefix(path, "/") {
		panic("api: raw routes are \"GET /path\": " + pattern)
	}
	rt.add(method, path, op)
	rt.mux.Handle(pattern, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		r, err := rt.enter(w, r, op)
		if err != nil {
			WriteError(w, r, err)
			return
		}
		if err := h(w, r); err != nil {
			WriteError(w, r, err)
		}
	}))
}

// record notes a successful state-changing call: who, from where, what, on
// which path, and the facts its sentence names. A failure to log is
// reported but does not undo the call.
func (rt *Router) record(r *http.Request, op Operation, facts audit.Facts) {
	if rt.auditor == nil {
		return
	}
	p, _ := auth.PrincipalFrom(r.Context())
	e := audit.Entry{AgencyID: p.AgencyID, Username: p.Username, Action: op.ID, Target: r.Method + " " + r.URL.Path, Facts: facts, IP: peerIP(r)}
	if p.UserID != 0 {
		e.UserID = &p.UserID
	}
	if err := rt.auditor.Record(r.Context(), e); err != nil {
		slog.ErrorContext(r.Context(), "api: user log", "action", op.ID, "err", err)
	}
}

// add remembers a route for the OpenAPI document; an undocumented or
// duplicate operation is a programming error.
func (rt *Router) add(method, path string, op Operation) {
	if op.ID == "" || op.Summary == "" || op.Tag == "" {
		panic("api: route " + method + " " + path + " needs an operation ID, summary and tag")
	}
	for _, r := range rt.routes {
		if r.Op.ID == op.ID {
			panic("api: duplicate operation ID " + op.ID)
		}
	}
	rt.routes = append(rt.routes, Route{Method: method, Path: path, Op: op})
}

// Routes returns the registered routes sorted by path then method.
func (rt *Router) Routes() []Route {
	out := slices.Clone(rt.routes)
	sort.Slice(out, func(i, j int) bool {
		if out[i].Path != out[j].Path {
			return out[i].Path < out[j].Path
		}
		return out[i].Method < out[j].Method
	})
	return out
}

// Finish registers the fallbacks once every route is in: a 405 envelope for a
// known path with another method, and a 404 envelope for any unknown path
// under the API prefixes.
func (rt *Router) Finish(prefixes ...string) {
	methods := map[string][]string{}
	for _, r := range rt.routes {
		methods[r.Path] = append(methods[r.Path], r.Method)
	}
	for path, ms := range methods {
		allow := strings.Join(ms, ", ")
		// One fallback per missing method rather than one for the bare
		// path: a bare /orders/status would clash with GET /orders/{id}.
		for _, m := range []string{http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete} {
			if slices.Contains(ms, m) || m == http.MethodHead && slices.Contains(ms, http.MethodGet) {
				continue
			}
			rt.mux.HandleFunc(m+" "+path, func(w http.ResponseWriter, r *http.Request) {
				w.Header().Set("Allow", allow)
				WriteError(w, r, fault.New(fault.CodeNotFound, http.StatusMethodNotAllowed, "error.methodNotAllowed"))
			})
		}
	}
	for _, p := range prefixes {
		rt.mux.HandleFunc(p, func(w http.ResponseWriter, r *http.Request) {
			WriteError(w, r, fault.NotFound("error.unknownPath"))
		})
	}
}
