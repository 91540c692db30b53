package group

import (
	"context"
	"net/http"
	"slices"
	"sort"
	"time"

	"github.com/jmoiron/sqlx"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/supplier"
)

// FareInput is a quoted fare per passenger of a type; Amount includes
// Taxes.
type FareInput struct {
	// PassengerType is the passenger type the fare is for: one fare for
	// each type the request asks for, each type once.
	PassengerType string `json:"passengerType" jsonschema:"enum=adult,enum=child,enum=infant"`
	Amount        string `json:"amount" jsonschema_description:"per passenger, taxes included, decimal"`
	Taxes         string `json:"taxes,omitempty" jsonschema_description:"the taxes within amount, decimal"`
}

// InstallmentInput is one stage of a quote's payment plan.
type InstallmentInput struct {
	// Stage is first, second or third (a deposit) or final (the final
	// payment); stages in that order, each once, final last and required.
	Stage  string `json:"stage" jsonschema:"enum=first,enum=second,enum=third,enum=final"`
	Amount string `json:"amount" jsonschema_description:"decimal"`
	// Deadline is when the stage must be paid by: in the future, after
	// the stage before it, and the first stage's not before confirmBefore.
	Deadline time.Time `json:"deadline"`
}

// QuoteInput is the provider's quote of a group request (POST
// /order/v2/flight/group/orders/{id}/quote).
type QuoteInput struct {
	// Segments are the quoted flights; when omitted, the suppliers'
	// scheduled flights for the request's journeys.
	Segments []supplier.Segment `json:"segments,omitempty"`
	// Fares are the price per passenger, one for each passenger type the
	// request asks for.
	Fares []FareInput `json:"fares"`
	// Currency is the currency of the amounts: the order's (the agency's
	// settlement currency when it asked), which is also what an empty one
	// means; another is refused.
	Currency string `json:"currency,omitempty"`
	// ConfirmBefore is when the quote lapses (in the future): the agency
	// confirms the order on it before then, or the order is closed.
	ConfirmBefore time.Time `json:"confirmBefore"`
	// Installments: up to three deposits and the final payment, adding up
	// to the quote's total.
	Installments []InstallmentInput `json:"installments"`
	// PassengerListDeadline is when (in the future) the order must be
	// confirmed with its passenger list; an order not confirmed by then
	// fails.
	PassengerListDeadline time.Time `json:"passengerListDeadline"`
	// FreeDropSeats is how many fewer seats (adults and children) than
	// asked for the passenger list may name, 0 up to the seats asked for;
	// a shorter list is refused.
	FreeDropSeats int `json:"freeDropSeats"`
	// TimeZone is the IANA zone the deadlines are meant in; the first
	// departure airport's when empty.
	TimeZone string `json:"timeZone,omitempty"`
}

