package pnr

import (
	"errors"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"
)

// now is the moment of every paste unless a test says otherwise: mid
// November 2026, so that 20DEC is this year and 05JAN next year.
var now = time.Date(2026, 11, 15, 10, 0, 0, 0, time.FixedZone("CST", 8*3600))

const amadeusDisplay = `RP/PEKCA2100/PEKCA2100            CA/SU  15NOV26/0834Z   Z7QK4M
  1.ZHANG/SAN MR(INFZHANG/XIAOBAO MSTR/12MAR26)   2.LI/SI MS
  3.ZHANG/XIAOMING MSTR(CHD/10JAN18)
  4  CA 965 Y 20DEC 7 PEKFRA HK3  0200 0610   20DEC  E  CA/NXQ8R2
  5  LH 920 Y 20DEC 7 FRALHR HK3  0935 1010   20DEC  E  LH/5TGB2K
     OPERATED BY LUFTHANSA CITYLINE
  6  CA 938 Y 28DEC 1 LHRPEK HK3  2100 1410+1  E  CA/NXQ8R2
  7 AP PEK 010-12345678-B
  8 APE ZHANG.SAN@EXAMPLE.COM
  9 TK OK15NOV/PEKCA2100
 10 SSR DOCS CA HK1 P/CHN/E12345678/CHN/12MAR85/M/20DEC30/ZHANG/SAN/P1
 11 SSR DOCS CA HK1 P/CHN/E87654321/CHN/05JUL90/F/01JUN31/LI/SI/P2
 12 SSR DOCS CA HK1 P/CHN/EA1234567/CHN/12MAR26/MI/12MAR31/ZHANG/
       XIAOBAO/P1
 13 SSR CHLD CA HK1 10JAN18/P3
 14 SSR INFT CA HK1 ZHANG/XIAOBAO 12MAR26/S4/P1
 15 OSI CA CTCT13800138000
 16 RM NOTIFY PAX
 17 FE PAX NONEND/NONREF/S4-6/P1-3
 18 FP CASH
>`

const sabreDisplay = `Z7QK4M
 1.2ZHANG/SAN MR/LI/SI MS  2.1WANG/XIAOHONG MISS*C08
 3.1I/ZHANG/BABY MISS*12MAR26
 1 CA 937Y 20DEC S PEKLHR HK3  1400  1810  /DCCA*NXQ8R2 /E
 2 BA1386Y 21DEC M LHRMAN SS3   900A 1005A  /DCBA*5TGB2K /E
 3 BA1393Y 27DEC S MANLHR HK3   715A  830A  /DCBA*5TGB2K /E
 4 CA 938Y 27DEC S LHRPEK HK3   900P  410P  28DEC M /DCCA*NXQ8R2 /E
TKT/TIME LIMIT
  1.TAW15NOV/
PHONES
  1.PEK010-12345678-A
PASSENGER DETAIL FIELD EXISTS - USE PD TO DISPLAY
GENERAL FACTS
  1.SSR DOCS CA HK1/P/CN/E12345678/CN/12MAR1985/M/20DEC2030/ZHANG/SAN-1.1ZHANG/SAN MR
  2.SSR DOCS CA HK1/P/CN/E87654321/CN/05JUL1990/F/01JUN2031/LI/SI-1.2LI/SI MS
  3.SSR CHLD CA HK1/01FEB18-2.1WANG/XIAOHONG MISS
  4.SSR INFT CA NN1 PEKLHR0937Y20DEC/ZHANG/BABY MISS/12MAR26-1.1ZHANG/SAN MR
RECEIVED FROM - SAN
PEK.A1B2*AXX 0834/15NOV26 Z7QK4M H`

const travelskyDisplay = `**ELECTRONIC TICKET PNR**
 1.张三 2.李小明CHD 3.WANG/FANG MS HXYZ12
 4.  CA1351 Y   SU20DEC  PEKCAN HK3   0800 1120          E T3--
 5.  CZ325  Y   SU20DEC  CANSYD HK3   2100 0915+1        E --T1
 6.  CZ326  Y   TU05JAN27  SYDCAN HK3   1040 1750          E T1--
 7. *CZ3108 Y   TU05JAN27  CANPEK HK3   2000 2310          E --T2
 8.XN/IN/张小宝INF(MAR26)/P1
 9.PEK/T PEK/T 010-12345678/VOYAGE TRAVEL/ABCDEFG
10.TL/1200/18NOV/PEK123
11.SSR FOID CA HK1 NI110101198503120033/P1
12.SSR FOID CZ HK1 NI440106201801100017/P2
13.SSR DOCS CZ HK1 P/CN/E12345678/CN/12MAR85/M/20DEC30/ZHANG/SAN/P1
14.SSR DOCS CZ HK1 P/GB/512345678/GBR/03APR92/F/15AUG33/WANG/FANG/P3
15.SSR CHLD CZ HK1 10JAN18/P2
16.SSR INFT CZ HK1 SYDCAN 326 Y05JAN ZHANG/XIAOBAO 12MAR26/P1
17.OSI CZ CTCT13800138000
18.RMK CA/NXQ8R2
19.FN/A/FCNY12000.00/SCNY12000.00/C0.00/XCNY1200.00/TCNY1000.00CN/TCNY200.00YQ/ACNY13200.00
20.TN/784-1234567890/P1
21.FP/CASH,CNY
22.PEK123`

// seg builds an expected segment.
func seg(flight, class, date, from, to, dep, arr string, offset int, status string, seats int) Segment {
	return Segment{
		Carrier: flight[:2], FlightNumber: flight, BookingClass: class, Date: date,
		Origin: from, Destination: to, DepartTime: dep, ArriveTime: arr,
		ArriveDayOffset: offset, Status: status, Seats: seats,
	}
}

func mustParse(t *testing.T, text string, at time.Time) Result {
	t.Helper()
	res, err := Parse(text, at)
	if err != nil {
		t.Fatalf("Parse: %v", err)
	}
	return res
}

