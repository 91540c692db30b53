package demo

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/display"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/ledger"
	"github.com/voyage/voyage/pkg/payment"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/store"
	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/pkg/train"
)

// Services are the application's services the living agency is made
// through, as the API uses them; app.App wires each one.
type Services struct {
	DB          *store.DB
	Agencies    *agency.Store
	AgencyAdmin *agency.Service
	Ledger      *ledger.Ledger
	Shopping    *shopping.Engine
	Orders      *flight.Service
	Trains      *train.Service
	Groups      *group.Service
}

// flightState is where a seeded flight order is taken after booking.
type flightState int

const (
	// stateTicketed is paid from the wallet and ticketed.
	stateTicketed flightState = iota
	// stateUnpaid is booked and waits for payment until its fare's time
	// limit; the deadline sweep closes it after that, as any order.
	stateUnpaid
	// stateCancelled is booked, then cancelled before payment.
	stateCancelled
	// stateRefundRequested is ticketed, then a refund is asked for: the
	// request waits for the provider's review.
	stateRefundRequested
)

// livingFlight is one seeded flight order: its idempotency key finds it
// again on the next run, so a seed run twice books it once.
type livingFlight struct {
	key          string
	origin, dest string
	// days is the departure, counted from the day of the seed.
	days  int
	state flightState
	pax   flight.Passenger
}

// harbourFlights are Harbour Travel's flight orders, one per state a
// newcomer meets in the order list.
var harbourFlights = []livingFlight{
	{key: "demo-harbour-flight-ticketed", origin: "PEK", dest: "SHA", days: 21, state: stateTicketed,
		pax: passenger("CHAN", "TAI MAN", "male", "1982-03-14", "K1234567")},
	{key: "demo-harbour-flight-unpaid", origin: "CAN", dest: "PEK", days: 30, state: stateUnpaid,
		pax: passenger("WONG", "MEI LING", "female", "1990-07-02", "K2345678")},
	{key: "demo-harbour-flight-cancelled", origin: "SHA", dest: "CTU", days: 35, state: stateCancelled,
		pax: passenger("LEUNG", "KA WAI", "male", "1975-11-20", "K3456789")},
	{key: "demo-harbour-flight-refund", origin: "PEK", dest: "CTU", days: 14, state: stateRefundRequested,
		pax: passenger("HO", "SIU FONG", "female", "1988-01-09", "K4567890")},
}

// kidsFlight is Harbour Kids Travel's own ticketed order.
var kidsFlight = livingFlight{key: "demo-harbour-kids-flight-1", origin: "SHA", dest: "PEK", days: 18, state: stateTicketed,
	pax: passenger("LAU", "CHUN YIN", "male", "1995-09-30", "K5678901")}

func passenger(surname, given, gender, birthday, doc string) flight.Passenger {
	return flight.Passenger{Type: "adult", Surname: surname, GivenName: given, Gender: gender, Birthday: birthday, Nationality: "CN",
		DocumentType: "passport", DocumentNumber: doc, DocumentExpiry: "2036-06-30"}
}

// harbourTrainKey books Harbour Travel's train order.
const harbourTrainKey = "demo-harbour-train-1"

// seedLivingActivity books the living agencies' orders through the order,
// train and group services (search, book, pay from the wallet, ticket,
// cancel, ask for a refund; a group request the provider quotes), then
// draws Harbour Travel's statement. Each order is
// found again by its idempotency key and only taken the steps it still
// lacks, so a run stopped half-way is finished by the next.
func seedLivingActivity(ctx context.Context, a Services, provider auth.Principal, harbour, kids livingAgency) error {
	asHarbour, err := principal(ctx, a, harbour, "harbour-super")
	if err != nil {
		return err
	}
	for _, f := range harbourFlights {
		if err := seedFlight(ctx, a, asHarbour, f); err != nil {
			return fmt.Errorf("demo: Harbour Travel order %s: %w", f.key, err)
		}
	}
	if err := seedTrain(ctx, a, asHarbour); err != nil {
		return fmt.Errorf("demo: Harbour Travel train order: %w", err)
	}
	if err := seedGroup(ctx, a, asHarbour, provider); err != nil {
		return fmt.Errorf("demo: Harbour Travel group order: %w", err)
	}
	asKids, err := principal(ctx, a, kids, "harbour-sub")
	if err != nil {
		return err
	}
	if err := seedFlight(ctx, a, asKids, kidsFlight); err != nil {
		return fmt.Errorf("demo: Harbour Kids Travel order: %w", err)
	}
	return seedStatement(ctx, a, harbour)
}

