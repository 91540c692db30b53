package flight

import (
	"context"
	"crypto/rand"
	"database/sql"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"mime/multipart"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/mail"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/pkg/upload"
)

// Proof limits of spec §5 and §9.
const (
	MaxProofBytes = 2 << 20
	MaxProofs     = 5
)

// ProofTypes are the accepted proof types, judged from the bytes.
var ProofTypes = []string{"image/jpeg", "image/png", "application/pdf"}

// ReadProofs reads the proof files of a multipart form, skipping the empty
// part a browser posts when no file is chosen. Each is read up to one byte
// past the limit, so the request's checks see an oversized file as such
// without the whole of it in memory.
func ReadProofs(files []*multipart.FileHeader) ([]File, error) {
	var out []File
	for _, fh := range files {
		if fh.Filename == "" && fh.Size == 0 {
			continue
		}
		f, err := fh.Open()
		if err != nil {
			return nil, fmt.Errorf("order: open proof: %w", err)
		}
		data, err := io.ReadAll(io.LimitReader(f, MaxProofBytes+1))
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("order: read proof: %w", err)
		}
		out = append(out, File{Name: fh.Filename, Data: data})
	}
	return out, nil
}

func isConflict(err error) bool {
	fe, ok := fault.As(err)
	return ok && fe.Code == fault.CodeConflict
}

func randomID() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

func validateRequest(typ string, req PostSaleRequest) map[string]string {
	errs := map[string]string{}
	reasons := RefundReasons
	if typ == TypeChange {
		reasons = ChangeReasons
	}
	switch {
	case req.Reason == nil:
		errs["reason"] = "order.request.error.reasonRequired"
	case !slices.Contains(reasons, *req.Reason):
		errs["reason"] = "order.request.error.reason"
	case typ != TypeChange && SubReasons[*req.Reason] != nil && !slices.Contains(SubReasons[*req.Reason], req.SubReason):
		errs["subReason"] = "order.request.error.subReason"
	}
	if len([]rune(req.Remark)) > 500 {
		errs["remark"] = "error.field.tooLong"
	}
	if len(req.Proofs) > MaxProofs {
		errs["proofs"] = "order.request.error.proofCount"
	}
	for i, f := range req.Proofs {
		if _, err := upload.Check(f.Data, MaxProofBytes, ProofTypes); err != nil {
			k := "order.request.error.proofType"
			if errors.Is(err, upload.ErrTooLarge) {
				k = "order.request.error.proofSize"
			}
			errs[fault.Item("proofs", i)] = k
		}
	}
	return errs
}

var requestAction = map[string]Action{TypeChange: ActChange, TypeRefund: ActRefund, TypeVoid: ActVoid}