// compare reports each part of a Result that differs from want.
func compare(t *testing.T, got, want Result) {
	t.Helper()
	if got.Style != want.Style {
		t.Errorf("Style = %q, want %q", got.Style, want.Style)
	}
	if got.RecordLocator != want.RecordLocator {
		t.Errorf("RecordLocator = %q, want %q", got.RecordLocator, want.RecordLocator)
	}
	if len(got.Segments) != len(want.Segments) {
		t.Errorf("%d segments, want %d: %+v", len(got.Segments), len(want.Segments), got.Segments)
	}
	for i := range min(len(got.Segments), len(want.Segments)) {
		if got.Segments[i] != want.Segments[i] {
			t.Errorf("segment %d:\n got %+v\nwant %+v", i, got.Segments[i], want.Segments[i])
		}
	}
	if !reflect.DeepEqual(got.Journeys, want.Journeys) {
		t.Errorf("Journeys:\n got %+v\nwant %+v", got.Journeys, want.Journeys)
	}
	if len(got.Passengers) != len(want.Passengers) {
		t.Errorf("%d passengers, want %d: %+v", len(got.Passengers), len(want.Passengers), got.Passengers)
	}
	for i := range min(len(got.Passengers), len(want.Passengers)) {
		if got.Passengers[i] != want.Passengers[i] {
			t.Errorf("passenger %d:\n got %+v\nwant %+v", i, got.Passengers[i], want.Passengers[i])
		}
	}
	if !reflect.DeepEqual(got.Skipped, want.Skipped) {
		t.Errorf("Skipped = %q, want %q", got.Skipped, want.Skipped)
	}
}

func TestParseFullDisplays(t *testing.T) {
	zhangSan := Passenger{Surname: "ZHANG", GivenName: "SAN", Title: "MR", Type: Adult, Gender: "male",
		Birthday: "1985-03-12", Nationality: "CN", DocumentType: "passport", DocumentNumber: "E12345678", DocumentExpiry: "2030-12-20"}
	liSi := Passenger{Surname: "LI", GivenName: "SI", Title: "MS", Type: Adult, Gender: "female",
		Birthday: "1990-07-05", Nationality: "CN", DocumentType: "passport", DocumentNumber: "E87654321", DocumentExpiry: "2031-06-01"}

	tests := []struct {
		name string
		text string
		want Result
	}{
		{
			name: "amadeus return trip with a connection, a child and an infant",
			text: amadeusDisplay,
			want: Result{
				Style:         "amadeus",
				RecordLocator: "Z7QK4M",
				Segments: []Segment{
					seg("CA965", "Y", "2026-12-20", "PEK", "FRA", "02:00", "06:10", 0, "HK", 3),
					seg("LH920", "Y", "2026-12-20", "FRA", "LHR", "09:35", "10:10", 0, "HK", 3),
					seg("CA938", "Y", "2026-12-28", "LHR", "PEK", "21:00", "14:10", 1, "HK", 3),
				},
				Journeys: []Journey{
					{Origin: "PEK", Destination: "LHR", Date: "2026-12-20", Segments: []int{0, 1}},
					{Origin: "LHR", Destination: "PEK", Date: "2026-12-28", Segments: []int{2}},
				},
				Passengers: []Passenger{
					zhangSan,
					liSi,
					{Surname: "ZHANG", GivenName: "XIAOMING", Title: "MSTR", Type: Child, Gender: "male", Birthday: "2018-01-10"},
					{Surname: "ZHANG", GivenName: "XIAOBAO", Title: "MSTR", Type: Infant, Gender: "male", Birthday: "2026-03-12",
						Nationality: "CN", DocumentType: "passport", DocumentNumber: "EA1234567", DocumentExpiry: "2031-03-12"},
				},
			},
		},
		{
			name: "sabre open jaw with connections, 12-hour times, shared name field",
			text: sabreDisplay,
			want: Result{
				Style:         "sabre",
				RecordLocator: "Z7QK4M",
				Segments: []Segment{
					seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "14:00", "18:10", 0, "HK", 3),
					seg("BA1386", "Y", "2026-12-21", "LHR", "MAN", "09:00", "10:05", 0, "SS", 3),
					seg("BA1393", "Y", "2026-12-27", "MAN", "LHR", "07:15", "08:30", 0, "HK", 3),
					seg("CA938", "Y", "2026-12-27", "LHR", "PEK", "21:00", "16:10", 1, "HK", 3),
				},
				Journeys: []Journey{
					{Origin: "PEK", Destination: "MAN", Date: "2026-12-20", Segments: []int{0, 1}},
					{Origin: "MAN", Destination: "PEK", Date: "2026-12-27", Segments: []int{2, 3}},
				},
				Passengers: []Passenger{
					zhangSan,
					liSi,
					{Surname: "WANG", GivenName: "XIAOHONG", Title: "MISS", Type: Child, Gender: "female", Birthday: "2018-02-01"},
					{Surname: "ZHANG", GivenName: "BABY", Title: "MISS", Type: Infant, Gender: "female", Birthday: "2026-03-12"},
				},
			},
		},
		{
			name: "travelsky with Chinese names, 2-digit year, FOID and XN infant",
			text: travelskyDisplay,
			want: Result{
				Style:         "travelsky",
				RecordLocator: "HXYZ12",
				Segments: []Segment{
					seg("CA1351", "Y", "2026-12-20", "PEK", "CAN", "08:00", "11:20", 0, "HK", 3),
					seg("CZ325", "Y", "2026-12-20", "CAN", "SYD", "21:00", "09:15", 1, "HK", 3),
					seg("CZ326", "Y", "2027-01-05", "SYD", "CAN", "10:40", "17:50", 0, "HK", 3),
					seg("CZ3108", "Y", "2027-01-05", "CAN", "PEK", "20:00", "23:10", 0, "HK", 3),
				},
				Journeys: []Journey{
					{Origin: "PEK", Destination: "SYD", Date: "2026-12-20", Segments: []int{0, 1}},
					{Origin: "SYD", Destination: "PEK", Date: "2027-01-05", Segments: []int{2, 3}},
				},
				Passengers: []Passenger{
					// FOID first, then DOCS: the passport wins.
					{Surname: "张三", Type: Adult, Gender: "male", Birthday: "1985-03-12", Nationality: "CN",
						DocumentType: "passport", DocumentNumber: "E12345678", DocumentExpiry: "2030-12-20"},
					// Only FOID: the identity card number gives the sex.
					{Surname: "李小明", Title: "CHD", Type: Child, Gender: "male", Birthday: "2018-01-10",
						DocumentType: "idcard", DocumentNumber: "440106201801100017"},
					{Surname: "WANG", GivenName: "FANG", Title: "MS", Type: Adult, Gender: "female", Birthday: "1992-04-03",
						Nationality: "GB", DocumentType: "passport", DocumentNumber: "512345678", DocumentExpiry: "2033-08-15"},
					// XN gives the name, SSR INFT the birthday.
					{Surname: "张小宝", Type: Infant, Birthday: "2026-03-12"},
				},
			},
		},
		{
			name: "lower case and Windows line endings",
			text: strings.ReplaceAll(strings.ToLower(amadeusDisplay), "\n", "\r\n"),
			want: mustParse(t, amadeusDisplay, now),
		},
		{
			name: "brief Amadeus paste without element numbers",
			text: "ca937 y 20dec peklhr hk1 1400 1810\n1.ZHANG/SANMR",
			want: Result{
				Style:    "unknown",
				Segments: []Segment{seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "14:00", "18:10", 0, "HK", 1)},
				Journeys: []Journey{{Origin: "PEK", Destination: "LHR", Date: "2026-12-20", Segments: []int{0}}},
				Passengers: []Passenger{
					{Surname: "ZHANG", GivenName: "SAN", Title: "MR", Type: Adult, Gender: "male"},
				},
			},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			compare(t, mustParse(t, tt.text, now), tt.want)
		})
	}
}