// Quote quotes a request (to_be_confirm) or quotes it again: the earlier
// quotes stay on the order as history, the deadlines become the new
// quote's.
func (s *Service) Quote(ctx context.Context, who auth.Principal, id int64, in QuoteInput) (View, error) {
	o, v, err := s.getFor(ctx, who, id, ActQuote)
	if err != nil {
		return View{}, err
	}
	now := s.Now().UTC()
	if in.Currency == "" {
		in.Currency = o.Currency
	}
	errs := map[string]string{}
	if in.Currency != o.Currency {
		errs["currency"] = "group.error.currency"
	}
	if in.TimeZone == "" && len(o.Journeys) > 0 {
		in.TimeZone = geo.Location(o.Journeys[0].Origin).String()
	}
	if !display.ValidZone(in.TimeZone) {
		errs["timeZone"] = "group.error.timeZone"
	}
	q := Quote{Status: QuoteCurrent, ConfirmBefore: in.ConfirmBefore.UTC(), PassengerListDeadline: in.PassengerListDeadline.UTC(),
		FreeDropSeats: in.FreeDropSeats, TimeZone: in.TimeZone, CreatedBy: actorOf(who).name, CreatedAt: now}
	total := s.fares(o, in, &q, errs)
	plan := s.plan(in, total, now, errs)
	switch {
	case in.ConfirmBefore.IsZero() || !in.ConfirmBefore.After(now):
		errs["confirmBefore"] = "group.error.deadlinePast"
	case len(plan) > 0 && plan[0].Deadline.Before(in.ConfirmBefore):
		errs["installments.0.deadline"] = "group.error.deadlineBeforeConfirm"
	}
	if in.PassengerListDeadline.IsZero() || !in.PassengerListDeadline.After(now) {
		errs["passengerListDeadline"] = "group.error.deadlinePast"
	}
	if in.FreeDropSeats < 0 || in.FreeDropSeats > o.Counts.Seats() {
		errs["freeDropSeats"] = "group.error.freeDropSeats"
	}
	if len(errs) > 0 {
		return View{}, fault.Validation(errs)
	}
	if len(in.Segments) > 0 {
		segs, serr := segmentsOf(in.Segments, o.Counts.Seats())
		if len(serr) > 0 {
			return View{}, fault.Validation(serr)
		}
		q.Segments = segs
	} else if q.Segments, err = s.scheduled(ctx, o); err != nil {
		return View{}, err
	}
	for _, p := range plan {
		q.Installments = append(q.Installments, PlannedInstallment{Stage: p.Kind, Amount: money.Of(p.Amount, o.Currency), Deadline: p.Deadline})
	}
	q.Total = money.Of(total, o.Currency)
	ds := append([]deadline{
		{Kind: KindConfirm, Deadline: q.ConfirmBefore, TimeZone: q.TimeZone, Status: DeadlineOpen},
		{Kind: KindPassengerList, Deadline: q.PassengerListDeadline, TimeZone: q.TimeZone, Status: DeadlineOpen},
	}, plan...)
	for i := range ds {
		ds[i].TimeZone, ds[i].Currency = q.TimeZone, o.Currency
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o.Total = total
		if err := s.move(ctx, tx, &o, ActQuote, actorOf(who), remarkOf(remarkQuoted, moneyRemark(total, o.Currency)...), nil); err != nil {
			return err
		}
		if err := insertQuote(ctx, tx, o.ID, &q, o.Currency, total); err != nil {
			return err
		}
		return replaceDeadlines(ctx, tx, o.ID, ds)
	})
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// fares checks the quoted fares (one per passenger type asked for) and
// returns the quote's total.
func (s *Service) fares(o Order, in QuoteInput, q *Quote, errs map[string]string) int64 {
	count := map[string]int{supplier.Adult: o.Counts.Adult, supplier.Child: o.Counts.Child, supplier.Infant: o.Counts.Infant}
	var total int64
	seen := map[string]bool{}
	for i, f := range in.Fares {
		fare := fault.Item("fares", i)
		if _, ok := count[f.PassengerType]; !ok || seen[f.PassengerType] {
			errs[fault.Field(fare, "passengerType")] = "group.error.passengerType"
			continue
		}
		seen[f.PassengerType] = true
		amt, err := money.Parse(f.Amount, o.Currency)
		if err != nil || amt.Minor <= 0 {
			errs[fault.Field(fare, "amount")] = "group.error.amount"
			continue
		}
		var taxes int64
		if f.Taxes != "" {
			t, err := money.Parse(f.Taxes, o.Currency)
			if err != nil || t.Minor < 0 || t.Minor > amt.Minor {
				errs[fault.Field(fare, "taxes")] = "group.error.taxes"
				continue
			}
			taxes = t.Minor
		}
		q.Fares = append(q.Fares, Fare{PassengerType: f.PassengerType, Amount: money.Of(amt.Minor, o.Currency), Taxes: money.Of(taxes, o.Currency)})
		total += amt.Minor * int64(count[f.PassengerType])
	}
	for _, t := range []string{supplier.Adult, supplier.Child, supplier.Infant} {
		if count[t] > 0 && !seen[t] {
			errs["fares"] = "group.error.faresMissing"
		}
	}
	return total
}

// plan checks the installments: stages in order, each once, the final
// payment last and present, deadlines in the future and in order, amounts
// adding up to the total.
func (s *Service) plan(in QuoteInput, total int64, now time.Time, errs map[string]string) []deadline {
	var out []deadline
	var sum int64
	last := -1
	for i, p := range in.Installments {
		item := fault.Item("installments", i)
		idx := slices.Index(Stages, p.Stage)
		if idx < 0 || idx <= last {
			errs[fault.Field(item, "stage")] = "group.error.stage"
			continue
		}
		last = idx
		amt, err := money.Parse(p.Amount, in.Currency)
		if err != nil || amt.Minor <= 0 {
			errs[fault.Field(item, "amount")] = "group.error.amount"
			continue
		}
		switch {
		case p.Deadline.IsZero() || !p.Deadline.After(now):
			errs[fault.Field(item, "deadline")] = "group.error.deadlinePast"
		case len(out) > 0 && !p.Deadline.After(out[len(out)-1].Deadline):
			errs[fault.Field(item, "deadline")] = "group.error.deadlineOrder"
		}
		sum += amt.Minor
		out = append(out, deadline{Kind: p.Stage, Amount: amt.Minor, Deadline: p.Deadline.UTC(), Status: InstNotDue})
	}
	if len(out) == 0 || out[len(out)-1].Kind != StageFinal {
		errs["installments"] = "group.error.finalMissing"
	} else if len(errs) == 0 && sum != total {
		errs["installments"] = "group.error.installmentSum"
	}
	return out
}