// principal is the super user of a living agency as a login makes it.
func principal(ctx context.Context, a Services, la livingAgency, username string) (auth.Principal, error) {
	ag, err := a.Agencies.Get(ctx, la.agencyID)
	if err != nil {
		return auth.Principal{}, fmt.Errorf("demo: agency of %s: %w", username, err)
	}
	return auth.Principal{UserID: la.userID, Username: username, AgencyID: la.agencyID,
		Subject: auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: ag.ProxyLevel, Common: ag.Common()}}, nil
}

// bookedOnce is the id of the agency's order made with key in table,
// booked by book when there is none yet. The services answer a replayed
// key only with the request that made it, and a new search has new
// quotes: the key is looked up first.
func bookedOnce(ctx context.Context, a Services, table string, agencyID int64, key string, book func() (int64, error)) (int64, error) {
	var id int64
	err := a.DB.GetContext(ctx, &id, a.DB.Rebind(`SELECT id FROM `+table+` WHERE agency_id = ? AND idempotency_key = ?`), agencyID, key)
	if errors.Is(err, sql.ErrNoRows) {
		return book()
	}
	return id, err
}

// seedFlight books f when its key has no order yet, then takes the order
// the steps to f.state it has not had.
func seedFlight(ctx context.Context, a Services, who auth.Principal, f livingFlight) error {
	id, err := bookedOnce(ctx, a, "flight_orders", who.AgencyID, f.key, func() (int64, error) {
		quoteID, err := flightQuote(ctx, a, who, f)
		if err != nil {
			return 0, err
		}
		o, err := a.Orders.Create(ctx, who, f.key, flight.CreateRequest{QuoteID: quoteID, Passengers: []flight.Passenger{f.pax},
			Contact: flight.Contact{Name: "Mei Chan", Email: "ops@harbour-travel.example", Phone: "+852 2511 0000"}})
		if err != nil {
			return 0, fmt.Errorf("book: %w", err)
		}
		return o.ID, nil
	})
	if err != nil {
		return err
	}
	o, err := a.Orders.Get(ctx, who, id)
	if err != nil {
		return err
	}
	switch f.state {
	case stateUnpaid:
		return nil
	case stateCancelled:
		if o.Status == flight.ToBePaid {
			_, err = a.Orders.Cancel(ctx, who, id)
		}
		return err
	}
	if o.Status == flight.ToBePaid {
		if _, err := a.Orders.Pay(ctx, who, id, f.key+"-pay", flight.PayRequest{Channel: payment.ChannelBalance}); err != nil {
			return fmt.Errorf("pay: %w", err)
		}
	}
	// Payment queues the ticketing job; the seed does its work now, so the
	// order is ticketed before the server starts (the job then finds it
	// done and does nothing).
	if err := a.Orders.Ticket(ctx, id, false); err != nil {
		return fmt.Errorf("ticket: %w", err)
	}
	if f.state != stateRefundRequested {
		return nil
	}
	if o, err = a.Orders.Get(ctx, who, id); err != nil {
		return err
	}
	for _, r := range o.Related {
		if r.Type == flight.TypeRefund {
			return nil
		}
	}
	if o.Status != flight.Issued {
		return fmt.Errorf("refund: the order is %s, not issued", o.Status)
	}
	reason := 0
	if _, err := a.Orders.Request(ctx, who, id, flight.TypeRefund, flight.PostSaleRequest{Reason: &reason, Remark: "client's plans changed"}); err != nil {
		return fmt.Errorf("refund request: %w", err)
	}
	return nil
}