func TestDates(t *testing.T) {
	day := func(y int, m time.Month, d int) time.Time { return time.Date(y, m, d, 15, 30, 0, 0, time.UTC) }
	tests := []struct {
		name string
		kind string // travel, birth, expiry
		in   string
		now  time.Time
		want string // "" when not a date
	}{
		{"travel date past this year is next year", "travel", "20DEC", day(2026, 12, 25), "2027-12-20"},
		{"travel date today is today", "travel", "20DEC", day(2026, 12, 20), "2026-12-20"},
		{"travel date later this year", "travel", "05JAN", day(2026, 1, 1), "2026-01-05"},
		{"travel date in January seen in December", "travel", "05JAN", day(2026, 12, 25), "2027-01-05"},
		{"travel date 29FEB waits for a leap year", "travel", "29FEB", day(2026, 3, 1), "2028-02-29"},
		{"travel date with 2-digit year", "travel", "20DEC26", day(2026, 12, 25), "2026-12-20"},
		{"travel date with 4-digit year", "travel", "20DEC2027", day(2026, 1, 1), "2027-12-20"},
		{"travel date that does not exist", "travel", "31APR", day(2026, 1, 1), ""},
		{"birthday last century", "birth", "12MAR85", day(2026, 11, 15), "1985-03-12"},
		{"birthday this century", "birth", "10JAN18", day(2026, 11, 15), "2018-01-10"},
		{"birthday year above the current year is last century", "birth", "01JAN30", day(2026, 11, 15), "1930-01-01"},
		{"birthday in the current year", "birth", "01JAN26", day(2026, 11, 15), "2026-01-01"},
		{"birthday with 4-digit year", "birth", "12MAR1985", day(2026, 11, 15), "1985-03-12"},
		{"birthday needs a year", "birth", "12MAR", day(2026, 11, 15), ""},
		{"expiry is this century", "expiry", "20DEC30", day(2026, 11, 15), "2030-12-20"},
		{"expiry already past stays past", "expiry", "01JAN20", day(2026, 11, 15), "2020-01-01"},
		{"expiry needs a year", "expiry", "20DEC", day(2026, 11, 15), ""},
		{"expiry 29FEB of a common year", "expiry", "29FEB27", day(2026, 11, 15), ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got time.Time
			var ok bool
			switch tt.kind {
			case "travel":
				got, ok = travelDate(tt.in, today(tt.now))
			case "birth":
				got, ok = birthDate(tt.in, today(tt.now))
			case "expiry":
				got, ok = expiryDate(tt.in)
			}
			if !ok {
				if tt.want != "" {
					t.Fatalf("%s(%q) not a date, want %s", tt.kind, tt.in, tt.want)
				}
				return
			}
			if got.Format(isoDate) != tt.want {
				t.Errorf("%s(%q) = %s, want %q", tt.kind, tt.in, got.Format(isoDate), tt.want)
			}
		})
	}
}

// TestDatesThroughParse checks the century rules where they are used: the
// segment date and the DOCS birthday and expiry.
func TestDatesThroughParse(t *testing.T) {
	tests := []struct {
		name              string
		text              string
		now               time.Time
		date, birth, expy string
	}{
		{
			name: "20DEC after 20DEC is next year",
			text: "1 CA937 Y 20DEC PEKLHR HK1 1400 1810\n2 SSR DOCS CA HK1 P/CHN/E1/CHN/12MAR85/M/20DEC30/ZHANG/SAN",
			now:  time.Date(2026, 12, 25, 9, 0, 0, 0, time.UTC),
			date: "2027-12-20", birth: "1985-03-12", expy: "2030-12-20",
		},
		{
			name: "2-digit travel year, child born this century, passenger born 1930",
			text: "1 CA937 Y 20DEC26 PEKLHR HK1 1400 1810\n2 SSR DOCS CA HK1 P/CHN/E1/CHN/01JAN30/M/20DEC30/ZHANG/SAN",
			now:  time.Date(2026, 12, 25, 9, 0, 0, 0, time.UTC),
			date: "2026-12-20", birth: "1930-01-01", expy: "2030-12-20",
		},
		{
			name: "birthday 10JAN18 in 2026",
			text: "CA937 Y 20DEC PEKLHR HK1\n SSR CHLD CA HK1 10JAN18",
			now:  time.Date(2026, 6, 1, 9, 0, 0, 0, time.UTC),
			date: "2026-12-20", birth: "2018-01-10",
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustParse(t, tt.text, tt.now)
			if got := res.Segments[0].Date; got != tt.date {
				t.Errorf("segment date = %s, want %s", got, tt.date)
			}
			// Without a name line DOCS and CHLD have no one to land on.
			if len(res.Passengers) != 0 {
				t.Fatalf("passengers without a name line: %+v", res.Passengers)
			}
		})
	}
	// With a name line the same elements land on the passenger.
	for _, tt := range tests {
		t.Run(tt.name+" with a name", func(t *testing.T) {
			res := mustParse(t, "1.ZHANG/SAN MR\n"+tt.text, tt.now)
			if len(res.Passengers) != 1 {
				t.Fatalf("passengers = %+v", res.Passengers)
			}
			p := res.Passengers[0]
			if p.Birthday != tt.birth || p.DocumentExpiry != tt.expy {
				t.Errorf("birthday %q expiry %q, want %q %q", p.Birthday, p.DocumentExpiry, tt.birth, tt.expy)
			}
		})
	}
}