// segmentsOf checks flights given by the provider for a group taking seats
// seats: a flight said to have fewer seats left cannot carry it.
func segmentsOf(in []supplier.Segment, seats int) ([]Segment, map[string]string) {
	errs := map[string]string{}
	out := make([]Segment, 0, len(in))
	for i, sg := range in {
		segment := fault.Item("segments", i)
		sg.Origin, sg.Destination, sg.FlightNumber, sg.Carrier = upper(sg.Origin), upper(sg.Destination), upper(sg.FlightNumber), upper(sg.Carrier)
		if _, ok := geo.AirportByCode(sg.Origin); !ok {
			errs[fault.Field(segment, "origin")] = "shopping.error.airport"
		}
		if _, ok := geo.AirportByCode(sg.Destination); !ok {
			errs[fault.Field(segment, "destination")] = "shopping.error.airport"
		}
		if len(sg.FlightNumber) < 3 || len(sg.FlightNumber) > 8 {
			errs[fault.Field(segment, "flightNumber")] = "group.error.flightNumber"
		}
		if sg.Carrier == "" && len(sg.FlightNumber) >= 2 {
			sg.Carrier = sg.FlightNumber[:2]
		}
		if sg.DepartAt.IsZero() || !sg.ArriveAt.After(sg.DepartAt) {
			errs[fault.Field(segment, "arriveAt")] = "group.error.segmentTimes"
		}
		if !seatsFor([]supplier.Segment{sg}, seats) {
			errs[fault.Field(segment, "seatsLeft")] = "group.error.seatsLeft"
		}
		if sg.DurationMinutes == 0 {
			sg.DurationMinutes = int(sg.ArriveAt.Sub(sg.DepartAt).Minutes())
		}
		out = append(out, view(sg))
	}
	return out, errs
}

func view(sg supplier.Segment) Segment {
	// Kept in English; each reader gets its own language (Get).
	return shopping.NamedIn([]Segment{{Segment: sg}}, "en")[0]
}

// scheduled finds real flights for each journey (and a return journey's way
// back) in the suppliers' schedules: the cheapest nonstop, else the
// cheapest, of the first supplier that answers, preferring flights said to
// seat the whole group.
func (s *Service) scheduled(ctx context.Context, o Order) ([]Segment, error) {
	var queries []supplier.JourneyQuery
	for _, j := range o.Journeys {
		queries = append(queries, supplier.JourneyQuery{Origin: j.Origin, Destination: j.Destination, Date: j.Date})
		if j.ReturnDate != "" {
			queries = append(queries, supplier.JourneyQuery{Origin: j.Destination, Destination: j.Origin, Date: j.ReturnDate})
		}
	}
	var out []Segment
	for _, jq := range queries {
		segs, err := s.flightsFor(ctx, jq, o.Cabin, o.Counts.Seats())
		if err != nil {
			return nil, err
		}
		out = append(out, segs...)
	}
	return out, nil
}

// seatsFor reports whether every flight of segs has seats for a group
// taking seats seats: a flight whose source says fewer are left cannot
// carry it (a source that does not say, SeatsLeft 0, is asked by the seat
// application).
func seatsFor(segs []supplier.Segment, seats int) bool {
	return !slices.ContainsFunc(segs, func(sg supplier.Segment) bool { return sg.SeatsLeft > 0 && sg.SeatsLeft < seats })
}

