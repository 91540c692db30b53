// Package pnr reads the booking display an agent pastes from a GDS terminal
// (Amadeus, Sabre or Travelsky eTerm) for "search by PNR": the flight
// segments, grouped into journeys, and the passengers with what the display
// says about them. The shopping engine then searches that exact itinerary.
//
// Agents paste whatever their terminal shows, so the parser reads line by
// line and is tolerant: any case, extra spaces, Windows line endings,
// element numbers with or without dots, prompts, lines wrapped by the
// terminal. Lines it does not understand are kept in Result.Skipped for the
// portal to show; lines it understands but has no use for (contacts,
// remarks, fares, ticketing) are dropped silently.
package pnr

import (
	"fmt"
	"regexp"
	"strings"
	"time"
)

// Segment is one flight of the booking.
type Segment struct {
	// Carrier is the airline's IATA code, e.g. CA.
	Carrier string `json:"carrier"`
	// FlightNumber is the carrier's code and the flight's number without
	// leading zeros, e.g. CA937.
	FlightNumber string `json:"flightNumber"`
	// BookingClass is the one-letter booking class, e.g. Y.
	BookingClass string `json:"bookingClass"`
	// Date is the local departure date, YYYY-MM-DD.
	Date string `json:"date"`
	// Origin is the departure airport's IATA code, e.g. PEK.
	Origin string `json:"origin"`
	// Destination is the arrival airport's IATA code, e.g. LHR.
	Destination string `json:"destination"`
	// DepartTime is the local departure time, HH:MM; empty when the line
	// has none.
	DepartTime string `json:"departTime"`
	// ArriveTime is the local arrival time, HH:MM; empty when the line has
	// none.
	ArriveTime string `json:"arriveTime"`
	// ArriveDayOffset is how many days after the departure date the flight
	// arrives: 0 the same day, 1 the next, up to 3; -1 the day before.
	ArriveDayOffset int `json:"arriveDayOffset"`
	// Status is the segment's status code as the display gives it (HK,
	// SS, TK, ...).
	Status string `json:"status"`
	// Seats is the number of seats after the status code (HK2: 2).
	Seats int `json:"seats"`
}

// Passenger is one traveller of the booking, with what the display tells.
type Passenger struct {
	// Surname is the family name, upper case (ZHANG), or the whole name
	// when the display writes it in Chinese.
	Surname string `json:"surname"`
	// GivenName is the given names, upper case (SAN); empty for a name in
	// Chinese.
	GivenName string `json:"givenName"`
	// Title is the title the name carries (MR, MS, MRS, MISS, MSTR, CHD,
	// ...); empty when absent.
	Title string `json:"title"`
	// Type is the passenger type: adult, child or infant.
	Type string `json:"type"`
	// Gender is male or female; empty when the display does not say.
	Gender string `json:"gender"`
	// Birthday is the date of birth, YYYY-MM-DD; empty when unknown.
	Birthday string `json:"birthday"`
	// Nationality is the nationality's ISO 3166-1 alpha-2 code; empty when
	// unknown.
	Nationality string `json:"nationality"`
	// DocumentType is passport or idcard; empty when unknown.
	DocumentType string `json:"documentType"`
	// DocumentNumber is the travel document's number as the display gives
	// it (SSR DOCS or FOID); empty when unknown.
	DocumentNumber string `json:"documentNumber"`
	// DocumentExpiry is the document's expiry date, YYYY-MM-DD; empty when
	// unknown.
	DocumentExpiry string `json:"documentExpiry"`
}

// Journey is an origin-to-destination trip: a flight and its connections.
type Journey struct {
	// Origin is the IATA code of the journey's first departure airport.
	Origin string `json:"origin"`
	// Destination is the IATA code of the journey's last arrival airport.
	Destination string `json:"destination"`
	// Date is the journey's local departure date, YYYY-MM-DD.
	Date string `json:"date"`
	// Segments are the journey's flights, as indexes (from 0) into the
	// result's segments.
	Segments []int `json:"segments"`
}

