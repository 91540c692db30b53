package admin

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/siteinfo"
)

// Remote runs the operations through a Voyage server's agency API with an
// API key: the provider's key reaches every agency, a parent agency's key
// its sub-agencies.
type Remote struct {
	base   *url.URL
	key    string
	lang   string
	client *http.Client
}

// Error is an error answer of the API: its code, HTTP status, message and
// field messages, already translated by the server.
type Error struct {
	Code    int
	Status  int
	Message string
	Fields  map[string]string
}

func (e *Error) Error() string { return sentence(e.Message, e.Fields, e.Code) }

// Code is the API error code of err (fault.Error in-process, Error
// remotely), 0 when it has none.
func Code(err error) int {
	var re *Error
	if errors.As(err, &re) {
		return re.Code
	}
	if fe, ok := fault.As(err); ok {
		return fe.Code
	}
	return 0
}

// NewRemote talks to the server at base (e.g. https://voyage.example.com)
// with an API key; messages come in English. A nil client is one with a
// 60-second time-out.
func NewRemote(base, key string, client *http.Client) (*Remote, error) {
	u, err := url.Parse(strings.TrimRight(strings.TrimSpace(base), "/"))
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("--server must be an http(s) URL, got %q", base)
	}
	if strings.TrimSpace(key) == "" {
		return nil, errors.New("--api-key is required with --server")
	}
	if client == nil {
		client = &http.Client{Timeout: 60 * time.Second}
	}
	return &Remote{base: u, key: strings.TrimSpace(key), lang: "en", client: client}, nil
}

// Actor names the key the server sees.
func (r *Remote) Actor() string {
	prefix, _, _ := strings.Cut(strings.TrimPrefix(r.key, "vk_"), "_")
	return "apikey:" + prefix + " at " + r.base.Host
}

// Close releases idle connections.
func (r *Remote) Close() error {
	r.client.CloseIdleConnections()
	return nil
}

// call is one request with headers hdr; the answer's data is decoded into
// out (when not nil).
func (r *Remote) call(ctx context.Context, method, path string, q url.Values, body any, hdr http.Header, out any) error {
	res, err := r.send(ctx, method, path, q, body, hdr)
	if err != nil {
		return err
	}
	defer res.Body.Close()
	var env struct {
		Code    int             `json:"code"`
		Data    json.RawMessage `json:"data"`
		Message string          `json:"message"`
	}
	if err := json.NewDecoder(io.LimitReader(res.Body, 64<<20)).Decode(&env); err != nil {
		return fmt.Errorf("%s %s: HTTP %d without an API answer: %w", method, path, res.StatusCode, err)
	}
	if env.Code != fault.CodeOK {
		return apiError(res.StatusCode, env.Code, env.Message, env.Data)
	}
	if out == nil || len(env.Data) == 0 || string(env.Data) == "null" {
		return nil
	}
	if err := json.Unmarshal(env.Data, out); err != nil {
		return fmt.Errorf("%s %s: read answer: %w", method, path, err)
	}
	return nil
}

// answer is what r.call answers, decoded as a T.
func answer[T any](ctx context.Context, r *Remote, method, path string, q url.Values, body any, hdr http.Header) (T, error) {
	var out T
	err := r.call(ctx, method, path, q, body, hdr, &out)
	return out, err
}

func apiError(status, code int, message string, data json.RawMessage) error {
	e := &Error{Code: code, Status: status, Message: message}
	var v struct {
		Fields map[string]string `json:"fields"`
	}
	if len(data) > 0 && json.Unmarshal(data, &v) == nil && len(v.Fields) > 0 {
		e.Fields = v.Fields
	}
	return e
}

func (r *Remote) send(ctx context.Context, method, path string, q url.Values, body any, hdr http.Header) (*http.Response, error) {
	u := *r.base
	u.Path = r.base.Path + path
	u.RawQuery = q.Encode()
	var payload []byte
	if body != nil {
		var err error
		if payload, err = json.Marshal(body); err != nil {
			return nil, err
		}
	}
	for attempt := 1; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, method, u.String(), bytes.NewReader(payload))
		if err != nil {
			return nil, err
		}
		if payload == nil {
			req.Body, req.ContentLength = http.NoBody, 0
		}
		for k, v := range hdr {
			req.Header[k] = v
		}
		req.Header.Set("X-Api-Key", r.key)
		req.Header.Set("Accept", "application/json")
		if req.Header.Get("Accept-Language") == "" {
			req.Header.Set("Accept-Language", r.lang)
		}
		if payload != nil {
			req.Header.Set("Content-Type", "application/json")
		}
		res, err := r.client.Do(req)
		if err != nil {
			return nil, fmt.Errorf("reach %s: %w", r.base.Host, err)
		}
		wait, again := retryAfter(res, attempt)
		if !again {
			return res, nil
		}
		// Over the key's rate limit: the server refused the call before
		// doing anything, so any call may be sent again once the limit
		// allows. A script of many commands then slows down instead of
		// failing halfway.
		_ = res.Body.Close()
		t := time.NewTimer(wait)
		select {
		case <-ctx.Done():
			t.Stop()
			return nil, ctx.Err()
		case <-t.C:
		}
	}
}

