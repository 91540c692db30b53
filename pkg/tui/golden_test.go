package tui

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/charmbracelet/x/exp/golden"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/agency"
	"github.com/voyage/voyage/pkg/auth"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/group"
	"github.com/voyage/voyage/pkg/shopping"
	"github.com/voyage/voyage/pkg/siteinfo"
	"github.com/voyage/voyage/pkg/supplier"
	"github.com/voyage/voyage/pkg/train"
)

// The golden screens: every screen of the console at 80×24 and 160×48 (and
// the statements screen in Chinese), drawn from fixed data at a fixed
// clock, compared with testdata/TestGoldenScreens/<name>.golden. After a
// deliberate change of the layout, write them again with
//
//	go test ./pkg/tui -run TestGoldenScreens -update
//
// and read the diff before committing.

// goldenNow is the fixed clock of the golden screens.
var goldenNow = time.Date(2026, 11, 25, 9, 30, 0, 0, time.UTC)

// fixture is a backend of fixed data: three agencies (one with a Chinese
// name, one blocked), orders of the three kinds, statements, rates, users
// and API keys. Every time in it is fixed.
type fixture struct{ admin.Backend }

func at(day, hour, minute int) time.Time {
	return time.Date(2026, 11, day, hour, minute, 0, 0, time.UTC)
}

func ptr[T any](v T) *T { return &v }

var fixtureAgencies = []agency.Summary{
	{ID: 11, Code: "AK7Q2M4P", Name: "Demo Travel", Status: "active", Currency: "CNY", Balance: "12,480.50", CreditLimit: "50,000.00", Available: "62,480.50", CreatedAt: at(1, 8, 0)},
	{ID: 12, Code: "AZ3D9W1C", Name: "示例旅行社（华东）", Status: "active", Currency: "CNY", Balance: "3,020.00", CreditLimit: "0.00", Available: "3,020.00", CreatedAt: at(2, 8, 0)},
	{ID: 13, Code: "AB8N5T6R", Name: "Blue Sky Travel", Status: "blocked", Currency: "HKD", Balance: "-150.00", CreditLimit: "1,000.00", Available: "850.00", CreatedAt: at(3, 8, 0)},
}

func (fixture) Actor() string { return "cli:golden" }

func (fixture) Agencies(context.Context, agency.ListFilter) (admin.AgencyPage, error) {
	return admin.AgencyPage{Items: fixtureAgencies, Total: len(fixtureAgencies), Page: 1, PageSize: 20}, nil
}

func (fixture) Agency(_ context.Context, id int64) (agency.Detail, error) {
	for _, a := range fixtureAgencies {
		if a.ID == id {
			d := agency.Detail{Summary: a, CreditPeriod: 30, CreditPeriodUnit: "day",
				APIKeys: []auth.APIKey{{ID: 1, Name: "booking engine"}}}
			d.Config.Settings.EnableFlight, d.Config.Settings.EnableTrain, d.Config.Settings.CanCreateSubAgency = true, true, true
			d.Config.Settings.TimeZone = "Asia/Shanghai"
			return d, nil
		}
	}
	return agency.Detail{}, fmt.Errorf("agency %d not found", id)
}

// Entries are five fixed entries and older top-ups up to the page size
// asked (a tall pane asks for more).
func (fixture) Entries(_ context.Context, id int64, _, size int) (admin.WalletEntryPage, error) {
	cny := func(a string) admin.Money { return admin.Money{Amount: a, Currency: "CNY"} }
	p := admin.WalletEntryPage{Total: 40, Page: 1, PageSize: size, Items: []admin.WalletEntry{
		{ID: 10, Type: "top-up", Amount: cny("1,234,567.89"), BalanceAfter: cny("1,247,048.39"), PaymentReference: "HSBC-20261125-LARGE-WIRE", PaidAt: at(25, 1, 5)},
		{ID: 9, Type: "top-up", Amount: cny("5,000.00"), BalanceAfter: cny("12,480.50"), PaymentReference: "HSBC-20261124", PaidAt: at(24, 10, 5)},
		{ID: 8, Type: "origin-flight", Amount: cny("-2,350.00"), BalanceAfter: cny("7,480.50"), OrderID: "F2611230001", PaidAt: at(23, 14, 30)},
		{ID: 7, Type: "refund-flight", Amount: cny("830.50"), BalanceAfter: cny("9,830.50"), OrderID: "R2611200002", PaidAt: at(20, 9, 12)},
		{ID: 6, Type: "origin-train", Amount: cny("-1,000.00"), BalanceAfter: cny("9,000.00"), OrderID: "T2611180003", PaidAt: at(18, 16, 45)},
		{ID: 5, Type: "top-up", Amount: cny("10,000.00"), BalanceAfter: cny("10,000.00"), PaymentReference: "ICBC-88", PaidAt: at(15, 11, 0)},
	}}
	p.Items = p.Items[:min(len(p.Items), size)]
	for i := 0; len(p.Items) < size && i < 34; i++ {
		p.Items = append(p.Items, admin.WalletEntry{ID: int64(4 - i), Type: "top-up", Amount: cny("100.00"), BalanceAfter: cny("0.00"),
			PaymentReference: fmt.Sprintf("WIRE-%02d", 35-i), PaidAt: at(14, 23-i%24, 0).AddDate(0, 0, -i/24)})
	}
	return p, nil
}