// Request files a change, refund or void request against an issued (or
// changed) order: a new order of that type, with its proofs, reviewed by the
// provider. One request may be open per order at a time.
func (s *Service) Request(ctx context.Context, who auth.Principal, id int64, typ string, req PostSaleRequest) (View, error) {
	action, ok := requestAction[typ]
	if !ok {
		return View{}, fault.Validation(map[string]string{"type": "order.error.type"})
	}
	o, v, err := s.Books.Get(ctx, who, id)
	if err != nil {
		return View{}, err
	}
	if errs := validateRequest(typ, req); len(errs) > 0 {
		return View{}, fault.Validation(errs)
	}
	if err := booking.Step(Party(o.Type, o.Status, action), v.Side(o.AgencyID), errState()); err != nil {
		return View{}, err
	}
	now := s.Now().UTC()
	r := Order{Head: booking.Head{BookingNumber: pendingNumber(), AgencyID: o.AgencyID, UserID: who.UserID}, Type: typ, OriginalID: o.ID,
		RootID: o.RootID, PaymentStatus: Unpaid, ReferenceID: o.ReferenceID, PNR: o.PNR, Airline: o.Airline,
		FlightNumber: o.FlightNumber, TicketNumbers: o.TicketNumbers, Origin: o.Origin, Destination: o.Destination,
		DepartAt: o.DepartAt, Currency: o.Currency, Segments: o.Segments, Journeys: o.Journeys, Passengers: o.Passengers,
		Contact: o.Contact, Restrictions: o.Restrictions, InvoiceType: o.InvoiceType, Solution: o.Solution, Booked: o.Booked,
		Request:   Requested{Reason: *req.Reason, SubReason: req.SubReason, Remark: strings.TrimSpace(req.Remark)},
		CreatedAt: now, UpdatedAt: now}
	switch typ {
	case TypeChange:
		r.Status = ChgReviewing
		if req.OptionID != "" {
			opt, ok := findOption(o.ChangeSearch.ChangeSearch, req.OptionID)
			if !ok || !now.Before(opt.ExpiresAt) {
				return View{}, fault.Validation(map[string]string{"optionId": "order.request.error.option"})
			}
			r.Request.OptionID = opt.ID
			r.Request.Quotes = []supplier.Quote{o.ChangeSearch.Quotes[opt.ID]}
			r.Segments = opt.Segments
			r.Journeys = nil
			// The change order is the trip as it will fly: the orders list
			// shows its new departure and flights, not the original's.
			if len(opt.Segments) > 0 {
				r.DepartAt = opt.Segments[0].DepartAt
				flights := make([]string, len(opt.Segments))
				for i, seg := range opt.Segments {
					flights[i] = seg.FlightNumber
				}
				r.FlightNumber, r.Airline = strings.Join(flights, "/"), opt.Segments[0].Carrier
			}
		}
	case TypeRefund:
		r.Status = RfdReviewing
	case TypeVoid:
		r.Status = VoidProceeding
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := insert(ctx, s.DB, tx, &r); err != nil {
			if store.IsUniqueViolation(err) {
				return fault.Conflict("order.error.requestOpen")
			}
			return err
		}
		for _, f := range req.Proofs {
			ct, _ := upload.Check(f.Data, MaxProofBytes, ProofTypes)
			name := strings.TrimSpace(f.Name)
			if name == "" || len(name) > 200 {
				name = "proof"
			}
			if _, err := tx.ExecContext(ctx, tx.Rebind(`INSERT INTO flight_order_proofs (order_id, name, content_type, data, created_at)
				VALUES (?, ?, ?, ?, ?)`), r.ID, name, ct, f.Data, now); err != nil {
				return fmt.Errorf("order %d: store proof: %w", r.ID, err)
			}
		}
		if err := addEvent(ctx, s.DB, tx, r.ID, "create", "", r.Status, booking.Actor(who), r.Request.Remark, now); err != nil {
			return err
		}
		if err := addEvent(ctx, s.DB, tx, o.ID, action, o.Status, o.Status, booking.Actor(who), r.BookingNumber, now); err != nil {
			return err
		}
		return s.announce(ctx, tx, &r)
	})
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, r, v)
}

func findOption(cs ChangeSearch, id string) (ChangeOption, bool) {
	for _, o := range cs.Options {
		if o.ID == id {
			return o, true
		}
	}
	return ChangeOption{}, false
}

