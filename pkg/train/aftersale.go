package train

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
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier/rail"
)

// RefundRequest asks to refund some passengers' tickets of an order (none:
// every valid ticket) (POST /order/v2/train/orders/{id}/refund).
type RefundRequest struct {
	// Passengers are the ids of the passengers whose tickets to refund
	// (passengers[].id), each with a valid ticket; absent or empty: every
	// passenger with one.
	Passengers []int `json:"passengers,omitempty"`
}

// RefundQuoteView is a refund quote: what comes back, the railway's fee by
// time band, and until when the quote stands; the order waits in
// rfd_to_be_confirm.
type RefundQuoteView struct {
	// Status is the order's status now: rfd_to_be_confirm.
	Status Status `json:"status"`
	// Passengers are the ids of the passengers whose tickets the quote
	// refunds.
	Passengers []int `json:"passengers"`
	// Fare is what the tickets refunded cost.
	Fare Money `json:"fare"`
	// Fee is the railway's fee, a share of the fare set by how long before
	// departure it is.
	Fee Money `json:"fee"`
	// RefundAmount is what comes back to the agency on confirmation: the
	// fare less the fee.
	RefundAmount Money `json:"refundAmount"`
	// ValidUntil is until when the quote can be confirmed (POST
	// /order/v2/train/orders/{id}/confirmation); after it the quote lapses
	// and the order is as before.
	ValidUntil time.Time `json:"validUntil"`
	// Order is the order as it stands now, the quote waiting in it.
	Order View `json:"order"`
}

// ChangeRequest asks to move some passengers of an order (none: all with a
// valid ticket) to another train of a new search, in a seat class of it
// (POST /order/v2/train/orders/{id}/change).
type ChangeRequest struct {
	// OfferID is the id of the new train's offer, from a new search (POST
	// /shopping/v2/train/search) still valid.
	OfferID string `json:"offerId"`
	// SeatClass is the seat class of the new train to move to (one of the
	// offer's seats[].class).
	SeatClass string `json:"seatClass"`
	// Passengers are the ids of the passengers to move, each with a valid
	// ticket not changed before (a ticket changes once); absent or empty:
	// every passenger with a valid ticket.
	Passengers []int `json:"passengers,omitempty"`
}

// ChangeQuoteView is a change quote: the new train, what is due (a higher
// fare) or comes back (a lower fare less the refund fee on the
// difference); the order waits in chg_to_be_confirm.
type ChangeQuoteView struct {
	// Status is the order's status now: chg_to_be_confirm.
	Status Status `json:"status"`
	// Passengers are the ids of the passengers the quote moves.
	Passengers []int `json:"passengers"`
	// Train is the new train.
	Train Train `json:"train"`
	// SeatClass is the new seat class.
	SeatClass string `json:"seatClass"`
	// Due is what the change costs on confirmation when the new fares are
	// higher (the difference); zero otherwise.
	Due Money `json:"due"`
	// RefundAmount is what comes back on confirmation when the new fares
	// are lower: the difference less fee; zero otherwise.
	RefundAmount Money `json:"refundAmount"`
	// Fee is the railway's fee on a lower fare's difference, set by how
	// long before departure it is; zero otherwise.
	Fee Money `json:"fee"`
	// ValidUntil is until when the quote can be confirmed (POST
	// /order/v2/train/orders/{id}/confirmation); after it the quote lapses
	// and the order is as before.
	ValidUntil time.Time `json:"validUntil"`
	// Order is the order as it stands now, the quote waiting in it.
	Order View `json:"order"`
}

// getFor loads order id for who, whose side must take action on it now
// (booking.Step): errState when the order's status has no such move,
// forbidden when it is the other side's or who only looks.
func (s *Service) getFor(ctx context.Context, who auth.Principal, id int64, action Action) (Order, viewer, error) {
	return s.Books.For(ctx, who, id, func(o Order) string { return Party(o.Status, action) }, errState())
}

// step checks that v's side takes action on o now.
func step(v viewer, o Order, action Action) error {
	return booking.Step(Party(o.Status, action), v.Side(o.AgencyID), errState())
}

