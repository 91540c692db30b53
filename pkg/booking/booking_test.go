package booking

import (
	"errors"
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/fault"
)

// The agencies of the tests: the provider (1), an agency (10) with a
// sub-agency (11), and a sibling of 10 (20).
const (
	provider = 1
	parent   = 10
	sub      = 11
	sibling  = 20
)

func subject(level int, roles ...string) auth.Subject {
	return auth.Subject{Roles: roles, ProxyLevel: level, Common: auth.CommonConfig{EnableFlightService: true, EnableTrainService: true}}
}

// viewerOf is the viewer NewViewer makes for a user of agencyID, without
// the agency store (Side needs none).
func viewerOf(line Line, agencyID int64, s auth.Subject) Viewer {
	v := Viewer{Who: auth.Principal{UserID: 7, AgencyID: agencyID, Subject: s}, books: line.MayBook(s)}
	if !s.IsProvider() {
		v.Scope.Agency = agencyID
	}
	return v
}

// TestSide is the one rule: only the booking agency's own users who may
// book act on its bookings; the provider takes the provider's steps; a
// parent agency, a sibling and a user without the line's role only look.
func TestSide(t *testing.T) {
	t.Parallel()
	cases := []struct {
		name    string
		agency  int64
		subject auth.Subject
		want    string // on a booking of sub
	}{
		{"the booking agency's operator", sub, subject(2, auth.RoleOperator), ByAgency},
		{"the booking agency's SuperUser", sub, subject(2, auth.RoleSuperUser), ByAgency},
		{"the booking agency's finance", sub, subject(2, auth.RoleFinance), ""},
		{"the parent's SuperUser", parent, subject(1, auth.RoleSuperUser), ""},
		{"the parent's finance", parent, subject(1, auth.RoleFinance), ""},
		{"a sibling's SuperUser", sibling, subject(1, auth.RoleSuperUser), ""},
		{"the provider's operator", provider, subject(0, auth.RoleOperator), ByProvider},
		{"the provider's finance", provider, subject(0, auth.RoleFinance), ByProvider},
	}
	for _, line := range []Line{Flights, Groups, Trains} {
		for _, c := range cases {
			t.Run(line.Name+"/"+c.name, func(t *testing.T) {
				if got := viewerOf(line, c.agency, c.subject).Side(sub); got != c.want {
					t.Fatalf("side %q, want %q", got, c.want)
				}
			})
		}
	}
	// The provider's own bookings are the provider's agency's: it acts on
	// them as an agency does.
	if got := viewerOf(Flights, provider, subject(0, auth.RoleOperator)).Side(provider); got != ByAgency {
		t.Fatalf("provider on its own booking: side %q, want %q", got, ByAgency)
	}
}

func TestLineRoles(t *testing.T) {
	t.Parallel()
	off := auth.Subject{Roles: []string{auth.RoleSuperUser}, ProxyLevel: 1}
	cases := []struct {
		line         Line
		subject      auth.Subject
		books, looks bool
	}{
		{Flights, subject(1, auth.RoleOperator), true, true},
		{Flights, subject(1, auth.RoleSuperUser), true, true},
		{Flights, subject(1, auth.RoleFinance), false, false},
		{Flights, off, false, false},
		{Groups, subject(1, auth.RoleFinance), false, false},
		{Groups, subject(1, auth.RoleOperator), true, true},
		{Trains, subject(1, auth.RoleOperator), true, true},
		// The spec lists no role for the train orders: finance looks.
		{Trains, subject(1, auth.RoleFinance), false, true},
		{Trains, off, false, false},
	}
	for _, c := range cases {
		if got := c.line.MayBook(c.subject); got != c.books {
			t.Errorf("%s %v: books %v, want %v", c.line.Name, c.subject.Roles, got, c.books)
		}
		if got := c.line.MaySee(c.subject); got != c.looks {
			t.Errorf("%s %v: sees %v, want %v", c.line.Name, c.subject.Roles, got, c.looks)
		}
	}
}

func TestStep(t *testing.T) {
	t.Parallel()
	notNow := errors.New("not in this status")
	forbidden := func(err error) bool {
		var f *fault.Error
		return errors.As(err, &f) && f.Status == 403
	}
	cases := []struct {
		need, side string
		check      func(error) bool
	}{
		{ByAgency, ByAgency, func(err error) bool { return err == nil }},
		{ByProvider, ByProvider, func(err error) bool { return err == nil }},
		{"", ByAgency, func(err error) bool { return err == notNow }},
		{ByAgency, "", forbidden},
		{ByProvider, ByAgency, forbidden},
		{ByAgency, ByProvider, forbidden},
		{"", "", func(err error) bool { return err == notNow }},
	}
	for _, c := range cases {
		if err := Step(c.need, c.side, notNow); !c.check(err) {
			t.Errorf("step of %q by %q: %v", c.need, c.side, err)
		}
	}
}

// TestToday: the agency's date, not UTC's, around both midnights.
func TestToday(t *testing.T) {
	t.Parallel()
	day := func(s string) time.Time { d, _ := time.Parse(time.DateOnly, s); return d }
	cases := []struct {
		now  time.Time
		zone string
		want time.Time
	}{
		{time.Date(2027, 1, 4, 15, 59, 59, 0, time.UTC), "", day("2027-01-04")},
		{time.Date(2027, 1, 4, 16, 0, 0, 0, time.UTC), "", day("2027-01-05")}, // midnight in Beijing
		{time.Date(2027, 1, 4, 16, 0, 0, 0, time.UTC), "Asia/Shanghai", day("2027-01-05")},
		{time.Date(2027, 1, 5, 7, 59, 0, 0, time.UTC), "America/Los_Angeles", day("2027-01-04")},
		{time.Date(2027, 1, 5, 8, 0, 0, 0, time.UTC), "America/Los_Angeles", day("2027-01-05")},
		{time.Date(2027, 12, 31, 23, 0, 0, 0, time.UTC), "UTC", day("2027-12-31")},
	}
	for _, c := range cases {
		if got := Today(c.now, agency.Agency{TimeZone: c.zone}); !got.Equal(c.want) {
			t.Errorf("%s in %q: today %s, want %s", c.now, c.zone, got.Format(time.DateOnly), c.want.Format(time.DateOnly))
		}
	}
}

func TestPages(t *testing.T) {
	t.Parallel()
	for _, c := range []struct{ page, size, wantPage, wantSize, offset int }{
		{0, 0, 1, DefaultPageSize, 0},
		{-3, 5, 1, 5, 0},
		{3, 10, 3, 10, 20},
		{2, 1000, 2, MaxPageSize, MaxPageSize},
	} {
		p := Pages(c.page, c.size)
		if p.Page != c.wantPage || p.Size != c.wantSize || p.Offset() != c.offset {
			t.Errorf("Pages(%d, %d) = %+v offset %d", c.page, c.size, p, p.Offset())
		}
	}
}