// ChangeSearch asks the supplier how the order's trip could change to the
// given dates. A new search replaces the previous one.
func (s *Service) ChangeSearch(ctx context.Context, who auth.Principal, id int64, req ChangeSearchRequest, lang string) (ChangeSearch, error) {
	o, v, err := s.getFor(ctx, who, id, ActChange)
	if err != nil {
		return ChangeSearch{}, err
	}
	if len(o.Booked.Bookings) != 1 {
		return ChangeSearch{}, fault.Conflict("order.error.changeMultiTicket")
	}
	errs := map[string]string{}
	today := booking.Today(s.Now(), v.Agency)
	var journeys []supplier.JourneyQuery
	if len(req.Journeys) == 0 || len(req.Journeys) != max(len(o.Journeys), 1) {
		errs["journeys"] = "order.change.error.journeys"
	}
	for i, j := range req.Journeys {
		q := supplier.JourneyQuery{Origin: strings.ToUpper(strings.TrimSpace(j.Origin)), Destination: strings.ToUpper(strings.TrimSpace(j.Destination)), Date: j.Date}
		if q.Origin == "" && i < len(o.Journeys) {
			q.Origin = o.Journeys[i].Origin
		}
		if q.Destination == "" && i < len(o.Journeys) {
			q.Destination = o.Journeys[i].Destination
		}
		if _, ok := geo.AirportByCode(q.Origin); !ok {
			errs[fault.Field(fault.Item("journeys", i), "origin")] = "order.change.error.airport"
		}
		if _, ok := geo.AirportByCode(q.Destination); !ok {
			errs[fault.Field(fault.Item("journeys", i), "destination")] = "order.change.error.airport"
		}
		if d, err := time.Parse(time.DateOnly, j.Date); err != nil || d.Before(today) {
			errs[fault.Field(fault.Item("journeys", i), "date")] = "order.change.error.date"
		}
		journeys = append(journeys, q)
	}
	if len(errs) > 0 {
		return ChangeSearch{}, fault.Validation(errs)
	}
	b := o.Booked.Bookings[0]
	sup, ok := s.suppliers(b.Supplier)
	if !ok {
		return ChangeSearch{}, fault.Conflict("order.error.changeUnavailable")
	}
	quotes, err := sup.ChangeQuotes(ctx, b.Ref, journeys)
	if err != nil {
		if transient(err) {
			return ChangeSearch{}, &fault.Error{Code: fault.CodeSearchTimeout, Status: http.StatusGatewayTimeout, Key: "shopping.error.verifyTimeout", Err: err}
		}
		return ChangeSearch{}, &fault.Error{Code: fault.CodeConflict, Status: http.StatusConflict, Key: "order.error.changeUnavailable", Err: err}
	}
	fee, err := s.serviceFee(ctx, o.AgencyID, TypeChange, o.Currency)
	if err != nil {
		return ChangeSearch{}, err
	}
	cs := savedSearch{ChangeSearch: ChangeSearch{ID: randomID(), Journeys: journeys, Options: []ChangeOption{}, At: s.Now().UTC()},
		Quotes: map[string]supplier.Quote{}}
	for _, q := range quotes {
		opt := ChangeOption{ID: randomID(), ExpiresAt: q.ExpiresAt}
		due, afee := toOrderCurrency(o, q.Due), toOrderCurrency(o, q.Fee)
		opt.Due, opt.Fee, opt.ServiceFee = money.Of(due, o.Currency), money.Of(afee, o.Currency), money.Of(fee, o.Currency)
		opt.Total = money.Of(due+afee+fee, o.Currency)
		if q.Offer != nil {
			for _, seg := range q.Offer.Segments {
				opt.Segments = append(opt.Segments, segmentView(seg, lang))
			}
		}
		if opt.ExpiresAt.IsZero() {
			opt.ExpiresAt = s.Now().Add(15 * time.Minute)
		}
		cs.Quotes[opt.ID] = q
		cs.Options = append(cs.Options, opt)
	}
	o.ChangeSearch, o.content = cs, allContent
	if err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error { return s.touch(ctx, tx, &o) }); err != nil {
		return ChangeSearch{}, err
	}
	return cs.ChangeSearch, nil
}

func segmentView(seg supplier.Segment, lang string) shopping.SegmentView {
	v := shopping.SegmentView{Segment: seg}
	if a, ok := geo.AirlineByCode(seg.Carrier); ok {
		v.CarrierName = a.Name.In(lang)
	}
	if a, ok := geo.AirportByCode(seg.Origin); ok {
		v.OriginName = a.Name.In(lang)
	}
	if a, ok := geo.AirportByCode(seg.Destination); ok {
		v.DestinationName = a.Name.In(lang)
	}
	return v
}