// indexes maps passenger ids onto the railway's indexes; every one must
// hold a valid ticket. None: every passenger with one.
func indexes(o Order, ids []int) ([]int, []int, error) {
	valid := map[int]bool{}
	for _, t := range o.Tickets {
		if t.Status == TicketIssued {
			valid[t.Passenger] = true
		}
	}
	if len(ids) == 0 {
		for _, p := range o.Passengers {
			if valid[p.ID] {
				ids = append(ids, p.ID)
			}
		}
	}
	ids = slices.Compact(slices.Sorted(slices.Values(ids)))
	out := make([]int, 0, len(ids))
	for _, id := range ids {
		if !valid[id] {
			return nil, nil, fault.Validation(map[string]string{"passengers": "train.error.passengerNoTicket"})
		}
		out = append(out, passengerIndex(id))
	}
	if len(out) == 0 {
		return nil, nil, fault.Validation(map[string]string{"passengers": "train.error.passengerNoTicket"})
	}
	return ids, out, nil
}

// RefundQuote asks the railway what refunding some passengers' tickets
// gives back now (its fee by time band), and holds the quote on the order
// for the agency to confirm. Online refunds close 30 minutes before
// departure (the policy's CloseBefore).
func (s *Service) RefundQuote(ctx context.Context, who auth.Principal, id int64, req RefundRequest) (RefundQuoteView, error) {
	o, v, err := s.getFor(ctx, who, id, ActRefund)
	if err != nil {
		return RefundQuoteView{}, err
	}
	ids, idx, err := indexes(o, req.Passengers)
	if err != nil {
		return RefundQuoteView{}, err
	}
	if err := s.checkOpen(o, ids); err != nil {
		return RefundQuoteView{}, err
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	ro, err := s.sup.RefundOffer(cctx, o.SupplierRef, idx)
	if err != nil {
		return RefundQuoteView{}, supplierFault(err)
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o.Resume = o.Status
		o.Seq++
		o.Quote = &Quote{Kind: QuoteRefund, Ref: ro.Ref, Passengers: ids, Fare: ro.Fare.Minor, Fee: ro.Fee.Minor, Refund: ro.Refund.Minor,
			ValidUntil: ro.ValidUntil.UTC(), Seq: o.Seq}
		return s.move(ctx, tx, &o, ActRefund, booking.Actor(who), "", false)
	})
	if err != nil {
		return RefundQuoteView{}, err
	}
	out, err := s.detail(ctx, o, v)
	if err != nil {
		return RefundQuoteView{}, err
	}
	return RefundQuoteView{Status: o.Status, Passengers: ids, Fare: money.Of(ro.Fare.Minor, o.Currency), Fee: money.Of(ro.Fee.Minor, o.Currency),
		RefundAmount: money.Of(ro.Refund.Minor, o.Currency), ValidUntil: ro.ValidUntil.UTC(), Order: out}, nil
}

// checkOpen refuses after-sales within the policy's closing time before
// the departure of any ticket concerned, before asking the railway.
func (s *Service) checkOpen(o Order, ids []int) error {
	now := s.Now()
	for _, t := range o.Tickets {
		if t.Status == TicketIssued && slices.Contains(ids, t.Passenger) && t.DepartAt.Sub(now) < s.policy.CloseBefore {
			return fault.New(fault.CodeConflict, http.StatusUnprocessableEntity, "train.error.refundClosed")
		}
	}
	return nil
}

