// Package airwallextest is a local fake of Airwallex's Payment Acceptance
// API for tests and local runs: the login endpoint and its bearer token,
// payment intents, refunds, and signed webhooks sent to one notification
// URL, all kept in memory.
//
// Shapes follow Airwallex's API reference: "API Access Token" (login
// answers 201 {token, expires_at}), "Payment Intents" (create, retrieve,
// list by merchant_order_id as {has_more, items}, cancel), "Refunds"
// (create answers status RECEIVED), "Errors" ({code, message, source}),
// "Listen for webhook events" and its "Payload examples: Online Payments"
// ({id, name, accountId, data: {object}, created_at}, signed with
// x-timestamp in milliseconds and x-signature = hex HMAC-SHA256 of
// x-timestamp + body), and "Webhooks overview" (only a 200 is delivery;
// anything else is retried with back-off). Airwallex's payment intent
// reports no fee (fees show in settlement reports), so the fake charges
// none and Status.Fee is 0.
package airwallextest

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/payment/airwallex"
)

// Options configures a Server.
type Options struct {
	// ClientID and APIKey are the credentials the login endpoint accepts.
	ClientID, APIKey string
	// WebhookSecret signs the webhooks.
	WebhookSecret string
	// NotifyURL receives the webhooks (Airwallex's is set per account in
	// its web app, not per payment).
	NotifyURL string
	// TokenTTL is how long a token lives; 30 minutes when zero (the
	// documented lifetime).
	TokenTTL time.Duration
	// Now is the fake's clock; time.Now when nil.
	Now func() time.Time
	// Wait is called before resend n (1, 2, …) of a webhook; nothing when
	// nil, so tests need not sleep. A real run passes a back-off sleep.
	Wait func(n int)
	// MaxTries bounds the deliveries of one webhook; 5 when zero.
	MaxTries int
	// Client sends the webhooks; a client with a 10-second timeout when
	// nil.
	Client *http.Client
}

// Notification is one webhook the fake sent, with its fate.
type Notification struct {
	Name      string
	Key       string
	Body      []byte
	Header    http.Header
	Tries     int
	Delivered bool // a try was answered 200
}

type refund struct {
	airwallex.Refund
	minor int64
}

type intent struct {
	airwallex.Intent
	minor    int64
	refunded int64
}

// Server is the fake, an http.Handler.
type Server struct {
	opts Options

	mu            sync.Mutex
	tokens        map[string]time.Time // token -> expiry
	intents       map[string]*intent   // id -> intent
	byRequest     map[string]string    // create request_id -> intent id
	refunds       map[string]*refund   // id -> refund
	refundByReq   map[string]string    // refund request_id -> refund id
	notifications []Notification
	failNext      int
	logins        int
}

// New makes a fake Airwallex.
func New(opts Options) *Server {
	if opts.TokenTTL == 0 {
		opts.TokenTTL = 30 * time.Minute
	}
	opts.Now = payment.Clock(opts.Now)
	if opts.MaxTries == 0 {
		opts.MaxTries = 5
	}
	if opts.Client == nil {
		opts.Client = payment.HTTPClient(nil, 10*time.Second)
	}
	return &Server{
		opts: opts, tokens: map[string]time.Time{}, intents: map[string]*intent{}, byRequest: map[string]string{},
		refunds: map[string]*refund{}, refundByReq: map[string]string{},
	}
}

// ServeHTTP routes the API.
func (s *Server) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	fail := s.failNext > 0
	if fail {
		s.failNext--
	}
	s.mu.Unlock()
	if fail {
		writeErr(w, http.StatusInternalServerError, "internal_error", "Something went wrong on our end", "")
		return
	}
	path := r.URL.Path
	if path == "/api/v1/authentication/login" && r.Method == http.MethodPost {
		s.login(w, r)
		return
	}
	if !s.authorized(r) {
		writeErr(w, http.StatusUnauthorized, "unauthorized", "Access denied, authentication failed", "")
		return
	}
	var body map[string]json.RawMessage
	if r.Method == http.MethodPost {
		raw, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err := json.Unmarshal(raw, &body); err != nil {
			writeErr(w, http.StatusBadRequest, "validation_error", "request body is not a JSON object", "")
			return
		}
	}
	switch {
	case r.Method == http.MethodPost && path == "/api/v1/pa/payment_intents/create":
		s.createIntent(w, body)
	case r.Method == http.MethodGet && path == "/api/v1/pa/payment_intents":
		s.listIntents(w, r.URL.Query().Get("merchant_order_id"))
	case r.Method == http.MethodGet && strings.HasPrefix(path, "/api/v1/pa/payment_intents/"):
		s.getIntent(w, strings.TrimPrefix(path, "/api/v1/pa/payment_intents/"))
	case r.Method == http.MethodPost && strings.HasPrefix(path, "/api/v1/pa/payment_intents/") && strings.HasSuffix(path, "/cancel"):
		s.cancelIntent(w, strings.TrimSuffix(strings.TrimPrefix(path, "/api/v1/pa/payment_intents/"), "/cancel"))
	case r.Method == http.MethodPost && path == "/api/v1/pa/refunds/create":
		s.createRefund(w, body)
	default:
		writeErr(w, http.StatusNotFound, "not_found", "The requested endpoint does not exist", "")
	}
}