// Review is the provider's decision on an order or request.
func (s *Service) Review(ctx context.Context, who auth.Principal, id int64, req ReviewRequest) (View, error) {
	if !who.Subject.IsProvider() {
		return View{}, fault.Forbidden()
	}
	o, v, err := s.Books.Get(ctx, who, id)
	if err != nil {
		return View{}, err
	}
	if Party(o.Type, o.Status, req.Action) != booking.ByProvider {
		return View{}, errState()
	}
	if len([]rune(req.Remark)) > 500 {
		return View{}, fault.Validation(map[string]string{"remark": "error.field.tooLong"})
	}
	actor := booking.Actor(who)
	o.ReviewRemark = strings.TrimSpace(req.Remark)
	now := s.Now().UTC()
	hours := req.ConfirmHours
	if hours <= 0 {
		hours = 24
	}
	if hours > 24*14 {
		return View{}, fault.Validation(map[string]string{"confirmHours": "order.review.error.confirmHours"})
	}
	var after func()
	switch {
	case o.Type == TypeVoid && (req.Action == ActApprove):
		return s.approveVoid(ctx, o, v, actor)
	case o.Type == TypeRefund && (req.Action == ActApprove || req.Action == ActQuote):
		if err := s.quoteRefund(ctx, &o, req); err != nil {
			return View{}, err
		}
		o.ConfirmBy = now.Add(time.Duration(hours) * time.Hour)
	case o.Type == TypeChange && req.Action == ActQuote:
		if err := s.quoteChange(ctx, &o, req); err != nil {
			return View{}, err
		}
		o.ConfirmBy = now.Add(time.Duration(hours) * time.Hour)
	case o.Type == TypeOrigin && req.Action == ActApprove:
		// The agency gets a fresh payment window from the approval.
		o.PayBy = now.Add(15 * time.Minute)
	case o.Type == TypeOrigin && req.Action == ActReject:
		after = func() { s.cancelBookings(context.WithoutCancel(ctx), o.Booked.Bookings) }
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := s.move(ctx, tx, &o, req.Action, actor, o.ReviewRemark); err != nil {
			return err
		}
		// A new pay_by or confirm_by needs no job: the deadline sweep finds
		// the order once it passes; nor does an order issued on account
		// (proceeding): the move made it due for ticketing.
		switch o.Status {
		case Failed:
			return s.settleFailed(ctx, tx, &o)
		case Refunded, Changed:
			return s.finishPostSale(ctx, tx, &o)
		case Reimbursing:
			return s.changeBack(ctx, tx, &o)
		}
		return nil
	})
	if err != nil {
		return View{}, err
	}
	if after != nil {
		after()
	}
	if o.Status == Proceeding {
		s.wakeTicketing(ctx, o.ID)
	}
	return s.detail(ctx, o, v)
}

// amountOr parses a decimal amount of the request, or answers def when empty.
func amountOr(s string, currency string, def int64, field string) (int64, error) {
	if strings.TrimSpace(s) == "" {
		return def, nil
	}
	a, err := money.ParseNonNegative(s, currency)
	if err != nil {
		key := money.ErrorKey(err, "order.review.error.amount")
		if key == "money.error.negative" {
			key = "order.review.error.amount"
		}
		return 0, fault.Validation(map[string]string{field: key})
	}
	return a.Minor, nil
}

// quoteRefund prices a refund from the suppliers' refund quotes (or the
// provider's figures): what the airline returns less the agency's refund
// service fee, never more than was paid.
func (s *Service) quoteRefund(ctx context.Context, o *Order, req ReviewRequest) error {
	var gross, airlineFee int64
	var quotes []supplier.Quote
	// The provider's own figures need no supplier quote: the refund is
	// quoted again with the supplier when it is carried out.
	given := strings.TrimSpace(req.RefundAmount) != "" && strings.TrimSpace(req.Fee) != ""
	for _, b := range o.Booked.Bookings {
		if given {
			break
		}
		sup, ok := s.suppliers(b.Supplier)
		if !ok {
			return fault.Conflict("order.error.refundUnavailable")
		}
		q, err := sup.RefundQuote(ctx, b.Ref)
		if err != nil {
			return &fault.Error{Code: fault.CodeConflict, Status: http.StatusConflict, Key: "order.error.refundUnavailable", Err: err}
		}
		if q.RefundUnknown {
			// A zero the airline did not promise must not reach the agency
			// as a refund it can confirm: the provider gives the figures.
			return fault.Validation(map[string]string{"refundAmount": "order.review.error.refundUnknown"})
		}
		quotes = append(quotes, q)
		gross += toOrderCurrency(*o, q.Refund)
		airlineFee += toOrderCurrency(*o, q.Fee)
	}
	original, err := stored.Load(ctx, s.DB, nil, o.OriginalID)
	if err != nil {
		return err
	}
	paidTotal := original.Total
	if gross, err = amountOr(req.RefundAmount, o.Currency, min(gross, paidTotal), "refundAmount"); err != nil {
		return err
	}
	if airlineFee, err = amountOr(req.Fee, o.Currency, airlineFee, "fee"); err != nil {
		return err
	}
	if gross > paidTotal {
		return fault.Validation(map[string]string{"refundAmount": "order.review.error.refundTooHigh"})
	}
	fee, err := s.serviceFee(ctx, o.AgencyID, TypeRefund, o.Currency)
	if err != nil {
		return err
	}
	fee = min(fee, gross)
	o.Request.Quotes, o.content = quotes, allContent
	o.Prices.RefundAmount = gross - fee
	o.Prices.RefundFee = airlineFee
	o.Prices.ServiceFee = fee
	o.Total = gross - fee
	return nil
}

