package flight

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/payment"
)

// PaymentConfig lists the channels the caller's agency can pay with and
// what its wallet holds in the settlement currency.
func (s *Service) PaymentConfig(ctx context.Context, who auth.Principal) (PaymentConfig, error) {
	a, err := s.Agencies.Get(ctx, who.AgencyID)
	if err != nil {
		return PaymentConfig{}, err
	}
	cur := a.SettlementCurrency
	if cur == "" {
		cur = "CNY"
	}
	b, err := s.Ledger.WalletBalance(ctx, who.AgencyID, cur)
	if err != nil {
		return PaymentConfig{}, err
	}
	out := PaymentConfig{PaymentDisabled: a.DisablePayment, Channels: []ChannelInfo{},
		Balance: money.Of(b.Balance, cur), CreditLimit: money.Of(b.CreditLimit, cur), Available: money.Of(b.Available(), cur)}
	channels, err := s.Channels(ctx, who.AgencyID)
	if err != nil {
		return PaymentConfig{}, err
	}
	for _, c := range channels {
		kind := "gateway"
		if c == payment.ChannelBalance {
			kind = "wallet"
		}
		out.Channels = append(out.Channels, ChannelInfo{Channel: c, Name: i18n.T(ctx, "orders.channel."+c), Kind: kind})
	}
	return out, nil
}

func payKey(o Order) string { return fmt.Sprintf("order-%d-pay", o.ID) }

// price is o's price out of the agency's wallet, whatever pays it.
func price(o Order) ledger.Transfer {
	return ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: payKey(o),
		From: ledger.Wallet(o.AgencyID), To: ledger.Provider(ledger.KindSuppliers), Amount: o.Total, Currency: o.Currency,
		PaymentType: ledger.TypeOriginFlight, OrderID: o.BookingNumber, Reference: o.PNR, Description: route(o)}
}

// scope names an order's payment at the gateway (payment.Key).
func scope(o Order) string { return fmt.Sprintf("order-%d", o.ID) }

// gatewayKey is what a gateway payment made with the caller's key is known
// by at the gateway (and in the order's payment key).
func gatewayKey(o Order, key string) string { return payment.Key(scope(o), key) }

