package airwallex

import (
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/payment"
)

// Webhook headers: x-timestamp is the send time in Unix milliseconds,
// x-signature the hex HMAC-SHA256 of x-timestamp followed by the raw body,
// keyed with the notification URL's secret (Airwallex, "Listen for webhook
// events", verify signatures, and its "Code examples" page).
const (
	TimestampHeader = "x-timestamp"
	SignatureHeader = "x-signature"
)

// The events Voyage reads. Airwallex names a refund's last step
// refund.settled in its event list; refund.succeeded is accepted as the
// same.
const (
	EventSucceeded       = "payment_intent.succeeded"
	EventCancelled       = "payment_intent.cancelled"
	EventRefundSettled   = "refund.settled"
	EventRefundSucceeded = "refund.succeeded"
)

// Event is a webhook's body: {"id", "name", "accountId", "data":
// {"object": …}, "created_at"} where object is what the Retrieve API of
// the resource answers (Airwallex, "Payload examples: Online Payments").
type Event struct {
	ID        string          `json:"id"`
	Name      string          `json:"name"`
	AccountID string          `json:"accountId,omitempty"`
	Data      json.RawMessage `json:"data"`
	CreatedAt string          `json:"created_at,omitempty"`
}

// Sign is the x-signature of body sent at ts (the x-timestamp text).
func Sign(secret, ts string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	mac.Write([]byte(ts))
	mac.Write(body)
	return hex.EncodeToString(mac.Sum(nil))
}

// Notice verifies a webhook's signature and timestamp and answers what it
// says. The signature covers every byte of the body, so a changed amount
// does not verify.
func (c *Channel) Notice(ctx context.Context, r *http.Request, body []byte) (payment.Status, error) {
	st, err := c.notice(r, body)
	return st, payment.LogRefused(ctx, c.log, err)
}

func (c *Channel) notice(r *http.Request, body []byte) (payment.Status, error) {
	ts, sig := r.Header.Get(TimestampHeader), r.Header.Get(SignatureHeader)
	if ts == "" || sig == "" {
		return payment.Status{}, fmt.Errorf("%w: airwallex: no %s or %s", payment.ErrBadNotice, TimestampHeader, SignatureHeader)
	}
	got, err := hex.DecodeString(sig)
	want, _ := hex.DecodeString(Sign(c.cfg.WebhookSecret, ts, body))
	if err != nil || !hmac.Equal(got, want) {
		return payment.Status{}, fmt.Errorf("%w: airwallex: signature does not match", payment.ErrBadNotice)
	}
	ms, err := strconv.ParseInt(ts, 10, 64)
	if err != nil {
		return payment.Status{}, fmt.Errorf("%w: airwallex: %s %q", payment.ErrBadNotice, TimestampHeader, ts)
	}
	sent := time.UnixMilli(ms)
	if err := payment.CheckSignedAt(c.cfg.Now(), sent, c.cfg.Tolerance); err != nil {
		return payment.Status{}, fmt.Errorf("airwallex: %w", err)
	}
	var ev Event
	var data struct {
		Object json.RawMessage `json:"object"`
	}
	if err := json.Unmarshal(body, &ev); err != nil || ev.Name == "" || json.Unmarshal(ev.Data, &data) != nil || len(data.Object) == 0 {
		return payment.Status{}, fmt.Errorf("%w: airwallex: not an event", payment.ErrBadNotice)
	}
	switch ev.Name {
	case EventSucceeded, EventCancelled:
		var in Intent
		if err := json.Unmarshal(data.Object, &in); err != nil || in.ID == "" || in.MerchantOrderID == "" {
			return payment.Status{}, fmt.Errorf("%w: airwallex %s: no payment intent", payment.ErrBadNotice, ev.Name)
		}
		st, err := intentStatus(in)
		if err != nil {
			return payment.Status{}, fmt.Errorf("%w: %w", payment.ErrBadNotice, err)
		}
		if st.State == payment.StatePaid && st.PaidAt.IsZero() {
			st.PaidAt = parseTime(ev.CreatedAt)
		}
		return st, nil
	case EventRefundSettled, EventRefundSucceeded:
		var re Refund
		if err := json.Unmarshal(data.Object, &re); err != nil || re.ID == "" || re.PaymentIntentID == "" || re.Metadata[metaKey] == "" {
			return payment.Status{}, fmt.Errorf("%w: airwallex %s: no refund of a Voyage payment", payment.ErrBadNotice, ev.Name)
		}
		// A refund names its intent, not the payment: the metadata Refund
		// wrote gives the payment's amount (Amount, as Status answers it)
		// and whether this refund gave back everything.
		amount, err := strconv.ParseInt(re.Metadata[metaTotal], 10, 64)
		if err != nil {
			return payment.Status{}, fmt.Errorf("%w: airwallex refund %s: no payment amount in its metadata", payment.ErrBadNotice, re.ID)
		}
		st := payment.Status{
			Key: re.Metadata[metaKey], Reference: re.PaymentIntentID, State: payment.StatePaid,
			Amount: amount, Currency: strings.ToUpper(re.Currency),
		}
		if re.Metadata[metaFull] == "true" {
			st.State = payment.StateRefunded
		}
		return st, nil
	}
	return payment.Status{}, fmt.Errorf("%w: airwallex: event %q is not one Voyage subscribes to", payment.ErrBadNotice, ev.Name)
}

// Ack answers Airwallex: 200 stops its resending; any other status (or a
// timeout) makes it retry with back-off for about three days (Airwallex,
// "Webhooks overview", delivery and reliability).
func (c *Channel) Ack(w http.ResponseWriter, err error) { payment.AckStatus(w, err) }