// quoteChange prices a change: the fare and tax difference, the airline's
// fee and the agency's change service fee.
func (s *Service) quoteChange(ctx context.Context, o *Order, req ReviewRequest) error {
	var due, airlineFee int64
	for _, q := range o.Request.Quotes {
		due += toOrderCurrency(*o, q.Due)
		airlineFee += toOrderCurrency(*o, q.Fee)
	}
	if len(o.Request.Quotes) == 0 && (req.Due == "" || req.Fee == "") {
		return fault.Validation(map[string]string{"due": "order.review.error.changeAmounts"})
	}
	var err error
	if due, err = amountOr(req.Due, o.Currency, due, "due"); err != nil {
		return err
	}
	if airlineFee, err = amountOr(req.Fee, o.Currency, airlineFee, "fee"); err != nil {
		return err
	}
	fee, err := s.serviceFee(ctx, o.AgencyID, TypeChange, o.Currency)
	if err != nil {
		return err
	}
	o.Prices.ChangeTicketDiff = due
	o.Prices.ChangeFee = airlineFee
	o.Prices.ServiceFee = fee
	o.Total = due + airlineFee + fee
	return nil
}

// approveVoid voids the tickets with the supplier, then gives back what was
// paid less the agency's void service fee and closes the original order.
func (s *Service) approveVoid(ctx context.Context, o Order, v viewer, actor string) (View, error) {
	// Read before the transaction: SQLite's one connection is the
	// transaction's until it ends.
	fee, err := s.serviceFee(ctx, o.AgencyID, TypeVoid, o.Currency)
	if err != nil {
		return View{}, err
	}
	o.Prices.ServiceFee = fee
	var failed error
	for _, b := range o.Booked.Bookings {
		sup, ok := s.suppliers(b.Supplier)
		if !ok {
			failed = supplier.ErrNotSupported
			break
		}
		if err := sup.Void(ctx, b.Ref); err != nil {
			failed = err
			break
		}
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		switch {
		case failed != nil && transient(failed):
			return s.move(ctx, tx, &o, ActUncertain, actor, failed.Error())
		case failed != nil:
			return s.move(ctx, tx, &o, ActFailed, actor, failed.Error())
		}
		if err := s.move(ctx, tx, &o, ActApprove, actor, o.ReviewRemark); err != nil {
			return err
		}
		return s.finishPostSale(ctx, tx, &o)
	})
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// finishPostSale settles a request the supplier carried out: a refund or
// void pays back and closes the original; a change charges nothing more and
// supersedes it.
func (s *Service) finishPostSale(ctx context.Context, tx *sqlx.Tx, o *Order) error {
	original, err := stored.Load(ctx, s.DB, tx, o.OriginalID)
	if err != nil {
		return err
	}
	switch o.Type {
	case TypeRefund:
		if err := s.reimburse(ctx, tx, o, o.Prices.RefundAmount, o.Prices.ServiceFee, ledger.TypeRefundFlight, "refund"); err != nil {
			return err
		}
		return s.move(ctx, tx, &original, ActClose, "system", o.BookingNumber)
	case TypeVoid:
		paidTotal := original.Total
		fee := min(o.Prices.ServiceFee, paidTotal)
		o.Prices.ServiceFee, o.Prices.RefundAmount, o.Total = fee, paidTotal-fee, paidTotal-fee
		if err := s.reimburse(ctx, tx, o, paidTotal-fee, fee, ledger.TypeVoidFlight, "void"); err != nil {
			return err
		}
		return s.move(ctx, tx, &original, ActClose, "system", o.BookingNumber)
	case TypeChange:
		if err := s.payBack(ctx, tx, o, 0, 0, ledger.TypeChangeFlight, "change"); err != nil {
			return err
		}
		return s.move(ctx, tx, &original, ActSuperseded, "system", o.BookingNumber)
	}
	return nil
}

