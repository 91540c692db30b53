// Package display holds how a request shows times and money to its user:
// the time zone its times are written in (the user's own, else the
// agency's) and the display currency of the footer's selector, with the
// rates to convert to it. The portal puts both in the request's context;
// templates, documents and emails call the helpers here, so every time and
// every approximate amount is written one way.
package display

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/voyage/voyage/pkg/geo"
	"github.com/voyage/voyage/pkg/i18n"
)

// DefaultZone is an agency's time zone until it sets its own.
const DefaultZone = "Asia/Shanghai"

// maxZoneName bounds an IANA name (the longest is about 30 bytes).
const maxZoneName = 64

// ErrZoneKey is the catalog key of the error for a name that is no IANA
// time zone.
const ErrZoneKey = "timezone.error.invalid"

// LoadZone reads an IANA time zone name ("Asia/Shanghai", "UTC"). "" and
// "Local" (the server's own zone, which means nothing to a user) are refused,
// as are names the zone database does not hold.
func LoadZone(name string) (*time.Location, error) {
	name = strings.TrimSpace(name)
	if name == "" || name == "Local" || len(name) > maxZoneName || strings.ContainsAny(name, " \\") || strings.HasPrefix(name, "/") {
		return nil, fmt.Errorf("display: %q is no time zone", name)
	}
	loc, err := geo.Zone(name)
	if err != nil {
		return nil, fmt.Errorf("display: %q is no time zone: %w", name, err)
	}
	return loc, nil
}

// ValidZone reports whether name is an IANA time zone LoadZone accepts.
func ValidZone(name string) bool {
	_, err := LoadZone(name)
	return err == nil
}

// ResolveZone is the zone of a user: their own when set and valid, else
// their agency's, else DefaultZone.
func ResolveZone(user, agency string) *time.Location {
	for _, name := range []string{user, agency, DefaultZone} {
		if loc, err := LoadZone(name); err == nil {
			return loc
		}
	}
	return time.UTC
}

// AgencyDate is the date at now on an agency's clock (its zone, else
// DefaultZone), as midnight UTC of that date: the form in which dates
// people type (2027-01-05) compare with it. An agency's "today" is this,
// whoever of its users asks (pkg/booking.Today).
func AgencyDate(now time.Time, agencyZone string) time.Time {
	return DateIn(now, ResolveZone("", agencyZone))
}

// DateIn is the date at now on loc's clock, as midnight UTC of that date.
func DateIn(now time.Time, loc *time.Location) time.Time {
	y, m, d := now.In(loc).Date()
	return time.Date(y, m, d, 0, 0, 0, 0, time.UTC)
}

type zoneKey struct{}

// WithZone puts the zone the request's times are written in into ctx.
func WithZone(ctx context.Context, loc *time.Location) context.Context {
	return context.WithValue(ctx, zoneKey{}, loc)
}

// Zone is the request's zone; UTC when none was set (a logged-out page).
func Zone(ctx context.Context) *time.Location {
	if loc, ok := ctx.Value(zoneKey{}).(*time.Location); ok && loc != nil {
		return loc
	}
	return time.UTC
}

// ZoneLabel names loc's offset at t as people read it: the zone's
// abbreviation when it has one ("CST", "CET", "UTC"), else the offset
// ("UTC+8", "UTC+5:30", "UTC-3").
func ZoneLabel(loc *time.Location, t time.Time) string {
	name, off := t.In(loc).Zone()
	if name != "" && name[0] != '+' && name[0] != '-' {
		return name
	}
	return Offset(off)
}

// Offset writes seconds east of UTC as "UTC+8", "UTC+5:30", "UTC-3", "UTC".
func Offset(seconds int) string {
	if seconds == 0 {
		return "UTC"
	}
	sign := "+"
	if seconds < 0 {
		sign, seconds = "-", -seconds
	}
	h, m := seconds/3600, seconds%3600/60
	if m == 0 {
		return fmt.Sprintf("UTC%s%d", sign, h)
	}
	return fmt.Sprintf("UTC%s%d:%02d", sign, h, m)
}

// Stamp writes t in loc with the zone named: "2026-11-25 18:06 CST".
// The zero time is "".
func Stamp(loc *time.Location, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(loc).Format("2006-01-02 15:04") + " " + ZoneLabel(loc, t)
}

// Time writes t in the request's zone with the zone named.
func Time(ctx context.Context, t time.Time) string { return Stamp(Zone(ctx), t) }

// Date is t's calendar date in the request's zone.
func Date(ctx context.Context, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(Zone(ctx)).Format(time.DateOnly)
}

// Local writes a time that reads at its place (a flight at its airport, a
// train at its station: t carries that place's zone) and says so:
// "2026-12-20 08:05 local time", translated.
func Local(ctx context.Context, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return i18n.T(ctx, "timezone.localStamp", "time", t.Format("2006-01-02 15:04"))
}

// LocalClock is Local with the time of day only: "08:05 local time".
func LocalClock(ctx context.Context, t time.Time) string {
	if t.IsZero() {
		return ""
	}
	return i18n.T(ctx, "timezone.localStamp", "time", t.Format("15:04"))
}

// ZoneDescription names a zone for a list or a document heading:
// "Asia/Shanghai (UTC+8)" at t.
func ZoneDescription(loc *time.Location, t time.Time) string {
	_, off := t.In(loc).Zone()
	if off == 0 && (loc.String() == "UTC" || loc.String() == "Etc/UTC") {
		return "UTC"
	}
	return loc.String() + " (" + Offset(off) + ")"
}