func TestSegmentLines(t *testing.T) {
	tests := []struct {
		name string
		line string
		want Segment
	}{
		{"amadeus", "  3  CA 937 Y 20DEC 7 PEKLHR HK2  1400 1810   20DEC  E  CA/ABCDEF",
			seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "14:00", "18:10", 0, "HK", 2)},
		{"sabre", " 1 CA 937Y 20DEC S PEKLHR HK2  1400  1810  /DCCA*ABCDEF /E",
			seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "14:00", "18:10", 0, "HK", 2)},
		{"sabre sell", "1 CA937Y 20DEC PEKLHR SS1 1400 1810",
			seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "14:00", "18:10", 0, "SS", 1)},
		{"travelsky", " 3.  CA937  Y   SU20DEC  PEKLHR HK2   1400 1810          E T3T2",
			seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "14:00", "18:10", 0, "HK", 2)},
		{"travelsky with year", " 3.  CA937  Y   SU20DEC26  PEKLHR HK2   1400 1810",
			seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "14:00", "18:10", 0, "HK", 2)},
		{"arrival +1 attached", "CA937 Y 20DEC PEKLHR HK1 2300 0610+1",
			seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "23:00", "06:10", 1, "HK", 1)},
		{"arrival +1 apart", "CA937 Y 20DEC PEKLHR HK1 2300 0610 +1",
			seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "23:00", "06:10", 1, "HK", 1)},
		{"arrival 1 apart", "CA937 Y 20DEC PEKLHR HK1 2300 0610 1 E",
			seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "23:00", "06:10", 1, "HK", 1)},
		{"arrival -1 across the date line", "NZ 1 Y 20DEC AKLHNL HK1 2100 0800-1",
			seg("NZ1", "Y", "2026-12-20", "AKL", "HNL", "21:00", "08:00", -1, "HK", 1)},
		{"arrival date after the times", "4 CA 938 Y 31DEC 4 LHRPEK HK1 2100 1410 01JAN E",
			seg("CA938", "Y", "2026-12-31", "LHR", "PEK", "21:00", "14:10", 1, "HK", 1)},
		{"no times", "CA937 Y 20DEC PEKLHR HK1",
			seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "", "", 0, "HK", 1)},
		{"no status", "CA937 Y 20DEC PEKLHR 1400 1810",
			seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "14:00", "18:10", 0, "", 0)},
		{"carrier starting with a digit, leading zeros", "2 3U0888 Y 20DEC CTUPEK HK1 0800 1030",
			seg("3U888", "Y", "2026-12-20", "CTU", "PEK", "08:00", "10:30", 0, "HK", 1)},
		{"codeshare star, time with colon", " 5. *MU5101 Y SU20DEC PVGPEK HK1 08:00 10:15",
			seg("MU5101", "Y", "2026-12-20", "PVG", "PEK", "08:00", "10:15", 0, "HK", 1)},
		{"sabre 12-hour noon and midnight", "1 UA 888Y 20DEC S SFOPEK HK1 1200N 1200M",
			seg("UA888", "Y", "2026-12-20", "SFO", "PEK", "12:00", "00:00", 0, "HK", 1)},
		{"tabs and extra spaces", "\t1\tCA  937  Y  20DEC\t7  PEKLHR  HK2\t1400  1810",
			seg("CA937", "Y", "2026-12-20", "PEK", "LHR", "14:00", "18:10", 0, "HK", 2)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustParse(t, tt.line, now)
			if len(res.Segments) != 1 || res.Segments[0] != tt.want {
				t.Errorf("segments = %+v\nwant %+v", res.Segments, tt.want)
			}
			if len(res.Skipped) != 0 {
				t.Errorf("Skipped = %q", res.Skipped)
			}
		})
	}
}

func TestARNK(t *testing.T) {
	for _, text := range []string{
		"1 CA 937 Y 20DEC 7 PEKLHR HK1 1400 1810\n2 ARNK\n3 CA 934 Y 28DEC 1 CDGPEK HK1 1100 0500+1",
		" 1.  CA937 Y SU20DEC PEKLHR HK1 1400 1810\n 2.    ARNK              LHRCDG\n 3.  CA934 Y MO28DEC CDGPEK HK1 1100 0500+1",
		"1 CA 937Y 20DEC S PEKLHR HK1 1400 1810\n2 ARUNK\n3 CA 934Y 28DEC M CDGPEK HK1 1100 0500+1",
	} {
		res := mustParse(t, text, now)
		if len(res.Skipped) != 0 {
			t.Errorf("ARNK skipped: %q", res.Skipped)
		}
		want := []Journey{
			{Origin: "PEK", Destination: "LHR", Date: "2026-12-20", Segments: []int{0}},
			{Origin: "CDG", Destination: "PEK", Date: "2026-12-28", Segments: []int{1}},
		}
		if !reflect.DeepEqual(res.Journeys, want) {
			t.Errorf("Journeys = %+v, want %+v", res.Journeys, want)
		}
	}
}