// maxRateLimitWaits is how many times a call over the rate limit waits
// and is sent again before its 429 is the answer.
const maxRateLimitWaits = 5

// retryAfter says whether res is a rate-limit refusal worth waiting out
// (attempt is the call's how-manieth) and for how long: the server's
// Retry-After, between 100 ms and 10 s.
func retryAfter(res *http.Response, attempt int) (time.Duration, bool) {
	if res.StatusCode != http.StatusTooManyRequests || attempt > maxRateLimitWaits {
		return 0, false
	}
	wait := time.Second
	if secs, err := strconv.Atoi(res.Header.Get("Retry-After")); err == nil {
		wait = time.Duration(secs) * time.Second
	}
	return min(max(wait, 100*time.Millisecond), 10*time.Second), true
}

// ErrNotRemote is an operation the agency API does not offer.
var ErrNotRemote = errors.New("the agency API has no route for this; run it in-process on the server's database (--db)")

// apiKeyRequest and statementRequest are request bodies of the agency API.
type (
	apiKeyRequest struct {
		Name  string   `json:"name"`
		Roles []string `json:"roles"`
	}
	statementRequest struct {
		AgencyID int64  `json:"agencyId,omitempty"`
		From     string `json:"from"`
		To       string `json:"to"`
	}
)

func idPath(format string, ids ...int64) string {
	args := make([]any, len(ids))
	for i, id := range ids {
		args[i] = id
	}
	return fmt.Sprintf(format, args...)
}

func paging(q url.Values, page, size int) url.Values {
	page, size = auth.ClampPage(page, size)
	q.Set("page", strconv.Itoa(page))
	q.Set("pageSize", strconv.Itoa(size))
	return q
}

func (r *Remote) Agencies(ctx context.Context, f agency.ListFilter) (AgencyPage, error) {
	q := paging(url.Values{}, f.Page, f.PageSize)
	if f.Keyword != "" {
		q.Set("keyword", f.Keyword)
	}
	if f.Status != "" {
		q.Set("status", f.Status)
	}
	return answer[AgencyPage](ctx, r, http.MethodGet, "/base/v2/agencies", q, nil, nil)
}

func (r *Remote) Agency(ctx context.Context, id int64) (agency.Detail, error) {
	return answer[agency.Detail](ctx, r, http.MethodGet, idPath("/base/v2/agencies/%d", id), nil, nil, nil)
}

func (r *Remote) CreateAgency(ctx context.Context, req agency.CreateRequest) (agency.Detail, error) {
	return answer[agency.Detail](ctx, r, http.MethodPost, "/base/v2/agencies", nil, req, nil)
}

func (r *Remote) UpdateAgency(ctx context.Context, id int64, p agency.Profile) (agency.Detail, error) {
	return answer[agency.Detail](ctx, r, http.MethodPut, idPath("/base/v2/agencies/%d", id), nil, p, nil)
}

func (r *Remote) SetAgencyStatus(ctx context.Context, id int64, status string) (agency.Detail, error) {
	return answer[agency.Detail](ctx, r, http.MethodPut, idPath("/base/v2/agencies/%d/status", id), nil, map[string]string{"status": status}, nil)
}

func (r *Remote) SetAgencyConfig(ctx context.Context, id int64, c agency.Config) (agency.Detail, error) {
	ans, err := answer[struct {
		Agency agency.Detail `json:"agency"`
	}](ctx, r, http.MethodPut, idPath("/base/v2/agencies/%d/config", id), nil, c, nil)
	return ans.Agency, err
}

func (r *Remote) PreviewCredit(ctx context.Context, id int64, req agency.CreditRequest) (agency.CreditPlan, error) {
	return answer[agency.CreditPlan](ctx, r, http.MethodPost, idPath("/base/v2/agencies/%d/credit/preview", id), nil, req, nil)
}

