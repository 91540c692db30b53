package pnr

import (
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"time"
)

// segmentRe matches the part of an air segment line up to the city pair, in
// all three layouts (element number already removed, spaces collapsed):
//
//	CA 937 Y 20DEC 5 PEKLHR HK2 1400 1810 20DEC E CA/ABCDEF      Amadeus
//	CA 937Y 20DEC F PEKLHR HK2 1400 1810 /DCCA*ABCDEF /E         Sabre
//	CA937 Y SA20DEC PEKLHR HK2 1400 1810 E T3T2                  Travelsky
//
// Groups: 1 carrier, 2 number, 3 class, 4 Travelsky weekday, 5 date,
// 6 weekday after the date (Amadeus digit, Sabre letter), 7 origin,
// 8 destination, 9 the rest. A leading * marks a code-share in Travelsky.
var segmentRe = regexp.MustCompile(`^\*?([A-Z][A-Z0-9]|[0-9][A-Z]) ?(\d{1,4}) ?([A-Z]) ?` +
	`(MO|TU|WE|TH|FR|SA|SU)? ?(\d{1,2}(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(?:\d{4}|\d{2})?)` +
	`(?: ([1-7A-Z])\b)? ?\*? ?([A-Z]{3}) ?([A-Z]{3})\b(.*)$`)

var (
	// statusRe: action code and seat count (HK2, SS1, *SS1).
	statusRe = regexp.MustCompile(`^\*?([A-Z]{2})(\d{1,3})$`)
	// clockRe: 1400, 14:00, 200P (Sabre 12-hour), each with an optional
	// day change (1810+1).
	clockRe = regexp.MustCompile(`^(\d{1,2}):?(\d{2})([APNM])?(?:([+-])(\d))?$`)
	// dayChangeRe: a day change written as its own token after the arrival
	// (+1, -1, or a bare 1 as some terminals print it).
	dayChangeRe = regexp.MustCompile(`^(\+?[1-3]|-1)$`)
	// airlineLocatorRe: the airline's record locator on an Amadeus segment
	// (CA/ABCDEF) or a Travelsky remark (RMK CA/ABCDEF).
	airlineLocatorRe = regexp.MustCompile(`^([A-Z][A-Z0-9]|[0-9][A-Z])/([A-Z0-9]{6})$`)
	// sabreLocatorRe: the airline's record locator on a Sabre segment.
	sabreLocatorRe = regexp.MustCompile(`^/?DC([A-Z][A-Z0-9]|[0-9][A-Z])\*([A-Z0-9]{6})$`)
	// arnkRe: a surface segment (arrival unknown).
	arnkRe = regexp.MustCompile(`^(?:[A-Z]{2} )?ARU?NK\b`)
	// operatedRe: a code-share's operating carrier, shown under the segment.
	operatedRe = regexp.MustCompile(`^(?:\*?OPERATED ?BY\b|OP-|/OPERATED)`)
)

// segment reads an air segment line. ok is false when rest is not one; err
// reports a segment that cannot be flown (same origin and destination).
func (p *parser) segment(n int, rest string, dotted bool) (ok bool, err error) {
	m := segmentRe.FindStringSubmatch(rest)
	if m == nil {
		return false, nil
	}
	date, ok := travelDate(m[5], p.today)
	if !ok {
		return false, nil // 31FEB: not a date, so not a segment
	}
	if m[7] == m[8] {
		return true, &Error{Key: KeyBadSegment, Line: n}
	}
	seg := Segment{
		Carrier:      m[1],
		FlightNumber: flightNumber(m[1], m[2]),
		BookingClass: m[3],
		Date:         date.Format(isoDate),
		Origin:       m[7],
		Destination:  m[8],
	}
	p.segmentTail(&seg, date, strings.Fields(m[9]))
	p.res.Segments = append(p.res.Segments, seg)

	switch {
	case m[4] != "":
		p.vote(styleTravelsky, 2)
	case m[6] >= "1" && m[6] <= "7":
		p.vote(styleAmadeus, 2)
	case m[6] != "":
		p.vote(styleSabre, 2)
	}
	if dotted {
		p.vote(styleTravelsky, 1)
	}
	return true, nil
}

// segmentTail reads what follows the city pair: status and seats, departure
// and arrival times, the arrival day change, and the airline's locator.
func (p *parser) segmentTail(seg *Segment, date time.Time, toks []string) {
	i := 0
	if i < len(toks) {
		if s := statusRe.FindStringSubmatch(toks[i]); s != nil {
			seg.Status = s[1]
			seg.Seats, _ = strconv.Atoi(s[2])
			i++
		}
	}
	offsetKnown := false
	if i+1 < len(toks) {
		dep, _, depOK := clock(toks[i])
		arr, off, arrOK := clock(toks[i+1])
		if depOK && arrOK {
			seg.DepartTime, seg.ArriveTime = dep, arr
			i += 2
			if off != 0 {
				seg.ArriveDayOffset, offsetKnown = off, true
			}
		}
	}
	if seg.ArriveTime != "" && !offsetKnown && i < len(toks) {
		if d := dayChangeRe.FindStringSubmatch(toks[i]); d != nil {
			seg.ArriveDayOffset, _ = strconv.Atoi(d[1])
			offsetKnown = true
			i++
		} else if off, ok := arrivalOffset(toks[i], date); ok {
			// Amadeus and Sabre print the arrival date after the times.
			seg.ArriveDayOffset, offsetKnown = off, true
			i++
		}
	}
	for _, t := range toks[i:] {
		if l := airlineLocatorRe.FindStringSubmatch(t); l != nil {
			p.setLocator(l[2], locAirline)
			p.vote(styleAmadeus, 1)
		} else if l := sabreLocatorRe.FindStringSubmatch(t); l != nil {
			p.setLocator(l[2], locAirline)
			p.vote(styleSabre, 2)
		} else if t == "/DC" || strings.HasPrefix(t, "/DC") || t == "/E" {
			p.vote(styleSabre, 1)
		}
	}
}