func writeErr(w http.ResponseWriter, status int, code, msg, source string) {
	e := map[string]string{"code": code, "message": msg}
	if source != "" {
		e["source"] = source
	}
	writeJSON(w, status, e)
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func newID(prefix string) string {
	b := make([]byte, 10)
	_, _ = rand.Read(b)
	return prefix + hex.EncodeToString(b)
}

func (s *Server) stamp() string { return s.opts.Now().UTC().Format("2006-01-02T15:04:05-0700") }

func (s *Server) login(w http.ResponseWriter, r *http.Request) {
	if r.Header.Get("x-client-id") != s.opts.ClientID || r.Header.Get("x-api-key") != s.opts.APIKey || s.opts.APIKey == "" {
		writeErr(w, http.StatusUnauthorized, "credentials_invalid", "Invalid client id or API key", "")
		return
	}
	token := newID("tok_")
	exp := s.opts.Now().Add(s.opts.TokenTTL)
	s.mu.Lock()
	s.tokens[token] = exp
	s.logins++
	s.mu.Unlock()
	writeJSON(w, http.StatusCreated, map[string]string{"token": token, "expires_at": exp.UTC().Format("2006-01-02T15:04:05-0700")})
}

func (s *Server) authorized(r *http.Request) bool {
	token, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer ")
	if !ok {
		return false
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	exp, ok := s.tokens[token]
	return ok && s.opts.Now().Before(exp)
}

func str(body map[string]json.RawMessage, k string) string {
	var v string
	_ = json.Unmarshal(body[k], &v)
	return v
}

// amount reads a JSON number of major units into minor units, refusing a
// string, a non-positive amount or too many decimals as Airwallex does.
func amount(body map[string]json.RawMessage, currency string) (int64, bool) {
	var n json.Number
	raw := body["amount"]
	if len(raw) == 0 || raw[0] == '"' || json.Unmarshal(raw, &n) != nil {
		return 0, false
	}
	minor, err := airwallex.Minor(n, currency)
	return minor, err == nil && minor > 0
}

func (s *Server) major(minor int64, currency string) json.Number {
	n, err := airwallex.Major(minor, currency)
	if err != nil {
		return json.Number(strconv.FormatInt(minor, 10))
	}
	return n
}

func (s *Server) createIntent(w http.ResponseWriter, body map[string]json.RawMessage) {
	reqID, cur, order := str(body, "request_id"), str(body, "currency"), str(body, "merchant_order_id")
	for _, f := range []struct{ name, v string }{{"request_id", reqID}, {"currency", cur}, {"merchant_order_id", order}} {
		if f.v == "" {
			writeErr(w, http.StatusBadRequest, "validation_error", f.name+" must be provided", f.name)
			return
		}
	}
	minor, ok := amount(body, cur)
	if !ok {
		writeErr(w, http.StatusBadRequest, "validation_error", "amount must be a positive number with the currency's decimals", "amount")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.byRequest[reqID]; ok {
		// The same request_id is the same request: its intent again.
		writeJSON(w, http.StatusCreated, s.intents[id].Intent)
		return
	}
	id := newID("int_")
	in := &intent{Intent: airwallex.Intent{
		ID: id, RequestID: reqID, Amount: s.major(minor, cur), Currency: cur, MerchantOrderID: order,
		Descriptor: str(body, "descriptor"), ReturnURL: str(body, "return_url"), Status: airwallex.StatusRequiresPaymentMethod,
		CapturedAmount: "0", ClientSecret: newID("cs_"), CreatedAt: s.stamp(), UpdatedAt: s.stamp(),
	}, minor: minor}
	s.intents[id], s.byRequest[reqID] = in, id
	writeJSON(w, http.StatusCreated, in.Intent)
}

func (s *Server) listIntents(w http.ResponseWriter, order string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	items := []airwallex.Intent{}
	for _, in := range s.intents {
		if order == "" || in.MerchantOrderID == order {
			items = append(items, in.Intent)
		}
	}
	writeJSON(w, http.StatusOK, map[string]any{"has_more": false, "items": items})
}

func (s *Server) getIntent(w http.ResponseWriter, id string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	in, ok := s.intents[id]
	if !ok {
		writeErr(w, http.StatusNotFound, "resource_not_found", "The PaymentIntent "+id+" does not exist", "")
		return
	}
	writeJSON(w, http.StatusOK, in.Intent)
}

func (s *Server) cancelIntent(w http.ResponseWriter, id string) {
	s.mu.Lock()
	in, ok := s.intents[id]
	if !ok {
		s.mu.Unlock()
		writeErr(w, http.StatusNotFound, "resource_not_found", "The PaymentIntent "+id+" does not exist", "")
		return
	}
	switch in.Status {
	case airwallex.StatusSucceeded, airwallex.StatusExpired:
		s.mu.Unlock()
		writeErr(w, http.StatusBadRequest, "invalid_status_for_operation", "The PaymentIntent with status "+in.Status+" cannot be cancelled", "")
		return
	case airwallex.StatusCancelled:
		snapshot := in.Intent
		s.mu.Unlock()
		writeJSON(w, http.StatusOK, snapshot)
		return
	}
	in.Status, in.UpdatedAt = airwallex.StatusCancelled, s.stamp()
	snapshot := in.Intent
	s.mu.Unlock()
	// Sent before answering, so a test sees it without waiting; what the
	// notify URL answers does not change the cancellation.
	_ = s.send(airwallex.EventCancelled, snapshot.MerchantOrderID, snapshot)
	writeJSON(w, http.StatusOK, snapshot)
}

func (s *Server) createRefund(w http.ResponseWriter, body map[string]json.RawMessage) {
	reqID, piID := str(body, "request_id"), str(body, "payment_intent_id")
	if reqID == "" || piID == "" {
		writeErr(w, http.StatusBadRequest, "validation_error", "request_id and payment_intent_id must be provided", "request_id")
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if id, ok := s.refundByReq[reqID]; ok {
		writeJSON(w, http.StatusCreated, s.refunds[id].Refund)
		return
	}
	in, ok := s.intents[piID]
	if !ok {
		writeErr(w, http.StatusNotFound, "resource_not_found", "The PaymentIntent "+piID+" does not exist", "payment_intent_id")
		return
	}
	if in.Status != airwallex.StatusSucceeded {
		writeErr(w, http.StatusBadRequest, "invalid_status_for_operation", "The PaymentIntent with status "+in.Status+" cannot be refunded", "payment_intent_id")
		return
	}
	minor := in.minor - in.refunded
	if _, given := body["amount"]; given {
		if minor, ok = amount(body, in.Currency); !ok {
			writeErr(w, http.StatusBadRequest, "validation_error", "amount must be a positive number with the currency's decimals", "amount")
			return
		}
	}
	if minor > in.minor-in.refunded {
		writeErr(w, http.StatusBadRequest, "refund_amount_exceed", "The refund amount exceeds what is left to refund", "amount")
		return
	}
	var meta map[string]string
	_ = json.Unmarshal(body["metadata"], &meta)
	in.refunded += minor
	re := &refund{Refund: airwallex.Refund{
		ID: newID("rfd_"), RequestID: reqID, PaymentIntentID: piID, Amount: s.major(minor, in.Currency), Currency: in.Currency,
		Reason: str(body, "reason"), Status: airwallex.RefundReceived, Metadata: meta, CreatedAt: s.stamp(),
	}, minor: minor}
	s.refunds[re.ID], s.refundByReq[reqID] = re, re.ID
	writeJSON(w, http.StatusCreated, re.Refund)
}

// Pay is the payer paying the intent of merchant order tradeNo: it is
// SUCCEEDED, then payment_intent.succeeded is sent.
func (s *Server) Pay(tradeNo string) error {
	s.mu.Lock()
	in := s.byOrder(tradeNo)
	if in == nil {
		s.mu.Unlock()
		return fmt.Errorf("airwallextest: no intent for %s", tradeNo)
	}
	if in.Status != airwallex.StatusRequiresPaymentMethod && in.Status != airwallex.StatusRequiresCustomerAction {
		s.mu.Unlock()
		return fmt.Errorf("airwallextest: intent %s is %s", in.ID, in.Status)
	}
	in.Status, in.CapturedAmount, in.UpdatedAt = airwallex.StatusSucceeded, in.Amount, s.stamp()
	snapshot := in.Intent
	s.mu.Unlock()
	return s.send(airwallex.EventSucceeded, tradeNo, snapshot)
}

// Decline is the payer's card declined: the intent stays
// REQUIRES_PAYMENT_METHOD (the payer may try another card), and no
// webhook Voyage subscribes to is sent.
func (s *Server) Decline(tradeNo string) error {
	return s.setUnpaid(tradeNo, airwallex.StatusRequiresPaymentMethod)
}

// Expire closes the intent as Airwallex does when it is left unpaid:
// EXPIRED, without a webhook.
func (s *Server) Expire(tradeNo string) error {
	return s.setUnpaid(tradeNo, airwallex.StatusExpired)
}

// setUnpaid moves the intent of tradeNo, not paid, to status.
func (s *Server) setUnpaid(tradeNo, status string) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	in := s.byOrder(tradeNo)
	if in == nil || in.Status == airwallex.StatusSucceeded {
		return fmt.Errorf("airwallextest: no unpaid intent for %s", tradeNo)
	}
	in.Status, in.UpdatedAt = status, s.stamp()
	return nil
}

// SettleRefund settles a refund and sends refund.settled.
func (s *Server) SettleRefund(refundID string) error {
	s.mu.Lock()
	re, ok := s.refunds[refundID]
	if !ok {
		s.mu.Unlock()
		return fmt.Errorf("airwallextest: no refund %s", refundID)
	}
	re.Status = airwallex.RefundSettled
	snapshot, key := re.Refund, re.Metadata["merchant_order_id"]
	s.mu.Unlock()
	return s.send(airwallex.EventRefundSettled, key, snapshot)
}

// FailNext makes the next n API calls answer 500.
func (s *Server) FailNext(n int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.failNext = n
}

// Intent is the current intent of merchant order tradeNo.
func (s *Server) Intent(tradeNo string) (airwallex.Intent, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.byOrder(tradeNo); in != nil {
		return in.Intent, true
	}
	return airwallex.Intent{}, false
}

// Refunded is how much of merchant order tradeNo's intent was refunded,
// in minor units (its refunds, whatever their status).
func (s *Server) Refunded(tradeNo string) int64 {
	s.mu.Lock()
	defer s.mu.Unlock()
	if in := s.byOrder(tradeNo); in != nil {
		return in.refunded
	}
	return 0
}

// Refunds lists the refunds of the intent id.
func (s *Server) Refunds(intentID string) []airwallex.Refund {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []airwallex.Refund
	for _, re := range s.refunds {
		if re.PaymentIntentID == intentID {
			out = append(out, re.Refund)
		}
	}
	return out
}

// Logins counts the logins answered.
func (s *Server) Logins() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.logins
}

// Notifications are the webhooks sent so far.
func (s *Server) Notifications() []Notification {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]Notification(nil), s.notifications...)
}