var fixtureFlight = flight.View{ID: 501, BookingNumber: "R2611240007", AgencyID: 11, Type: flight.TypeRefund, Status: flight.RfdReviewing,
	PaymentStatus: "paid", PNR: "NXQ7LM", Airline: "MU", FlightNumber: "MU5101", Origin: "PEK", Destination: "SHA",
	DepartAt: time.Date(2026, 12, 3, 0, 30, 0, 0, time.UTC), TicketNumbers: []string{"781-2400011234"},
	Segments: []shopping.SegmentView{{Segment: supplier.Segment{Carrier: "MU", FlightNumber: "MU5101", Origin: "PEK", Destination: "SHA",
		DepartAt: time.Date(2026, 12, 3, 0, 30, 0, 0, time.UTC)}}},
	Passengers: []flight.Passenger{{Type: "adult", Surname: "ZHANG", GivenName: "WEI"}},
	Total:      flight.Money{Amount: "1,230.00", Currency: "CNY"}, Request: &flight.PostSale{Reason: 1, Remark: "schedule changed"},
	Actions: []flight.Action{flight.ActApprove, flight.ActReject, flight.ActQuote}, CreatedAt: at(24, 8, 15)}

var fixtureFlight2 = flight.View{ID: 502, BookingNumber: "F2611230001", AgencyID: 12, Type: flight.TypeOrigin, Status: "ticketed",
	PaymentStatus: "paid", PNR: "KD2P9A", Airline: "CA", FlightNumber: "CA937", Origin: "PEK", Destination: "LHR",
	DepartAt: time.Date(2026, 12, 10, 5, 0, 0, 0, time.UTC), Passengers: []flight.Passenger{{Type: "adult", Surname: "LI", GivenName: "NA"}},
	Total: flight.Money{Amount: "2,350.00", Currency: "CNY"}, CreatedAt: at(23, 14, 29)}

func (fixture) Orders(_ context.Context, f flight.Filter) (flight.Page, error) {
	if f.Group == reviewGroup {
		return flight.Page{Items: []flight.View{fixtureFlight}, Total: 1, Page: 1, PageSize: 20}, nil
	}
	return flight.Page{Items: []flight.View{fixtureFlight, fixtureFlight2}, Total: 2, Page: 1, PageSize: 20}, nil
}

func (fixture) Order(_ context.Context, id int64) (flight.View, error) {
	if id == fixtureFlight2.ID {
		return fixtureFlight2, nil
	}
	return fixtureFlight, nil
}

var fixtureTrain = train.View{ID: 701, BookingNumber: "T2611180003", Status: "issued", AgencyID: 11,
	Train:     train.Train{TrainNumber: "G7", Origin: "北京南", Destination: "上海虹桥", DepartAt: time.Date(2026, 11, 28, 1, 0, 0, 0, time.UTC)},
	SeatClass: "second", Total: train.Money{Amount: "1,000.00", Currency: "CNY"}, CreatedAt: at(18, 16, 44),
	Passengers: []train.Passenger{{ID: 1, Surname: "王", GivenName: "芳"}}}

func (fixture) TrainOrders(context.Context, train.Filter) (train.Page, error) {
	return train.Page{Items: []train.View{fixtureTrain}, Total: 1, Page: 1, PageSize: 20}, nil
}

func (fixture) TrainOrder(context.Context, int64) (train.View, error) { return fixtureTrain, nil }

var fixtureGroup = group.View{ID: 801, BookingNumber: "G2611210004", AgencyID: 12, Status: group.ToBeQuote,
	Journeys:   []group.Journey{{Origin: "PEK", Destination: "SHA", Date: "2027-01-15", ReturnDate: "2027-01-20"}},
	Passengers: group.Counts{Adult: 18, Child: 2}, CabinClass: "economy",
	Contact: group.Contact{Name: "Li Lei", Email: "li.lei@example.com", Phone: "+86 138 0000 0000"},
	Remark:  "school trip", IsChangeDate: true, CreatedAt: at(21, 7, 40)}

