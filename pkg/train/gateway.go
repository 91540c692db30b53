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
func gatewayKey(o Order, key string) string { return fmt.Sprintf("train-%d-%s", o.ID, key) }

// payGateway pays o through an external channel. The order waits in holding
// while the gateway answers, with a status check queued in the same
// commit, so a crash after the gateway took the money still ends with the
// order paid; a declined payment puts it back to to_be_paid.
func (s *Service) payGateway(ctx context.Context, o Order, v viewer, key string, req PayRequest, actor string) (View, error) {
	gw := s.gateways[req.Channel]
	gkey := gatewayKey(o, key)
	if key == "" {
		gkey = fmt.Sprintf("train-%d-%d", o.ID, s.now().UnixNano())
	}
	err := s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		o.PaymentChannel, o.PaymentKey = req.Channel, gkey
		if err := s.move(ctx, tx, &o, ActPayUncertain, actor, req.Channel, false); err != nil {
			return err
		}
		return s.enqueue(ctx, tx, PaymentCheckArgs{OrderID: o.ID}, s.now().Add(time.Minute))
	})
	if err != nil {
		return View{}, err
	}
	res, cerr := gw.Charge(ctx, payment.Charge{Key: gkey, Channel: req.Channel, OrderID: o.ID, Amount: o.Total, Currency: o.Currency,
		TestOutcome: req.TestOutcome})
	switch {
	case cerr == nil:
		if err := s.settleGateway(ctx, o.ID, res); err != nil {
			return View{}, err
		}
	case errors.Is(cerr, payment.ErrDeclined):
		if err := s.unpaid(ctx, o.ID); err != nil {
			return View{}, err
		}
		return View{}, fault.New(fault.CodePaymentFailed, http.StatusPaymentRequired, "train.error.payFail")
	default:
		s.log.WarnContext(ctx, "train: payment gateway did not answer; the status check will settle it", "order", o.ID, "err", cerr)
		return View{}, &fault.Error{Code: fault.CodePaymentFailed, Status: http.StatusGatewayTimeout, Key: "train.error.payTimeout", Err: cerr}
	}
	o, err = load(ctx, s.db, nil, o.ID)
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// settleGateway records a gateway payment (payment.SettleTx: into the
// agency's wallet from the channel, and out of it for the order) and
// ticketing is queued.
func (s *Service) settleGateway(ctx context.Context, id int64, res payment.ChargeResult) error {
	return s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		o, err := load(ctx, s.db, tx, id)
		if err != nil {
			return err
		}
		if o.Status != Holding {
			return nil
		}
		a, err := s.agencies.CachedIn(ctx, tx, o.AgencyID)
		if err != nil {
			return err
		}
		o.Paid, o.Manual = o.Total, a.Config().Train.Manual
		if err := s.move(ctx, tx, &o, ActPaid, "system", res.Reference, false); err != nil {
			return err
		}
		if err := payment.SettleTx(ctx, s.ledger, tx, payment.Taken{Channel: o.PaymentChannel, Key: o.PaymentKey, Reference: res.Reference,
			Pay: ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: payKey(o),
				From: ledger.Wallet(o.AgencyID), To: ledger.Provider(ledger.KindSuppliers), Amount: o.Total, Currency: o.Currency,
				PaymentType: ledger.TypeOriginTrain, OrderID: o.BookingNumber, Reference: res.Reference, Description: route(o),
				Detail: map[string]string{"channel": o.PaymentChannel}, CreatedBy: "system"}}); err != nil {
			return err
		}
		if o.Manual {
			return nil
		}
		return s.enqueue(ctx, tx, TicketArgs{OrderID: o.ID}, time.Time{})
	})
}

func (s *Service) unpaid(ctx context.Context, id int64) error {
	return s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		o, err := load(ctx, s.db, tx, id)
		if err != nil {
			return err
		}
		if o.Status != Holding {
			return nil
		}
		return s.move(ctx, tx, &o, ActUnpaid, "system", "", false)
	})
}

// CheckPayment asks the gateway what became of a payment it did not answer
// for. An error means "ask again later".
func (s *Service) CheckPayment(ctx context.Context, id int64) error {
	o, err := load(ctx, s.db, nil, id)
	if err != nil {
		return err
	}
	if o.Status != Holding {
		return nil
	}
	gw, ok := s.gateways[o.PaymentChannel]
	if !ok {
		return s.unpaid(ctx, id)
	}
	res, err := gw.Status(ctx, o.PaymentKey)
	switch {
	case err == nil:
		return s.settleGateway(ctx, id, res)
	case errors.Is(err, payment.ErrDeclined), errors.Is(err, payment.ErrUnknownPayment):
		return s.unpaid(ctx, id)
	}
	return fmt.Errorf("train order %d: payment status: %w", id, err)
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

type paymentCheckWorker struct {
	river.WorkerDefaults[PaymentCheckArgs]
	s *Service
}

func (w *paymentCheckWorker) Work(ctx context.Context, j *river.Job[PaymentCheckArgs]) error {
	return w.s.CheckPayment(ctx, j.Args.OrderID)
}
