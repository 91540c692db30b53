package train

import (
	"context"
	"errors"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
	"github.com/voyage/voyage/pkg/i18n"
	"github.com/voyage/voyage/pkg/money"
	"github.com/voyage/voyage/pkg/supplier/rail"
)

// StationView is a railway station, named in the request's language.
type StationView struct {
	// Code is the station's telegraph code (e.g. VNP for Beijing South):
	// what searches, offers and tickets name stations by.
	Code string `json:"code"`
	// Name is the station's name in the request's language (English,
	// Simplified or Traditional Chinese).
	Name string `json:"name"`
	// City is the station's city in the request's language.
	City string `json:"city"`
	// Country is the station's country, ISO 3166-1 alpha-2 (CN).
	Country string `json:"country"`
	// Pinyin is the Chinese name in toneless pinyin, lower case without
	// spaces (beijingnan).
	Pinyin string `json:"pinyin"`
}

// stationLimit bounds a station look-up's answer.
const stationLimit = 20

// Stations finds stations by code, name (English, Simplified or
// Traditional Chinese), pinyin or pinyin initials; names in lang.
func (s *Service) Stations(q, lang string) []StationView {
	out := []StationView{}
	if strings.TrimSpace(q) == "" {
		return out
	}
	for _, st := range s.stations.Stations(strings.TrimSpace(q), stationLimit) {
		name, city := st.Localized(lang)
		out = append(out, StationView{Code: st.Code, Name: name, City: city, Country: st.Country, Pinyin: st.Pinyin})
	}
	return out
}

// StationName is a station's name in lang, the code itself when unknown.
func (s *Service) StationName(code, lang string) string {
	st, ok := s.stations.Station(code)
	if !ok {
		return code
	}
	name, _ := st.Localized(lang)
	return name
}

// SalesWindow is the first and last on-sale dates now (YYYY-MM-DD, China
// time), for a date picker.
func (s *Service) SalesWindow() (first, last string) {
	return s.policy.SalesWindow(s.Now().In(china))
}

// PassengerCounts are the travellers a search prices, by ticket type: the
// offers' seats[].fares price each type asked for. At most five in all;
// none prices one adult.
type PassengerCounts struct {
	// Adult is the number of travellers on adult tickets.
	Adult int `json:"adult"`
	// Child is the number of travellers on child tickets.
	Child int `json:"child"`
	// Student is the number of travellers on student tickets.
	Student int `json:"student,omitempty"`
	// DisabledMilitary is the number of travellers on disabled service
	// members' tickets.
	DisabledMilitary int `json:"disabledMilitary,omitempty"`
}

// SearchRequest asks for the trains from one station to another on a date
// (POST /shopping/v2/train/search). The filters and the sort are optional.
type SearchRequest struct {
	Origin string `json:"origin" jsonschema_description:"station code (telegraph code)"`
	// Destination is the arrival station's code (telegraph code); trains
	// to any station of its city are answered.
	Destination string `json:"destination"`
	Date        string `json:"date" jsonschema_description:"YYYY-MM-DD, China time, within the sales window"`
	// Passengers are the travellers by ticket type, for the fares each
	// seat class answers; optional (one adult).
	Passengers  PassengerCounts `json:"passengers"`
	TrainTypes  []string        `json:"trainTypes,omitempty" jsonschema_description:"G, D, C, Z, T, K or O (a bare number)"`
	SeatClasses []string        `json:"seatClasses,omitempty" jsonschema_description:"only trains with seats left in one of these classes"`
	DepartFrom  string          `json:"departFrom,omitempty" jsonschema_description:"HH:MM local, inclusive"`
	DepartTo    string          `json:"departTo,omitempty" jsonschema_description:"HH:MM local, inclusive"`
	// Sort orders the trains: depart (earliest departure first, the
	// default), arrive (earliest arrival), duration (shortest) or price
	// (cheapest seat class with seats left).
	Sort string `json:"sort,omitempty" jsonschema:"enum=depart,enum=arrive,enum=duration,enum=price"`
}

// SearchResult is the answer to a train search: the trains found and the
// dates on sale.
type SearchResult struct {
	// Items are the trains found, sorted as asked; empty when no train
	// links the stations.
	Items []OfferView `json:"items"`
	// First is the first date on sale (YYYY-MM-DD, China time): today.
	First string `json:"salesFrom"`
	// Last is the last date on sale (YYYY-MM-DD, China time).
	Last string `json:"salesTo"`
}

