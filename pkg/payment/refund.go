package payment

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
	"github.com/riverqueue/river/rivertype"

	"github.com/voyage/voyage/pkg/input"
	"github.com/voyage/voyage/pkg/jobs"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/store"
)

// Money given back for a booking (a refund, a void, a failed issue) goes
// back the way it came: a line credits the agency's wallet with what it
// gives back, as it always did, and in the same transaction calls
// RefundToChannelsTx, which sends the part that a real channel took back
// through that channel. Each part is a channel_refunds row, a
// "channel-refund" ledger transfer out of the wallet, and a River job
// (ChannelRefundArgs) that asks the channel; what the channels did not take
// (the wallet paid it) stays in the wallet. A channel that refuses the
// refund for good gives the part back to the wallet: the money is never
// lost.

// Channel refund states (channel_refunds.state).
const (
	RefundPending    = "pending"    // to be asked of the channel
	RefundProcessing = "processing" // the channel accepted it and is still at it
	RefundDone       = "done"       // the channel gave the money back
	RefundFailed     = "failed"     // the channel refused it: back in the wallet
)

// Inserter queues River jobs in a transaction (river.Client does; so does
// the booking core's queue).
type Inserter interface {
	InsertTx(ctx context.Context, tx *sql.Tx, args river.JobArgs, opts *river.InsertOpts) (*rivertype.JobInsertResult, error)
}

// RefundBack is money a line gives back for one of its bookings, just
// credited to the agency's wallet (the line's transfer, keyed Key).
type RefundBack struct {
	Line      string // booking.Line name: flight, train, group
	BookingID int64  // the booking whose channel payments are refunded
	AgencyID  int64
	Amount    int64
	Currency  string
	// Key is the line's own ledger key of the wallet credit: each part's
	// refund number derives from it, so the same refund twice makes
	// nothing new.
	Key string
	// OrderID is the booking number (the ledger's order id), Description
	// what the agency reads in its wallet entries.
	OrderID, Description string
	Reason               string // what the channel is told (at most 80 characters are sent)
	CreatedBy            string
	At                   time.Time
}

// ChannelRefund is one part of a refund through one channel payment
// (channel_refunds).
type ChannelRefund struct {
	ID        int64      `db:"id"`
	RefundNo  string     `db:"refund_no"`
	PaymentID int64      `db:"payment_id"`
	Channel   string     `db:"channel"`
	Line      string     `db:"line"`
	BookingID int64      `db:"booking_id"`
	AgencyID  int64      `db:"agency_id"`
	Amount    int64      `db:"amount"`
	Currency  string     `db:"currency"`
	State     string     `db:"state"`
	Reason    string     `db:"reason"`
	Reference string     `db:"reference"`
	LedgerKey string     `db:"ledger_key"`
	Detail    string     `db:"detail"`
	CreatedAt time.Time  `db:"created_at"`
	UpdatedAt time.Time  `db:"updated_at"`
	DoneAt    *time.Time `db:"done_at"`
}

const channelRefundColumns = `id, refund_no, payment_id, channel, line, booking_id, agency_id, amount, currency, state, reason,
	reference, ledger_key, detail, created_at, updated_at, done_at`

// RefundNo is the refund number at the channel of refund key's part on
// payment paymentID: the same for the same refund, at most 32 characters
// of [A-Za-z0-9_] (TradeNo).
func RefundNo(key string, paymentID int64) string {
	return TradeNo("refund-" + key + "-" + strconv.FormatInt(paymentID, 10))
}

// refundTransfer is a part's money out of the agency's wallet to the
// channel, and back is the same sum back into the wallet when the channel
// refuses it.
func refundTransfer(rf ChannelRefund, orderID, description, by string, back bool) ledger.Transfer {
	t := ledger.Transfer{AgencyID: rf.AgencyID, IdempotencyKey: rf.LedgerKey, From: ledger.Wallet(rf.AgencyID),
		To: ledger.Provider(ledger.KindFunding), Amount: rf.Amount, Currency: rf.Currency, PaymentType: ledger.TypeChannelRefund,
		OrderID: orderID, Reference: rf.RefundNo, Description: description, CreatedBy: by,
		Detail: map[string]string{"method": rf.Channel}}
	if back {
		t.IdempotencyKey, t.From, t.To = rf.LedgerKey+"-back", t.To, t.From
		t.Detail = map[string]string{"method": rf.Channel, "refused": "true"}
	}
	return t
}