func TestSkipped(t *testing.T) {
	text := "Hello, please book this one\r\n" +
		" 1.ZHANG/SAN MR\r\n" +
		"  2  CA 937 Y 20DEC 7 PEKLHR HK1  1400 1810\r\n" +
		"  3  HTL 1A HK1 LON 20DEC-28DEC HOTEL\r\n" +
		"\r\n" +
		"  4  CA OPEN Y PEKLHR\r\n" +
		"  5 SSR VGML CA HK1/S2\r\n" +
		"  6 RM ANYTHING GOES HERE 123\r\n" +
		"thanks!"
	res := mustParse(t, text, now)
	want := []string{
		"Hello, please book this one",
		"3  HTL 1A HK1 LON 20DEC-28DEC HOTEL",
		"4  CA OPEN Y PEKLHR",
		"thanks!",
	}
	if !reflect.DeepEqual(res.Skipped, want) {
		t.Errorf("Skipped = %q\nwant %q", res.Skipped, want)
	}
	if len(res.Segments) != 1 || len(res.Passengers) != 1 {
		t.Errorf("segments %+v passengers %+v", res.Segments, res.Passengers)
	}
}

func TestErrors(t *testing.T) {
	nineSegments := strings.Repeat("CA937 Y 20DEC PEKLHR HK1\nCA938 Y 21DEC LHRPEK HK1\n", 4) + "CA937 Y 22DEC PEKLHR HK1"
	tenNames := "1.A/A MR 2.B/B MR 3.C/C MR 4.D/D MR 5.E/E MR 6.F/F MR 7.G/G MR 8.H/H MR 9.I/I MR 10.J/J MR\nCA937 Y 20DEC PEKLHR HK10"
	tests := []struct {
		name string
		text string
		key  string
		line int
	}{
		{"empty", "", KeyEmpty, 0},
		{"blank lines only", " \r\n\t\n  ", KeyEmpty, 0},
		{"no segment", "1.ZHANG/SAN MR\nRP/PEKCA2100/PEKCA2100 ABCDEF", KeyNoSegments, 0},
		{"garbage", "what is this", KeyNoSegments, 0},
		{"too many segments", nineSegments, KeyTooLong, 0},
		{"too many passengers", tenNames, KeyTooLong, 0},
		{"too many bytes", strings.Repeat("CA937 Y 20DEC PEKLHR HK1\n", 1000), KeyTooLong, 0},
		{"same origin and destination", "1.ZHANG/SAN MR\n2 CA937 Y 20DEC PEKLHR HK1\n3 CA938 Y 28DEC LHRLHR HK1", KeyBadSegment, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse(tt.text, now)
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("err = %v, want *pnr.Error %s", err, tt.key)
			}
			if pe.Key != tt.key || pe.Line != tt.line {
				t.Errorf("err = %+v, want key %s line %d", pe, tt.key, tt.line)
			}
			if pe.Error() == "" {
				t.Error("empty message")
			}
		})
	}
}

func TestErrorKeepsSkippedLines(t *testing.T) {
	res, err := Parse("1.ZHANG/SAN MR\nCA937 20DEC PEKLHR", now)
	var pe *Error
	if !errors.As(err, &pe) || pe.Key != KeyNoSegments {
		t.Fatalf("err = %v", err)
	}
	if want := []string{"CA937 20DEC PEKLHR"}; !reflect.DeepEqual(res.Skipped, want) {
		t.Errorf("Skipped = %q, want %q", res.Skipped, want)
	}
}

func TestJourneys(t *testing.T) {
	s := func(from, to, date, dep, arr string, offset int) Segment {
		return Segment{Origin: from, Destination: to, Date: date, DepartTime: dep, ArriveTime: arr, ArriveDayOffset: offset}
	}
	tests := []struct {
		name string
		segs []Segment
		want [][]int
	}{
		{"connection within 24 hours",
			[]Segment{s("PEK", "FRA", "2026-12-20", "02:00", "06:10", 0), s("FRA", "LHR", "2026-12-20", "09:35", "10:10", 0)},
			[][]int{{0, 1}}},
		{"exactly 24 hours still connects",
			[]Segment{s("PEK", "FRA", "2026-12-20", "02:00", "06:10", 0), s("FRA", "LHR", "2026-12-21", "06:10", "07:00", 0)},
			[][]int{{0, 1}}},
		{"over 24 hours is a stopover",
			[]Segment{s("PEK", "FRA", "2026-12-20", "02:00", "06:10", 0), s("FRA", "LHR", "2026-12-21", "06:11", "07:00", 0)},
			[][]int{{0}, {1}}},
		{"arrival next day counts for the gap",
			[]Segment{s("CAN", "SYD", "2026-12-20", "21:00", "09:15", 1), s("SYD", "MEL", "2026-12-22", "08:00", "09:30", 0)},
			[][]int{{0, 1}}},
		{"not from the previous arrival",
			[]Segment{s("PEK", "LHR", "2026-12-20", "14:00", "18:10", 0), s("LGW", "MAN", "2026-12-20", "21:00", "22:00", 0)},
			[][]int{{0}, {1}}},
		{"departure before arrival is not a connection",
			[]Segment{s("PEK", "LHR", "2026-12-20", "14:00", "18:10", 0), s("LHR", "MAN", "2026-12-20", "10:00", "11:00", 0)},
			[][]int{{0}, {1}}},
		{"same-day turnaround is a return",
			[]Segment{s("PEK", "SHA", "2026-12-20", "08:00", "10:15", 0), s("SHA", "PEK", "2026-12-20", "18:00", "20:15", 0)},
			[][]int{{0}, {1}}},
		{"return after a week with connections",
			[]Segment{
				s("PEK", "FRA", "2026-12-20", "02:00", "06:10", 0), s("FRA", "LHR", "2026-12-20", "09:35", "10:10", 0),
				s("LHR", "FRA", "2026-12-28", "07:00", "09:40", 0), s("FRA", "PEK", "2026-12-28", "13:00", "05:00", 1),
			},
			[][]int{{0, 1}, {2, 3}}},
		{"dates only: next day connects",
			[]Segment{s("PEK", "LHR", "2026-12-20", "", "", 0), s("LHR", "MAN", "2026-12-21", "", "", 0)},
			[][]int{{0, 1}}},
		{"dates only: two days later is a new journey",
			[]Segment{s("PEK", "LHR", "2026-12-20", "", "", 0), s("LHR", "MAN", "2026-12-22", "", "", 0)},
			[][]int{{0}, {1}}},
		{"dates only: one side without a time",
			[]Segment{s("PEK", "LHR", "2026-12-20", "14:00", "18:10", 0), s("LHR", "MAN", "2026-12-20", "", "", 0)},
			[][]int{{0, 1}}},
		{"multi-city chain",
			[]Segment{
				s("PEK", "HKG", "2026-12-20", "08:00", "12:00", 0), s("HKG", "SIN", "2026-12-23", "09:00", "13:00", 0),
				s("SIN", "BKK", "2026-12-26", "10:00", "11:30", 0), s("BKK", "PEK", "2026-12-30", "01:00", "07:00", 0),
			},
			[][]int{{0}, {1}, {2}, {3}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got [][]int
			for _, j := range journeys(tt.segs) {
				got = append(got, j.Segments)
				first, last := tt.segs[j.Segments[0]], tt.segs[j.Segments[len(j.Segments)-1]]
				if j.Origin != first.Origin || j.Destination != last.Destination || j.Date != first.Date {
					t.Errorf("journey %+v does not match its segments", j)
				}
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("journeys = %v, want %v", got, tt.want)
			}
		})
	}
}