// OfferView is one train of a search, with its seat classes; its id books
// it for 15 minutes.
type OfferView struct {
	// ID is the offer's id: the offerId to book it with (POST
	// /order/v2/train/orders) or to change tickets to it (POST
	// /order/v2/train/orders/{id}/change), until expiresAt.
	ID string `json:"id"`
	// TrainNumber is the train number, e.g. G101.
	TrainNumber string `json:"trainNumber"`
	// TrainType is the train type: G (high-speed), D (EMU), C
	// (intercity), Z (direct express), T (express), K (fast) or O
	// (ordinary, a bare number).
	TrainType string `json:"trainType"`
	// Origin is the code of the station where the passengers board: the
	// station searched or another of its city.
	Origin string `json:"origin"`
	// OriginName is the boarding station's name in the request's
	// language.
	OriginName string `json:"originName"`
	// Destination is the code of the station where the passengers alight.
	Destination string `json:"destination"`
	// DestinationName is the alighting station's name in the request's
	// language.
	DestinationName string `json:"destinationName"`
	// DepartAt is when the train leaves origin, in UTC.
	DepartAt time.Time `json:"departAt"`
	// ArriveAt is when the train reaches destination, in UTC.
	ArriveAt time.Time `json:"arriveAt"`
	// DurationMinutes is the journey's duration from origin to
	// destination, in minutes.
	DurationMinutes int `json:"durationMinutes"`
	// DistanceKm is the distance from origin to destination, in km.
	DistanceKm int `json:"distanceKm"`
	// Stops are the train's calls from origin to destination, both
	// included.
	Stops []StopView `json:"stops"`
	// Seats are the train's seat classes with their prices and seats left.
	Seats []SeatView `json:"seats"`
	// ExpiresAt is when the offer's id stops booking: search again after
	// it.
	ExpiresAt time.Time `json:"expiresAt"`
}

// StopView is one call of a train: the station and its times there.
type StopView struct {
	// Station is the station's code (telegraph code).
	Station string `json:"station"`
	// Name is the station's name in the request's language.
	Name string `json:"name"`
	// Arrive is when the train arrives at this stop, in UTC; absent at the
	// first stop listed.
	Arrive *time.Time `json:"arrive,omitempty"`
	// Depart is when the train leaves this stop, in UTC; absent at the
	// last stop listed.
	Depart *time.Time `json:"depart,omitempty"`
}

// SeatView is a seat class of an offer: the adult price, the price per
// ticket type asked for, seats left and the seat letters one may ask for.
type SeatView struct {
	// Class is the seat class's code (one of GET
	// /shopping/v2/train/config's seatClasses): the seatClass to book.
	Class string `json:"class"`
	// Price is one adult ticket's price in this class, in the railway's
	// currency.
	Price Money `json:"price"`
	// Fares are one ticket's price in this class per ticket type the
	// search asked for (adult, child, student, disabled_military).
	Fares map[string]Money `json:"fares"`
	// Available is how many seats of this class are left; 0 when sold
	// out.
	Available int `json:"available"`
	// SeatLetters are the seat letters a passenger may ask for in this
	// class (passengers[].seatLetter); absent when the class offers no
	// choice.
	SeatLetters []string `json:"seatLetters,omitempty"`
}

// typeLetter is the filter letter of a train type ("O" for ordinary).
func typeLetter(t string) string {
	if t == rail.TypeOrdinary {
		return "O"
	}
	return t
}