// changeBack returns a failed change's payment.
func (s *Service) changeBack(ctx context.Context, tx *sqlx.Tx, o *Order) error {
	if o.PaymentStatus == Paid && o.Total > 0 {
		if _, err := s.Ledger.PostTx(ctx, tx, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("order-%d-change-back", o.ID),
			From: ledger.Provider(ledger.KindSuppliers), To: ledger.Wallet(o.AgencyID), Amount: o.Total, Currency: o.Currency,
			PaymentType: ledger.TypeChangeFlight, OrderID: o.BookingNumber, Reference: o.PNR, Description: route(*o), CreatedBy: "system"}); err != nil {
			return err
		}
	}
	return s.move(ctx, tx, o, ActReimbursed, "system", "")
}

// Confirm is the agency's yes to a quoted refund (before its deadline) or
// change (paying what it costs from the wallet).
func (s *Service) Confirm(ctx context.Context, who auth.Principal, id int64) (View, error) {
	o, v, err := s.getFor(ctx, who, id, ActConfirm)
	if err != nil {
		return View{}, err
	}
	if !s.Now().Before(o.ConfirmBy) {
		if _, err := s.expire(ctx, o.ID); err != nil {
			s.Logger.WarnContext(ctx, "order: expiring an unconfirmed request failed", "order", o.ID, "err", err)
		}
		return View{}, fault.New(fault.CodeQuoteExpired, http.StatusConflict, "order.error.confirmExpired")
	}
	if o.Type == TypeChange && o.Total > 0 && v.Agency.DisablePayment {
		return View{}, fault.New(fault.CodeNoAccess, http.StatusForbidden, "order.error.paymentDisabled")
	}
	actor := booking.Actor(who)
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		if o.Type == TypeChange && o.Total > 0 {
			o.PaymentStatus, o.PaymentChannel = Paid, payment.ChannelBalance
		}
		if err := s.move(ctx, tx, &o, ActConfirm, actor, ""); err != nil {
			return err
		}
		if o.Type == TypeChange && o.Total > 0 {
			if _, err := s.Ledger.PostTx(ctx, tx, ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: fmt.Sprintf("order-%d-pay", o.ID),
				From: ledger.Wallet(o.AgencyID), To: ledger.Provider(ledger.KindSuppliers), Amount: o.Total, Currency: o.Currency,
				PaymentType: ledger.TypeChangeFlight, OrderID: o.BookingNumber, Reference: o.PNR, Description: route(o), CreatedBy: actor}); err != nil {
				return err
			}
		}
		return s.Enqueue(ctx, tx, PostSaleArgs{OrderID: o.ID}, time.Time{})
	})
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// CarryOut performs a confirmed refund or change with the supplier (the
// post-sale job).
func (s *Service) CarryOut(ctx context.Context, id int64, last bool) error {
	o, err := stored.Load(ctx, s.DB, nil, id)
	if err != nil {
		return err
	}
	if o.Status != RfdProceeding && o.Status != ChgProceeding {
		return nil
	}
	var newBookings []supplier.Booking
	var failed error
	for i, b := range o.Booked.Bookings {
		sup, ok := s.suppliers(b.Supplier)
		if !ok {
			failed = supplier.ErrNotSupported
			break
		}
		var q supplier.Quote
		if i < len(o.Request.Quotes) {
			q = o.Request.Quotes[i]
		}
		cctx, cancel := context.WithTimeout(ctx, supplierCallTimeout)
		if o.Type == TypeRefund {
			err = s.refundWith(cctx, sup, b.Ref, q)
		} else {
			var nb supplier.Booking
			nb, err = sup.Change(cctx, b.Ref, q.Ref)
			newBookings = append(newBookings, nb)
		}
		cancel()
		if err != nil {
			failed = err
			break
		}
	}
	if failed != nil && transient(failed) && !last {
		return fmt.Errorf("order %d: %s with supplier: %w", id, o.Type, failed)
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		switch {
		case failed != nil && transient(failed):
			return s.move(ctx, tx, &o, ActUncertain, "system", failed.Error())
		case failed != nil && o.Type == TypeChange:
			if err := s.move(ctx, tx, &o, ActFailed, "system", failed.Error()); err != nil {
				return err
			}
			return s.changeBack(ctx, tx, &o)
		case failed != nil:
			return s.move(ctx, tx, &o, ActFailed, "system", failed.Error())
		}
		if o.Type == TypeChange && len(newBookings) > 0 {
			o.Booked.Bookings, o.content = newBookings, allContent
			var pnrs []string
			for _, b := range newBookings {
				pnrs = append(pnrs, b.PNR)
			}
			o.PNR = strings.Join(pnrs, "/")
		}
		if err := s.move(ctx, tx, &o, ActDone, "system", ""); err != nil {
			return err
		}
		return s.finishPostSale(ctx, tx, &o)
	})
	if s.ranTwice(ctx, id, err, RfdProceeding, ChgProceeding) {
		return nil
	}
	return err
}

