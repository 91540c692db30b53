package pnr

import (
	"regexp"
	"strconv"
	"time"
)

// Airline dates are written as day and month abbreviation, sometimes with a
// year: 20DEC, 20DEC26, 12MAR1985. Which year an incomplete date means
// depends on what the date is (spec §5: "century chosen by comparing the
// year to the current year"), and "current" is always the now passed to
// Parse, never the clock, so that a parse is reproducible:
//
//   - Travel dates (segments) without a year: the next such date on or after
//     today; a day already past this year means next year.
//   - Travel dates and document expiry with a 2-digit year: 20YY. Nobody
//     flies or holds a passport valid into the last century, so there is no
//     rollover to consider before 2100.
//   - Birthdays with a 2-digit year: a year greater than the current 2-digit
//     year is 19YY, otherwise 20YY (with now in 2026: 85 → 1985, 18 → 2018,
//     26 → 2026, 30 → 1930). A birthday without a year is not a birthday.
//   - A 4-digit year is taken as written.

// dateRe matches an airline date token.
var dateRe = regexp.MustCompile(`^(\d{1,2})(JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)(\d{4}|\d{2})?$`)

var monthAbbr = map[string]time.Month{
	"JAN": time.January, "FEB": time.February, "MAR": time.March, "APR": time.April,
	"MAY": time.May, "JUN": time.June, "JUL": time.July, "AUG": time.August,
	"SEP": time.September, "OCT": time.October, "NOV": time.November, "DEC": time.December,
}

const isoDate = "2006-01-02"

// civil is the calendar date y-m-d at midnight UTC; ok is false when the day
// does not exist (31APR, 29FEB in a common year).
func civil(y int, m time.Month, d int) (time.Time, bool) {
	t := time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
	return t, t.Year() == y && t.Month() == m && t.Day() == d
}

// today is now's calendar date in now's own location, as a UTC midnight so
// that date arithmetic never meets a DST change.
func today(now time.Time) time.Time {
	t, _ := civil(now.Year(), now.Month(), now.Day())
	return t
}

// splitDate takes an airline date token apart; year is "" when absent.
func splitDate(s string) (day int, month time.Month, year string, ok bool) {
	m := dateRe.FindStringSubmatch(s)
	if m == nil {
		return 0, 0, "", false
	}
	day, _ = strconv.Atoi(m[1])
	return day, monthAbbr[m[2]], m[3], true
}

// travelDate resolves a departure date (20DEC, 20DEC26) against today.
func travelDate(s string, today time.Time) (time.Time, bool) {
	day, month, year, ok := splitDate(s)
	if !ok {
		return time.Time{}, false
	}
	if year == "" {
		// Eight years always include a 29 February.
		for y := today.Year(); y <= today.Year()+8; y++ {
			if t, ok := civil(y, month, day); ok && !t.Before(today) {
				return t, true
			}
		}
		return time.Time{}, false
	}
	return civil(fullYear(year, 2000), month, day)
}

// expiryDate resolves a document expiry date (20DEC30); it needs a year.
func expiryDate(s string) (time.Time, bool) {
	day, month, year, ok := splitDate(s)
	if !ok || year == "" {
		return time.Time{}, false
	}
	return civil(fullYear(year, 2000), month, day)
}

// birthDate resolves a birthday (12MAR85) by the 2-digit year rule above.
func birthDate(s string, today time.Time) (time.Time, bool) {
	day, month, year, ok := splitDate(s)
	if !ok || year == "" {
		return time.Time{}, false
	}
	century := 2000
	if yy, _ := strconv.Atoi(year); len(year) == 2 && yy > today.Year()%100 {
		century = 1900
	}
	return civil(fullYear(year, century), month, day)
}

// fullYear expands a 2-digit year into century; 4-digit years pass through.
func fullYear(year string, century int) int {
	y, _ := strconv.Atoi(year)
	if len(year) == 2 {
		return century + y
	}
	return y
}

// ageAt is the age in whole years on day at of someone born on birth.
func ageAt(birth, at time.Time) int {
	age := at.Year() - birth.Year()
	if at.Month() < birth.Month() || (at.Month() == birth.Month() && at.Day() < birth.Day()) {
		age--
	}
	return age
}
