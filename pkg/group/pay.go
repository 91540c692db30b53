package group

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
)

// PayInput pays the installment due of a group order (POST
// /order/v2/flight/group/orders/{id}/payment).
type PayInput struct {
	// Channel is balance (the wallet: balance and credit) or a payment
	// gateway channel.
	Channel string `json:"channel" jsonschema:"required"`
	// Stage is the installment paid: a payment names what it pays, so two
	// clicks meant for one installment never pay two.
	Stage string `json:"stage" jsonschema:"required,enum=first,enum=second,enum=third,enum=final"`
	// TestOutcome drives the built-in test gateway (success, failure,
	// timeout); real gateways ignore it.
	TestOutcome string `json:"testOutcome,omitempty"`
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
func (s *Service) Pay(ctx context.Context, who auth.Principal, id int64, key string, in PayInput) (_ View, err error) {
	defer s.CountPaid(in.Channel, &err)
	o, v, gw, err := s.Paying(ctx, who, id, in.Channel, key, "order.error.channel")
	if err != nil {
		return View{}, err
	}
	if !slices.Contains(Stages, in.Stage) {
		return View{}, fault.Validation(map[string]string{"stage": "group.error.stage"})
	}
	ds, err := deadlines(ctx, s.DB, o.ID)
	if err != nil {
		return View{}, err
	}
	if settled(o.ID, ds, in.Stage, key) {
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
	now := s.Now().UTC()
	if !now.Before(d.Deadline) {
		return View{}, errPayExpired()
	}
	if in.Channel != payment.ChannelBalance {
		return s.payGateway(ctx, o, v, gw, d, key, in)
	}
	t := installmentTransfer(o, d, actorOf(who).name)
	err = s.PayFromWallet(ctx, func(tx *sqlx.Tx) (ledger.Transfer, error) {
		d.Status, d.Channel, d.PaymentKey = InstPaid, in.Channel, key
		d.PaidAt.Time, d.PaidAt.Valid = now, true
		ok, err := setDeadline(ctx, tx, d, InstDue)
		if err != nil {
			return t, err
		}
		if !ok {
			return t, errState()
		}
		return t, s.paid(ctx, tx, &o, ds, stage, in.Channel, actorOf(who))
	})
	if err != nil {
		if fe, ok := fault.As(err); ok && fe.Key == "group.error.state" {
			// A concurrent payment paid the installment first.
			if fresh, lerr := stored.Load(ctx, s.DB, nil, o.ID); lerr == nil {
				if ds, derr := deadlines(ctx, s.DB, o.ID); derr == nil && settled(o.ID, ds, stage, key) {
					return s.detail(ctx, fresh, v)
				}
			}
		}
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// installmentTransfer is the installment's price out of the agency's wallet.
func installmentTransfer(o Order, d deadline, by string) ledger.Transfer {
	typ := ledger.TypeGroupDeposit
	if d.Kind == StageFinal {
		typ = ledger.TypeGroupPayment
	}
	return ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("group-%d-%s", o.ID, d.Kind), From: ledger.Wallet(o.AgencyID),
		To: ledger.Provider(ledger.KindSuppliers), Amount: d.Amount, Currency: d.Currency, PaymentType: typ, OrderID: o.BookingNumber,
		Description: describe(o, d.Kind), CreatedBy: by}
}

// paid moves the order on for an installment just paid, in tx: the next
// installment falls due, or the last one sends the order to ticketing.
func (s *Service) paid(ctx context.Context, tx *sqlx.Tx, o *Order, ds []deadline, stage, channel string, by actor) error {
	var amount int64
	for _, d := range ds {
		if d.Kind == stage {
			amount = d.Amount
		}
	}
	remark := remarkOf(remarkPaid, append([]any{"stage", stage, "channel", channel}, moneyRemark(amount, o.Currency)...)...)
	if err := s.move(ctx, tx, o, ActPay, by, remark, stagesOf(ds)); err != nil {
		return err
	}
	if o.Status == Proceeding {
		return s.Enqueue(ctx, tx, TicketArgs{OrderID: o.ID}, time.Time{})
	}
	return s.fallDue(ctx, tx, *o, ds)
}

// payGateway pays an installment through gw, an external channel's gateway, by
// pkg/payment's one protocol: the installment waits in holding while the
// gateway answers, with a status check queued in the same commit, so a
// crash after the gateway took the money still ends with it paid (or, when
// the order ended meanwhile, with the money in the agency's wallet); a
// declined payment leaves it due.
func (s *Service) payGateway(ctx context.Context, o Order, v viewer, gw payment.Gateway, d deadline, key string, in PayInput) (View, error) {
	err := s.Payments().Pay(ctx, gw, scope(o.ID, d.Kind), key, payment.Charge{Channel: in.Channel, OrderID: o.ID,
		Amount: d.Amount, Currency: d.Currency, TestOutcome: in.TestOutcome, Line: booking.Groups.Name, Stage: d.Kind,
		AgencyID: o.AgencyID, Subject: o.BookingNumber + " " + d.Kind, PayBy: d.Deadline}, held{s: s, orderID: o.ID, stage: d.Kind, channel: in.Channel})
	if err != nil && !errors.Is(err, payment.ErrPending) {
		return View{}, err
	}
	o, err = stored.Load(ctx, s.DB, nil, o.ID)
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// HeldPayment is the installment a channel payment pays, as its
// notification moves it (payment.Notices).
func (s *Service) HeldPayment(p payment.ChannelPayment) payment.Held {
	return held{s: s, orderID: p.BookingID, stage: p.Stage, channel: p.Channel}
}

// held is one installment a gateway payment holds: the group line's side
// of pkg/payment's one protocol (payment.Held).
type held struct {
	s       *Service
	orderID int64
	stage   string
	channel string
}

// Hold marks the installment, still due, held by the payment and queues
// its status check, in tx. The deadline sweep passes a held installment by.
func (h held) Hold(ctx context.Context, tx *sqlx.Tx, key string) error {
	ds, err := deadlines(ctx, tx, h.orderID)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(ds, func(d deadline) bool { return d.Kind == h.stage })
	if i < 0 {
		return errState()
	}
	d := ds[i]
	d.Status, d.Channel, d.PaymentKey = InstHolding, h.channel, key
	ok, err := setDeadline(ctx, tx, d, InstDue)
	if err != nil {
		return err
	}
	if !ok {
		return errState()
	}
	return h.s.Enqueue(ctx, tx, PaymentCheckArgs{OrderID: h.orderID, Stage: h.stage}, h.s.Now().Add(time.Minute))
}

// taken is the ledger's record of the gateway payment key for an
// installment: the same whether it pays the installment or goes back to
// the wallet.
func taken(o Order, d deadline, key string, res payment.ChargeResult) payment.Taken {
	t := installmentTransfer(o, d, system.name)
	t.Reference = res.Reference
	t.Detail = map[string]string{"channel": d.Channel}
	return payment.Taken{Pay: t, Channel: d.Channel, Key: key, Reference: res.Reference}
}

// Paid pays the installment held by key and moves the order on. An
// installment no longer held by key (released, or void since the order
// ended) is not held: the money goes to the agency's wallet.
func (h held) Paid(ctx context.Context, tx *sqlx.Tx, key string, res payment.ChargeResult) (payment.Taken, bool, error) {
	s := h.s
	o, err := stored.Load(ctx, s.DB, tx, h.orderID)
	if err != nil {
		return payment.Taken{}, false, err
	}
	ds, err := deadlines(ctx, tx, o.ID)
	if err != nil {
		return payment.Taken{}, false, err
	}
	i := slices.IndexFunc(ds, func(d deadline) bool { return d.Kind == h.stage })
	if i < 0 {
		return payment.Taken{}, false, fmt.Errorf("group order %d: no installment %s", o.ID, h.stage)
	}
	d := ds[i]
	if d.Status != InstHolding || d.PaymentKey != key || StageOf(o.Status) != h.stage {
		d.Channel = h.channel
		return taken(o, d, key, res), false, nil
	}
	d.Status = InstPaid
	d.PaidAt.Time, d.PaidAt.Valid = s.Now().UTC(), true
	if ok, err := setDeadline(ctx, tx, d, InstHolding); err != nil || !ok {
		return payment.Taken{}, true, errors.Join(err, errState())
	}
	ds[i] = d
	if err := s.paid(ctx, tx, &o, ds, h.stage, d.Channel, system); err != nil {
		return payment.Taken{}, true, err
	}
	return taken(o, d, key, res), true, nil
}

// Unpaid makes the installment held by key due again.
func (h held) Unpaid(ctx context.Context, tx *sqlx.Tx, key string) error {
	ds, err := deadlines(ctx, tx, h.orderID)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(ds, func(d deadline) bool { return d.Kind == h.stage })
	if i < 0 || ds[i].Status != InstHolding || ds[i].PaymentKey != key {
		return nil
	}
	d := ds[i]
	d.Status, d.Channel, d.PaymentKey = InstDue, "", ""
	_, err = setDeadline(ctx, tx, d, InstHolding)
	return err
}

// CheckPayment asks the gateway what became of an installment's payment it
// did not answer for (payment.Check). An error means "ask again later".
func (s *Service) CheckPayment(ctx context.Context, orderID int64, stage string) error {
	ds, err := deadlines(ctx, s.DB, orderID)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(ds, func(d deadline) bool { return d.Kind == stage })
	// A held installment, or one whose order ended while its payment was
	// under way (void, the key kept): the gateway may have taken the money
	// all the same, and then it goes to the wallet (Settle).
	if i < 0 || ds[i].PaymentKey == "" || ds[i].Status != InstHolding && ds[i].Status != InstVoid {
		return nil
	}
	// A channel gone from the configuration is a nil gateway: Check releases.
	return s.Payments().Check(ctx, s.Gateways[ds[i].Channel], ds[i].PaymentKey, held{s: s, orderID: orderID, stage: stage, channel: ds[i].Channel})
}

// settled reports whether the payment asked for has nothing left to do:
// the installment stage is paid, or this key's payment went through (a
// replay, whatever became of its installment since: paid, then forfeited
// by a cancellation), or this key's gateway payment still holds it (a
// replay while the gateway's answer is awaited answers the order as it
// stands, as on the other lines).
func settled(orderID int64, ds []deadline, stage, key string) bool {
	for _, d := range ds {
		byKey := key != "" && (d.PaymentKey == key || d.PaymentKey == gatewayKey(orderID, d.Kind, key))
		if byKey && (d.Status == InstPaid || d.Status == InstForfeited || d.Status == InstHolding) {
			return true
		}
		if d.Kind == stage && (d.Status == InstPaid || d.Status == InstForfeited) {
			return true
		}
	}
	return false
}

// gatewayKey is what a gateway payment of an installment made with the
// caller's key is known by at the gateway (and on the installment).
func gatewayKey(orderID int64, stage, key string) string {
	return payment.Key(scope(orderID, stage), key)
}

// scope names an installment's payment at the gateway (payment.Key).
func scope(orderID int64, stage string) string { return fmt.Sprintf("group-%d-%s", orderID, stage) }

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
	o, v, err := s.getFor(ctx, who, id, ActCancel)
	if err != nil {
		return View{}, err
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		ds, err := s.moveStaged(ctx, tx, &o, ActCancel, actorOf(who), "")
		if err != nil {
			return err
		}
		return s.endDeadlines(ctx, tx, o, ds, actorOf(who))
	})
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// moveStaged takes action on o in tx as far as the paying stages of its
// deadlines allow (Next), and answers the deadlines for what follows.
func (s *Service) moveStaged(ctx context.Context, tx *sqlx.Tx, o *Order, action Action, by actor, remark string) ([]deadline, error) {
	ds, err := deadlines(ctx, tx, o.ID)
	if err != nil {
		return nil, err
	}
	return ds, s.move(ctx, tx, o, action, by, remark, stagesOf(ds))
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
		if _, err := s.Ledger.PostTx(ctx, tx, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("group-%d-%s-forfeit", o.ID, d.Kind),
			From: ledger.Provider(ledger.KindSuppliers), To: ledger.Provider(ledger.KindRevenue), Amount: d.Amount, Currency: d.Currency,
			PaymentType: ledger.TypeGroupForfeit, OrderID: o.BookingNumber, Description: describe(o, d.Kind) + " forfeited", CreatedBy: by.name}); err != nil {
			return err
		}
	}
	return closeDeadlines(ctx, tx, o.ID)
}