// Result is what a pasted GDS booking display holds: its flights, grouped
// into journeys, and its passengers.
type Result struct {
	// Style is the terminal the display reads as: amadeus, sabre,
	// travelsky or unknown.
	Style string `json:"style"`
	// RecordLocator is the booking's 6-character PNR code; empty when the
	// display does not show it.
	RecordLocator string `json:"recordLocator"`
	// Segments are the booking's flights, in display order.
	Segments []Segment `json:"segments"`
	// Journeys are the flights grouped into journeys: a flight and the
	// connections that follow it within 24 hours.
	Journeys []Journey `json:"journeys"`
	// Passengers are the booking's travellers.
	Passengers []Passenger `json:"passengers"`
	// Skipped are the non-empty lines the reader did not understand, as
	// pasted.
	Skipped []string `json:"skipped"`
}

// Catalog keys of the errors Parse returns.
const (
	KeyEmpty      = "shopping.pnr.empty"
	KeyNoSegments = "shopping.pnr.noSegments"
	KeyTooLong    = "shopping.pnr.tooLong"
	KeyBadSegment = "shopping.pnr.badSegment"
)

// Limits on what is accepted. Eight segments and nine passengers are what
// one search and one booking can hold; lap infants count as passengers.
const (
	MaxBytes      = 20000
	MaxSegments   = 8
	MaxPassengers = 9
)

// Error is a paste that cannot be searched. Key is a catalog key the API
// turns into a translated message; Line, from 1, is the offending line when
// there is one.
type Error struct {
	Key  string
	Line int
}

func (e *Error) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("pnr: %s (line %d)", e.Key, e.Line)
	}
	return "pnr: " + e.Key
}

// Parse reads a pasted booking display. now is the moment of the paste in
// the agency's time zone; dates without a year, and 2-digit years, are read
// against its calendar date (see dates.go).
//
// The errors are *Error: KeyEmpty for blank text, KeyTooLong for text over
// MaxBytes or more than MaxSegments segments or MaxPassengers passengers,
// KeyBadSegment (with the line) for a flight from an airport to itself,
// KeyNoSegments when no flight was found. With an error the Result still
// holds what was read, so that the portal can show the skipped lines, but it
// must not be searched.
func Parse(text string, now time.Time) (Result, error) {
	if len(text) > MaxBytes {
		return Result{Style: "unknown"}, &Error{Key: KeyTooLong}
	}
	text = strings.TrimPrefix(text, "\ufeff")
	if strings.TrimSpace(text) == "" {
		return Result{Style: "unknown"}, &Error{Key: KeyEmpty}
	}
	p := &parser{today: today(now), cont: contNone}
	text = strings.ReplaceAll(text, "\r\n", "\n")
	text = strings.ReplaceAll(text, "\r", "\n")
	for i, raw := range strings.Split(text, "\n") {
		if err := p.line(i+1, raw); err != nil {
			return p.result(), err
		}
	}
	p.placeInfants()
	p.applyElements()
	res := p.result()
	switch {
	case len(res.Segments) == 0:
		return res, &Error{Key: KeyNoSegments}
	case len(res.Segments) > MaxSegments || len(res.Passengers) > MaxPassengers:
		return res, &Error{Key: KeyTooLong}
	}
	return res, nil
}

// The GDS styles, in the order that breaks a tie between their votes.
const (
	styleAmadeus = iota
	styleSabre
	styleTravelsky
	styleCount
)

var styleNames = [styleCount]string{"amadeus", "sabre", "travelsky"}

// Record locator sources, weakest first: the airline's own locator on a
// segment, a bare 6-character line, the GDS locator in a header, command or
// name line.
const (
	locAirline = iota + 1
	locBare
	locGDS
)

// Continuation state: which element an indented line wrapped by the
// terminal continues.
const (
	contNone    = -1 // the previous line cannot be continued
	contIgnored = -2 // a free-text element that is ignored anyway
)

// parser is the state of one Parse.
type parser struct {
	today   time.Time
	res     Result
	pax     []*pax
	elems   []element
	cont    int // index in elems, or contNone / contIgnored
	votes   [styleCount]int
	locPrio int
}

func (p *parser) vote(style, weight int) { p.votes[style] += weight }

// setLocator keeps the record locator from the strongest source, the first
// one seen among equals.
func (p *parser) setLocator(code string, prio int) {
	if prio > p.locPrio {
		p.res.RecordLocator, p.locPrio = code, prio
	}
}