// refundWith refunds a booking against quote q. When the agency confirmed
// after the supplier's quote lapsed, or the provider set the figures
// without one, the amount promised to the agency stands and the supplier is
// asked for a quote of its own to refund against.
//
// Run again after a crash that lost the supplier's answer, the booking may
// be refunded already: confirming the agency's quote again then succeeds
// (suppliers confirm a confirmed quote again without refunding twice), even
// when the quote has lapsed or the first run refunded against a fresh one.
func (s *Service) refundWith(ctx context.Context, sup supplier.Supplier, ref string, q supplier.Quote) error {
	if q.Ref != "" && s.Now().Before(q.ExpiresAt) {
		return sup.Refund(ctx, ref, q.Ref)
	}
	fresh, err := sup.RefundQuote(ctx, ref)
	if err != nil {
		if q.Ref != "" && errors.Is(err, supplier.ErrRejected) && sup.Refund(ctx, ref, q.Ref) == nil {
			return nil
		}
		return err
	}
	return sup.Refund(ctx, ref, fresh.Ref)
}

// ProofData is the bytes of a proof of an order the caller may see.
func (s *Service) ProofData(ctx context.Context, who auth.Principal, orderID, proofID int64) (Proof, []byte, error) {
	if _, _, err := s.Books.Get(ctx, who, orderID); err != nil {
		return Proof{}, nil, err
	}
	var row struct {
		Proof
		Data []byte `db:"data"`
	}
	err := s.DB.GetContext(ctx, &row, s.DB.Rebind(`SELECT id, name, content_type, LENGTH(data) AS size, created_at, data
		FROM flight_order_proofs WHERE id = ? AND order_id = ?`), proofID, orderID)
	if errors.Is(err, sql.ErrNoRows) {
		return Proof{}, nil, errNotFound()
	}
	if err != nil {
		return Proof{}, nil, fmt.Errorf("order %d: proof %d: %w", orderID, proofID, err)
	}
	return row.Proof, row.Data, nil
}

// Disruption is an airline's schedule change the provider recorded against
// an order (the flight disruption list).
type Disruption struct {
	// ID identifies the disruption.
	ID int64 `json:"id" db:"id"`
	// OrderID is the id of the order affected.
	OrderID int64 `json:"orderId" db:"order_id"`
	// BookingNumber is the affected order's booking number.
	BookingNumber string `json:"bookingNumber" db:"booking_number"`
	// PNR is the affected order's airline booking code.
	PNR string `json:"pnr" db:"pnr"`
	// FlightNumber is the affected order's flight numbers, "/" between
	// them.
	FlightNumber string `json:"flightNumber" db:"flight_number"`
	// Type is the kind of change: change (schedule change), cancel_no_save
	// (flight cancelled, no alternative), cancel_save (cancelled,
	// rebooked) or restore (flight restored).
	Type string `json:"type" db:"type"`
	// Detail says what changed, in the provider's words.
	Detail string `json:"detail" db:"detail"`
	// Email is the order contact's address the notice was sent to; empty
	// when the order has none.
	Email string `json:"email" db:"email"`
	// EmailedAt is when the notice email was queued; absent when none was
	// sent.
	EmailedAt *time.Time `json:"emailedAt,omitempty" db:"emailed_at"`
	// CreatedAt is when the disruption was recorded (RFC 3339, UTC).
	CreatedAt time.Time `json:"createdAt" db:"created_at"`
}