func (s *Server) byOrder(tradeNo string) *intent {
	var found *intent
	for _, in := range s.intents {
		if in.MerchantOrderID == tradeNo && (found == nil || in.Status == airwallex.StatusSucceeded) {
			found = in
		}
	}
	return found
}

// SignedEvent builds the webhook event name about object (an
// airwallex.Intent or airwallex.Refund) as the fake would send it at the
// fake's Now, without sending it: its body and its headers.
func (s *Server) SignedEvent(name string, object any) ([]byte, http.Header) {
	now := s.opts.Now()
	body, _ := json.Marshal(map[string]any{
		"id": newID("evt_"), "name": name, "accountId": "acct_voyage_fake",
		"data": map[string]any{"object": object}, "created_at": now.UTC().Format("2006-01-02T15:04:05-0700"),
	})
	return body, s.Sign(body, now)
}

// Sign is the headers Airwallex sends body with at t.
func (s *Server) Sign(body []byte, t time.Time) http.Header {
	ts := strconv.FormatInt(t.UnixMilli(), 10)
	h := http.Header{}
	h.Set("Content-Type", "application/json")
	h.Set(airwallex.TimestampHeader, ts)
	h.Set(airwallex.SignatureHeader, airwallex.Sign(s.opts.WebhookSecret, ts, body))
	return h
}