var (
	// numberRe: the element number that opens most lines, "3 " or "3." —
	// never the 3 of carrier 3U.
	numberRe = regexp.MustCompile(`^(\d{1,3})(?:(\.) ?| )`)
	// amadeusHeaderRe: RP/PEKCA2100/PEKCA2100 WS/SU 15NOV25/0834Z ABCDEF.
	amadeusHeaderRe = regexp.MustCompile(`^RP/[A-Z0-9]+/`)
	// sabreHeaderRe: PEK.A1B2*AXX 0834/15NOV25 ABCDEF H.
	sabreHeaderRe = regexp.MustCompile(`^[A-Z0-9]{3,4}\.[A-Z0-9]{3,6}\*[A-Z0-9]{2,4} \d{4}/\d{1,2}[A-Z]{3}(?:\d{2})? ([A-Z0-9]{6})\b`)
	// commandRe: a retrieve command left in the paste (RT ABCDEF, *ABCDEF).
	commandRe = regexp.MustCompile(`^(?:RT ?|\*)([A-Z0-9]{6})$`)
	// labelRe: a locator an agent labelled (PNR: ABCDEF).
	labelRe = regexp.MustCompile(`^(?:PNR|RECORD LOCATOR|RLOC|LOCATOR|BOOKING REF(?:ERENCE)?)(?: NO\.?| CODE)? ?[:#=]? ?([A-Z0-9]{6})$`)
	// bareLocatorRe: a line that is only a locator, as Sabre shows it.
	bareLocatorRe = regexp.MustCompile(`^[A-Z0-9]*[A-Z][A-Z0-9]*$`)
	// decorationRe: rulers and banners (--- TST RLR ---, **ELECTRONIC TICKET PNR**, +).
	decorationRe = regexp.MustCompile(`^[-*=<>+_ ]+$|^[-*=<>]{2,}.*[-*=<>]{2,}$`)
	// sectionRe: section headers and notices of the three systems.
	sectionRe = regexp.MustCompile(`^(?:TKT/TIME LIMIT|PHONES|PASSENGER (?:DETAIL|EMAIL)\b.*|PRICE QUOTE RECORD\b.*|` +
		`GENERAL FACTS|RECEIVED FROM\b.*|REMARKS|ACCOUNTING DATA|SECURITY INFO|ITINERARY|AA FACTS|INVOICED|` +
		`ELECTRONIC DATA EXISTS|TICKET RECORD\b.*|FOP|SEE RTSVC|NO ITIN|MARRIED SEGMENT\b.*|ELECTRONIC TICKET PNR)$`)
	// elementRe: elements understood and not needed: OSI, remarks, contacts,
	// fares, form of payment, ticketing, time limits, endorsements, options.
	elementRe = regexp.MustCompile(`^(?:OSI|RMK|RM[A-Z]?|RC|RX|RI[A-Z]|TKT?|TKTL|TL|TN|TAW|FN|FP|FC|FE|FV|FA|FB|FM|FT|FZ|FO|FG|FH|FK|FD|FS|FQ|` +
		`AP[A-Z]?|RF|RCVD|EI|OP[WC]?|SK|AM|AB|ES|NM|BN)(?:[ /\-*.,:]|$)|^CTC[A-Z]?\d|^CTC[A-Z]? |^[TH]-|^TAW`)
	// phoneRe: a phone element, Sabre's PEK010-12345678-A or Travelsky's
	// PEK/T PEK/T 010-12345678/AGENCY.
	phoneRe = regexp.MustCompile(`^[A-Z]{3}(?:/[A-Z])? ?[0-9(+][0-9()+ -]{4,}|^[A-Z]{3}/[A-Z] .*\d`)
	// travelskyElementRe: the slash-led elements only Travelsky prints.
	travelskyElementRe = regexp.MustCompile(`^(?:FN|FP|FC|TL|EI|TN|RMK)[ /]`)
	// officeRe: the Travelsky office that closes a display (PEK123).
	officeRe = regexp.MustCompile(`^[A-Z]{3}\d{3}$`)
)