func (s *Service) flightsFor(ctx context.Context, jq supplier.JourneyQuery, cabin string, seats int) ([]Segment, error) {
	for _, name := range s.supplierNames() {
		sup, ok := s.suppliers(name)
		if !ok {
			continue
		}
		sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		offers, err := sup.Search(sctx, supplier.SearchRequest{Journeys: []supplier.JourneyQuery{jq}, Passengers: supplier.Passengers{Adult: 1},
			Cabin: cabin})
		cancel()
		if len(offers) == 0 {
			if err != nil {
				s.Logger.WarnContext(ctx, "group: supplier search failed", "supplier", name, "err", err)
			}
			continue
		}
		// A flight the source says has seats for the whole group comes
		// first: one said to have fewer is offered only when no other
		// flight is (a fare's seat count is not the flight's, and the
		// seat application asks the airline for the group's seats).
		sort.SliceStable(offers, func(i, j int) bool {
			if a, b := seatsFor(offers[i].Segments, seats), seatsFor(offers[j].Segments, seats); a != b {
				return a
			}
			if (len(offers[i].Segments) == 1) != (len(offers[j].Segments) == 1) {
				return len(offers[i].Segments) == 1
			}
			return offers[i].Total() < offers[j].Total()
		})
		out := make([]Segment, 0, len(offers[0].Segments))
		for _, sg := range offers[0].Segments {
			out = append(out, view(sg))
		}
		return out, nil
	}
	return nil, fault.New(fault.CodeNoFlight, http.StatusUnprocessableEntity, "group.error.noFlight")
}

// sameQuote checks, inside the transaction holding the order's row, that
// the current quote is still the one the caller answered.
func sameQuote(ctx context.Context, tx *sqlx.Tx, orderID, quoteID int64) error {
	qs, err := quotes(ctx, tx, orderID)
	if err != nil {
		return err
	}
	if q, ok := current(qs); !ok || q.ID != quoteID {
		return fault.Conflict("group.error.quoteChanged")
	}
	return nil
}

// current is the order's latest quote.
func current(qs []Quote) (Quote, bool) {
	if len(qs) == 0 {
		return Quote{}, false
	}
	return qs[0], true
}

// Accept accepts the current quote; the order waits for confirmation.
func (s *Service) Accept(ctx context.Context, who auth.Principal, id int64) (View, error) {
	return s.answer(ctx, who, id, ActAccept)
}

// Decline declines the current quote: the request goes back to the
// provider to quote again.
func (s *Service) Decline(ctx context.Context, who auth.Principal, id int64) (View, error) {
	return s.answer(ctx, who, id, ActDecline)
}

// onQuote loads the order for the caller's action on its current quote,
// which must stand (not declined) and not have expired by now, returned as
// the time it was checked at.
func (s *Service) onQuote(ctx context.Context, who auth.Principal, id int64, action Action) (Order, viewer, Quote, time.Time, error) {
	o, v, err := s.getFor(ctx, who, id, action)
	if err != nil {
		return o, v, Quote{}, time.Time{}, err
	}
	qs, err := quotes(ctx, s.DB, o.ID)
	if err != nil {
		return o, v, Quote{}, time.Time{}, err
	}
	q, ok := current(qs)
	if !ok || q.Status == QuoteDeclined || !QuoteStep(action, q.Status) {
		return o, v, q, time.Time{}, errState()
	}
	now := s.Now().UTC()
	if !now.Before(q.ConfirmBefore) {
		return o, v, q, now, fault.Conflict("group.error.quoteExpired")
	}
	return o, v, q, now, nil
}

func (s *Service) answer(ctx context.Context, who auth.Principal, id int64, action Action) (View, error) {
	o, v, q, _, err := s.onQuote(ctx, who, id, action)
	if err != nil {
		return View{}, err
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		// The order's row first (see Confirm), then the quote answered.
		if action == ActAccept {
			if err := s.touch(ctx, tx, &o, ActAccept, actorOf(who), ""); err != nil {
				return err
			}
			if err := sameQuote(ctx, tx, o.ID, q.ID); err != nil {
				return err
			}
			return setQuoteStatus(ctx, tx, q.ID, QuoteAccepted)
		}
		o.Total = 0
		if err := s.move(ctx, tx, &o, ActDecline, actorOf(who), "", nil); err != nil {
			return err
		}
		if err := sameQuote(ctx, tx, o.ID, q.ID); err != nil {
			return err
		}
		if err := setQuoteStatus(ctx, tx, q.ID, QuoteDeclined); err != nil {
			return err
		}
		return replaceDeadlines(ctx, tx, o.ID, nil)
	})
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// touch records a step that keeps the status (accept, upload) with the same
// conditional write as a move.
func (s *Service) touch(ctx context.Context, tx *sqlx.Tx, o *Order, action Action, by actor, remark string) error {
	return s.shift(ctx, tx, o, action, o.Status, by, remark)
}