// send delivers one webhook until a 200 or MaxTries; each try is signed
// afresh (Airwallex's x-timestamp is the send time). It answers an error
// when no try was answered 200.
func (s *Server) send(name, key string, object any) error {
	body, header := s.SignedEvent(name, object)
	n := Notification{Name: name, Key: key, Body: body, Header: header}
	var last error
	for n.Tries < s.opts.MaxTries {
		if n.Tries > 0 {
			if s.opts.Wait != nil {
				s.opts.Wait(n.Tries)
			}
			n.Header = s.Sign(body, s.opts.Now())
		}
		n.Tries++
		if s.opts.NotifyURL == "" {
			last = fmt.Errorf("airwallextest: no notify URL")
			break
		}
		req, err := http.NewRequest(http.MethodPost, s.opts.NotifyURL, bytes.NewReader(body))
		if err != nil {
			last = err
			break
		}
		req.Header = n.Header.Clone()
		resp, err := s.opts.Client.Do(req)
		if err != nil {
			last = err
			continue
		}
		_, _ = io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode == http.StatusOK {
			n.Delivered, last = true, nil
			break
		}
		last = fmt.Errorf("airwallextest: %s answered %d", s.opts.NotifyURL, resp.StatusCode)
	}
	s.mu.Lock()
	s.notifications = append(s.notifications, n)
	s.mu.Unlock()
	return last
}