// ChangeQuote asks the railway to price moving some passengers to another
// train (once per ticket; within 48 h of departure only an earlier train
// or one the same day) and holds the quote for the agency to confirm.
func (s *Service) ChangeQuote(ctx context.Context, who auth.Principal, id int64, req ChangeRequest) (ChangeQuoteView, error) {
	o, v, err := s.getFor(ctx, who, id, ActChange)
	if err != nil {
		return ChangeQuoteView{}, err
	}
	errs := map[string]string{}
	if req.OfferID == "" {
		errs["offerId"] = "train.error.offerRequired"
	}
	if req.SeatClass == "" {
		errs["seatClass"] = "train.error.seatClassRequired"
	}
	if len(errs) > 0 {
		return ChangeQuoteView{}, fault.Validation(errs)
	}
	sup, ref, ok := splitOfferID(req.OfferID)
	if !ok || sup != o.Supplier {
		return ChangeQuoteView{}, fault.Validation(map[string]string{"offerId": "train.error.offerUnknown"})
	}
	ids, idx, err := indexes(o, req.Passengers)
	if err != nil {
		return ChangeQuoteView{}, err
	}
	if err := s.checkOpen(o, ids); err != nil {
		return ChangeQuoteView{}, err
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	eo, err := s.sup.ExchangeOffer(cctx, rail.ExchangeRequest{BookingRef: o.SupplierRef, Passengers: idx, OfferRef: ref, Class: req.SeatClass})
	if err != nil {
		if errors.Is(err, rail.ErrNotFound) {
			return ChangeQuoteView{}, fault.Validation(map[string]string{"offerId": "train.error.offerUnknown"})
		}
		if errors.Is(err, rail.ErrRejected) {
			return ChangeQuoteView{}, &fault.Error{Code: fault.CodeConflict, Status: http.StatusUnprocessableEntity, Key: "train.error.changeRejected", Err: err}
		}
		return ChangeQuoteView{}, supplierFault(err)
	}
	nt := trainOf(eo.Offer)
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o.Resume = o.Status
		o.Seq++
		o.Quote = &Quote{Kind: QuoteChange, Ref: eo.Ref, Passengers: ids, Fee: eo.Fee.Minor, Refund: eo.Refund.Minor, Due: eo.Due.Minor,
			ValidUntil: eo.ValidUntil.UTC(), Train: &nt, Class: eo.Class, Seq: o.Seq}
		return s.move(ctx, tx, &o, ActChange, booking.Actor(who), nt.TrainNumber, false)
	})
	if err != nil {
		return ChangeQuoteView{}, err
	}
	out, err := s.detail(ctx, o, v)
	if err != nil {
		return ChangeQuoteView{}, err
	}
	return ChangeQuoteView{Status: o.Status, Passengers: ids, Train: nt, SeatClass: eo.Class, Due: money.Of(eo.Due.Minor, o.Currency),
		RefundAmount: money.Of(eo.Refund.Minor, o.Currency), Fee: money.Of(eo.Fee.Minor, o.Currency), ValidUntil: eo.ValidUntil.UTC(), Order: out}, nil
}

// DropQuote drops the refund or change quote waiting; the order is as
// before.
func (s *Service) DropQuote(ctx context.Context, who auth.Principal, id int64) (View, error) {
	o, v, err := s.Books.Get(ctx, who, id)
	if err != nil {
		return View{}, err
	}
	action := ActCancelRefund
	if o.Status == ChgToBeConfirm {
		action = ActCancelChange
	}
	if err := step(v, o, action); err != nil {
		return View{}, err
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o.Quote = nil
		return s.move(ctx, tx, &o, action, booking.Actor(who), "", false)
	})
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// expireQuote drops a quote past its validity.
func (s *Service) expireQuote(ctx context.Context, id int64) (bool, error) {
	moved := false
	err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o, err := load(ctx, s.DB, tx, id)
		if err != nil {
			return err
		}
		if (o.Status != RfdToBeConfirm && o.Status != ChgToBeConfirm) || o.Quote == nil || s.Now().Before(o.Quote.ValidUntil) {
			return nil
		}
		o.Quote = nil
		moved = true
		return s.move(ctx, tx, &o, ActExpire, "system", "", false)
	})
	return moved, err
}

