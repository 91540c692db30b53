package train

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"time"

	"github.com/jmoiron/sqlx"
	"github.com/riverqueue/river"

	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
)

// The payment gateways are pkg/payment's, as for every line: the same
// channels, the same Gateway, the built-in test gateway in development.

// gatewayKey is what a gateway payment made with the caller's key is known
// by at the gateway (and in the order's payment key).
func gatewayKey(o Order, key string) string { return payment.Key(fmt.Sprintf("train-%d", o.ID), key) }

// payGateway pays o through an external channel by pkg/payment's one
// protocol: the order waits in holding while the gateway answers, with a
// status check queued in the same commit, so a crash after the gateway took
// the money still ends with the order paid; a declined payment puts it
// back to to_be_paid.
func (s *Service) payGateway(ctx context.Context, o Order, v viewer, key string, req PayRequest, actor string) (View, error) {
	gw := s.gateways[req.Channel]
	gkey := gatewayKey(o, key)
	if key == "" {
		gkey = fmt.Sprintf("train-%d-%d", o.ID, s.now().UnixNano())
	}
	o.PaymentChannel = req.Channel
	err := payment.Protocol{DB: s.db, Ledger: s.ledger}.Take(ctx, gw, payment.Charge{Key: gkey, Channel: req.Channel, OrderID: o.ID, Amount: o.Total, Currency: o.Currency,
		TestOutcome: req.TestOutcome}, held{s: s, o: &o, actor: actor})
	switch {
	case errors.Is(err, payment.ErrDeclined):
		return View{}, fault.New(fault.CodePaymentFailed, http.StatusPaymentRequired, "train.error.payFail")
	case errors.Is(err, payment.ErrPaymentTimeout):
		s.log.WarnContext(ctx, "train: payment gateway did not answer; the status check will settle it", "order", o.ID, "err", err)
		return View{}, &fault.Error{Code: fault.CodePaymentFailed, Status: http.StatusGatewayTimeout, Key: "train.error.payTimeout", Err: err}
	case err != nil:
		return View{}, err
	}
	o, err = load(ctx, s.db, nil, o.ID)
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// held is an order a gateway payment holds: the train line's side of
// pkg/payment's one protocol (payment.Held).
type held struct {
	s     *Service
	o     *Order // for Hold: the order to be paid
	id    int64  // for Settle and Release when o is nil (the status check)
	actor string
}

func (h held) orderID() int64 {
	if h.o != nil {
		return h.o.ID
	}
	return h.id
}

// Hold moves the order to holding with the payment's key and queues its
// status check, in tx.
func (h held) Hold(ctx context.Context, tx *sqlx.Tx, key string) error {
	h.o.PaymentKey = key
	if err := h.s.move(ctx, tx, h.o, ActPayUncertain, h.actor, h.o.PaymentChannel, false); err != nil {
		return err
	}
	return h.s.enqueue(ctx, tx, PaymentCheckArgs{OrderID: h.o.ID}, h.s.now().Add(time.Minute))
}

// taken is the ledger's record of the gateway payment key for o: the same
// whether it settles the order or goes back to the wallet.
func taken(o Order, key string, res payment.ChargeResult) payment.Taken {
	return payment.Taken{Channel: o.PaymentChannel, Key: key, Reference: res.Reference,
		Pay: ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: payKey(o),
			From: ledger.Wallet(o.AgencyID), To: ledger.Provider(ledger.KindSuppliers), Amount: o.Total, Currency: o.Currency,
			PaymentType: ledger.TypeOriginTrain, OrderID: o.BookingNumber, Reference: res.Reference, Description: route(o),
			Detail: map[string]string{"channel": o.PaymentChannel}, CreatedBy: "system"}}
}

// Paid moves the order held by key to paid and queues its ticketing (by
// hand where the agency's trains are ticketed manually).
func (h held) Paid(ctx context.Context, tx *sqlx.Tx, key string, res payment.ChargeResult) (payment.Taken, bool, error) {
	s := h.s
	o, err := load(ctx, s.db, tx, h.orderID())
	if err != nil || o.Status != Holding || o.PaymentKey != key {
		return taken(o, key, res), false, err
	}
	a, err := s.agencies.CachedIn(ctx, tx, o.AgencyID)
	if err != nil {
		return payment.Taken{}, true, err
	}
	o.Paid, o.Manual = o.Total, a.Config().Train.Manual
	if err := s.move(ctx, tx, &o, ActPaid, "system", res.Reference, false); err != nil {
		return payment.Taken{}, true, err
	}
	if !o.Manual {
		if err := s.enqueue(ctx, tx, TicketArgs{OrderID: o.ID}, time.Time{}); err != nil {
			return payment.Taken{}, true, err
		}
	}
	return taken(o, key, res), true, nil
}

// Unpaid puts an order held by key back to be paid.
func (h held) Unpaid(ctx context.Context, tx *sqlx.Tx, key string) error {
	o, err := load(ctx, h.s.db, tx, h.orderID())
	if err != nil || o.Status != Holding || o.PaymentKey != key {
		return err
	}
	return h.s.move(ctx, tx, &o, ActUnpaid, "system", "", false)
}

// CheckPayment asks the gateway what became of a payment it did not answer
// for (payment.Check). An error means "ask again later".
func (s *Service) CheckPayment(ctx context.Context, id int64) error {
	o, err := load(ctx, s.db, nil, id)
	if err != nil {
		return err
	}
	if o.Status != Holding {
		return nil
	}
	// A channel gone from the configuration is a nil gateway: Check releases.
	return payment.Protocol{DB: s.db, Ledger: s.ledger}.Check(ctx, s.gateways[o.PaymentChannel], o.PaymentKey, held{s: s, id: id})
}

// PaymentCheckArgs settles a gateway payment whose answer never came.
type PaymentCheckArgs struct {
	OrderID int64 `json:"orderId"`
}

// Kind implements river.JobArgs.
func (PaymentCheckArgs) Kind() string { return "train_payment_check" }

// InsertOpts: gateways usually know within minutes; a day of retries
// covers an outage.
func (PaymentCheckArgs) InsertOpts() river.InsertOpts { return river.InsertOpts{MaxAttempts: 20} }