// RefundToChannelsTx sends r back, in tx, through the channels that took
// the booking's payments: newest payment first, each at most what is left
// of it after its earlier refunds (a refused one gave its part back), so a
// partial refund refunds part of one payment. For each part it records the
// refund, moves the sum out of the agency's wallet (the wallet was just
// credited with r.Amount by the line) and queues the job that asks the
// channel. It answers the sum sent to channels; the rest stays in the
// wallet. The same refund (r.Key) again makes nothing new. Without a job
// queue (a tool that runs none) all of it stays in the wallet.
func RefundToChannelsTx(ctx context.Context, tx *sqlx.Tx, l *ledger.Ledger, q Inserter, r RefundBack) (int64, error) {
	if r.Amount <= 0 {
		return 0, nil
	}
	lock := ""
	if sqlx.BindType(tx.DriverName()) == sqlx.DOLLAR {
		// Two refunds of one booking at once spread over what is left
		// one after the other.
		lock = " FOR UPDATE"
	}
	var paid []ChannelPayment
	if err := tx.SelectContext(ctx, &paid, tx.Rebind(`SELECT `+channelPaymentColumns+` FROM channel_payments
		WHERE line = ? AND booking_id = ? AND state = ? AND currency = ? ORDER BY id DESC`+lock), r.Line, r.BookingID, recordPaid, r.Currency); err != nil {
		return 0, fmt.Errorf("payment: channel payments of %s %d: %w", r.Line, r.BookingID, err)
	}
	if len(paid) == 0 {
		return 0, nil
	}
	if q == nil {
		slog.WarnContext(ctx, "payment: no job queue; the refund stays in the wallet", "line", r.Line, "booking", r.BookingID)
		return 0, nil
	}
	var earlier []ChannelRefund
	if err := tx.SelectContext(ctx, &earlier, tx.Rebind(`SELECT `+channelRefundColumns+` FROM channel_refunds
		WHERE line = ? AND booking_id = ?`), r.Line, r.BookingID); err != nil {
		return 0, fmt.Errorf("payment: channel refunds of %s %d: %w", r.Line, r.BookingID, err)
	}
	at := r.At.UTC()
	if r.At.IsZero() {
		at = time.Now().UTC()
	}
	reason := r.Reason
	if len(reason) > 80 {
		reason = reason[:80]
	}
	left, sent := r.Amount, int64(0)
	for _, p := range paid {
		if left == 0 {
			break
		}
		no := RefundNo(r.Key, p.ID)
		// What is left of p: its amount less its refunds not refused,
		// this refund's own part aside (a replay spreads as the first).
		rest := p.Amount
		for _, e := range earlier {
			if e.PaymentID == p.ID && e.State != RefundFailed && e.RefundNo != no {
				rest -= e.Amount
			}
		}
		part := min(left, rest)
		if part <= 0 {
			continue
		}
		left -= part
		sent += part
		rf := ChannelRefund{RefundNo: no, PaymentID: p.ID, Channel: p.Channel, Line: r.Line, BookingID: r.BookingID,
			AgencyID: r.AgencyID, Amount: part, Currency: r.Currency, State: RefundPending, Reason: reason,
			LedgerKey: "channel-refund-" + no}
		res, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO channel_refunds (refund_no, payment_id, channel, line, booking_id, agency_id,
			amount, currency, state, reason, ledger_key, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
			ON CONFLICT (refund_no) DO NOTHING`), rf.RefundNo, rf.PaymentID, rf.Channel, rf.Line, rf.BookingID, rf.AgencyID,
			rf.Amount, rf.Currency, rf.State, rf.Reason, rf.LedgerKey, at, at)
		if err != nil {
			return 0, fmt.Errorf("payment: record refund %s of %s: %w", no, p.TradeNo, err)
		}
		if n, err := res.RowsAffected(); err != nil {
			return 0, fmt.Errorf("payment: record refund %s of %s: %w", no, p.TradeNo, err)
		} else if n == 0 {
			// Recorded, posted and queued by the first run.
			continue
		}
		if _, err := l.PostTx(ctx, tx, refundTransfer(rf, r.OrderID, r.Description, r.CreatedBy, false)); err != nil {
			return 0, fmt.Errorf("payment: refund %s of %s out of the wallet: %w", no, p.TradeNo, err)
		}
		if _, err := q.InsertTx(ctx, tx.Tx, ChannelRefundArgs{RefundNo: no}, nil); err != nil {
			return 0, fmt.Errorf("payment: queue refund %s of %s: %w", no, p.TradeNo, err)
		}
	}
	return sent, nil
}

// ChannelRefundArgs is the job that asks a channel for one refund.
type ChannelRefundArgs struct {
	RefundNo string `json:"refundNo"`
}

// Kind implements river.JobArgs.
func (ChannelRefundArgs) Kind() string { return "payment_channel_refund" }

// InsertOpts: a channel that does not answer is asked again on River's
// backoff, for askFor at most (Refunds.Ask).
func (ChannelRefundArgs) InsertOpts() river.InsertOpts {
	return river.InsertOpts{MaxAttempts: refundAttempts}
}

const refundAttempts = 20

// processingEvery is how long a refund the channel is still at waits
// before it is asked again (the same refund number answers the same
// refund). A refund is asked of its channel for askFor at most from when
// it was made: Stripe keeps an idempotency key for 24 hours, after which
// the same number would refund again. A refund still open then (no
// answer, or still processing) is left to the provider's staff, logged.
const (
	processingEvery = 5 * time.Minute
	askFor          = 20 * time.Hour
)

// Refunds asks the channels for the refunds RefundToChannelsTx recorded.
type Refunds struct {
	DB       *store.DB
	Ledger   *ledger.Ledger
	Channels map[string]Channel
	Now      func() time.Time
	Log      *slog.Logger
}

func (rs Refunds) now() time.Time {
	if rs.Now == nil {
		return time.Now().UTC()
	}
	return rs.Now().UTC()
}

func (rs Refunds) log() *slog.Logger { return Logger(rs.Log) }

// AddRefundWorker registers the refund job (for jobs.Config.Register).
func AddRefundWorker(w *jobs.Workers, rs Refunds) {
	jobs.AddFunc(w, 40*time.Second, func(ctx context.Context, j *river.Job[ChannelRefundArgs]) error {
		return rs.Ask(ctx, j.Args.RefundNo, j.Attempt >= j.MaxAttempts)
	})
}

// RefundByNo reads the refund numbered no; ok is false when there is none.
func RefundByNo(ctx context.Context, db *store.DB, no string) (ChannelRefund, bool, error) {
	rf, ok, err := getRow[ChannelRefund](ctx, db, `SELECT `+channelRefundColumns+` FROM channel_refunds WHERE refund_no = ?`, no)
	if err != nil {
		return rf, false, fmt.Errorf("payment: read refund %s: %w", no, err)
	}
	return rf, ok, nil
}

// Ask asks the refund's channel to give its sum back, and records the
// answer: done; processing (asked again in processingEvery, by the same
// refund number); a channel that did not answer is an error, and River
// asks again, for askFor from the refund at most. A definite refusal fails
// the refund and puts its sum back in the agency's wallet. A channel no
// longer configured on this server is an error too (the operator may
// configure it again) until the last attempt (last): then, if the channel
// was never asked, the sum goes back to the wallet; if it was, the refund
// is left as it is for the provider's staff, since the channel may have
// paid it.
func (rs Refunds) Ask(ctx context.Context, no string, last bool) error {
	rf, ok, err := RefundByNo(ctx, rs.DB, no)
	switch {
	case err != nil:
		return err
	case !ok:
		// Its transaction rolled back: nothing to refund.
		return nil
	case rf.State == RefundDone || rf.State == RefundFailed:
		return nil
	}
	var p ChannelPayment
	if err := rs.DB.GetContext(ctx, &p, rs.DB.Rebind(`SELECT `+channelPaymentColumns+` FROM channel_payments WHERE id = ?`), rf.PaymentID); err != nil {
		return fmt.Errorf("payment: refund %s: its payment %d: %w", no, rf.PaymentID, err)
	}
	ch, ok := rs.Channels[rf.Channel]
	if !ok {
		if last && rf.Detail == "" {
			return rs.refuse(ctx, rf, p, "the channel is no longer configured on this server")
		}
		if last {
			rs.log().ErrorContext(ctx, "payment: a refund's channel is no longer configured and it was asked before: check it at the channel",
				"channel", rf.Channel, "refund", no, "amount", rf.Amount, "currency", rf.Currency)
		}
		return fmt.Errorf("payment: refund %s: %w: %s", no, ErrNotConfigured, rf.Channel)
	}
	if rf.Detail != "" && rs.now().Sub(rf.CreatedAt.UTC()) > askFor {
		rs.log().ErrorContext(ctx, "payment: a refund still open after a day at its channel: check it there", "channel", rf.Channel,
			"refund", no, "state", rf.State, "amount", rf.Amount, "currency", rf.Currency, "detail", rf.Detail)
		return nil
	}
	// From here the channel may have the refund: detail is never empty
	// again.
	if err := rs.note(ctx, rf, "asked"); err != nil {
		return err
	}
	res, err := ch.Refund(ctx, Refund{Key: p.TradeNo, RefundKey: no, Amount: rf.Amount, Currency: rf.Currency, Total: p.Amount,
		Reason: rf.Reason})
	now := rs.now()
	switch {
	case err == nil && res.Done:
		return rs.update(ctx, rf, RefundDone, res.Reference, &now)
	case err == nil:
		if err := rs.update(ctx, rf, RefundProcessing, res.Reference, nil); err != nil {
			return err
		}
		return river.JobSnooze(processingEvery)
	case errors.Is(err, ErrPaymentTimeout), errors.Is(err, ErrNotConfigured), ctx.Err() != nil:
		if nerr := rs.note(ctx, rf, input.Clip(err.Error(), 500)); nerr != nil {
			return nerr
		}
		return fmt.Errorf("payment: refund %s: %w", no, err)
	}
	return rs.refuse(ctx, rf, p, err.Error())
}

// note keeps what the channel last said of a refund still open.
func (rs Refunds) note(ctx context.Context, rf ChannelRefund, detail string) error {
	_, err := rs.DB.ExecContext(ctx, rs.DB.Rebind(`UPDATE channel_refunds SET detail = ?, updated_at = ? WHERE id = ? AND state IN (?, ?)`),
		detail, rs.now(), rf.ID, RefundPending, RefundProcessing)
	if err != nil {
		return fmt.Errorf("payment: refund %s: %w", rf.RefundNo, err)
	}
	return nil
}

// update records the channel's yes: done, or processing; detail keeps
// saying the channel was asked.
func (rs Refunds) update(ctx context.Context, rf ChannelRefund, state, reference string, doneAt *time.Time) error {
	var done any
	if doneAt != nil {
		done = *doneAt
	}
	_, err := rs.DB.ExecContext(ctx, rs.DB.Rebind(`UPDATE channel_refunds SET state = ?, reference = CASE WHEN ? = '' THEN reference ELSE ? END,
		updated_at = ?, done_at = ? WHERE id = ? AND state IN (?, ?)`),
		state, reference, reference, rs.now(), done, rf.ID, RefundPending, RefundProcessing)
	if err != nil {
		return fmt.Errorf("payment: refund %s %s: %w", rf.RefundNo, state, err)
	}
	return nil
}

// refuse fails the refund and puts its sum back in the agency's wallet,
// both or neither, once.
func (rs Refunds) refuse(ctx context.Context, rf ChannelRefund, p ChannelPayment, why string) error {
	why = input.Clip(why, 500)
	rs.log().ErrorContext(ctx, "payment: the channel refused a refund; its sum is back in the agency's wallet",
		"channel", rf.Channel, "refund", rf.RefundNo, "payment", p.TradeNo, "amount", rf.Amount, "currency", rf.Currency, "err", why)
	orderID, description, err := rs.origin(ctx, rf)
	if err != nil {
		return err
	}
	return rs.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		res, err := tx.ExecContext(ctx, tx.Rebind(`UPDATE channel_refunds SET state = ?, detail = ?, updated_at = ? WHERE id = ? AND state IN (?, ?)`),
			RefundFailed, why, rs.now(), rf.ID, RefundPending, RefundProcessing)
		if err != nil {
			return fmt.Errorf("payment: refund %s failed: %w", rf.RefundNo, err)
		}
		if n, err := res.RowsAffected(); err != nil || n == 0 {
			return err
		}
		if _, err := rs.Ledger.PostTx(ctx, tx, refundTransfer(rf, orderID, description, "system", true)); err != nil {
			return fmt.Errorf("payment: refund %s back to the wallet: %w", rf.RefundNo, err)
		}
		return nil
	})
}

// origin is the booking number and description of the transfer that took
// the refund out of the wallet, which its way back repeats.
func (rs Refunds) origin(ctx context.Context, rf ChannelRefund) (orderID, description string, err error) {
	var row struct {
		OrderID     string `db:"order_id"`
		Description string `db:"description"`
	}
	err = rs.DB.GetContext(ctx, &row, rs.DB.Rebind(`SELECT order_id, description FROM ledger_transfers WHERE agency_id = ? AND idempotency_key = ?`),
		rf.AgencyID, rf.LedgerKey)
	if err != nil {
		return "", "", fmt.Errorf("payment: refund %s: its transfer %s: %w", rf.RefundNo, rf.LedgerKey, err)
	}
	return row.OrderID, row.Description, nil
}