// Confirm carries out the quote waiting: a refund gives the money back to
// the wallet (refund-train); a change charges a higher fare's difference
// (change-train) before the railway issues the new tickets, or gives a
// lower fare's difference back after. The railway is asked at once; if
// its answer does not come, a queued job asks again, so a crash cannot
// leave the money and the tickets apart.
func (s *Service) Confirm(ctx context.Context, who auth.Principal, id int64) (View, error) {
	o, v, err := s.getFor(ctx, who, id, ActConfirm)
	if err != nil {
		return View{}, err
	}
	if o.Quote == nil {
		return View{}, errState()
	}
	if !s.Now().Before(o.Quote.ValidUntil) {
		if _, err := s.expireQuote(ctx, o.ID); err != nil {
			s.Logger.WarnContext(ctx, "train: expiring a quote failed", "order", o.ID, "err", err)
		}
		return View{}, fault.New(fault.CodeQuoteExpired, http.StatusConflict, "train.error.quoteExpired")
	}
	if v.Agency.DisablePayment && o.Quote.Due > 0 {
		return View{}, fault.New(fault.CodeNoAccess, http.StatusForbidden, "train.error.paymentDisabled")
	}
	actor := booking.Actor(who)
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.move(ctx, tx, &o, ActConfirm, actor, "", false); err != nil {
			return err
		}
		if err := s.Enqueue(ctx, tx, AfterSaleArgs{OrderID: o.ID}, s.Now().Add(afterSaleCheck)); err != nil {
			return err
		}
		if o.Quote.Kind != QuoteChange || o.Quote.Due <= 0 {
			return nil
		}
		_, err := s.Ledger.PostTx(ctx, tx, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("train-%d-change-%d-due", o.ID, o.Quote.Seq),
			From: ledger.Wallet(o.AgencyID), To: ledger.Provider(ledger.KindSuppliers), Amount: o.Quote.Due, Currency: o.Currency,
			PaymentType: ledger.TypeChangeTrain, OrderID: o.BookingNumber, Reference: o.Quote.Ref, Description: route(o), CreatedBy: actor})
		return err
	})
	if err != nil {
		return View{}, err
	}
	if err := s.finishAfterSale(ctx, o.ID); err != nil {
		if fe, ok := fault.As(err); ok {
			return View{}, fe
		}
		// The queued job finishes it; the agency sees it proceeding.
		s.Logger.WarnContext(ctx, "train: after-sales left to the job", "order", o.ID, "err", err)
	}
	o, err = load(ctx, s.DB, nil, o.ID)
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// finishAfterSale asks the railway to carry out the confirmed quote of an
// order in rfd_proceeding or chg_proceeding and records the outcome. It is
// safe to run twice: the railway's confirm calls are, the status moves only
// from proceeding, and every ledger key is the quote's. A transient
// failure is an error (try again); a refusal puts the order back as it was
// (and gives a charged difference back), answered as a fault.
func (s *Service) finishAfterSale(ctx context.Context, id int64) error {
	o, err := load(ctx, s.DB, nil, id)
	if err != nil {
		return err
	}
	if (o.Status != RfdProceeding && o.Status != ChgProceeding) || o.Quote == nil {
		return nil
	}
	q := *o.Quote
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	var b rail.Booking
	if q.Kind == QuoteRefund {
		b, err = s.sup.ConfirmRefund(cctx, o.SupplierRef, q.Ref)
	} else {
		b, err = s.sup.ConfirmExchange(cctx, o.SupplierRef, q.Ref)
	}
	switch {
	case err == nil:
	case transient(err):
		return fmt.Errorf("train order %d: confirm %s: %w", o.ID, q.Kind, err)
	default:
		if uerr := s.undoAfterSale(ctx, id, err.Error()); uerr != nil {
			return uerr
		}
		return supplierFault(err)
	}
	return s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o, err := load(ctx, s.DB, tx, id)
		if err != nil {
			return err
		}
		if (o.Status != RfdProceeding && o.Status != ChgProceeding) || o.Quote == nil || o.Quote.Ref != q.Ref {
			return nil
		}
		if q.Kind == QuoteRefund {
			return s.applyRefund(ctx, tx, &o, q, b)
		}
		return s.applyChange(ctx, tx, &o, q, b)
	})
}

