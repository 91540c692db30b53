package stripe

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	stripego "github.com/stripe/stripe-go/v84"
	"github.com/stripe/stripe-go/v84/webhook"

	"github.com/voyage/voyage/pkg/payment"
)

// SignatureHeader is the header Stripe signs a webhook event in:
// "t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">[,v1=…]" (Stripe docs,
// "Check the webhook signatures", https://docs.stripe.com/webhooks#verify-manually).
const SignatureHeader = "Stripe-Signature"

// The events Voyage's webhook endpoint subscribes to; any other type is
// refused, so the endpoint must be configured with these three only.
const (
	EventSucceeded = "payment_intent.succeeded"
	EventFailed    = "payment_intent.payment_failed"
	EventRefunded  = "charge.refunded"
)

// Notice verifies a webhook event: the Stripe-Signature HMAC over
// "t.body" with the endpoint secret (stripe-go's webhook package), and the
// signed t within Tolerance of Now on either side (checked here, on the
// injectable clock; stripe-go only looks back, on the wall clock). A body
// changed in any byte, an amount included, fails the signature.
func (c *Channel) Notice(ctx context.Context, r *http.Request, body []byte) (payment.Status, error) {
	st, err := c.notice(r, body)
	return st, payment.LogRefused(ctx, c.log, err)
}

func (c *Channel) notice(r *http.Request, body []byte) (payment.Status, error) {
	header := r.Header.Get(SignatureHeader)
	if err := webhook.ValidatePayloadIgnoringTolerance(body, header, c.cfg.WebhookSecret); err != nil {
		return payment.Status{}, fmt.Errorf("%w: stripe: %w", payment.ErrBadNotice, err)
	}
	signed, err := signedAt(header)
	if err != nil {
		return payment.Status{}, err
	}
	if err := payment.CheckSignedAt(c.cfg.Now(), signed, c.cfg.Tolerance); err != nil {
		return payment.Status{}, fmt.Errorf("stripe: %w", err)
	}
	// The event is unmarshalled here rather than by webhook.ConstructEvent,
	// which also refuses events of an API version other than stripe-go's:
	// the fields read below are the same in every version.
	var ev stripego.Event
	if err := json.Unmarshal(body, &ev); err != nil || ev.Object != "event" || ev.Data == nil {
		return payment.Status{}, fmt.Errorf("%w: stripe: not an event", payment.ErrBadNotice)
	}
	switch ev.Type {
	case EventSucceeded, EventFailed:
		var pi stripego.PaymentIntent
		if err := json.Unmarshal(ev.Data.Raw, &pi); err != nil || pi.ID == "" {
			return payment.Status{}, fmt.Errorf("%w: stripe %s: no payment intent", payment.ErrBadNotice, ev.Type)
		}
		key := pi.Metadata[metaKey]
		if key == "" {
			return payment.Status{}, fmt.Errorf("%w: stripe %s %s: no %s", payment.ErrBadNotice, ev.Type, pi.ID, metaKey)
		}
		st := intentStatus(key, &pi)
		if st.State == payment.StatePaid && st.PaidAt.IsZero() {
			st.PaidAt = time.Unix(ev.Created, 0).UTC()
		}
		return st, nil
	case EventRefunded:
		var ch stripego.Charge
		if err := json.Unmarshal(ev.Data.Raw, &ch); err != nil || ch.ID == "" {
			return payment.Status{}, fmt.Errorf("%w: stripe %s: no charge", payment.ErrBadNotice, ev.Type)
		}
		return c.chargeStatus(&ch), nil
	}
	return payment.Status{}, fmt.Errorf("%w: stripe: event type %q is not one Voyage subscribes to", payment.ErrBadNotice, ev.Type)
}

// chargeStatus is a refunded charge: refunded when in full, still paid
// (less what was given back) when in part. The charge names its intent;
// the key comes from the charge's metadata, else from the intents this
// process created, else stays empty with the intent id as Reference
// (Notice makes no call to ask Stripe).
func (c *Channel) chargeStatus(ch *stripego.Charge) payment.Status {
	st := payment.Status{
		Key:      ch.Metadata[metaKey],
		State:    payment.StatePaid,
		Amount:   ch.Amount,
		Currency: strings.ToUpper(string(ch.Currency)),
	}
	if ch.PaymentIntent != nil {
		st.Reference = ch.PaymentIntent.ID
		if st.Key == "" {
			st.Key = c.keyOf(st.Reference)
		}
	}
	if ch.Refunded {
		st.State = payment.StateRefunded
	}
	if ch.Created > 0 {
		st.PaidAt = time.Unix(ch.Created, 0).UTC()
	}
	if bt := ch.BalanceTransaction; bt != nil {
		st.Fee = bt.Fee
	}
	return st
}

func (c *Channel) keyOf(id string) string {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, v := range c.ids {
		if v == id {
			return k
		}
	}
	return ""
}

// signedAt reads t= from a Stripe-Signature header whose signature
// verified.
func signedAt(header string) (time.Time, error) {
	for part := range strings.SplitSeq(header, ",") {
		if v, ok := strings.CutPrefix(part, "t="); ok {
			sec, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				break
			}
			return time.Unix(sec, 0), nil
		}
	}
	return time.Time{}, fmt.Errorf("%w: stripe: no timestamp in %s", payment.ErrBadNotice, SignatureHeader)
}

// Ack answers Stripe: any 2xx stops its resending, anything else makes it
// send the event again later (Stripe docs, "Return a 2xx response
// quickly").
func (c *Channel) Ack(w http.ResponseWriter, err error) { payment.AckStatus(w, err) }

// SignatureFor is the Stripe-Signature header Stripe would send with body
// at t, for tests and for a local endpoint fed by hand.
func SignatureFor(secret string, t time.Time, body []byte) string {
	return fmt.Sprintf("t=%d,v1=%x", t.Unix(), webhook.ComputeSignature(t, body, secret))
}