// flightNumber is the carrier and the number without leading zeros, as
// schedules write it (CA 0937 → CA937).
func flightNumber(carrier, digits string) string {
	n, _ := strconv.Atoi(digits)
	return carrier + strconv.Itoa(n)
}

// clock reads a time of day as HH:MM, with any day change attached to it.
func clock(s string) (hhmm string, dayChange int, ok bool) {
	m := clockRe.FindStringSubmatch(s)
	if m == nil {
		return "", 0, false
	}
	h, _ := strconv.Atoi(m[1])
	min, _ := strconv.Atoi(m[2])
	switch m[3] {
	case "A", "P", "N", "M":
		if h < 1 || h > 12 {
			return "", 0, false
		}
		h %= 12
		if m[3] == "P" || m[3] == "N" {
			h += 12
		}
	}
	if h > 23 || min > 59 {
		return "", 0, false
	}
	if m[5] != "" {
		dayChange, _ = strconv.Atoi(m[5])
		if m[4] == "-" {
			dayChange = -dayChange
		}
	}
	// No flight arrives more than a day before or three days after it
	// leaves (the same bounds as a separate +1 token): 0000+7 is no time.
	if dayChange < -1 || dayChange > 3 {
		return "", 0, false
	}
	return fmt.Sprintf("%02d:%02d", h, min), dayChange, true
}

// arrivalOffset is the day change implied by an arrival date printed after
// the times (20DEC departing, 21DEC arriving: +1). The arrival date has no
// year of its own; it is the one closest to the departure.
func arrivalOffset(tok string, dep time.Time) (int, bool) {
	day, month, _, ok := splitDate(tok)
	if !ok {
		return 0, false
	}
	for _, y := range []int{dep.Year(), dep.Year() + 1, dep.Year() - 1} {
		if t, ok := civil(y, month, day); ok {
			if d := int(t.Sub(dep).Hours() / 24); d >= -1 && d <= 3 {
				return d, true
			}
		}
	}
	return 0, false
}

// connectionLimit is the longest stop that is still a connection. The rule
// for international itineraries is 24 hours; without an airport database we
// cannot tell domestic ones apart, so it applies to every segment.
const connectionLimit = 24 * time.Hour

// journeys groups segments, in display order, into journeys. A segment
// continues the current journey when it departs from the airport where the
// previous one arrived, within connectionLimit of that arrival, and does not
// come back to the journey's origin. Coming back to the origin starts a new
// journey even within 24 hours: a journey from PEK to PEK cannot be searched,
// and a same-day PEK-SHA-PEK is a return trip.
func journeys(segs []Segment) []Journey {
	var out []Journey
	for i, s := range segs {
		if i > 0 {
			cur := &out[len(out)-1]
			prev := segs[i-1]
			if s.Origin == prev.Destination && s.Destination != cur.Origin && connects(prev, s) {
				cur.Destination = s.Destination
				cur.Segments = append(cur.Segments, i)
				continue
			}
		}
		out = append(out, Journey{Origin: s.Origin, Destination: s.Destination, Date: s.Date, Segments: []int{i}})
	}
	return out
}

// connects reports whether next leaves soon enough after prev arrives. Times
// are local at each airport, compared as written. Without both times the
// dates decide: departing the day of arrival or the day after connects.
func connects(prev, next Segment) bool {
	arr, err1 := time.Parse(isoDate, prev.Date)
	dep, err2 := time.Parse(isoDate, next.Date)
	if err1 != nil || err2 != nil {
		return false
	}
	arr = arr.AddDate(0, 0, prev.ArriveDayOffset)
	if prev.ArriveTime == "" || next.DepartTime == "" {
		days := dep.Sub(arr) / (24 * time.Hour)
		return days == 0 || days == 1
	}
	gap := dep.Add(sinceMidnight(next.DepartTime)).Sub(arr.Add(sinceMidnight(prev.ArriveTime)))
	return gap >= 0 && gap <= connectionLimit
}

// sinceMidnight turns HH:MM into a duration.
func sinceMidnight(hhmm string) time.Duration {
	t, err := time.Parse("15:04", hhmm)
	if err != nil {
		return 0
	}
	return time.Duration(t.Hour())*time.Hour + time.Duration(t.Minute())*time.Minute
}