func (s *Service) applyRefund(ctx context.Context, tx *sqlx.Tx, o *Order, q Quote, b rail.Booking) error {
	for i, t := range o.Tickets {
		if t.Status == TicketIssued && slices.Contains(q.Passengers, t.Passenger) {
			o.Tickets[i].Status = TicketRefunded
		}
	}
	if q.Refund > 0 {
		if err := s.RefundTx(ctx, tx, o.ID, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("train-%d-refund-%d", o.ID, q.Seq),
			From: ledger.Provider(ledger.KindSuppliers), To: ledger.Wallet(o.AgencyID), Amount: q.Refund, Currency: o.Currency,
			PaymentType: ledger.TypeRefundTrain, OrderID: o.BookingNumber, Reference: q.Ref, Description: route(*o),
			Detail: map[string]string{"fee": money.Of(q.Fee, o.Currency).Amount}, CreatedBy: "system"}); err != nil {
			return err
		}
	}
	o.Refunded += q.Refund
	o.Quote = nil
	action := ActRefundedPart
	if b.Status == rail.StatusRefunded {
		action = ActRefundedAll
	}
	// The remark names what came back and the railway's fee, as a key
	// each reader reads in their words (booking.RemarkText).
	remark := i18n.WithArgs("train.remark.refunded", "refund", money.Of(q.Refund, o.Currency).Amount,
		"fee", money.Of(q.Fee, o.Currency).Amount, "currency", o.Currency)
	return s.move(ctx, tx, o, action, "system", remark, true)
}

func (s *Service) applyChange(ctx context.Context, tx *sqlx.Tx, o *Order, q Quote, b rail.Booking) error {
	// The old tickets of the passengers moved are kept as exchanged; the
	// railway's booking now holds their new ones.
	for i, t := range o.Tickets {
		if t.Status == TicketIssued && slices.Contains(q.Passengers, t.Passenger) {
			o.Tickets[i].Status = TicketExchanged
		}
	}
	for _, t := range ticketsOf(b, nil) {
		if slices.Contains(q.Passengers, t.Passenger) {
			o.Tickets = append(o.Tickets, t)
		}
	}
	if len(q.Passengers) == len(o.Passengers) && q.Train != nil {
		o.Train, o.SeatClass = *q.Train, q.Class
	}
	o.Total = b.Total.Minor
	if q.Due > 0 {
		o.Paid += q.Due
	}
	if q.Refund > 0 {
		if err := s.RefundTx(ctx, tx, o.ID, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("train-%d-change-%d-back", o.ID, q.Seq),
			From: ledger.Provider(ledger.KindSuppliers), To: ledger.Wallet(o.AgencyID), Amount: q.Refund, Currency: o.Currency,
			PaymentType: ledger.TypeChangeTrain, OrderID: o.BookingNumber, Reference: q.Ref, Description: route(*o),
			Detail: map[string]string{"fee": money.Of(q.Fee, o.Currency).Amount}, CreatedBy: "system"}); err != nil {
			return err
		}
		o.Refunded += q.Refund
	}
	o.Quote = nil
	remark := ""
	if q.Train != nil {
		remark = q.Train.TrainNumber
	}
	return s.move(ctx, tx, o, ActChanged, "system", remark, true)
}

// undoAfterSale puts an order whose refund or change the railway refused
// back as it was, giving back a change's charged difference.
func (s *Service) undoAfterSale(ctx context.Context, id int64, remark string) error {
	return s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o, err := load(ctx, s.DB, tx, id)
		if err != nil {
			return err
		}
		if (o.Status != RfdProceeding && o.Status != ChgProceeding) || o.Quote == nil {
			return nil
		}
		q := *o.Quote
		if q.Kind == QuoteChange && q.Due > 0 {
			if _, err := s.Ledger.PostTx(ctx, tx, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("train-%d-change-%d-undo", o.ID, q.Seq),
				From: ledger.Provider(ledger.KindSuppliers), To: ledger.Wallet(o.AgencyID), Amount: q.Due, Currency: o.Currency,
				PaymentType: ledger.TypeChangeTrain, OrderID: o.BookingNumber, Reference: q.Ref, Description: route(o), CreatedBy: "system"}); err != nil {
				return err
			}
		}
		o.Quote = nil
		if len(remark) > 200 {
			remark = remark[:200]
		}
		return s.move(ctx, tx, &o, ActAfterSaleFailed, "system", remark, false)
	})
}