// flightQuote searches f's trip and verifies the cheapest fare an agency
// books straight away: one ticket from one supplier, not a special fare
// (those wait for the provider's review before payment).
func flightQuote(ctx context.Context, a Services, who auth.Principal, f livingFlight) (string, error) {
	date := time.Now().AddDate(0, 0, f.days).Format(time.DateOnly)
	started, err := a.Shopping.Start(ctx, who, shopping.Request{Journeys: []supplier.JourneyQuery{{Origin: f.origin, Destination: f.dest, Date: date}},
		Passengers: supplier.Passengers{Adult: 1}, CabinClass: "economy", BookingType: "oneway"})
	if err != nil {
		return "", fmt.Errorf("search %s-%s: %w", f.origin, f.dest, err)
	}
	var page shopping.Page
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(20 * time.Millisecond) {
		if page, err = a.Shopping.Solutions(ctx, who, shopping.Query{SearchID: started.SearchID, Sort: "price"}, "en"); err != nil {
			return "", fmt.Errorf("search %s-%s: %w", f.origin, f.dest, err)
		}
		if page.Complete {
			break
		}
		if time.Now().After(deadline) {
			return "", fmt.Errorf("search %s-%s did not complete in a minute", f.origin, f.dest)
		}
	}
	for _, s := range page.Items {
		if strings.HasPrefix(s.TicketingSpeed, "special") || s.Source == "interline" || s.SelfTransfer {
			continue
		}
		if v, err := a.Shopping.Verify(ctx, who, s.ID, "en"); err == nil && v.QuoteID != "" {
			return v.QuoteID, nil
		}
	}
	return "", fmt.Errorf("no bookable fare %s-%s on %s among %d", f.origin, f.dest, date, len(page.Items))
}

// harbourGroupKey files Harbour Travel's group request.
const harbourGroupKey = "demo-harbour-group-1"

// seedGroup files Harbour Travel's group request, a school trip of 16 from
// Beijing to Chengdu 45 days out, and has the provider quote it: the order
// then waits for the agency to accept the quote, its deposits and their
// deadlines shown, as a group desk's newest order does. The quote's
// deadlines run from the seed, so an old demo database finds the order
// closed, as any quote left unanswered is.
func seedGroup(ctx context.Context, a Services, who, provider auth.Principal) error {
	id, err := bookedOnce(ctx, a, "group_orders", who.AgencyID, harbourGroupKey, func() (int64, error) {
		v, err := a.Groups.Request(ctx, who, harbourGroupKey, group.RequestInput{
			Journeys:   []group.Journey{{Origin: "PEK", Destination: "CTU", Date: time.Now().AddDate(0, 0, 45).Format(time.DateOnly)}},
			Passengers: &group.Counts{Adult: 4, Child: 12}, CabinClass: "economy", IsChangeDate: true,
			Contact: group.Contact{Name: "Chan Tai Man", Email: "groups@harbour-travel.example", Phone: "+852 2345 6789"},
			Remark:  "School trip: four teachers, twelve pupils"})
		if err != nil {
			return 0, fmt.Errorf("request: %w", err)
		}
		return v.ID, nil
	})
	if err != nil {
		return err
	}
	v, err := a.Groups.Get(ctx, provider, id)
	if err != nil {
		return err
	}
	if v.Status != group.ToBeQuote {
		return nil
	}
	now := time.Now()
	day := func(n int) time.Time { return now.Add(time.Duration(n) * 24 * time.Hour) }
	_, err = a.Groups.Quote(ctx, provider, id, group.QuoteInput{
		Fares:         []group.FareInput{{PassengerType: "adult", Amount: "1450.00"}, {PassengerType: "child", Amount: "1100.00"}},
		ConfirmBefore: day(3), PassengerListDeadline: day(2), FreeDropSeats: 1,
		Installments: []group.InstallmentInput{{Stage: "first", Amount: "4000.00", Deadline: day(7)},
			{Stage: "final", Amount: "15000.00", Deadline: day(30)}}})
	if err != nil {
		return fmt.Errorf("quote: %w", err)
	}
	return nil
}