func TestNames(t *testing.T) {
	p := func(surname, given, title, typ, gender string) Passenger {
		return Passenger{Surname: surname, GivenName: given, Title: title, Type: typ, Gender: gender}
	}
	tests := []struct {
		name    string
		line    string
		want    []Passenger
		locator string
	}{
		{"amadeus two per line", " 1.ZHANG/SAN MR   2.LI/SI MS",
			[]Passenger{p("ZHANG", "SAN", "MR", Adult, "male"), p("LI", "SI", "MS", Adult, "female")}, ""},
		{"sabre shared surname", " 1.2ZHANG/SAN MR/SI MS",
			[]Passenger{p("ZHANG", "SAN", "MR", Adult, "male"), p("ZHANG", "SI", "MS", Adult, "female")}, ""},
		{"sabre surname pairs", " 1.2ZHANG/SAN MR/LI/SI MS",
			[]Passenger{p("ZHANG", "SAN", "MR", Adult, "male"), p("LI", "SI", "MS", Adult, "female")}, ""},
		{"glued titles", "1.ZHANG/SANMR 2.LI/XIAOMISS 3.WILLIAMS/JAMES",
			[]Passenger{p("ZHANG", "SAN", "MR", Adult, "male"), p("LI", "XIAO", "MISS", Child, "female"), p("WILLIAMS", "JAMES", "", Adult, "")}, ""},
		{"given names with spaces", "1.SMITH/JOHN PAUL MR",
			[]Passenger{p("SMITH", "JOHN PAUL", "MR", Adult, "male")}, ""},
		{"travelsky locator after a Chinese name", " 1.张三 2.李四 HXYZAB",
			[]Passenger{p("张三", "", "", Adult, ""), p("李四", "", "", Adult, "")}, "HXYZAB"},
		{"travelsky locator with a digit", " 1.ZHANG/SAN JXQ8R2",
			[]Passenger{p("ZHANG", "SAN", "", Adult, "")}, "JXQ8R2"},
		{"a 6-letter given name is not a locator", " 1.ZHANG/SAN YUQING",
			[]Passenger{p("ZHANG", "SAN YUQING", "", Adult, "")}, ""},
		{"travelsky child", " 1.李小明 CHD 2.ZHANG/XIAOHONG CHD",
			[]Passenger{p("李小明", "", "CHD", Child, ""), p("ZHANG", "XIAOHONG", "CHD", Child, "")}, ""},
		{"minority name with a dot", " 1.买买提·艾力",
			[]Passenger{p("买买提·艾力", "", "", Adult, "")}, ""},
		{"amadeus infant with the adult's surname", " 1.ZHANG/SAN MR(INF/XIAO/12MAR26)",
			[]Passenger{p("ZHANG", "SAN", "MR", Adult, "male"), {Surname: "ZHANG", GivenName: "XIAO", Type: Infant, Birthday: "2026-03-12"}}, ""},
		{"amadeus infant without a name", " 1.ZHANG/SAN MR(INF)",
			[]Passenger{p("ZHANG", "SAN", "MR", Adult, "male"), p("ZHANG", "", "", Infant, "")}, ""},
		{"amadeus marker not needed", " 1.ZHANG/SAN MR(ADT)",
			[]Passenger{p("ZHANG", "SAN", "MR", Adult, "male")}, ""},
		{"MSTR without a birthday is a child", " 1.ZHANG/XIAO MSTR",
			[]Passenger{p("ZHANG", "XIAO", "MSTR", Child, "male")}, ""},
		{"birthday decides over the title", " 1.ZHANG/XIAO MSTR(CHD/01JAN10)",
			[]Passenger{{Surname: "ZHANG", GivenName: "XIAO", Title: "MSTR", Type: Adult, Gender: "male", Birthday: "2010-01-01"}}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustParse(t, tt.line+"\nCA937 Y 20DEC PEKLHR HK1 1400 1810", now)
			if !reflect.DeepEqual(res.Passengers, tt.want) {
				t.Errorf("passengers:\n got %+v\nwant %+v", res.Passengers, tt.want)
			}
			if res.RecordLocator != tt.locator {
				t.Errorf("RecordLocator = %q, want %q", res.RecordLocator, tt.locator)
			}
			if len(res.Skipped) != 0 {
				t.Errorf("Skipped = %q", res.Skipped)
			}
		})
	}
}

func TestRecordLocator(t *testing.T) {
	const seg = "\nCA937 Y 20DEC PEKLHR HK1 1400 1810 E CA/NXQ8R2"
	tests := []struct {
		name string
		text string
		want string
	}{
		{"airline locator when nothing else", seg, "NXQ8R2"},
		{"retrieve command", "RT HXYZ12" + seg, "HXYZ12"},
		{"sabre retrieve", "*ABCDEF" + seg, "ABCDEF"},
		{"labelled", "PNR: K9LM2P" + seg, "K9LM2P"},
		{"bare line", "ABCDEF" + seg, "ABCDEF"},
		{"header beats a bare line", "ABCDEF\nRP/PEKCA2100/PEKCA2100 CA/SU 15NOV26/0834Z Z7QK4M" + seg, "Z7QK4M"},
		{"travelsky remark", seg + "\n 9.RMK CA/ABC123", "NXQ8R2"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := mustParse(t, tt.text, now).RecordLocator; got != tt.want {
				t.Errorf("RecordLocator = %q, want %q", got, tt.want)
			}
		})
	}
}