// Search asks the railway for the trains of a trip.
func (s *Service) Search(ctx context.Context, who auth.Principal, req SearchRequest) (SearchResult, error) {
	if !who.Subject.TrainServiceEnable() {
		return SearchResult{}, noAccess()
	}
	req.Origin, req.Destination = strings.ToUpper(strings.TrimSpace(req.Origin)), strings.ToUpper(strings.TrimSpace(req.Destination))
	if err := s.checkTrip(req.Origin, req.Destination, req.Date); err != nil {
		return SearchResult{}, err
	}
	pax, err := searchPassengers(req.Passengers)
	if err != nil {
		return SearchResult{}, err
	}
	from, to, err := departWindow(req.DepartFrom, req.DepartTo)
	if err != nil {
		return SearchResult{}, err
	}
	if req.Sort != "" && !slices.Contains([]string{"depart", "arrive", "duration", "price"}, req.Sort) {
		return SearchResult{}, fault.Validation(map[string]string{"sort": "train.error.sort"})
	}
	cctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	offers, err := s.sup.Search(cctx, rail.SearchRequest{Origin: req.Origin, Destination: req.Destination, Date: req.Date, Passengers: pax})
	if err != nil {
		if errors.Is(err, rail.ErrNoService) {
			return SearchResult{Items: []OfferView{}}, nil
		}
		return SearchResult{}, supplierFault(err)
	}
	sortOffers(offers, req.Sort)
	first, last := s.SalesWindow()
	out := SearchResult{Items: make([]OfferView, 0, len(offers)), First: first, Last: last}
	lang := langOf(ctx)
	for _, o := range offers {
		if len(req.TrainTypes) > 0 && !slices.Contains(req.TrainTypes, typeLetter(o.TrainType)) {
			continue
		}
		local := o.DepartAt.In(china)
		mins := local.Hour()*60 + local.Minute()
		if mins < from || mins > to {
			continue
		}
		v := s.offerView(o, lang)
		if len(req.SeatClasses) > 0 && !slices.ContainsFunc(v.Seats, func(c SeatView) bool {
			return c.Available > 0 && slices.Contains(req.SeatClasses, c.Class)
		}) {
			continue
		}
		out.Items = append(out.Items, v)
	}
	return out, nil
}

func (s *Service) offerView(o rail.Offer, lang string) OfferView {
	v := OfferView{ID: offerID(o), TrainNumber: o.TrainNumber, TrainType: typeLetter(o.TrainType), Origin: o.Origin,
		OriginName: s.StationName(o.Origin, lang), Destination: o.Destination, DestinationName: s.StationName(o.Destination, lang),
		DepartAt: o.DepartAt.UTC(), ArriveAt: o.ArriveAt.UTC(), DurationMinutes: o.DurationMinutes, DistanceKm: o.DistanceKm,
		ExpiresAt: o.ExpiresAt.UTC(), Stops: make([]StopView, 0, len(o.Stops)), Seats: make([]SeatView, 0, len(o.Classes))}
	for _, st := range o.Stops {
		sv := StopView{Station: st.Station, Name: s.StationName(st.Station, lang)}
		if !st.Arrive.IsZero() {
			t := st.Arrive.UTC()
			sv.Arrive = &t
		}
		if !st.Depart.IsZero() {
			t := st.Depart.UTC()
			sv.Depart = &t
		}
		v.Stops = append(v.Stops, sv)
	}
	for _, c := range o.Classes {
		sv := SeatView{Class: c.Class, Price: money.Of(c.Price.Minor, c.Price.Currency), Fares: map[string]Money{},
			Available: c.Available, SeatLetters: c.SeatLetters}
		for t, f := range c.Fares {
			sv.Fares[t] = money.Of(f.Minor, f.Currency)
		}
		v.Seats = append(v.Seats, sv)
	}
	return v
}

// minPrice is the cheapest class with seats left (any class when none),
// in minor units.
func minPrice(o rail.Offer) int64 {
	best, any := int64(-1), int64(-1)
	for _, c := range o.Classes {
		p := c.Price.Minor
		if any < 0 || p < any {
			any = p
		}
		if c.Available > 0 && (best < 0 || p < best) {
			best = p
		}
	}
	if best < 0 {
		return any
	}
	return best
}

// sortOffers orders the railway's offers (earliest departure first) by the
// sort asked for; ties keep the departure order. Keys are computed once:
// a price is not parsed again at every comparison.
func sortOffers(offers []rail.Offer, by string) {
	if by == "" || by == "depart" {
		return
	}
	key := func(o rail.Offer) int64 {
		switch by {
		case "arrive":
			return o.ArriveAt.Unix()
		case "duration":
			return int64(o.DurationMinutes)
		}
		return minPrice(o)
	}
	type keyed struct {
		k int64
		o rail.Offer
	}
	tmp := make([]keyed, len(offers))
	for i := range offers {
		tmp[i] = keyed{key(offers[i]), offers[i]}
	}
	slices.SortStableFunc(tmp, func(a, b keyed) int {
		switch {
		case a.k < b.k:
			return -1
		case a.k > b.k:
			return 1
		}
		return 0
	})
	for i := range tmp {
		offers[i] = tmp[i].o
	}
}

// offerID is the API's offer id: the supplier's name and reference, so a
// second rail supplier can be added without changing what clients hold.
func offerID(o rail.Offer) string { return o.Supplier + "~" + o.Ref }

