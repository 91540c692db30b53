package train

import (
	"context"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
)

// The payment gateways are pkg/payment's, as for every line: the same
// channels, the same Gateway, the built-in test gateway in development.

// scope names an order's payment at the gateway (payment.Key).
func scope(o Order) string { return fmt.Sprintf("train-%d", o.ID) }

// gatewayKey is what a gateway payment made with the caller's key is known
// by at the gateway (and in the order's payment key).
func gatewayKey(o Order, key string) string { return payment.Key(scope(o), key) }

// payments is the one payment protocol, on this line's database and ledger.
func (s *Service) payments() payment.Protocol {
	return payment.Protocol{DB: s.db, Ledger: s.ledger, Log: s.log}
}

// payGateway pays o through an external channel by pkg/payment's one
// protocol: the order waits in holding while the gateway answers, with a
// status check queued in the same commit, so a crash after the gateway took
// the money still ends with the order paid; a declined payment puts it
// back to to_be_paid.
func (s *Service) payGateway(ctx context.Context, o Order, v viewer, key string, req PayRequest, actor string) (View, error) {
	o.PaymentChannel = req.Channel
	err := s.payments().Pay(ctx, s.gateways[req.Channel], scope(o), key, payment.Charge{Channel: req.Channel, OrderID: o.ID,
		Amount: o.Total, Currency: o.Currency, TestOutcome: req.TestOutcome}, s.hold(&o, o.ID, actor))
	if err != nil {
		return View{}, err
	}
	o, err = load(ctx, s.db, nil, o.ID)
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// held is the train line's side of pkg/payment's one protocol for an order
// a gateway payment holds; actor is who pays.
type held struct {
	s     *Service
	actor string
}

// hold is the order o (nil for the status check) with the given id as a
// gateway payment holds it (payment.Held).
func (s *Service) hold(o *Order, id int64, actor string) payment.HeldOrder[Order] {
	return payment.HeldOrder[Order]{Order: o, ID: id, DB: s.db, Load: load, HeldBy: Order.heldBy, Taken: taken,
		Moves: held{s: s, actor: actor}}
}

// heldBy says whether o still waits in holding under the payment key.
func (o Order) heldBy(key string) bool { return o.Status == Holding && o.PaymentKey == key }

// Hold moves the order to holding with the payment's key and queues its
// status check, in tx.
func (h held) Hold(ctx context.Context, tx *sqlx.Tx, o *Order, key string) error {
	o.PaymentKey = key
	if err := h.s.move(ctx, tx, o, ActPayUncertain, h.actor, o.PaymentChannel, false); err != nil {
		return err
	}
	return h.s.enqueue(ctx, tx, PaymentCheckArgs{OrderID: o.ID}, h.s.now().Add(time.Minute))
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

// Paid moves the order to paid and queues its ticketing (by hand where
// the agency's trains are ticketed manually).
func (h held) Paid(ctx context.Context, tx *sqlx.Tx, o *Order, res payment.ChargeResult) error {
	s := h.s
	a, err := s.agencies.CachedIn(ctx, tx, o.AgencyID)
	if err != nil {
		return err
	}
	o.Paid, o.Manual = o.Total, a.Config().Train.Manual
	if err := s.move(ctx, tx, o, ActPaid, "system", res.Reference, false); err != nil {
		return err
	}
	if !o.Manual {
		return s.enqueue(ctx, tx, TicketArgs{OrderID: o.ID}, time.Time{})
	}
	return nil
}

// Unpaid puts the order back to be paid.
func (h held) Unpaid(ctx context.Context, tx *sqlx.Tx, o *Order) error {
	return h.s.move(ctx, tx, o, ActUnpaid, "system", "", false)
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
	return s.payments().Check(ctx, s.gateways[o.PaymentChannel], o.PaymentKey, s.hold(nil, id, ""))
}

// PaymentCheckArgs is the payment protocol's status check of a train
// order's gateway payment.
type PaymentCheckArgs = payment.CheckArgs[paymentCheck]

type paymentCheck struct{}

func (paymentCheck) CheckKind() string { return "train_payment_check" }