func TestPassengerElements(t *testing.T) {
	const segs = "\n3 CA 937 Y 20DEC 7 PEKLHR HK2 1400 1810\n"
	tests := []struct {
		name string
		text string
		want []Passenger
	}{
		{"DOCS matched by name when the association is missing",
			" 1.ZHANG/SAN MR 2.LI/SI MS" + segs + "SSR DOCS CA HK1 P/USA/123456789/USA/01JAN90/F/01JAN35/LI/SI",
			[]Passenger{
				{Surname: "ZHANG", GivenName: "SAN", Title: "MR", Type: Adult, Gender: "male"},
				{Surname: "LI", GivenName: "SI", Title: "MS", Type: Adult, Gender: "female", Birthday: "1990-01-01",
					Nationality: "US", DocumentType: "passport", DocumentNumber: "123456789", DocumentExpiry: "2035-01-01"},
			}},
		{"DOCS identity card and ICAO country code",
			" 1.MUELLER/HANS MR" + segs + "SSR DOCS LH HK1 I/D/L01X00T47/D/12AUG64/M/02JAN31/MUELLER/HANS/P1",
			[]Passenger{{Surname: "MUELLER", GivenName: "HANS", Title: "MR", Type: Adult, Gender: "male", Birthday: "1964-08-12",
				Nationality: "DE", DocumentType: "idcard", DocumentNumber: "L01X00T47", DocumentExpiry: "2031-01-02"}},
		},
		{"DOCS without a document keeps the birthday only",
			" 1.ZHANG/SAN MR" + segs + "SSR DOCS CA HK1 ////12MAR85/M//ZHANG/SAN/P1",
			[]Passenger{{Surname: "ZHANG", GivenName: "SAN", Title: "MR", Type: Adult, Gender: "male", Birthday: "1985-03-12"}}},
		{"FOID after DOCS does not replace the passport",
			" 1.ZHANG/SAN MR" + segs + "SSR DOCS CA HK1 P/CHN/E1/CHN/12MAR85/M/20DEC30/ZHANG/SAN/P1\nSSR FOID CA HK1 NI110101198503120033/P1",
			[]Passenger{{Surname: "ZHANG", GivenName: "SAN", Title: "MR", Type: Adult, Gender: "male", Birthday: "1985-03-12",
				Nationality: "CN", DocumentType: "passport", DocumentNumber: "E1", DocumentExpiry: "2030-12-20"}}},
		{"FOID with a bad check digit gives no birthday",
			" 1.ZHANG/SAN MR" + segs + "SSR FOID CA HK1 NI110101198503120034/P1",
			[]Passenger{{Surname: "ZHANG", GivenName: "SAN", Title: "MR", Type: Adult, Gender: "male",
				DocumentType: "idcard", DocumentNumber: "110101198503120034"}}},
		{"SSR INFT adds the infant to its adult",
			" 1.ZHANG/SAN MR 2.LI/SI MS" + segs + "SSR INFT CA HK1 PEKLHR 937 Y20DEC LI/XIAO MSTR 12MAR26/P2",
			[]Passenger{
				{Surname: "ZHANG", GivenName: "SAN", Title: "MR", Type: Adult, Gender: "male"},
				{Surname: "LI", GivenName: "SI", Title: "MS", Type: Adult, Gender: "female"},
				{Surname: "LI", GivenName: "XIAO", Title: "MSTR", Type: Infant, Gender: "male", Birthday: "2026-03-12"},
			}},
		{"DOCS MI creates the infant on the adult's lap",
			" 1.ZHANG/SAN MR" + segs + "SSR DOCS CA HK1 P/CHN/E2/CHN/12MAR26/FI/12MAR31/ZHANG/MEI/P1",
			[]Passenger{
				{Surname: "ZHANG", GivenName: "SAN", Title: "MR", Type: Adult, Gender: "male"},
				{Surname: "ZHANG", GivenName: "MEI", Type: Infant, Gender: "female", Birthday: "2026-03-12",
					Nationality: "CN", DocumentType: "passport", DocumentNumber: "E2", DocumentExpiry: "2031-03-12"},
			}},
		{"birthday under 2 makes an infant, under 12 a child",
			" 1.ZHANG/A MR 2.ZHANG/B MR 3.ZHANG/C MR" + segs +
				"SSR DOCS CA HK1 ////21DEC24/M//ZHANG/A/P1\nSSR DOCS CA HK1 ////20DEC24/M//ZHANG/B/P2\nSSR DOCS CA HK1 ////21DEC14/M//ZHANG/C/P3",
			[]Passenger{
				{Surname: "ZHANG", GivenName: "A", Title: "MR", Type: Infant, Gender: "male", Birthday: "2024-12-21"},
				{Surname: "ZHANG", GivenName: "B", Title: "MR", Type: Child, Gender: "male", Birthday: "2024-12-20"},
				{Surname: "ZHANG", GivenName: "C", Title: "MR", Type: Child, Gender: "male", Birthday: "2014-12-21"},
			}},
		{"element for an unknown passenger is ignored",
			" 1.ZHANG/SAN MR 2.LI/SI MS" + segs + "SSR FOID CA HK1 NI110101198503120033",
			[]Passenger{
				{Surname: "ZHANG", GivenName: "SAN", Title: "MR", Type: Adult, Gender: "male"},
				{Surname: "LI", GivenName: "SI", Title: "MS", Type: Adult, Gender: "female"},
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res := mustParse(t, tt.text, now)
			if !reflect.DeepEqual(res.Passengers, tt.want) {
				t.Errorf("passengers:\n got %+v\nwant %+v", res.Passengers, tt.want)
			}
			if len(res.Skipped) != 0 {
				t.Errorf("Skipped = %q", res.Skipped)
			}
		})
	}
}