func (r *Remote) SetCredit(ctx context.Context, id int64, req agency.CreditRequest) (agency.Summary, error) {
	return answer[agency.Summary](ctx, r, http.MethodPut, idPath("/base/v2/agencies/%d/credit", id), nil, req, nil)
}

func idempotency(key string) http.Header {
	return http.Header{"Idempotency-Key": []string{key}}
}

func (r *Remote) PreviewFunds(ctx context.Context, id int64, t ledger.TopUp) (agency.FundsPlan, error) {
	return answer[agency.FundsPlan](ctx, r, http.MethodPost, idPath("/base/v2/agencies/%d/balance/preview", id), nil, t, idempotency(t.IdempotencyKey))
}

func (r *Remote) AddFunds(ctx context.Context, id int64, t ledger.TopUp) (ledger.TopUpResult, error) {
	return answer[ledger.TopUpResult](ctx, r, http.MethodPost, idPath("/base/v2/agencies/%d/balance", id), nil, t, idempotency(t.IdempotencyKey))
}

func (r *Remote) Entries(ctx context.Context, id int64, page, pageSize int) (WalletEntryPage, error) {
	return answer[WalletEntryPage](ctx, r, http.MethodGet, idPath("/base/v2/agencies/%d/wallet/entries", id), paging(url.Values{}, page, pageSize), nil, nil)
}

func (r *Remote) APIKeys(ctx context.Context, id int64) ([]auth.APIKey, error) {
	return answer[[]auth.APIKey](ctx, r, http.MethodGet, idPath("/base/v2/agencies/%d/apikeys", id), nil, nil, nil)
}

func (r *Remote) CreateAPIKey(ctx context.Context, id int64, name string, roles []string) (auth.NewAPIKey, error) {
	return answer[auth.NewAPIKey](ctx, r, http.MethodPost, idPath("/base/v2/agencies/%d/apikey", id), nil, apiKeyRequest{Name: name, Roles: roles}, nil)
}

func (r *Remote) RevokeAPIKey(ctx context.Context, id, keyID int64) error {
	return r.call(ctx, http.MethodDelete, idPath("/base/v2/agencies/%d/apikeys/%d", id, keyID), nil, nil, nil, nil)
}

func (r *Remote) ResetSuperAdminPassword(ctx context.Context, id int64, password string) error {
	return r.call(ctx, http.MethodPost, idPath("/base/v2/agencies/%d/superuser/password", id), nil, map[string]string{"password": password}, nil, nil)
}

func (r *Remote) Users(ctx context.Context, id int64, f auth.UserFilter) (UserPage, error) {
	q := paging(url.Values{}, f.Page, f.PageSize)
	for k, v := range map[string]string{"keyword": f.Keyword, "status": f.Status, "role": f.Role} {
		if v != "" {
			q.Set(k, v)
		}
	}
	return answer[UserPage](ctx, r, http.MethodGet, idPath("/base/v2/agencies/%d/users", id), q, nil, nil)
}

func (r *Remote) CreateUser(ctx context.Context, id int64, req CreateUserRequest) (ManagedUser, error) {
	return answer[ManagedUser](ctx, r, http.MethodPost, idPath("/base/v2/agencies/%d/users", id), nil, req, nil)
}

// EnableUser is not in the agency API: it has no route that makes a
// managed agency's user active again, so remotely it is refused and in
// process (--db) it works.
func (r *Remote) EnableUser(context.Context, int64, int64) (ManagedUser, error) {
	return ManagedUser{}, ErrNotRemote
}

func (r *Remote) DisableUser(ctx context.Context, id, userID int64) (ManagedUser, error) {
	return answer[ManagedUser](ctx, r, http.MethodPost, idPath("/base/v2/agencies/%d/users/%d/deactivate", id, userID), nil, nil, nil)
}

func (r *Remote) Rates(ctx context.Context) ([]siteinfo.Rate, error) {
	return answer[[]siteinfo.Rate](ctx, r, http.MethodGet, "/base/v2/exchangeRates", nil, nil, nil)
}

func (r *Remote) RateHistory(ctx context.Context, currency string, limit int) ([]siteinfo.Rate, error) {
	q := url.Values{"currency": {currency}, "limit": {strconv.Itoa(limit)}}
	return answer[[]siteinfo.Rate](ctx, r, http.MethodGet, "/base/v2/exchangeRates", q, nil, nil)
}

