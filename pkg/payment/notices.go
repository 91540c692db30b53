package payment

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"
)

// Notice outcomes, as channel_notices records them.
const (
	// NoticeApplied: the payment's first word; the booking was settled,
	// released, or (paid after it ended) its money put back in the
	// agency's wallet.
	NoticeApplied = "applied"
	// NoticeReplay: what was recorded already; nothing changed.
	NoticeReplay = "replay"
	// NoticePending: the payer has not paid yet.
	NoticePending = "pending"
	// NoticeRefused: it did not verify (signature, timestamp, shape).
	NoticeRefused = "refused"
	// NoticeUnknown: no such payment of the channel.
	NoticeUnknown = "unknown"
	// NoticeMismatch: another amount or currency than the payment's.
	NoticeMismatch = "mismatch"
	// NoticeTooLarge: a body over MaxNotice.
	NoticeTooLarge = "too_large"
)

// errMismatch answers a notification whose sum is not the payment's: the
// channel is told it failed, so it is seen on its side too.
var errMismatch = errors.New("payment: the notification's amount or currency is not the payment's")

// Notices takes the real channels' notifications (the public route POST
// /payment/v2/notify/{channel}): each is verified by its channel, matched
// to the payment it names, checked against its amount and currency, and
// applied through the one protocol, exactly once: a replay, a forgery, an
// unknown payment or another sum changes nothing. Every notification is
// recorded (channel_notices) with what was made of it.
type Notices struct {
	Protocol Protocol
	Channels map[string]Channel
	// Held is the booking a channel payment pays, as the protocol moves
	// it (its line's payment.Held).
	Held func(ctx context.Context, p ChannelPayment) (Held, error)
	Now  func() time.Time
	Log  *slog.Logger
}

func (n Notices) log() *slog.Logger { return Logger(n.Log) }

func (n Notices) now() time.Time { return Clock(n.Now)().UTC() }

// Handle answers one notification of the channel named, in the channel's
// own words (Channel.Ack). It reads at most MaxNotice bytes and calls out
// to nothing the notification names.
func (n Notices) Handle(w http.ResponseWriter, r *http.Request, channel string) {
	ctx := r.Context()
	ch, ok := n.Channels[channel]
	if !ok {
		http.NotFound(w, r)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, MaxNotice+1))
	var tooLarge *http.MaxBytesError
	if err != nil && !errors.As(err, &tooLarge) {
		n.record(ctx, channel, Status{}, NoticeRefused, "read: "+err.Error())
		ch.Ack(w, err)
		return
	}
	if len(body) > MaxNotice || tooLarge != nil {
		n.record(ctx, channel, Status{}, NoticeTooLarge, fmt.Sprintf("%d bytes or more", len(body)))
		ch.Ack(w, ErrBadNotice)
		return
	}
	st, err := ch.Notice(ctx, r, body)
	if err != nil {
		n.log().WarnContext(ctx, "payment: a notification did not verify", "channel", channel, "err", err)
		n.record(ctx, channel, Status{}, NoticeRefused, err.Error())
		ch.Ack(w, err)
		return
	}
	outcome, err := n.apply(ctx, channel, st)
	detail := ""
	if err != nil {
		detail = err.Error()
	}
	n.record(ctx, channel, st, outcome, detail)
	ch.Ack(w, err)
}

// apply makes what a verified notification says true once.
func (n Notices) apply(ctx context.Context, channel string, st Status) (string, error) {
	p, ok, err := PaymentByTradeNo(ctx, n.Protocol.DB, st.Key)
	switch {
	case err != nil:
		return "", err
	case !ok || p.Channel != channel:
		n.log().WarnContext(ctx, "payment: a notification names no payment of the channel", "channel", channel, "payment", st.Key)
		return NoticeUnknown, nil
	}
	switch st.State {
	case StatePending:
		return NoticePending, nil
	case StatePaid:
		if st.Amount != p.Amount || (st.Currency != "" && st.Currency != p.Currency) {
			n.log().ErrorContext(ctx, "payment: a notification reports another sum than the payment's", "channel", channel,
				"payment", p.TradeNo, "amount", p.Amount, "currency", p.Currency, "reported", st.Amount, "reportedCurrency", st.Currency)
			return NoticeMismatch, errMismatch
		}
	case StateRefunded:
		// A refund's own notice: the refund answered when it was asked.
		return NoticeReplay, nil
	default:
		st.State = StateClosed
	}
	first := p.State == recordPending || (p.State == recordClosed && st.State == StatePaid)
	if err := settleRecord(ctx, n.Protocol.DB, p.TradeNo, st, n.now()); err != nil {
		return "", err
	}
	b, err := n.Held(ctx, p)
	if err != nil {
		return "", err
	}
	// The protocol moves the booking only while the payment holds it, and
	// records money once (its keys): run again on a replay, it finishes
	// what a crash after the record above left undone, and changes nothing
	// else.
	if q, _, err := PaymentByTradeNo(ctx, n.Protocol.DB, p.TradeNo); err != nil {
		return "", err
	} else if q.State == recordPaid {
		err = n.Protocol.settle(ctx, b, p.Key, q.result())
	} else {
		err = n.Protocol.release(ctx, b, p.Key)
	}
	if err != nil {
		return "", err
	}
	if first {
		return NoticeApplied, nil
	}
	return NoticeReplay, nil
}