func TestCountryCode(t *testing.T) {
	if len(alpha3) != 249 {
		t.Errorf("%d alpha-3 codes, want the 249 of ISO 3166-1", len(alpha3))
	}
	seen := map[string]string{}
	for a3, a2 := range alpha3 {
		if len(a3) != 3 || len(a2) != 2 {
			t.Errorf("bad pair %s → %s", a3, a2)
		}
		if other, dup := seen[a2]; dup {
			t.Errorf("%s and %s both map to %s", a3, other, a2)
		}
		seen[a2] = a3
	}
	for in, want := range map[string]string{
		"CHN": "CN", "chn": "CN", "GBR": "GB", "USA": "US", "HKG": "HK", "MAC": "MO", "TWN": "TW", "KOR": "KR",
		"D": "DE", "GBN": "GB", "RKS": "XK", "CN": "CN", "XK": "XK", "XXX": "", "": "", "ZZ": "",
	} {
		if got := countryCode(in); got != want {
			t.Errorf("countryCode(%q) = %q, want %q", in, got, want)
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, s := range []string{
		amadeusDisplay, sabreDisplay, travelskyDisplay,
		"", "\r\n", "1.", "1.2", "1.I/", "(INF", "1.A/B(INF/", "1.A/B(INFC/D/31FEB26)",
		"CA937 Y 20DEC PEKLHR HK1 1400 1810",
		"CA937 Y 29FEB PEKLHR HK1 2400 9999+9",
		"CA937 Y 20DEC PEKPEK HK1",
		"SSR DOCS CA HK1 ////////////",
		"SSR INFT CA HK1 /P99\nSSR DOCS CA HK1 P/CHN/1/CHN/1JAN1/MI/1JAN1/A/B-9.9",
		"1.9A/B/C/D\n 3.1I/X/Y*INF\nXN/IN/张INF()/P1",
		" 1.张三 HXYZ12\n  SSR DOCS\n    continued/P1",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, text string) {
		res, err := Parse(text, now)
		if err != nil {
			var pe *Error
			if !errors.As(err, &pe) {
				t.Fatalf("error %v is not a *pnr.Error", err)
			}
		} else if len(res.Segments) == 0 || len(res.Segments) > MaxSegments || len(res.Passengers) > MaxPassengers {
			t.Fatalf("accepted %d segments, %d passengers", len(res.Segments), len(res.Passengers))
		}
		next := 0
		for _, j := range res.Journeys {
			if len(j.Segments) == 0 {
				t.Fatalf("empty journey %+v", j)
			}
			for _, i := range j.Segments {
				if i < 0 || i >= len(res.Segments) {
					t.Fatalf("journey %+v indexes segment %d of %d", j, i, len(res.Segments))
				}
				if i != next {
					t.Fatalf("journeys %+v do not take the segments in order", res.Journeys)
				}
				next++
			}
		}
		if next != len(res.Segments) {
			t.Fatalf("journeys %+v cover %d of %d segments", res.Journeys, next, len(res.Segments))
		}
		for _, s := range res.Segments {
			if s.Origin == s.Destination {
				t.Fatalf("segment from %s to itself accepted", s.Origin)
			}
			checkSegment(t, s)
		}
		for _, j := range res.Journeys {
			first, last := res.Segments[j.Segments[0]], res.Segments[j.Segments[len(j.Segments)-1]]
			if j.Origin != first.Origin || j.Destination != last.Destination || j.Date != first.Date {
				t.Fatalf("journey %+v does not match its segments %+v … %+v", j, first, last)
			}
		}
		for _, p := range res.Passengers {
			checkPassenger(t, p)
		}
		// Parsing is a function of the text: the same paste, the same result.
		again, err2 := Parse(text, now)
		if !reflect.DeepEqual(res, again) || (err == nil) != (err2 == nil) {
			t.Fatalf("two parses of the same text differ:\n%+v\n%+v", res, again)
		}
	})
}

// Bounds of what Parse hands on: codes, dates and times a search and a
// booking can take as they are.
var (
	fuzzAirport = regexp.MustCompile(`^[A-Z]{3}$`)
	fuzzFlight  = regexp.MustCompile(`^[A-Z0-9]{2}[0-9]{1,4}[A-Z]?$`)
	fuzzTime    = regexp.MustCompile(`^([01][0-9]|2[0-3]):[0-5][0-9]$`)
)

func validDate(s string) bool {
	_, err := time.Parse(time.DateOnly, s)
	return err == nil
}

func checkSegment(t *testing.T, s Segment) {
	t.Helper()
	switch {
	case !fuzzAirport.MatchString(s.Origin) || !fuzzAirport.MatchString(s.Destination):
		t.Fatalf("segment airports %q %q", s.Origin, s.Destination)
	case !fuzzFlight.MatchString(s.FlightNumber) || !strings.HasPrefix(s.FlightNumber, s.Carrier):
		t.Fatalf("segment flight %q of carrier %q", s.FlightNumber, s.Carrier)
	case !validDate(s.Date):
		t.Fatalf("segment date %q", s.Date)
	case s.DepartTime != "" && !fuzzTime.MatchString(s.DepartTime), s.ArriveTime != "" && !fuzzTime.MatchString(s.ArriveTime):
		t.Fatalf("segment times %q %q", s.DepartTime, s.ArriveTime)
	case s.ArriveDayOffset < -1 || s.ArriveDayOffset > 3:
		t.Fatalf("segment arrives %d days off", s.ArriveDayOffset)
	case s.Seats < 0 || s.Seats > 999: // three digits, as a group booking may hold
		t.Fatalf("segment seats %d", s.Seats)
	}
}

func checkPassenger(t *testing.T, p Passenger) {
	t.Helper()
	switch {
	case p.Type != "adult" && p.Type != "child" && p.Type != "infant":
		t.Fatalf("passenger type %q", p.Type)
	case p.Gender != "" && p.Gender != "male" && p.Gender != "female":
		t.Fatalf("passenger gender %q", p.Gender)
	case p.Birthday != "" && !validDate(p.Birthday), p.DocumentExpiry != "" && !validDate(p.DocumentExpiry):
		t.Fatalf("passenger dates %q %q", p.Birthday, p.DocumentExpiry)
	case p.Nationality != "" && !regexp.MustCompile(`^[A-Z]{2}$`).MatchString(p.Nationality):
		t.Fatalf("passenger nationality %q", p.Nationality)
	case p.Surname == "":
		t.Fatalf("passenger without a surname: %+v", p)
	}
}