func (r *Remote) SetRate(ctx context.Context, currency, rate string) ([]siteinfo.Rate, error) {
	cur, _, err := siteinfo.ParseRate(currency, rate)
	if err != nil {
		return nil, err
	}
	return answer[[]siteinfo.Rate](ctx, r, http.MethodPut, "/base/v2/exchangeRates/"+url.PathEscape(cur), nil, map[string]string{"rate": strings.TrimSpace(rate)}, nil)
}

func (r *Remote) CreateStatement(ctx context.Context, agencyID int64, from, to string) (StatementDetail, error) {
	return answer[StatementDetail](ctx, r, http.MethodPost, "/base/v2/sub/statements", nil, statementRequest{AgencyID: agencyID, From: from, To: to}, nil)
}

func (r *Remote) Statements(ctx context.Context, agencyID int64, page, pageSize int) (StatementPage, error) {
	q := paging(url.Values{"agencyId": {strconv.FormatInt(agencyID, 10)}}, page, pageSize)
	return answer[StatementPage](ctx, r, http.MethodGet, "/base/v2/sub/statements", q, nil, nil)
}

func (r *Remote) ExportStatement(ctx context.Context, w io.Writer, agencyID, statementID int64, format, lang string) error {
	path := idPath("/base/v2/sub/statements/%d/%d/export", agencyID, statementID)
	res, err := r.send(ctx, http.MethodGet, path, url.Values{"format": {format}}, nil, http.Header{"Accept-Language": {lang}})
	if err != nil {
		return err
	}
	defer res.Body.Close()
	if res.StatusCode != http.StatusOK {
		var env struct {
			Code    int             `json:"code"`
			Data    json.RawMessage `json:"data"`
			Message string          `json:"message"`
		}
		if err := json.NewDecoder(io.LimitReader(res.Body, 1<<20)).Decode(&env); err != nil || env.Code == 0 {
			return fmt.Errorf("GET %s: HTTP %d", path, res.StatusCode)
		}
		return apiError(res.StatusCode, env.Code, env.Message, env.Data)
	}
	if _, err := io.Copy(w, res.Body); err != nil {
		return fmt.Errorf("download statement %d: %w", statementID, err)
	}
	return nil
}

func (r *Remote) Orders(ctx context.Context, f flight.Filter) (flight.Page, error) {
	q := paging(url.Values{}, f.Page, f.PageSize)
	for _, st := range f.Statuses {
		q.Add("status", st)
	}
	for k, v := range map[string]string{"group": f.Group, "type": f.Type, "keyword": f.Keyword} {
		if v != "" {
			q.Set(k, v)
		}
	}
	if f.AgencyID != 0 {
		q.Set("agencyId", strconv.FormatInt(f.AgencyID, 10))
	}
	if f.DirectOnly {
		q.Set("direct", "true")
	}
	if !f.From.IsZero() {
		q.Set("from", f.From.Format(time.DateOnly))
	}
	if !f.To.IsZero() {
		q.Set("to", f.To.AddDate(0, 0, -1).Format(time.DateOnly))
	}
	return answer[flight.Page](ctx, r, http.MethodGet, "/order/v2/flight/orders", q, nil, nil)
}

func (r *Remote) Order(ctx context.Context, id int64) (flight.View, error) {
	return answer[flight.View](ctx, r, http.MethodGet, idPath("/order/v2/flight/orders/%d", id), nil, nil, nil)
}

func (r *Remote) Review(ctx context.Context, id int64, req flight.ReviewRequest) (flight.View, error) {
	return answer[flight.View](ctx, r, http.MethodPost, idPath("/order/v2/flight/orders/%d/review", id), nil, req, nil)
}

var _ Backend = (*Remote)(nil)

func (r *Remote) StuckJobs(ctx context.Context) ([]jobs.Job, error) {
	return answer[[]jobs.Job](ctx, r, http.MethodGet, "/base/v2/stuckJobs", nil, nil, nil)
}

func (r *Remote) RetryJob(ctx context.Context, id int64) (jobs.Job, error) {
	return answer[jobs.Job](ctx, r, http.MethodPost, idPath("/base/v2/jobs/%d/retry", id), nil, nil, nil)
}

func (r *Remote) RetryStuckJobs(ctx context.Context) ([]jobs.Job, error) {
	return answer[[]jobs.Job](ctx, r, http.MethodPost, "/base/v2/stuckJobs/retry", nil, nil, nil)
}