// Confirm confirms the order on its current quote before the quote's
// confirm-before time, with a valid passenger list uploaded; the list is
// locked from then on.
func (s *Service) Confirm(ctx context.Context, who auth.Principal, id int64) (View, error) {
	o, v, q, now, err := s.onQuote(ctx, who, id, ActConfirm)
	if err != nil {
		return View{}, err
	}
	if len(o.Passengers) == 0 {
		return View{}, fault.New(fault.CodeConflict, http.StatusConflict, "group.error.listMissing")
	}
	if errs := countErrors(o.Passengers, o.Counts, q.FreeDropSeats); len(errs) > 0 {
		return View{}, fault.New(fault.CodeConflict, http.StatusConflict, "group.error.listCounts")
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		o.ConfirmedAt = now
		// The move first: it locks the order's row, so a re-quote racing
		// this confirmation either committed before (and the check below
		// sees its quote) or waits for it.
		if err := s.move(ctx, tx, &o, ActConfirm, actorOf(who), "", nil); err != nil {
			return err
		}
		if err := sameQuote(ctx, tx, o.ID, q.ID); err != nil {
			return err
		}
		ds, err := deadlines(ctx, tx, o.ID)
		if err != nil {
			return err
		}
		for _, d := range ds {
			if (d.Kind == KindConfirm || d.Kind == KindPassengerList) && d.Status == DeadlineOpen {
				d.Status = DeadlineMet
				if _, err := setDeadline(ctx, tx, d, DeadlineOpen); err != nil {
					return err
				}
			}
		}
		return setQuoteStatus(ctx, tx, q.ID, QuoteAccepted)
	})
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// Seat application results.
const (
	SeatsApplying = "applying"
	SeatsGranted  = "granted"
	SeatsRefused  = "refused"
)

// SeatsInput is the airline's answer to a group's seat application, as the
// provider records it (POST /order/v2/flight/group/orders/{id}/seats).
type SeatsInput struct {
	// Result is applying (the application is with the airline:
	// seat_applying), granted (the seats are the group's: the first
	// installment of the quote falls due) or refused (the order fails;
	// nothing was charged).
	Result string `json:"result" jsonschema:"enum=applying,enum=granted,enum=refused"`
	// Remark is a note put on the order's timeline; optional.
	Remark string `json:"remark,omitempty"`
}

// Seats records the airline's answer to the seat application: applying,
// granted (the first installment the quote has falls due) or refused (the
// order fails; nothing was charged).
func (s *Service) Seats(ctx context.Context, who auth.Principal, id int64, in SeatsInput) (View, error) {
	action, ok := map[string]Action{SeatsApplying: ActApply, SeatsGranted: ActGrant, SeatsRefused: ActRefuse}[in.Result]
	if !ok {
		return View{}, fault.Validation(map[string]string{"result": "group.error.seatResult"})
	}
	o, v, err := s.getFor(ctx, who, id, action)
	if err != nil {
		return View{}, err
	}
	err = s.DB.InTx(ctx, func(tx *sqlx.Tx) error {
		ds, err := s.moveStaged(ctx, tx, &o, action, actorOf(who), trim(in.Remark))
		if err != nil {
			return err
		}
		switch action {
		case ActGrant:
			return s.fallDue(ctx, tx, o, ds)
		case ActRefuse:
			return s.endDeadlines(ctx, tx, o, ds, system)
		}
		return nil
	})
	if err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}

// fallDue makes the installment of the stage o now waits for due.
func (s *Service) fallDue(ctx context.Context, tx *sqlx.Tx, o Order, ds []deadline) error {
	stage := StageOf(o.Status)
	for _, d := range ds {
		if d.Kind == stage && d.Status == InstNotDue {
			d.Status = InstDue
			_, err := setDeadline(ctx, tx, d, InstNotDue)
			return err
		}
	}
	return nil
}

// CloseInput closes a group request the provider will not quote (POST
// /order/v2/flight/group/orders/{id}/close).
type CloseInput struct {
	Remark string `json:"remark,omitempty" jsonschema_description:"why no quote is given, on the timeline"`
}

// Close closes a request the provider will not quote (no group space on the
// dates): closed, nothing charged.
func (s *Service) Close(ctx context.Context, who auth.Principal, id int64, in CloseInput) (View, error) {
	o, v, err := s.getFor(ctx, who, id, ActClose)
	if err != nil {
		return View{}, err
	}
	if err := s.DB.InTx(ctx, func(tx *sqlx.Tx) error { return s.move(ctx, tx, &o, ActClose, actorOf(who), trim(in.Remark), nil) }); err != nil {
		return View{}, err
	}
	return s.detail(ctx, o, v)
}