func (fixture) Groups(context.Context, group.Filter) (group.Page, error) {
	return group.Page{Items: []group.View{fixtureGroup}, Total: 1, Page: 1, PageSize: 20}, nil
}

func (fixture) GroupQueue(context.Context, int, int) (group.Page, error) {
	return group.Page{Items: []group.View{fixtureGroup}, Total: 1, Page: 1, PageSize: 20}, nil
}

func (fixture) Group(context.Context, int64) (group.View, error) { return fixtureGroup, nil }

func (fixture) Statements(context.Context, int64, int, int) (admin.StatementPage, error) {
	cny := func(a string) admin.Money { return admin.Money{Amount: a, Currency: "CNY"} }
	return admin.StatementPage{Total: 2, Page: 1, PageSize: 20, Items: []admin.StatementSummary{
		{ID: 32, AgencyID: 11, From: "2026-10-01", To: "2026-10-31", OpeningBalance: cny("4,200.00"), ClosingBalance: cny("9,830.50"), EntryCount: 41, CreatedAt: at(1, 2, 0)},
		{ID: 27, AgencyID: 11, From: "2026-09-01", To: "2026-09-30", OpeningBalance: cny("6,000.00"), ClosingBalance: cny("4,200.00"), EntryCount: 17, CreatedAt: time.Date(2026, 10, 1, 2, 0, 0, 0, time.UTC)},
	}}, nil
}

var fixtureRates = []siteinfo.Rate{
	{Base: "CNY", Currency: "EUR", Rate: "7.6912", Source: "cli:finance", CreatedAt: at(20, 1, 0)},
	{Base: "CNY", Currency: "HKD", Rate: "0.9125", Source: "cli:finance", CreatedAt: at(20, 1, 0)},
	{Base: "CNY", Currency: "USD", Rate: "7.1050", Source: "cli:finance", CreatedAt: at(24, 1, 0)},
}

func (fixture) Rates(context.Context) ([]siteinfo.Rate, error) { return fixtureRates, nil }

func (fixture) RateHistory(_ context.Context, currency string, _ int) ([]siteinfo.Rate, error) {
	var out []siteinfo.Rate
	for i, r := range []string{"7.1050", "7.1180", "7.0990"} {
		out = append(out, siteinfo.Rate{Base: "CNY", Currency: currency, Rate: r, Source: "cli:finance", CreatedAt: at(24-7*i, 1, 0)})
	}
	return out, nil
}

func (fixture) Users(context.Context, int64, auth.UserFilter) (admin.UserPage, error) {
	return admin.UserPage{Total: 3, Page: 1, PageSize: 20, Items: []admin.ManagedUser{
		{ID: 41, AgencyID: 11, IsSuperAdmin: true, Username: "demo.admin", Email: "admin@demo.example", Nickname: "Admin", Role: []string{"SuperUser"}, Status: "active", CreatedAt: at(1, 8, 0)},
		{ID: 42, AgencyID: 11, Username: "demo.ops", Email: "ops@demo.example", Nickname: "王小明", AreaCode: "+86", Mobile: "13800000000", Role: []string{"operator"}, Status: "active", CreatedAt: at(2, 9, 0)},
		{ID: 43, AgencyID: 11, Username: "demo.finance", Email: "finance@demo.example", Role: []string{"finance"}, Status: "inactive", CreatedAt: at(3, 9, 0)},
	}}, nil
}

func (fixture) APIKeys(context.Context, int64) ([]auth.APIKey, error) {
	return []auth.APIKey{
		{ID: 61, AgencyID: 11, Name: "booking engine", Prefix: "k3p9x2", Roles: auth.RoleList{"operator", "finance"}, CreatedAt: at(5, 10, 0), LastUsedAt: ptr(at(25, 9, 0))},
		{ID: 62, AgencyID: 11, Name: "old reports", Prefix: "a81mz0", Roles: auth.RoleList{"finance"}, CreatedAt: at(1, 10, 0), RevokedAt: ptr(at(10, 12, 0))},
	}, nil
}

// goldenScreen is a screen to draw: the keys that open it and what it
// shows once every answer is in.
type goldenScreen struct {
	name string
	lang string
	keys []string
	want []string
}