// record keeps the notification and its outcome; a failure to keep it is
// logged, not answered: the payment's own record is what counts.
func (n Notices) record(ctx context.Context, channel string, st Status, outcome, detail string) {
	if len(detail) > 500 {
		detail = detail[:500]
	}
	db := n.Protocol.DB
	_, err := db.ExecContext(ctx, db.Rebind(`INSERT INTO channel_notices (channel, trade_no, state, amount, currency, outcome, detail, received_at)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?)`), channel, st.Key, st.State, st.Amount, st.Currency, outcome, detail, n.now())
	if err != nil {
		n.log().ErrorContext(ctx, "payment: keep a notification", "channel", channel, "payment", st.Key, "outcome", outcome, "err", err)
	}
}

// MaxReconcile is how many channel payments one reconciliation looks at.
const MaxReconcile = 200

// Reconcile asks the channels about the payments still pending past their
// window (by grace): the ones whose status check ended without an answer,
// or never ran. Each is settled, released or closed at its channel through
// the one protocol, as the status check would (ChannelGateway.Status); the
// next run takes what one run leaves (at most MaxReconcile a run). It
// answers how many it looked at, and the first error met (the others are
// logged).
func (n Notices) Reconcile(ctx context.Context, gateways map[string]Gateway, grace time.Duration) (int, error) {
	db := n.Protocol.DB
	var due []ChannelPayment
	err := db.SelectContext(ctx, &due, db.Rebind(`SELECT `+channelPaymentColumns+` FROM channel_payments
		WHERE state = ? AND expires_at < ? ORDER BY expires_at LIMIT ?`), recordPending, n.now().Add(-grace), MaxReconcile)
	if err != nil {
		return 0, fmt.Errorf("payment: payments to reconcile: %w", err)
	}
	var first error
	for _, p := range due {
		b, err := n.Held(ctx, p)
		gw := gateways[p.Channel]
		if err == nil {
			// A channel gone from the configuration is a nil gateway:
			// nothing here can say the payment happened; Check releases
			// the booking and the record is closed, loudly.
			err = n.Protocol.Check(ctx, gw, p.Key, b)
		}
		if err == nil && gw == nil {
			n.log().ErrorContext(ctx, "payment: a pending payment's channel is no longer configured: closed here, check it at the channel",
				"channel", p.Channel, "payment", p.TradeNo)
			err = settleRecord(ctx, db, p.TradeNo, Status{State: StateClosed}, n.now())
		}
		if err != nil {
			n.log().WarnContext(ctx, "payment: reconcile a pending channel payment", "channel", p.Channel, "payment", p.TradeNo, "err", err)
			if first == nil {
				first = err
			}
		}
	}
	return len(due), first
}

// CheckSignedAt refuses a notification whose signed time is further than
// tolerance from now, on either side: a signature alone would let a captured
// notification be replayed forever, and a clock ahead of ours is no more
// trustworthy than one behind. The error is ErrBadNotice.
func CheckSignedAt(now, signed time.Time, tolerance time.Duration) error {
	if d := now.Sub(signed); d > tolerance || d < -tolerance {
		return fmt.Errorf("%w: signed at %s, %s from now", ErrBadNotice, signed.UTC().Format(time.RFC3339), d)
	}
	return nil
}

// LogRefused logs why a channel refused a notification, when it did, and
// answers err: the provider is only told no, so the log (on the channel's
// logger, which names the channel) is where an operator finds why.
func LogRefused(ctx context.Context, log *slog.Logger, err error) error {
	if err != nil {
		log.WarnContext(ctx, "webhook refused", "err", err)
	}
	return err
}

// AckStatus is the acknowledgement of a provider that reads only the HTTP
// status of its webhook's answer (Airwallex, Stripe): 200 for a notification
// taken, which stops the resending, 400 for one refused, which the provider
// sends again later.
func AckStatus(w http.ResponseWriter, err error) {
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	if err != nil {
		w.WriteHeader(http.StatusBadRequest)
		_, _ = w.Write([]byte("not accepted\n"))
		return
	}
	w.WriteHeader(http.StatusOK)
	_, _ = w.Write([]byte("ok\n"))
}
