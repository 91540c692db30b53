package train

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/mail"
	"strings"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/booking"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/supplier/rail"
)

// CreateRequest books seats of a train offer for passengers (POST
// /order/v2/train/orders).
type CreateRequest struct {
	// OfferID is the id of an offer from a train search (POST
	// /shopping/v2/train/search), before its expiresAt.
	OfferID string `json:"offerId" jsonschema:"required"`
	// SeatClass is the seat class to book, one of the offer's
	// seats[].class with seats left.
	SeatClass string `json:"seatClass" jsonschema:"required"`
	// Passengers are the travellers, one to five; a child travels with at
	// least one passenger of another type.
	Passengers []Passenger `json:"passengers" jsonschema:"required"`
	// Contact is who the agency reaches about the order.
	Contact Contact `json:"contact" jsonschema:"required"`
}

// PayRequest pays a train order (POST
// /order/v2/train/orders/{id}/payment).
type PayRequest struct {
	// Channel is balance (the wallet) or a gateway channel the server has
	// (the flight orders' channels).
	Channel string `json:"channel" jsonschema:"required"`
	// TestOutcome (success, failure, timeout) steers the built-in test
	// gateway; real gateways ignore it.
	TestOutcome string `json:"testOutcome,omitempty"`
}

// ChannelBalance pays from the wallet: balance, then credit.
const ChannelBalance = "balance"

// seatLetters are the seats one may ask for on G/D/C trains.
const seatLetters = "ABCDF"

var ticketTypes = []string{rail.TicketAdult, rail.TicketChild, rail.TicketStudent, rail.TicketDisabledMilitary}

// normalize trims a request and numbers its passengers.
func (r *CreateRequest) normalize() {
	r.OfferID, r.SeatClass = strings.TrimSpace(r.OfferID), strings.TrimSpace(r.SeatClass)
	for i := range r.Passengers {
		p := &r.Passengers[i]
		p.ID = i + 1
		p.Type = strings.TrimSpace(p.Type)
		p.Surname, p.GivenName = strings.TrimSpace(p.Surname), strings.TrimSpace(p.GivenName)
		p.DocumentType = strings.TrimSpace(p.DocumentType)
		p.DocumentNumber = strings.ToUpper(strings.ReplaceAll(strings.TrimSpace(p.DocumentNumber), " ", ""))
		p.SeatLetter = strings.ToUpper(strings.TrimSpace(p.SeatLetter))
		p.Nationality = strings.ToUpper(strings.TrimSpace(p.Nationality))
	}
	r.Contact = Contact{Name: strings.TrimSpace(r.Contact.Name), Email: strings.TrimSpace(r.Contact.Email), Phone: strings.TrimSpace(r.Contact.Phone)}
}