// ZoneOffset names a zone on a document read anywhere: its offset at t in
// hours and minutes, then its IANA name, "UTC+08:00 (Asia/Shanghai)",
// "UTC-05:00 (America/New_York)", "UTC+00:00 (UTC)". The same in every
// language, and never an abbreviation: "CST" is China's and US Central's.
func ZoneOffset(loc *time.Location, t time.Time) string {
	return OffsetHM(loc, t) + " (" + loc.String() + ")"
}

// OffsetHM is loc's offset at t in hours and minutes: "UTC+08:00",
// "UTC-03:30", "UTC+00:00".
func OffsetHM(loc *time.Location, t time.Time) string {
	_, off := t.In(loc).Zone()
	sign := "+"
	if off < 0 {
		sign, off = "-", -off
	}
	return fmt.Sprintf("UTC%s%02d:%02d", sign, off/3600, off%3600/60)
}

// ZoneName names a zone for a person choosing or reading one: its cities in
// the reader's language with the offset at t ("北京、上海（UTC+8）"). A zone
// the catalog does not name (one an API caller set) keeps its IANA name.
func ZoneName(ctx context.Context, loc *time.Location, t time.Time) string {
	key := "timezone.zone." + loc.String()
	if !i18n.Has(ctx, key) {
		return ZoneDescription(loc, t)
	}
	_, off := t.In(loc).Zone()
	return i18n.T(ctx, "timezone.zoneName", "city", i18n.T(ctx, key), "offset", Offset(off))
}

// Zones are the time zones offered in the portal's lists, west to east; an
// API caller may set any IANA name.
var Zones = []string{
	"Pacific/Honolulu", "America/Anchorage", "America/Los_Angeles", "America/Denver", "America/Chicago",
	"America/New_York", "America/Sao_Paulo", "UTC", "Europe/London", "Europe/Paris", "Europe/Berlin",
	"Africa/Johannesburg", "Europe/Istanbul", "Europe/Moscow", "Asia/Dubai", "Asia/Karachi", "Asia/Kolkata",
	"Asia/Dhaka", "Asia/Bangkok", "Asia/Jakarta", "Asia/Shanghai", "Asia/Hong_Kong", "Asia/Taipei", "Asia/Macau",
	"Asia/Singapore", "Asia/Kuala_Lumpur", "Asia/Manila", "Australia/Perth", "Asia/Tokyo", "Asia/Seoul",
	"Australia/Sydney", "Pacific/Auckland",
}

// ZoneOptions are Zones with current (when it is a zone not among them)
// added, so a form shows what is stored.
func ZoneOptions(current string) []string {
	out := append([]string(nil), Zones...)
	if current != "" && ValidZone(current) {
		for _, z := range out {
			if z == current {
				return out
			}
		}
		out = append(out, current)
	}
	return out
}

// Errors of DayRange, naming the field at fault.
var (
	ErrFromDay = errors.New("display: the first day is no YYYY-MM-DD date")
	ErrToDay   = errors.New("display: the last day is no YYYY-MM-DD date or is before the first")
)

// StartOfDay is the first instant of the calendar day date (YYYY-MM-DD) on
// loc's clock. Where a DST change skips midnight the day starts when the
// clock jumps, so no instant of the day is left out of it.
func StartOfDay(date string, loc *time.Location) (time.Time, error) {
	d, err := time.Parse(time.DateOnly, date)
	if err != nil {
		return time.Time{}, err
	}
	return dayStart(d.Year(), d.Month(), d.Day(), loc), nil
}

func dayStart(y int, m time.Month, d int, loc *time.Location) time.Time {
	y, m, d = time.Date(y, m, d, 0, 0, 0, 0, time.UTC).Date() // 31 Nov is 1 Dec
	t := time.Date(y, m, d, 0, 0, 0, 0, loc)
	if ly, lm, ld := t.Date(); ly != y || lm != m || ld != d {
		// Midnight fell in a gap and Go resolved it into the day before:
		// the day begins where that zone period ends.
		_, end := t.ZoneBounds()
		t = end
	}
	return t
}

// DayRange turns an inclusive range of calendar days typed by a person
// (YYYY-MM-DD, either may be "" for an open end) into the instants
// [start, end) they mean on loc's clock: from 00:00 of the first day to
// 24:00 of the last, however long DST makes those days. A bad first day
// is ErrFromDay; a bad last day, or one before the first, ErrToDay.
func DayRange(from, to string, loc *time.Location) (start, end time.Time, err error) {
	if loc == nil {
		loc = time.UTC
	}
	var errs []error
	if from != "" {
		if start, err = StartOfDay(from, loc); err != nil {
			errs = append(errs, ErrFromDay)
		}
	}
	if to != "" {
		last, perr := time.Parse(time.DateOnly, to)
		switch {
		case perr != nil:
			errs = append(errs, ErrToDay)
		default:
			end = dayStart(last.Year(), last.Month(), last.Day()+1, loc)
			if !start.IsZero() && !end.After(start) {
				errs = append(errs, ErrToDay)
			}
		}
	}
	if len(errs) > 0 {
		return time.Time{}, time.Time{}, errors.Join(errs...)
	}
	return start, end, nil
}

// DayRangeIn is DayRange on the request's zone: the days a portal user
// types in a filter are days on the clock their pages are written in.
func DayRangeIn(ctx context.Context, from, to string) (time.Time, time.Time, error) {
	return DayRange(from, to, Zone(ctx))
}