// line reads one line of the paste.
func (p *parser) line(n int, raw string) error {
	text := strings.TrimSpace(raw)
	if text == "" {
		p.cont = contNone
		return nil
	}
	up := strings.Join(strings.Fields(strings.TrimLeft(strings.ToUpper(text), "> ")), " ")
	if up == "" {
		return nil // a bare prompt
	}
	if indented := raw[0] == ' ' || raw[0] == '\t'; indented && p.continues(up) {
		return nil
	}
	ok, err := p.classify(n, up)
	if err != nil || ok {
		return err
	}
	p.res.Skipped = append(p.res.Skipped, text)
	p.cont = contNone
	return nil
}

// continues appends a line the terminal wrapped (an indented line that is
// neither numbered nor a segment) to the element it continues. Amadeus wraps
// at a fixed column, in the middle of a word, so the parts are joined as is.
func (p *parser) continues(up string) bool {
	if p.cont == contNone || numberRe.MatchString(up) || segmentRe.MatchString(up) {
		return false
	}
	if p.cont >= 0 {
		p.elems[p.cont].text += up
	}
	return true
}

// classify reads a line by what it looks like; ok is false when nothing
// matched.
func (p *parser) classify(n int, up string) (ok bool, err error) {
	p.cont = contNone
	switch {
	case amadeusHeaderRe.MatchString(up):
		if f := strings.Fields(up); locatorRe.MatchString(f[len(f)-1]) {
			p.setLocator(f[len(f)-1], locGDS)
		}
		p.vote(styleAmadeus, 5)
		return true, nil
	case sabreHeaderRe.MatchString(up):
		p.setLocator(sabreHeaderRe.FindStringSubmatch(up)[1], locGDS)
		p.vote(styleSabre, 3)
		return true, nil
	case commandRe.MatchString(up):
		p.setLocator(commandRe.FindStringSubmatch(up)[1], locGDS)
		return true, nil
	case labelRe.MatchString(up):
		p.setLocator(labelRe.FindStringSubmatch(up)[1], locGDS)
		return true, nil
	case decorationRe.MatchString(up), sectionRe.MatchString(up):
		if strings.Contains(up, "ELECTRONIC TICKET PNR") {
			p.vote(styleTravelsky, 1)
		}
		return true, nil
	case locatorRe.MatchString(up) && bareLocatorRe.MatchString(up):
		p.setLocator(up, locBare)
		return true, nil
	}

	num, dotted, rest := "", false, up
	if m := numberRe.FindStringSubmatch(up); m != nil {
		num, dotted, rest = m[1], m[2] == ".", up[len(m[0]):]
	}
	if ok, err := p.segment(n, rest, dotted); ok || err != nil {
		return ok, err
	}
	switch {
	case arnkRe.MatchString(rest), operatedRe.MatchString(rest):
		return true, nil
	case p.ssr(rest), p.xn(rest):
		return true, nil
	case elementRe.MatchString(rest):
		p.element(rest)
		return true, nil
	case phoneRe.MatchString(rest):
		p.cont = contIgnored
		return true, nil
	case num != "" && officeRe.MatchString(rest):
		p.vote(styleTravelsky, 1)
		return true, nil
	case dotted && p.names(up):
		return true, nil
	}
	return false, nil
}

// element notes an element that is not needed, except that a Travelsky
// remark may hold the airline's locator (RMK CA/ABCDEF).
func (p *parser) element(rest string) {
	p.cont = contIgnored
	if travelskyElementRe.MatchString(rest) {
		p.vote(styleTravelsky, 1)
	} else if strings.HasPrefix(rest, "AP ") || strings.HasPrefix(rest, "TK ") || strings.HasPrefix(rest, "RM ") {
		p.vote(styleAmadeus, 1)
	}
	if code, ok := strings.CutPrefix(rest, "RMK "); ok {
		if m := airlineLocatorRe.FindStringSubmatch(code); m != nil {
			p.setLocator(m[2], locAirline)
		}
	}
}

// result assembles the Result from what was read.
func (p *parser) result() Result {
	res := p.res
	res.Style = "unknown"
	best := 0
	for s, v := range p.votes {
		if v > best {
			res.Style, best = styleNames[s], v
		}
	}
	res.Journeys = journeys(res.Segments)
	var first time.Time
	if len(res.Segments) > 0 {
		first, _ = time.Parse(isoDate, res.Segments[0].Date)
	}
	res.Passengers = p.passengers(first)
	return res
}