func splitOfferID(id string) (supplier, ref string, ok bool) {
	supplier, ref, ok = strings.Cut(id, "~")
	return supplier, ref, ok && supplier != "" && ref != ""
}

// checkTrip refuses what the railway would refuse, with the field to blame:
// unknown stations, the same city at both ends, a date outside the sales
// window.
func (s *Service) checkTrip(origin, dest, date string) error {
	errs := map[string]string{}
	o, okO := s.stations.Station(origin)
	d, okD := s.stations.Station(dest)
	if origin == "" {
		errs["origin"] = "train.error.originRequired"
	} else if !okO {
		errs["origin"] = "train.error.unknownStation"
	}
	if dest == "" {
		errs["destination"] = "train.error.destinationRequired"
	} else if !okD {
		errs["destination"] = "train.error.unknownStation"
	}
	if okO && okD && o.City == d.City {
		errs["destination"] = "train.error.sameStation"
	}
	if _, err := time.Parse(time.DateOnly, date); err != nil {
		errs["date"] = "train.error.date"
	} else if !s.policy.OnSale(date, s.Now().In(china)) {
		errs["date"] = "train.error.salesWindow"
	}
	if len(errs) > 0 {
		return fault.Validation(errs)
	}
	return nil
}

func searchPassengers(p PassengerCounts) ([]string, error) {
	if p.Adult < 0 || p.Child < 0 || p.Student < 0 || p.DisabledMilitary < 0 {
		return nil, fault.Validation(map[string]string{"passengers": "train.error.passengerCount"})
	}
	n := p.Adult + p.Child + p.Student + p.DisabledMilitary
	if n > maxPassengers {
		return nil, fault.Validation(map[string]string{"passengers": "train.error.passengerCount"})
	}
	if n == 0 {
		return []string{rail.TicketAdult}, nil
	}
	var out []string
	for t, c := range map[string]int{rail.TicketAdult: p.Adult, rail.TicketChild: p.Child, rail.TicketStudent: p.Student,
		rail.TicketDisabledMilitary: p.DisabledMilitary} {
		if c > 0 {
			out = append(out, t)
		}
	}
	slices.Sort(out)
	return out, nil
}

// maxPassengers: 12306 books at most five passengers per order.
const maxPassengers = 5

// departWindow parses the departure-time filter into minutes of the day.
func departWindow(from, to string) (int, int, error) {
	parse := func(s string, def int) (int, bool) {
		if s == "" {
			return def, true
		}
		t, err := time.Parse("15:04", s)
		if err != nil {
			return 0, false
		}
		return t.Hour()*60 + t.Minute(), true
	}
	f, ok1 := parse(from, 0)
	t, ok2 := parse(to, 24*60)
	errs := map[string]string{}
	if !ok1 {
		errs["departFrom"] = "train.error.time"
	}
	if !ok2 {
		errs["departTo"] = "train.error.time"
	}
	if len(errs) > 0 {
		return 0, 0, fault.Validation(errs)
	}
	return f, t, nil
}