// validate applies the real-name rule's form checks (the railway matches
// the name to the document itself), the ticket types and the contact.
func (r CreateRequest) validate() error {
	errs := map[string]string{}
	if r.OfferID == "" {
		errs["offerId"] = "train.error.offerRequired"
	}
	if r.SeatClass == "" {
		errs["seatClass"] = "train.error.seatClassRequired"
	}
	switch {
	case len(r.Passengers) == 0:
		errs["passengers"] = "train.error.passengersRequired"
	case len(r.Passengers) > maxPassengers:
		errs["passengers"] = "train.error.passengerCount"
	}
	grown, child := false, false
	seen := map[string]bool{}
	for i, p := range r.Passengers {
		f := func(name string) string { return fault.Field(fault.Item("passengers", i), name) }
		switch {
		case !contains(ticketTypes, p.Type):
			errs[f("type")] = "train.error.ticketType"
		case p.Type == rail.TicketChild:
			child = true
		default:
			grown = true
		}
		if p.Surname == "" {
			errs[f("surname")] = "train.error.surname"
		}
		if p.GivenName == "" {
			errs[f("givenName")] = "train.error.givenName"
		}
		known, ok := rail.ValidDocument(p.DocumentType, p.DocumentNumber)
		switch {
		case !known:
			errs[f("documentType")] = "train.error.documentType"
		case !ok:
			errs[f("documentNumber")] = "train.error.documentNumber"
		case seen[p.DocumentType+p.DocumentNumber]:
			errs[f("documentNumber")] = "train.error.documentTwice"
		}
		seen[p.DocumentType+p.DocumentNumber] = true
		if p.SeatLetter != "" && (len(p.SeatLetter) != 1 || !strings.Contains(seatLetters, p.SeatLetter)) {
			errs[f("seatLetter")] = "train.error.seatLetter"
		}
		if p.Birthday != "" {
			if _, err := time.Parse(time.DateOnly, p.Birthday); err != nil {
				errs[f("birthday")] = "train.error.date"
			}
		}
	}
	if child && !grown {
		errs["passengers"] = "train.error.childAlone"
	}
	if r.Contact.Name == "" {
		errs["contact.name"] = "train.error.contactName"
	}
	if r.Contact.Phone == "" {
		errs["contact.phone"] = "train.error.contactPhone"
	}
	if r.Contact.Email != "" {
		if _, err := mail.ParseAddress(r.Contact.Email); err != nil {
			errs["contact.email"] = "train.error.contactEmail"
		}
	}
	if len(errs) > 0 {
		return fault.Validation(errs)
	}
	return nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// Create holds seats of one class of an offer for the passengers and stores
// the order in to_be_paid until the railway's hold expires, once per
// idempotency key: a replay answers the order the first call made.
func (s *Service) Create(ctx context.Context, who auth.Principal, key string, req CreateRequest) (_ View, err error) {
	defer s.CountBooked(&err)
	if !who.Subject.TrainServiceEnable() {
		return View{}, noAccess()
	}
	v, err := s.Books.Booker(ctx, who, key)
	if err != nil {
		return View{}, err
	}
	req.normalize()
	hash := booking.RequestHash(req)
	replay := func() (View, bool, error) {
		return booking.Replay(func() (Order, bool, error) { return loadByKey(ctx, s.DB, who.AgencyID, key) }, hash, Order.requestHash,
			func(prior Order) (View, error) { return s.detail(ctx, prior, v) })
	}
	if out, found, err := replay(); found || err != nil {
		return out, err
	}
	if err := req.validate(); err != nil {
		return View{}, err
	}
	sup, ref, ok := splitOfferID(req.OfferID)
	if !ok || sup != s.sup.Name() {
		return View{}, fault.Validation(map[string]string{"offerId": "train.error.offerUnknown"})
	}
	pax := make([]rail.Passenger, len(req.Passengers))
	for i, p := range req.Passengers {
		pax[i] = rail.Passenger{Type: p.Type, Surname: p.Surname, GivenName: p.GivenName, Gender: p.Gender, Birthday: p.Birthday,
			Nationality: p.Nationality, DocumentType: p.DocumentType, DocumentNumber: p.DocumentNumber, SeatLetter: p.SeatLetter}
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	b, err := s.sup.PreBook(cctx, rail.PreBookRequest{OfferRef: ref, Class: req.SeatClass, Passengers: pax,
		Key: fmt.Sprintf("agency-%d-%s", who.AgencyID, key)})
	if err != nil {
		if errors.Is(err, rail.ErrNotFound) {
			return View{}, fault.Validation(map[string]string{"offerId": "train.error.offerUnknown"})
		}
		if errors.Is(err, rail.ErrRejected) {
			return View{}, &fault.Error{Code: fault.CodeValidation, Status: http.StatusBadRequest, Key: "train.error.rejected", Err: err,
				Fields: map[string]string{"passengers": "train.error.rejected"}}
		}
		return View{}, supplierFault(err)
	}
	if cur := v.Agency.SettlementCurrency; cur != "" && cur != b.Total.Currency {
		// The wallet is kept in the settlement currency; fares are the
		// railway's. Converting them is not built: refuse clearly.
		s.release(Order{SupplierRef: b.Ref})
		return View{}, fault.New(fault.CodeConflict, http.StatusUnprocessableEntity, "train.error.currency")
	}
	now := s.Now().UTC()
	o := Order{Head: booking.Head{AgencyID: who.AgencyID, UserID: who.UserID}, Status: ToBePaid, Supplier: s.sup.Name(), SupplierRef: b.Ref,
		Train: trainOf(b.Offer), SeatClass: b.Class, Currency: b.Total.Currency, Total: b.Total.Minor, Passengers: req.Passengers,
		Contact: req.Contact, HoldExpiresAt: b.HoldExpiresAt.UTC(), IdempotencyKey: key, RequestHash: hash, CreatedAt: now, UpdatedAt: now}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		if err := insert(ctx, tx, &o); err != nil {
			return err
		}
		if err := booking.Add(ctx, tx, booking.TrainTimeline, booking.Shift[Status, Action]{ID: o.ID, Action: "book", To: ToBePaid,
			Actor: booking.Actor(who), Remark: o.Train.TrainNumber, At: now}); err != nil {
			return err
		}
		return s.NotifyTx(ctx, tx, o.AgencyID, EventStatus, s.view(o, booking.ByAgency))
	})
	if errors.Is(err, errDuplicateKey) {
		// A concurrent call with the key won: the railway's hold is the
		// same booking (PreBook's key), so answer the stored order.
		if out, found, err := replay(); found || err != nil {
			return out, err
		}
	}
	if err != nil {
		s.release(o)
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// release gives the railway back the seats of an order not stored or no
// longer wanted; the hold would lapse anyway, so a failure is only logged.
func (s *Service) release(o Order) {
	ctx, cancel := context.WithTimeout(context.Background(), s.timeout)
	defer cancel()
	if err := s.sup.Cancel(ctx, o.SupplierRef); err != nil {
		s.Logger.WarnContext(ctx, "train: releasing a hold failed; it lapses by itself", "ref", o.SupplierRef, "err", err)
	}
}

func payKey(o Order) string { return fmt.Sprintf("train-%d-pay", o.ID) }

// price is o's price out of the agency's wallet, whatever pays it.
func price(o Order) ledger.Transfer {
	return ledger.Transfer{AgencyID: o.AgencyID, IdempotencyKey: payKey(o),
		From: ledger.Wallet(o.AgencyID), To: ledger.Provider(ledger.KindSuppliers), Amount: o.Total, Currency: o.Currency,
		PaymentType: ledger.TypeOriginTrain, OrderID: o.BookingNumber, Reference: o.SupplierRef, Description: route(o)}
}

// Pay pays a to_be_paid order from the wallet (balance, then credit). The
// charge and the status change commit together, so a second payment finds
// the order no longer payable and nothing is charged twice; beyond balance
// plus credit it is code 300001 and nothing changes. A replay with the key
// of the payment that moved it on answers the order. Ticketing is queued
// in the same commit, unless the agency's trains are issued by hand.
func (s *Service) Pay(ctx context.Context, who auth.Principal, id int64, key string, req PayRequest) (_ View, err error) {
	defer s.CountPaid(req.Channel, &err)
	o, v, gw, err := s.Paying(ctx, who, id, req.Channel, key, "train.error.channel")
	if err != nil {
		return View{}, err
	}
	if o.Status != ToBePaid {
		if key != "" && (o.PaymentKey == key || o.PaymentKey == gatewayKey(o, key)) {
			return s.detail(ctx, o, v)
		}
		return View{}, errState()
	}
	if !s.Now().Before(o.HoldExpiresAt) {
		if err := s.expire(ctx, o.ID); err != nil {
			s.Logger.WarnContext(ctx, "train: expiring an unpaid order failed", "order", o.ID, "err", err)
		}
		return View{}, fault.New(fault.CodeQuoteExpired, http.StatusConflict, "train.error.holdExpired")
	}
	actor := booking.Actor(who)
	if req.Channel != ChannelBalance {
		return s.payGateway(ctx, o, v, gw, key, req, actor)
	}
	err = s.PayFromWallet(ctx, func(tx *sqlx.Tx) (ledger.Transfer, error) {
		o.PaymentChannel, o.PaymentKey = ChannelBalance, key
		// The payer is the order's agency (party booking.ByAgency): its settings
		// as the viewer read them.
		if err := s.paid(ctx, tx, &o, v.Agency.Config().Train.Manual, ActPay, actor, ""); err != nil {
			return ledger.Transfer{}, err
		}
		t := price(o)
		t.CreatedBy = actor
		return t, nil
	})
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// paid moves o on once its price is paid (action: the wallet's pay, the
// gateway's paid) and queues its ticketing, unless the agency's trains are
// ticketed by hand (manual).
func (s *Service) paid(ctx context.Context, tx *sqlx.Tx, o *Order, manual bool, action Action, actor, remark string) error {
	o.Paid, o.Manual = o.Total, manual
	if err := s.move(ctx, tx, o, action, actor, remark, false); err != nil || o.Manual {
		return err
	}
	return s.Enqueue(ctx, tx, TicketArgs{OrderID: o.ID}, time.Time{})
}

// route is a wallet entry's description: train and stations. The ledger
// keeps it as posted (it is part of the transfer's idempotency hash);
// EntryDescription writes it for a reader.
func route(o Order) string {
	return fmt.Sprintf("%s %s-%s %s", o.Train.TrainNumber, o.Train.Origin, o.Train.Destination, o.Train.DepartAt.In(china).Format("2006-01-02 15:04"))
}

// IsTrainEntry reports whether a ledger entry type is a train order's.
func IsTrainEntry(typ string) bool {
	return typ == ledger.TypeOriginTrain || typ == ledger.TypeRefundTrain || typ == ledger.TypeChangeTrain
}

// EntryDescription is a train entry's description (route's "G101 VNP-AOH
// 2026-12-06 06:14") with the stations named by name (their names in the
// reader's language) instead of their codes; ok is false for a description
// route did not write.
func EntryDescription(desc string, name func(code string) string) (string, bool) {
	number, rest, ok := strings.Cut(desc, " ")
	if !ok {
		return "", false
	}
	stations, when, ok := strings.Cut(rest, " ")
	if !ok {
		return "", false
	}
	from, to, ok := strings.Cut(stations, "-")
	if !ok || from == "" || to == "" {
		return "", false
	}
	if _, err := time.Parse("2006-01-02 15:04", when); err != nil {
		return "", false
	}
	return number + " " + name(from) + "–" + name(to) + " " + when, true
}

// Cancel drops an unpaid order and gives its seats back.
func (s *Service) Cancel(ctx context.Context, who auth.Principal, id int64) (View, error) {
	o, v, err := s.getFor(ctx, who, id, ActCancel)
	if err != nil {
		return View{}, err
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		return s.move(ctx, tx, &o, ActCancel, booking.Actor(who), "", false)
	})
	if err != nil {
		return View{}, err
	}
	s.release(o)
	return s.detail(ctx, o, v)
}

// expire closes an unpaid order whose hold ran out (the railway released
// the seats itself).
func (s *Service) expire(ctx context.Context, id int64) error {
	return s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o, err := load(ctx, s.DB, tx, id)
		if err != nil {
			return err
		}
		if o.Status != ToBePaid || s.Now().Before(o.HoldExpiresAt) {
			return nil
		}
		return s.move(ctx, tx, &o, ActExpire, "system", "", false)
	})
}
