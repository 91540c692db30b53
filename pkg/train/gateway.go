package train

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/payment"
)

// The payment gateways are pkg/payment's, as for every line: the same
// channels, the same Gateway, the built-in test gateway in development.

// scope names an order's payment at the gateway (payment.Key).
func scope(o Order) string { return fmt.Sprintf("train-%d", o.ID) }

// gatewayKey is what a gateway payment made with the caller's key is known
// by at the gateway (and in the order's payment key).
func gatewayKey(o Order, key string) string { return payment.Key(scope(o), key) }

// payGateway pays o through gw, an external channel's gateway by pkg/payment's one
// protocol: the order waits in holding while the gateway answers, with a
// status check queued in the same commit, so a crash after the gateway took
// the money still ends with the order paid; a declined payment puts it
// back to to_be_paid.
func (s *Service) payGateway(ctx context.Context, o Order, v viewer, gw payment.Gateway, key string, req PayRequest, actor string) (View, error) {
	o.PaymentChannel = req.Channel
	err := s.Payments().Pay(ctx, gw, scope(o), key, payment.Charge{Channel: req.Channel, OrderID: o.ID,
		Amount: o.Total, Currency: o.Currency, TestOutcome: req.TestOutcome, Line: booking.Trains.Name, AgencyID: o.AgencyID,
		Subject: o.BookingNumber + " " + route(o), PayBy: o.HoldExpiresAt}, s.hold(&o, o.ID, actor))
	if err != nil && !errors.Is(err, payment.ErrPending) {
		return View{}, err
	}
	o, err = load(ctx, s.DB, nil, o.ID)
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// hold is the order o (nil for the status check) with the given id as a
// gateway payment holds it: pkg/payment's one protocol, with this line's
// moves; actor is who pays.
func (s *Service) hold(o *Order, id int64, actor string) payment.HeldOrder[Order] {
	return payment.HeldOrder[Order]{Order: o, ID: id, DB: s.DB, Load: load, Price: price, Payment: (*Order).payment,
		Holding: func(o Order) bool { return o.Status == Holding }, Check: s.checkLater, Move: func(ctx context.Context, tx *sqlx.Tx, o *Order, step payment.Step, res payment.ChargeResult) error {
			switch step {
			case payment.StepHold:
				return s.move(ctx, tx, o, ActPayUncertain, actor, o.PaymentChannel, false)
			case payment.StepPaid:
				// The agency's settings now, as the status check finds them.
				a, err := s.Agencies.CachedIn(ctx, tx, o.AgencyID)
				if err != nil {
					return err
				}
				return s.paid(ctx, tx, o, a.Config().Train.Manual, ActPaid, "system", res.Reference)
			}
			return s.move(ctx, tx, o, ActUnpaid, "system", "", false)
		}}
}

// HeldPayment is the order a channel payment pays, as its notification
// moves it (payment.Notices).
func (s *Service) HeldPayment(p payment.ChannelPayment) payment.Held {
	return s.hold(nil, p.BookingID, "")
}

// CheckPayment asks the gateway what became of a payment it did not answer
// for (payment.Check). An error means "ask again later".
func (s *Service) CheckPayment(ctx context.Context, id int64) error {
	return s.hold(nil, id, "").CheckWith(ctx, s.Payments(), s.Gateways)
}

// PaymentCheckArgs is the payment protocol's status check of a train
// order's gateway payment.
type PaymentCheckArgs = payment.CheckArgs[paymentCheck]

// checkLater queues the status check of o's gateway payment.
func (s *Service) checkLater(ctx context.Context, tx *sqlx.Tx, o Order) error {
	return s.Enqueue(ctx, tx, PaymentCheckArgs{OrderID: o.ID}, s.Now().Add(time.Minute))
}

type paymentCheck struct{}

func (paymentCheck) CheckKind() string { return "train_payment_check" }