// Pay pays a to_be_paid order. From the balance the charge and the status
// change commit together, so a concurrent second payment of the same order
// finds it no longer payable and no wallet is charged twice; beyond balance
// plus credit it is code 300001 and nothing changes. Through a gateway the
// order waits in holding while the gateway answers, with a status check
// queued in the same commit, so a crash after the gateway took the money
// still ends with the order paid.
func (s *Service) Pay(ctx context.Context, who auth.Principal, id int64, key string, req PayRequest) (_ View, err error) {
	defer s.CountPaid(req.Channel, &err)
	o, v, fresh, err := s.payable(ctx, who, id, req.Channel)
	if err != nil {
		return View{}, err
	}
	gw, err := s.Payer(ctx, v, o.AgencyID, req.Channel, key, "order.error.channel")
	if err != nil {
		return View{}, err
	}
	if o.AwaitingAirline {
		return View{}, errAwaiting()
	}
	if o.Status != ToBePaid {
		// A replay of the payment that moved it on answers the order.
		if key != "" && (o.PaymentKey == key || o.PaymentKey == gatewayKey(o, key)) {
			return s.detail(ctx, o, v)
		}
		return View{}, errState()
	}
	if !s.Now().Before(o.PayBy) {
		if _, err := s.expire(ctx, o.ID); err != nil {
			s.Logger.WarnContext(ctx, "order: expiring an unpaid order failed", "order", o.ID, "err", err)
		}
		return View{}, fault.New(fault.CodeQuoteExpired, http.StatusConflict, "order.error.payExpired")
	}
	actor := booking.Actor(who)
	if req.Channel == payment.ChannelBalance {
		o.PaymentStatus, o.PaymentChannel, o.PaymentKey = Paid, payment.ChannelBalance, key
		handed, err := s.payFromWallet(ctx, &o, actor, fresh)
		if errors.Is(err, errNotFresh) {
			// The copy was taken: this time from the store.
			return s.Pay(ctx, who, id, key, req)
		}
		if err != nil {
			return View{}, err
		}
		if !handed {
			s.wakeTicketing(ctx, o.ID)
		}
		return s.view(o, booking.ByAgency), nil
	}

	o.PaymentChannel = req.Channel
	err = s.Payments().Pay(ctx, gw, scope(o), key, payment.Charge{Channel: req.Channel, OrderID: o.ID,
		Amount: o.Total, Currency: o.Currency, TestOutcome: req.TestOutcome, Line: booking.Flights.Name, AgencyID: o.AgencyID,
		Subject: o.BookingNumber + " " + route(o), PayBy: o.PayBy}, s.hold(&o, o.ID, actor))
	if err != nil && !errors.Is(err, payment.ErrPending) {
		return View{}, err
	}
	s.wakeTicketing(ctx, o.ID)
	o, err = stored.Load(ctx, s.DB, nil, o.ID)
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// payable is the order a payment is for, and whether it is the copy this
// instance kept since booking it (fresh.go) rather than read from the
// store. Only a wallet payment uses the copy.
func (s *Service) payable(ctx context.Context, who auth.Principal, id int64, channel string) (Order, viewer, bool, error) {
	if channel == payment.ChannelBalance {
		if kept, ok := s.fresh.Take(id); ok {
			o, v, err := s.Books.Seen(ctx, who, func() (Order, error) { return kept, nil })
			return o, v, err == nil, err
		}
	}
	o, v, err := s.Books.Get(ctx, who, id)
	return o, v, false, err
}

// payFromWallet moves o (to be paid, its payment fields set) to
// proceeding and charges its wallet, both or neither. The move makes the
// order due for ticketing, and saves it only if it was still to be paid:
// this is its first payment. On PostgreSQL, when the move has no webhook
// event to deliver, the move is the gate of the charge (movedGate): one
// statement, committed as it runs; otherwise both go in one transaction.
// From the copy kept since booking (fresh) only the one statement will do,
// with the gate that proves the copy current; errNotFresh otherwise.
func (s *Service) payFromWallet(ctx context.Context, o *Order, actor string, fresh bool) (handed bool, err error) {
	t := price(*o)
	t.CreatedBy = actor
	if notify, err := s.announces(ctx, o); err != nil {
		return false, err
	} else if !notify {
		before := *o
		from, err := s.moving(o, ActPay)
		if err != nil {
			return false, err
		}
		handOff := s.claimForHandOff(o)
		gate := movedGate(o, from, ActPay, actor, "")
		if fresh {
			gate = freshGate(o, from, ActPay, actor, "")
		}
		_, done, err := s.Ledger.PostFirstWith(ctx, gate, t)
		switch {
		case !done && fresh, errors.Is(err, ledger.ErrGateClosed) && fresh:
			*o = before
			return false, errNotFresh
		case !done:
			*o = before
		case errors.Is(err, ledger.ErrGateClosed):
			return false, errState()
		case err != nil:
			return false, err
		default:
			if handOff {
				handOff = s.handOff(ctx, *o)
			}
			o.saved()
			return handOff, nil
		}
	}
	if fresh {
		return false, errNotFresh
	}
	return false, s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.move(ctx, tx, o, ActPay, actor, ""); err != nil {
			return err
		}
		// The money moves last: the wallet's row stays locked from here
		// to the commit, and every payment of the agency waits for it.
		_, err := s.Ledger.PostFirstTx(ctx, tx, t)
		return err
	})
}

func route(o Order) string {
	if o.Origin == "" {
		return o.FlightNumber
	}
	return fmt.Sprintf("%s %s-%s", o.FlightNumber, o.Origin, o.Destination)
}

// hold is the order o (nil for the status check) with the given id as a
// gateway payment holds it: pkg/payment's one protocol, with this line's
// moves; actor is who pays.
func (s *Service) hold(o *Order, id int64, actor string) payment.HeldOrder[Order] {
	return payment.HeldOrder[Order]{Order: o, ID: id, DB: s.DB, Load: stored.Load, Price: price, Payment: (*Order).payment,
		Holding: func(o Order) bool { return o.Status == Holding }, Check: s.checkLater, Move: func(ctx context.Context, tx *sqlx.Tx, o *Order, step payment.Step, res payment.ChargeResult) error {
			switch step {
			case payment.StepHold:
				return s.move(ctx, tx, o, ActPayUncertain, actor, o.PaymentChannel)
			case payment.StepPaid:
				// To ticketing (the move makes it due), with the gateway's fee.
				o.PaymentStatus = Paid
				o.Prices.TransactionFee = res.Fee
				return s.move(ctx, tx, o, ActPaid, "system", res.Reference)
			}
			return s.move(ctx, tx, o, ActUnpaid, "system", "")
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
	if err := s.hold(nil, id, "").CheckWith(ctx, s.Payments(), s.Gateways); err != nil {
		return err
	}
	s.wakeTicketing(ctx, id)
	return nil
}