// seedTrain books, pays and tickets Harbour Travel's second-class seats
// from Beijing South to Shanghai Hongqiao.
func seedTrain(ctx context.Context, a Services, who auth.Principal) error {
	id, err := bookedOnce(ctx, a, "train_orders", who.AgencyID, harbourTrainKey, func() (int64, error) {
		// The railway sells days in China time.
		date := time.Now().In(time.FixedZone("CST", 8*3600)).AddDate(0, 0, 5).Format(time.DateOnly)
		res, err := a.Trains.Search(ctx, who, train.SearchRequest{Origin: "VNP", Destination: "AOH", Date: date, SeatClasses: []string{"second"}})
		if err != nil {
			return 0, fmt.Errorf("search: %w", err)
		}
		if len(res.Items) == 0 {
			return 0, fmt.Errorf("no train VNP-AOH on %s", date)
		}
		o, err := a.Trains.Create(ctx, who, harbourTrainKey, train.CreateRequest{OfferID: res.Items[0].ID, SeatClass: "second",
			Passengers: []train.Passenger{
				{Type: "adult", Surname: "CHAN", GivenName: "TAI MAN", DocumentType: "passport", DocumentNumber: "K1234567"},
				{Type: "adult", Surname: "WONG", GivenName: "MEI LING", DocumentType: "passport", DocumentNumber: "K2345678"}},
			Contact: train.Contact{Name: "Mei Chan", Phone: "+852 2511 0000"}})
		if err != nil {
			return 0, fmt.Errorf("book: %w", err)
		}
		return o.ID, nil
	})
	if err != nil {
		return err
	}
	o, err := a.Trains.Get(ctx, who, id)
	if err != nil {
		return err
	}
	if o.Status == train.ToBePaid {
		if _, err := a.Trains.Pay(ctx, who, id, harbourTrainKey+"-pay", train.PayRequest{Channel: train.ChannelBalance}); err != nil {
			return fmt.Errorf("pay: %w", err)
		}
	}
	// As for flights, the seed issues the tickets the queued job would.
	return a.Trains.Ticket(ctx, id)
}

// seedStatement draws Harbour Travel's statement from the day it was
// created to today, on its own clock, as harbour-super would on
// /bills/statements, unless it has one. A statement covers its days up to
// the moment it is made, so payments made later today stay out of it.
func seedStatement(ctx context.Context, a Services, harbour livingAgency) error {
	_, n, err := a.Ledger.Statements(ctx, harbour.agencyID, 1, 1)
	if err != nil || n > 0 {
		return err
	}
	ag, err := a.Agencies.Get(ctx, harbour.agencyID)
	if err != nil {
		return fmt.Errorf("demo: Harbour Travel: %w", err)
	}
	loc := display.ResolveZone("", ag.TimeZone)
	from, to := ag.CreatedAt.In(loc), time.Now().In(loc)
	if earliest := to.AddDate(0, 0, 1-ledger.MaxStatementDays); from.Before(earliest) {
		from = earliest
	}
	if _, _, err := a.Ledger.CreateStatement(ctx, harbour.agencyID, "CNY", from.Format(time.DateOnly), to.Format(time.DateOnly), loc.String(), "harbour-super"); err != nil {
		return fmt.Errorf("demo: Harbour Travel statement: %w", err)
	}
	return nil
}