// supplierFault maps a rail seam error onto a translated fault; the
// supplier's own text never reaches the agency.
func supplierFault(err error) error {
	var f *fault.Error
	switch {
	case errors.As(err, &f):
		return err
	case errors.Is(err, rail.ErrTimeout):
		return &fault.Error{Code: fault.CodeSearchTimeout, Status: http.StatusGatewayTimeout, Key: "train.error.timeout", Err: err}
	case errors.Is(err, rail.ErrSameStation):
		return &fault.Error{Code: fault.CodeValidation, Status: http.StatusBadRequest, Key: "train.error.sameStation", Err: err,
			Fields: map[string]string{"destination": "train.error.sameStation"}}
	case errors.Is(err, rail.ErrUnknownStation):
		return &fault.Error{Code: fault.CodeValidation, Status: http.StatusBadRequest, Key: "train.error.unknownStation", Err: err,
			Fields: map[string]string{"origin": "train.error.unknownStation"}}
	case errors.Is(err, rail.ErrOutsideSalesWindow):
		return &fault.Error{Code: fault.CodeValidation, Status: http.StatusBadRequest, Key: "train.error.salesWindow", Err: err,
			Fields: map[string]string{"date": "train.error.salesWindow"}}
	case errors.Is(err, rail.ErrSoldOut):
		return &fault.Error{Code: fault.CodeNoFlight, Status: http.StatusConflict, Key: "train.error.soldOut", Err: err}
	case errors.Is(err, rail.ErrOfferExpired):
		return &fault.Error{Code: fault.CodeQuoteExpired, Status: http.StatusConflict, Key: "train.error.offerExpired", Err: err}
	case errors.Is(err, rail.ErrHoldExpired):
		return &fault.Error{Code: fault.CodeQuoteExpired, Status: http.StatusConflict, Key: "train.error.holdExpired", Err: err}
	case errors.Is(err, rail.ErrRefundClosed):
		return &fault.Error{Code: fault.CodeConflict, Status: http.StatusUnprocessableEntity, Key: "train.error.refundClosed", Err: err}
	case errors.Is(err, rail.ErrAlreadyExchanged):
		return &fault.Error{Code: fault.CodeConflict, Status: http.StatusUnprocessableEntity, Key: "train.error.alreadyChanged", Err: err}
	case errors.Is(err, rail.ErrNoService):
		return &fault.Error{Code: fault.CodeNoFlight, Status: http.StatusNotFound, Key: "train.error.noService", Err: err}
	case errors.Is(err, rail.ErrNotFound):
		return &fault.Error{Code: fault.CodeNotFound, Status: http.StatusNotFound, Key: "train.error.supplierNotFound", Err: err}
	case errors.Is(err, rail.ErrRejected):
		return &fault.Error{Code: fault.CodeValidation, Status: http.StatusBadRequest, Key: "train.error.rejected", Err: err}
	}
	return &fault.Error{Code: fault.CodeInternal, Status: http.StatusBadGateway, Key: "train.error.unavailable", Err: err}
}

func langOf(ctx context.Context) string { return i18n.Lang(ctx) }

// Config is what a booking form needs before any search: the on-sale
// dates (the date picker offers only these), and the codes of the train
// types, seat classes, ticket and document types.
type Config struct {
	// SalesFrom is the first date on sale (YYYY-MM-DD, China time): today.
	SalesFrom string `json:"salesFrom"`
	// SalesTo is the last date on sale (YYYY-MM-DD, China time).
	SalesTo string `json:"salesTo"`
	// TrainTypes are the train type codes a search filters by: G
	// (high-speed), D (EMU), C (intercity), Z (direct express), T
	// (express), K (fast) and O (ordinary).
	TrainTypes []string `json:"trainTypes"`
	// SeatClasses are the seat class codes: business,
	// premium, first, second, deluxe_soft_sleeper, soft_sleeper,
	// emu_sleeper, hard_sleeper_upper, hard_sleeper_middle,
	// hard_sleeper_lower, soft_seat, hard_seat and standing.
	SeatClasses []string `json:"seatClasses"`
	// TicketTypes are the passenger ticket types: adult, child, student
	// and disabled_military.
	TicketTypes []string `json:"ticketTypes"`
	// DocumentTypes are the identity documents the railway accepts:
	// id_card, passport, hk_macao_permit and taiwan_permit.
	DocumentTypes []string `json:"documentTypes"`
	// SeatLetters are the seat letters a passenger may ask for on G, D and
	// C trains.
	SeatLetters []string `json:"seatLetters"`
	// MaxPassengers is the most passengers one order (and one search)
	// takes: 5.
	MaxPassengers int `json:"maxPassengers"`
}

// BookingConfig answers the booking form's Config now.
func (s *Service) BookingConfig() Config {
	first, last := s.SalesWindow()
	return Config{SalesFrom: first, SalesTo: last, TrainTypes: []string{"G", "D", "C", "Z", "T", "K", "O"},
		SeatClasses: []string{rail.ClassBusiness, rail.ClassPremium, rail.ClassFirst, rail.ClassSecond, rail.ClassDeluxeSoftSleeper,
			rail.ClassSoftSleeper, rail.ClassEMUSleeper, rail.ClassHardSleeperUpper, rail.ClassHardSleeperMiddle, rail.ClassHardSleeperLower,
			rail.ClassSoftSeat, rail.ClassHardSeat, rail.ClassStanding},
		TicketTypes:   ticketTypes,
		DocumentTypes: []string{rail.DocIDCard, rail.DocPassport, rail.DocHKMacaoPermit, rail.DocTaiwanPermit},
		SeatLetters:   strings.Split(seatLetters, ""), MaxPassengers: maxPassengers}
}