// DisruptionPage is one page of disruptions, newest first.
type DisruptionPage struct {
	// Items are the page's disruptions.
	Items []Disruption `json:"items"`
	// Total is how many disruptions match, on every page.
	Total int `json:"total"`
	// Page is the page answered, from 1.
	Page int `json:"page"`
	// PageSize is how many disruptions a page holds.
	PageSize int `json:"pageSize"`
}

// RecordDisruption is the provider noting an airline's schedule change on an
// order: stored, flagged on the order, emailed to its contact and sent to
// the agency's change notification URL.
func (s *Service) RecordDisruption(ctx context.Context, who auth.Principal, id int64, req DisruptionRequest, subject, body string) (Disruption, error) {
	if !who.Subject.IsProvider() {
		return Disruption{}, fault.Forbidden()
	}
	errs := map[string]string{}
	if !slices.Contains(DisruptionTypes, req.Type) {
		errs["type"] = "order.disruption.error.type"
	}
	if len([]rune(req.Detail)) > 2000 {
		errs["detail"] = "error.field.tooLong"
	}
	if len(errs) > 0 {
		return Disruption{}, fault.Validation(errs)
	}
	o, _, err := s.Books.Get(ctx, who, id)
	if err != nil {
		return Disruption{}, err
	}
	now := s.Now().UTC()
	d := Disruption{OrderID: o.ID, BookingNumber: o.BookingNumber, PNR: o.PNR, FlightNumber: o.FlightNumber, Type: req.Type,
		Detail: strings.TrimSpace(req.Detail), Email: o.Contact.Email, CreatedAt: now}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		var emailed any
		if d.Email != "" {
			if err := mail.Enqueue(ctx, tx, mail.Message{To: d.Email, Subject: subject, Body: body}, now); err != nil {
				s.Logger.WarnContext(ctx, "order: disruption email not queued", "order", o.ID, "err", err)
			} else {
				emailed, d.EmailedAt = now, &now
			}
		}
		if err := tx.GetContext(ctx, &d.ID, tx.Rebind(`INSERT INTO flight_disruptions (order_id, agency_id, type, detail, email, emailed_at, created_at)
			VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING id`), o.ID, o.AgencyID, d.Type, d.Detail, d.Email, emailed, now); err != nil {
			return fmt.Errorf("order %d: disruption: %w", o.ID, err)
		}
		o.Disrupted = true
		if err := s.touch(ctx, tx, &o); err != nil {
			return err
		}
		return s.NotifyTx(ctx, tx, o.AgencyID, "disruption.created", d)
	})
	return d, err
}

// Disruptions lists the disruptions of the orders the caller may see.
func (s *Service) Disruptions(ctx context.Context, who auth.Principal, typ string, page, size int) (DisruptionPage, error) {
	v, err := s.Books.Viewer(ctx, who)
	if err != nil {
		return DisruptionPage{}, err
	}
	if typ != "" && !slices.Contains(DisruptionTypes, typ) {
		return DisruptionPage{}, fault.Validation(map[string]string{"type": "order.disruption.error.type"})
	}
	q := v.Scope.Query("d.agency_id", "o.user_id")
	if typ != "" {
		q.And("d.type = ?", typ)
	}
	p := booking.Pages(page, size)
	out := DisruptionPage{Items: []Disruption{}, Page: p.Page, PageSize: p.Size}
	from := ` FROM flight_disruptions d JOIN flight_orders o ON o.id = d.order_id`
	if err := s.DB.GetContext(ctx, &out.Total, s.DB.Rebind(q.SQL(`SELECT COUNT(*)`+from, "")), q.Args()...); err != nil {
		return out, fmt.Errorf("order: count disruptions: %w", err)
	}
	err = s.DB.SelectContext(ctx, &out.Items, s.DB.Rebind(q.SQL(`SELECT d.id, d.order_id, o.booking_number, o.pnr, o.flight_number, d.type,
		d.detail, d.email, d.emailed_at, d.created_at`+from, ` ORDER BY d.created_at DESC, d.id DESC LIMIT ? OFFSET ?`)),
		q.Args(p.Size, p.Offset())...)
	if err != nil {
		return out, fmt.Errorf("order: list disruptions: %w", err)
	}
	return out, nil
}
