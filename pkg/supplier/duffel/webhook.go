package duffel

// Duffel's webhooks, as its API reference and client libraries describe
// them: each event is POSTed as JSON {id, type, data: {object}, created_at,
// …} with an X-Duffel-Signature header "t=<timestamp>,v1=<hex>", where v1
// is the HMAC-SHA256, keyed with the webhook's secret, of the timestamp, a
// dot and the raw body. Events arrive at least once and in no particular
// order, and failed deliveries are retried for 72 hours.
//
// ParseWebhook is what the receiving route calls before it trusts one: a
// forged event (no signature, another secret, a body changed after
// signing) is refused, and so is one signed outside the window around now,
// so a recorded event cannot be replayed later. Within the window an event
// may arrive twice (Duffel's at-least-once delivery): what it changes must
// be done once, by the event's id or the state it moves.

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/supplier"
)

// Webhook event types the connector reads: an accepted (202) order that
// Duffel finished creating, or gave up on.
const (
	EventOrderCreated        = "order.created"
	EventOrderCreationFailed = "order.creation_failed"
)

// WebhookWindow is how far from now a webhook's signed time may be.
const WebhookWindow = 5 * time.Minute

// ErrBadWebhook: the event is not genuine (signature) or not fresh (time).
var ErrBadWebhook = errors.New("duffel: webhook refused")

// WebhookEvent is a verified event.
type WebhookEvent struct {
	ID   string
	Type string
	// OrderID is the order the event is about, and Key the booking key the
	// connector wrote in its metadata (voyage_key, with #part for a split
	// ticket's part), which finds an order whose 202 carried no id.
	OrderID string
	Key     string
	// Booking is the finished order as a booking, for order.created when
	// the event carries the whole order (a booking reference).
	Booking  *supplier.Booking
	SignedAt time.Time
}

// ParseWebhook verifies and reads one webhook delivery: body as received,
// signature the X-Duffel-Signature header.
func ParseWebhook(secret, signature string, body []byte, now time.Time) (WebhookEvent, error) {
	if secret == "" {
		return WebhookEvent{}, fmt.Errorf("%w: no webhook secret is configured", ErrBadWebhook)
	}
	ts, v1, ok := parseSignature(signature)
	if !ok {
		return WebhookEvent{}, fmt.Errorf("%w: signature %q is not t=…,v1=…", ErrBadWebhook, signature)
	}
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	got, err := hex.DecodeString(v1)
	if err != nil || !hmac.Equal(got, mac.Sum(nil)) {
		return WebhookEvent{}, fmt.Errorf("%w: signature does not match", ErrBadWebhook)
	}
	signed, err := signedAt(ts)
	if err != nil {
		return WebhookEvent{}, fmt.Errorf("%w: %w", ErrBadWebhook, err)
	}
	if d := now.Sub(signed); d > WebhookWindow || d < -WebhookWindow {
		return WebhookEvent{}, fmt.Errorf("%w: signed at %s, %s from now", ErrBadWebhook, signed.UTC().Format(time.RFC3339), d)
	}
	var ev struct {
		ID   string `json:"id"`
		Type string `json:"type"`
		Data struct {
			Object json.RawMessage `json:"object"`
		} `json:"data"`
	}
	if err := json.Unmarshal(body, &ev); err != nil || ev.ID == "" || ev.Type == "" {
		return WebhookEvent{}, fmt.Errorf("%w: not an event: %v", ErrBadWebhook, err)
	}
	out := WebhookEvent{ID: ev.ID, Type: ev.Type, SignedAt: signed}
	var o wireOrder
	if len(ev.Data.Object) > 0 && json.Unmarshal(ev.Data.Object, &o) == nil {
		out.OrderID, out.Key = o.ID, orderKey(wireOrderBody{Metadata: o.Metadata})
		if ev.Type == EventOrderCreated && o.ID != "" && strings.TrimSpace(o.BookingReference) != "" {
			if b, err := bookingOf([]wireOrder{o}); err == nil {
				out.Booking = &b
			}
		}
	}
	return out, nil
}

// parseSignature splits "t=…,v1=…" (in either order; other schemes ignored).
func parseSignature(h string) (ts, v1 string, ok bool) {
	for _, part := range strings.Split(h, ",") {
		k, v, _ := strings.Cut(strings.TrimSpace(part), "=")
		switch k {
		case "t":
			ts = v
		case "v1":
			v1 = v
		}
	}
	return ts, v1, ts != "" && v1 != ""
}

// signedAt reads the signature's timestamp: Unix seconds, or an RFC 3339
// time, as Duffel's documentation shows neither exclusively.
func signedAt(ts string) (time.Time, error) {
	if n, err := strconv.ParseInt(ts, 10, 64); err == nil {
		return time.Unix(n, 0), nil
	}
	t, err := time.Parse(time.RFC3339Nano, ts)
	if err != nil {
		return time.Time{}, fmt.Errorf("signature time %q: %w", ts, err)
	}
	return t, nil
}

// SignWebhook signs body as Duffel does, at t: the header a test's fake
// Duffel sends.
func SignWebhook(secret string, body []byte, t time.Time) string {
	ts := strconv.FormatInt(t.Unix(), 10)
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts + "."))
	mac.Write(body)
	return "t=" + ts + ",v1=" + hex.EncodeToString(mac.Sum(nil))
}
