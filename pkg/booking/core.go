package booking

import (
	"context"
	"log/slog"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/store"
)

// Deps are what every line's service is built on; a line's Options embed
// them.
type Deps struct {
	DB       *store.DB
	Ledger   *ledger.Ledger
	Agencies *agency.Store
	// Gateways take payments for the external channels (pkg/payment's);
	// the wallet (balance) needs none.
	Gateways map[string]payment.Gateway
	// Now is the line's clock: time.Now when nil, a test's own clock.
	Now func() time.Time
	// Logger is slog's default when nil.
	Logger *slog.Logger
	// Counter counts bookings, payments and refunds (nil: nobody does).
	Counter Counter
}

// Core is what every line's service holds beside its own rules: its
// dependencies, its bookings, and the job queue and webhook seam, which
// are set after the services are built (the queue's workers call the
// services). A line's Service embeds it.
type Core[B Owned] struct {
	Deps
	Books Books[B]

	jobs   Inserter
	notify Notifier
}

// NewCore is a line's core on d, whose bookings are books (on d's
// database and agencies).
func NewCore[B Owned](d Deps, books Books[B]) Core[B] {
	if d.Now == nil {
		d.Now = time.Now
	}
	if d.Logger == nil {
		d.Logger = slog.Default()
	}
	books.DB, books.Agencies = d.DB, d.Agencies
	return Core[B]{Deps: d, Books: books}
}

// DeleteGuard keeps an agency with bookings on the line from being
// deleted: they are its accounting history (Books.DeleteGuard).
func (c *Core[B]) DeleteGuard(ctx context.Context, agencyID int64) (string, error) {
	return c.Books.DeleteGuard(ctx, agencyID)
}

// SetQueue sets the job queue.
func (c *Core[B]) SetQueue(q Inserter) { c.jobs = q }

// SetNotifier sets where webhook events go.
func (c *Core[B]) SetNotifier(n Notifier) { c.notify = n }

// Enqueue queues args in tx, due at at (zero: now); see Enqueue.
func (c *Core[B]) Enqueue(ctx context.Context, tx *sqlx.Tx, args river.JobArgs, at time.Time) error {
	return Enqueue(ctx, c.jobs, c.Logger, tx, args, at)
}

// NotifyTx queues the agency's webhook event in tx; nothing where no
// webhooks are set (a tool that sends none).
func (c *Core[B]) NotifyTx(ctx context.Context, tx *sqlx.Tx, agencyID int64, event string, data any) error {
	if c.notify == nil {
		return nil
	}
	return c.notify.NotifyTx(ctx, tx, agencyID, event, data)
}

// Payment is the channel payment booking id waits for (its QR code, its
// page), shown to the booking agency's side only: it is theirs to pay.
// held says whether a payment holds the booking now; only then is there one
// to look for, so a detail of any other booking costs no query.
func (c *Core[B]) Payment(ctx context.Context, id int64, side string, held bool) (*payment.PendingView, error) {
	if side != ByAgency || !held {
		return nil, nil
	}
	return payment.PendingFor(ctx, c.DB, c.Gateways, c.Books.Line.Name, id)
}

// Payments is the one payment protocol on the line's database and ledger.
func (c *Core[B]) Payments() payment.Protocol {
	return payment.Protocol{DB: c.DB, Ledger: c.Ledger, Log: c.Logger}
}

// PayFromWallet takes a payment from the agency's wallet the one way every
// line does: in one transaction, move, the line's guarded move of what is
// paid (an order, an installment), answering the transfer that pays it;
// then the transfer, last, so the wallet's row stays locked only from
// there to the commit (every payment of the agency waits for it). Both
// happen or neither. The flight line's payment is this rule in one
// statement on PostgreSQL, the move as the transfer's gate (pkg/flight
// payFromWallet).
func (c *Core[B]) PayFromWallet(ctx context.Context, move func(tx *sqlx.Tx) (ledger.Transfer, error)) error {
	return c.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		t, err := move(tx)
		if err != nil {
			return err
		}
		_, err = c.Ledger.PostTx(ctx, tx, t)
		return err
	})
}

// RefundTx gives money back for the line's booking id in tx, the one way
// every line does: t, the line's credit to the agency's wallet, then the
// part of it that real channels took sent back through them, newest
// payment first (payment.RefundToChannelsTx); the rest stays in the
// wallet. Both are keyed on t's idempotency key: run twice, nothing moves
// twice.
func (c *Core[B]) RefundTx(ctx context.Context, tx *sqlx.Tx, id int64, t ledger.Transfer) error {
	posted, err := c.Ledger.PostTx(ctx, tx, t)
	if err != nil {
		c.countRefund("balance", err)
		return err
	}
	var q payment.Inserter
	if c.jobs != nil {
		q = c.jobs
	}
	sent, err := payment.RefundToChannelsTx(ctx, tx, c.Ledger, q, payment.RefundBack{Line: c.Books.Line.Name, BookingID: id,
		AgencyID: t.AgencyID, Amount: t.Amount, Currency: t.Currency, Key: t.IdempotencyKey, OrderID: t.OrderID,
		Description: t.Description, Reason: t.PaymentType + " " + t.OrderID, CreatedBy: t.CreatedBy, At: c.Now()})
	if !posted.Replayed {
		// The refund's channel: the wallet when it keeps all of it, else
		// the payment channels (the refund of each part is theirs to
		// answer, asked by a job).
		channel := "balance"
		if sent > 0 {
			channel = "external"
		}
		c.countRefund(channel, err)
	}
	return err
}

// countRefund counts a refund on the line through channel.
func (c *Core[B]) countRefund(channel string, err error) {
	if c.Counter != nil {
		c.Counter.Refunded(c.Books.Line.Name, channel, Outcome(err))
	}
}