var goldenScreens = []goldenScreen{
	{"agencies", "", nil, []string{"Demo Travel ·", "HSBC-20261124"}},
	{"review", "", []string{"2"}, []string{"R2611240007", "Passengers"}},
	{"groups", "", []string{"3"}, []string{"G2611210004 ·", "school trip"}},
	{"orders", "", []string{"4"}, []string{"F2611230001", "R2611240007 ·", "ZHANG/WEI"}},
	{"orders-trains", "", []string{"4", "t"}, []string{"T2611180003 ·", "G7"}},
	{"statements", "", []string{"5"}, []string{"Statement 32", "+5,630.50"}},
	{"rates", "", []string{"6"}, []string{"EUR in CNY", "7.0990"}},
	{"users", "", []string{"7"}, []string{"demo.admin", "super user"}},
	{"keys", "", []string{"8"}, []string{"booking engine · k3p9x2", "Last used"}},
	{"funds", "", []string{"f"}, []string{"Add funds · Demo Travel", "Fee %"}},
	{"help", "", []string{"?"}, []string{"Keys"}},
	{"agencies-zh-cn", "zh-cn", nil, []string{"Demo Travel ·", "最近钱包流水"}},
	{"funds-zh-tw", "zh-tw", []string{"f"}, []string{"儲值 · Demo Travel", "手續費 %"}},
	{"statements-zh-cn", "zh-cn", []string{"5"}, []string{"对账单 32", "+5,630.50"}},
	{"statements-zh-tw", "zh-tw", []string{"5"}, []string{"對帳單 32", "+5,630.50"}},
}

// TestGoldenScreens draws every screen at 80×24 and 120×40 under teatest and
// compares it with its golden file, and holds every screen to the rule that
// a figure is shown whole or not at all (wholeFigures).
func TestGoldenScreens(t *testing.T) {
	for _, size := range [][2]int{{80, 24}, {120, 40}} {
		for _, g := range goldenScreens {
			t.Run(fmt.Sprintf("%s-%dx%d", g.name, size[0], size[1]), func(t *testing.T) {
				t.Parallel()
				p := newProbe(New(fixture{}, Options{Now: func() time.Time { return goldenNow }, Lang: g.lang}))
				tm := teatest.NewTestModel(t, p, teatest.WithInitialTermSize(size[0], size[1]))
				c := &console{t: t, tm: tm, p: p}
				c.waitText("Demo Travel")
				c.waitFor("the agency's detail", func(s string) bool { return strings.Contains(s, "HSBC-20261124") || g.name == "help" })
				c.press(g.keys...)
				s := c.waitText(g.want...)
				assertFits(t, s, size[0], size[1])
				s = c.settled(t, s)
				wholeFigures(t, s)
				tm.Quit()
				tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
				golden.RequireEqual(t, []byte(s+"\n"))
			})
		}
	}
}

// settled is the screen once it matches its golden file, or, when it does
// not within a few seconds, the screen as it is (RequireEqual then shows the
// difference). With -update it is the screen once it stopped changing.
func (c *console) settled(t *testing.T, s string) string {
	t.Helper()
	want, err := os.ReadFile(filepath.Join("testdata", t.Name()+".golden"))
	if f := flag.Lookup("update"); err != nil || (f != nil && f.Value.String() == "true") {
		want = nil
	}
	if want != nil {
		// A screen that never matches is returned for the caller's diff.
		now, _ := c.p.until(5*time.Second, func(s string) bool { return s+"\n" == string(want) })
		return now
	}
	// With -update nothing says which screen is the last: one unchanged
	// for ten looks 20 ms apart is taken as settled. A quiet time is what
	// this measures, so it sleeps; the runs that compare do not.
	deadline := time.Now().Add(5 * time.Second)
	same := 0
	for time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
		now := c.p.screen()
		if now == s {
			same++
		} else {
			s, same = now, 0
		}
		if same >= 10 {
			return s
		}
	}
	return s
}

// fixtureFigures are the fixture's numbers, ids, money and dates as the
// screens write them: booking numbers, agency codes, amounts, periods.
var fixtureFigures = []string{
	"AK7Q2M4P", "AZ3D9W1C", "AB8N5T6R", "12,480.50", "50,000.00", "62,480.50", "3,020.00", "-150.00", "850.00",
	"1,234,567.89", "1,247,048.39", "5,000.00", "-2,350.00", "7,480.50", "830.50", "9,830.50", "-1,000.00", "9,000.00", "10,000.00",
	"F2611230001", "R2611200002", "T2611180003", "R2611240007", "G2611210004",
	"2026-10-01", "2026-10-31", "2026-09-01", "2026-09-30", "4,200.00", "6,000.00",
	"7.6912", "0.9125", "7.1050", "7.1180", "7.0990",
}

// wholeFigures fails when a screen shows a figure of the fixture cut: any
// of its beginnings followed by the ellipsis a cut leaves. Free text may
// be cut; a number, id, sum or date never is.
func wholeFigures(t *testing.T, screen string) {
	t.Helper()
	for _, f := range fixtureFigures {
		for n := 2; n < len(f); n++ { // one character and "…" is any cut word
			if strings.Contains(screen, f[:n]+"…") {
				t.Errorf("%q is cut to %q on the screen:\n%s", f, f[:n]+"…", screen)
				break
			}
		}
	}
}
