package group

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
)

// PayInput is POST .../{id}/payment.
type PayInput struct {
	// Channel is balance (the wallet: balance and credit) or a payment
	// gateway channel.
	Channel string `json:"channel"`
	// Stage is the installment paid: a payment names what it pays, so two
	// clicks meant for one installment never pay two.
	Stage string `json:"stage" jsonschema:"required,enum=first,enum=second,enum=third,enum=final"`
	// TestOutcome drives the built-in test gateway (success, failure,
	// timeout); real gateways ignore it.
	TestOutcome string `json:"testOutcome,omitempty"`
}

// Channels are the payment channels: the wallet and those with a gateway.
func (s *Service) Channels() []string {
	out := []string{payment.ChannelBalance}
	for _, c := range payment.Channels {
		if _, ok := s.gateways[c]; ok {
			out = append(out, c)
		}
	}
	return out
}

func errPayExpired() error {
	return fault.New(fault.CodeConflict, http.StatusConflict, "group.error.paymentExpired")
}

// Pay pays the installment in.Stage names, from the wallet (balance and
// credit) or through a payment gateway. An installment already paid is not
// paid again, whatever the key: the call answers the order as the payment
// that paid it left it, so a second click (another key) or a replay (the
// same key) charges nothing. The installment, the status change and the
// ledger transfer commit together, so of two concurrent payments one pays
// and the other finds it paid. An installment not yet due (a later stage)
// is refused. Past its deadline the payment is refused ("Group payment
// time expired: contact the administrator") and the deadline sweep fails
// the order.
func (s *Service) Pay(ctx context.Context, who auth.Principal, id int64, key string, in PayInput) (View, error) {
	o, v, err := s.get(ctx, who, id)
	if err != nil {
		return View{}, err
	}
	if len(key) > 100 {
		return View{}, fault.Validation(map[string]string{"Idempotency-Key": "order.error.idempotencyKey"})
	}
	if !slices.Contains(s.Channels(), in.Channel) {
		return View{}, fault.Validation(map[string]string{"channel": "order.error.channel"})
	}
	if !slices.Contains(Stages, in.Stage) {
		return View{}, fault.Validation(map[string]string{"stage": "group.error.stage"})
	}
	if v.Side(o.AgencyID) != ByAgency {
		return View{}, fault.Forbidden()
	}
	a, err := s.agencies.Cached(ctx, o.AgencyID)
	if err != nil {
		return View{}, err
	}
	if a.DisablePayment {
		return View{}, fault.New(fault.CodeNoAccess, http.StatusForbidden, "order.error.paymentDisabled")
	}
	ds, err := deadlines(ctx, s.db, o.ID)
	if err != nil {
		return View{}, err
	}
	if settled(ds, in.Stage, key) {
		return s.detail(ctx, o, v)
	}
	stage := in.Stage
	if StageOf(o.Status) != stage {
		return View{}, errState()
	}
	i := slices.IndexFunc(ds, func(d deadline) bool { return d.Kind == stage })
	if i < 0 || ds[i].Status != InstDue {
		return View{}, errState()
	}
	d := ds[i]
	now := s.now().UTC()
	if !now.Before(d.Deadline) {
		return View{}, errPayExpired()
	}
	typ := ledger.TypeGroupDeposit
	if stage == StageFinal {
		typ = ledger.TypeGroupPayment
	}
	t := ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("group-%d-%s", o.ID, stage), From: ledger.Wallet(o.AgencyID),
		To: ledger.Provider(ledger.KindSuppliers), Amount: d.Amount, Currency: d.Currency, PaymentType: typ, OrderID: o.BookingNumber,
		Description: describe(o, stage), CreatedBy: actorOf(who).name}
	gkey := ""
	// taken is the gateway's payment, when one took the money.
	var taken *payment.Taken
	if in.Channel != payment.ChannelBalance {
		gkey = fmt.Sprintf("group-%d-%s-%s", o.ID, stage, key)
		if key == "" {
			gkey = fmt.Sprintf("group-%d-%s-%d", o.ID, stage, now.UnixNano())
		}
		res, cerr := s.gateways[in.Channel].Charge(ctx, payment.Charge{Key: gkey, Channel: in.Channel, OrderID: o.ID, Amount: d.Amount,
			Currency: d.Currency, TestOutcome: in.TestOutcome})
		switch {
		case errors.Is(cerr, payment.ErrDeclined):
			return View{}, fault.New(fault.CodePaymentFailed, http.StatusPaymentRequired, "order.error.payFail")
		case cerr != nil:
			// The same Idempotency-Key asks the gateway again, which
			// answers what became of this charge.
			return View{}, &fault.Error{Code: fault.CodePaymentFailed, Status: http.StatusGatewayTimeout, Key: "order.error.payTimeout", Err: cerr}
		}
		t.Reference = res.Reference
		t.Detail = map[string]string{"channel": in.Channel}
		taken = &payment.Taken{Pay: t, Channel: in.Channel, Key: gkey, Reference: res.Reference}
	}
	err = s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		d.Status, d.Channel, d.PaymentKey = InstPaid, in.Channel, key
		d.PaidAt.Time, d.PaidAt.Valid = now, true
		ok, err := setDeadline(ctx, tx, d, InstDue)
		if err != nil {
			return err
		}
		if !ok {
			return errState()
		}
		if err := s.move(ctx, tx, &o, ActPay, actorOf(who), stage+" "+in.Channel, stagesOf(ds)); err != nil {
			return err
		}
		if o.Status == Proceeding {
			if err := s.enqueue(ctx, tx, TicketArgs{OrderID: o.ID}); err != nil {
				return err
			}
		} else if err := s.fallDue(ctx, tx, o, ds); err != nil {
			return err
		}
		// The money moves last: the wallet's row stays locked from here to
		// the commit.
		if taken != nil {
			return payment.SettleTx(ctx, s.ledger, tx, *taken)
		}
		_, err = s.ledger.PostTx(ctx, tx, t)
		return err
	})
	if err != nil && taken != nil {
		// The gateway took the money but the installment was no longer
		// due (paid or ended meanwhile): it goes to the agency's wallet
		// rather than nowhere.
		if perr := payment.PutBack(context.WithoutCancel(ctx), s.ledger, *taken); perr != nil {
			s.log.ErrorContext(ctx, "group: a gateway payment was taken but not recorded", "order", o.ID, "reference", t.Reference, "err", perr)
		}
	}
	if err != nil {
		if fe, ok := fault.As(err); ok && fe.Key == "group.error.state" {
			// A concurrent payment paid the installment first.
			if fresh, lerr := loadOrder(ctx, s.db, nil, o.ID); lerr == nil {
				if ds, derr := deadlines(ctx, s.db, o.ID); derr == nil && settled(ds, stage, key) {
					return s.detail(ctx, fresh, v)
				}
			}
		}
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// settled reports whether the payment asked for has nothing left to do:
// the installment stage is paid, or this key's payment went through (a
// replay, whatever became of its installment since: paid, then forfeited
// by a cancellation).
func settled(ds []deadline, stage, key string) bool {
	for _, d := range ds {
		if key != "" && d.PaymentKey == key && (d.Status == InstPaid || d.Status == InstForfeited) {
			return true
		}
		if d.Kind == stage && (d.Status == InstPaid || d.Status == InstForfeited) {
			return true
		}
	}
	return false
}

func describe(o Order, stage string) string {
	route := ""
	if len(o.Journeys) > 0 {
		route = o.Journeys[0].Origin + "-" + o.Journeys[0].Destination + " "
	}
	return fmt.Sprintf("group %s%s (%d pax)", route, stage, o.Counts.Total())
}

// Cancel cancels an order: free before any deposit, after one the deposits
// paid are forfeited (each a group-forfeit ledger entry on the order).
func (s *Service) Cancel(ctx context.Context, who auth.Principal, id int64) (View, error) {
	o, v, err := s.get(ctx, who, id)
	if err != nil {
		return View{}, err
	}
	if err := may(v, o, ActCancel); err != nil {
		return View{}, err
	}
	err = s.db.InTx(ctx, func(tx *sqlx.Tx) error {
		ds, err := deadlines(ctx, tx, o.ID)
		if err != nil {
			return err
		}
		if err := s.move(ctx, tx, &o, ActCancel, actorOf(who), "", stagesOf(ds)); err != nil {
			return err
		}
		return s.endDeadlines(ctx, tx, o, ds, actorOf(who))
	})
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// endDeadlines closes the deadlines of an order that ended (failed or
// cancelled): the deposits paid are forfeited, the provider keeping them
// (moved from what is owed to the airline to revenue, on the order's
// ledger), and nothing else falls due.
func (s *Service) endDeadlines(ctx context.Context, tx *sqlx.Tx, o Order, ds []deadline, by actor) error {
	for _, d := range ds {
		if d.Status != InstPaid {
			continue
		}
		if _, err := s.ledger.PostTx(ctx, tx, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("group-%d-%s-forfeit", o.ID, d.Kind),
			From: ledger.Provider(ledger.KindSuppliers), To: ledger.Provider(ledger.KindRevenue), Amount: d.Amount, Currency: d.Currency,
			PaymentType: ledger.TypeGroupForfeit, OrderID: o.BookingNumber, Description: describe(o, d.Kind) + " forfeited", CreatedBy: by.name}); err != nil {
			return err
		}
	}
	return closeDeadlines(ctx, tx, o.ID)
}
