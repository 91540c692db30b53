package geo

import (
	"math"
	"slices"
	"testing"
	"time"
)

func TestCounts(t *testing.T) {
	var ranked, zhAirports int
	for _, a := range Airports() {
		if a.Rank > 0 {
			ranked++
		}
		if a.Name.ZhCN != "" && a.Name.ZhTW != "" {
			zhAirports++
		}
		if a.Rank > 0 && (a.Name.ZhCN == "" || a.Name.ZhTW == "" || a.Pinyin == "") {
			t.Errorf("ranked airport %s lacks a Chinese name or pinyin: %+v", a.Code, a.Name)
		}
		if a.Name.En == "" || a.TZ == "" || a.Country == "" || a.CityCode == "" || a.MinConnect <= 0 {
			t.Errorf("airport %s is incomplete: %+v", a.Code, a)
		}
	}
	if ranked < 300 || zhAirports < 300 {
		t.Errorf("%d ranked airports, %d with Chinese names; want at least 300 of each", ranked, zhAirports)
	}
	if n := len(Airports()); n < 3000 {
		t.Errorf("%d airports, want the world's commercial airports (3000+)", n)
	}
	var zhAirlines int
	for _, a := range Airlines() {
		if a.Name.En == "" {
			t.Errorf("airline %s has no English name", a.Code)
		}
		if a.Rank > 0 && a.Name.ZhCN != "" && a.Name.ZhTW != "" {
			zhAirlines++
		}
	}
	if zhAirlines < 150 {
		t.Errorf("%d ranked airlines with Chinese names, want at least 150", zhAirlines)
	}
	// Cities of the ranked airports have Chinese names too.
	for _, a := range Airports() {
		if a.Rank == 0 {
			continue
		}
		c, ok := CityByCode(a.CityCode)
		if !ok || c.Name.ZhCN == "" || c.Name.ZhTW == "" || c.Pinyin == "" {
			t.Errorf("city %s of %s lacks Chinese names: %+v", a.CityCode, a.Code, c)
		}
	}
}

func TestOrder(t *testing.T) {
	all := Airports()
	if all[0].Code != "ATL" || all[0].Rank != 1 {
		t.Errorf("first airport %s rank %d, want ATL 1", all[0].Code, all[0].Rank)
	}
	for i := 1; i < len(all); i++ {
		a, b := all[i-1], all[i]
		if b.Rank != 0 && (a.Rank == 0 || a.Rank >= b.Rank) {
			t.Fatalf("airports out of rank order at %s (%d) → %s (%d)", a.Code, a.Rank, b.Code, b.Rank)
		}
	}
	airlines := Airlines()
	if airlines[0].Rank != 1 {
		t.Errorf("first airline %s rank %d", airlines[0].Code, airlines[0].Rank)
	}
}

func TestCities(t *testing.T) {
	tests := []struct {
		city     string
		airports []string
		en, cn   string
	}{
		{"BJS", []string{"PEK", "PKX"}, "Beijing", "北京"},
		{"SHA", []string{"PVG", "SHA"}, "Shanghai", "上海"},
		{"LON", []string{"LHR", "LGW", "STN", "LTN", "LCY", "SEN"}, "London", "伦敦"},
		{"TYO", []string{"HND", "NRT"}, "Tokyo", "东京"},
		{"NYC", []string{"JFK", "EWR", "LGA"}, "New York", "纽约"},
		{"TPE", []string{"TPE", "TSA"}, "Taipei", "台北"},
		{"CAN", []string{"CAN"}, "Guangzhou", "广州"},
	}
	for _, tt := range tests {
		t.Run(tt.city, func(t *testing.T) {
			c, ok := CityByCode(tt.city)
			if !ok {
				t.Fatalf("no city %s", tt.city)
			}
			if !slices.Equal(c.Airports, tt.airports) {
				t.Errorf("airports %v, want %v", c.Airports, tt.airports)
			}
			if c.Name.En != tt.en || c.Name.ZhCN != tt.cn {
				t.Errorf("names %+v, want %s %s", c.Name, tt.en, tt.cn)
			}
			for _, a := range tt.airports {
				if got := CityOf(a); got != tt.city {
					t.Errorf("CityOf(%s) = %s, want %s", a, got, tt.city)
				}
			}
		})
	}
	// Every airport's city exists and lists it.
	for _, a := range Airports() {
		c, ok := CityByCode(a.CityCode)
		if !ok || !slices.Contains(c.Airports, a.Code) {
			t.Errorf("airport %s: city %s does not list it", a.Code, a.CityCode)
		}
	}
}

func TestResolve(t *testing.T) {
	tests := []struct {
		code string
		want []string
	}{
		{"BJS", []string{"PEK", "PKX"}},
		{"bjs", []string{"PEK", "PKX"}},
		{"SHA", []string{"PVG", "SHA"}},
		{"PEK", []string{"PEK"}},
		{"CAN", []string{"CAN"}},
		{"LON", []string{"LHR", "LGW", "STN", "LTN", "LCY", "SEN"}},
		{"ZZZ", nil},
		{"", nil},
	}
	for _, tt := range tests {
		if got := Resolve(tt.code); !slices.Equal(got, tt.want) {
			t.Errorf("Resolve(%q) = %v, want %v", tt.code, got, tt.want)
		}
	}
	if CityOf("CAN") != "CAN" || CityOf("ZZZ") != "" {
		t.Errorf("CityOf CAN %q, ZZZ %q", CityOf("CAN"), CityOf("ZZZ"))
	}
	for _, tt := range []struct{ code, city string }{{"PEK", "BJS"}, {"pek ", "BJS"}, {"CAN", "CAN"}, {"BJS", ""}, {"ZZZ", ""}} {
		if city := CityOf(tt.code); city != tt.city {
			t.Errorf("CityOf(%q) = %q, want %q", tt.code, city, tt.city)
		}
	}
}

func TestRouteClass(t *testing.T) {
	tests := []struct{ o, d, want string }{
		{"PEK", "SHA", "china"},
		{"BJS", "CAN", "china"},
		{"HKG", "PEK", "international"},
		{"TPE", "PVG", "international"},
		{"MFM", "HKG", "international"},
		{"JFK", "LAX", "domestic"},
		{"LHR", "MAN", "domestic"},
		{"LHR", "CDG", "international"},
		{"PEK", "LHR", "intercontinental"},
		{"JFK", "LHR", "intercontinental"},
		{"PEK", "ZZZ", "intercontinental"},
	}
	for _, tt := range tests {
		if got := RouteClass(tt.o, tt.d); got != tt.want {
			t.Errorf("RouteClass(%s, %s) = %s, want %s", tt.o, tt.d, got, tt.want)
		}
	}
	for _, tt := range []struct {
		code string
		want bool
	}{{"PEK", true}, {"CAN", true}, {"HKG", false}, {"MFM", false}, {"TPE", false}, {"LHR", false}, {"ZZZ", false}} {
		if got := IsMainland(tt.code); got != tt.want {
			t.Errorf("IsMainland(%s) = %v", tt.code, got)
		}
	}
	for country, want := range map[string]string{"CN": "AS", "gb": "EU", "US": "NA", "BR": "SA", "AU": "OC", "ZA": "AF", "AQ": "AN", "XX": ""} {
		if got := Continent(country); got != want {
			t.Errorf("Continent(%s) = %q, want %q", country, got, want)
		}
	}
	// Every country of the country list has a continent.
	for _, c := range Countries("en") {
		if Continent(c.Code) == "" {
			t.Errorf("country %s has no continent", c.Code)
		}
	}
}

func TestDistanceAndZones(t *testing.T) {
	if d := DistanceKm("PEK", "LHR"); math.Abs(d-8150) > 50 {
		t.Errorf("PEK–LHR %.0f km, want about 8150", d)
	}
	if d := DistanceKm("JFK", "LAX"); math.Abs(d-3980) > 40 {
		t.Errorf("JFK–LAX %.0f km, want about 3980", d)
	}
	if d := DistanceKm("PEK", "ZZZ"); d != 0 {
		t.Errorf("unknown airport distance %v, want 0", d)
	}
	when := time.Date(2025, 1, 15, 12, 0, 0, 0, time.UTC)
	for code, want := range map[string]int{"PEK": 8 * 3600, "LHR": 0, "JFK": -5 * 3600, "DEL": 5*3600 + 1800, "SYD": 11 * 3600} {
		if _, off := when.In(Location(code)).Zone(); off != want {
			t.Errorf("Location(%s) offset %d, want %d", code, off, want)
		}
	}
	if Location("ZZZ") != time.UTC {
		t.Error("unknown airport is not UTC")
	}
	for _, a := range Airports() {
		if _, err := time.LoadLocation(a.TZ); err != nil {
			t.Errorf("airport %s: zone %q: %v", a.Code, a.TZ, err)
		}
	}
}

func TestMinConnect(t *testing.T) {
	for code, want := range map[string]int{"PEK": 120, "LHR": 90, "FRA": 60, "ATL": 75} {
		if a, _ := AirportByCode(code); a.MinConnect != want {
			t.Errorf("%s minimum connection %d, want %d", code, a.MinConnect, want)
		}
	}
	for _, a := range Airports() {
		if a.MinConnect < 30 || a.MinConnect > 180 {
			t.Errorf("%s minimum connection %d", a.Code, a.MinConnect)
		}
	}
}

func TestTraditionalNames(t *testing.T) {
	tests := []struct{ code, cn, tw string }{
		{"PEK", "北京首都国际机场", "北京首都國際機場"},
		{"LHR", "伦敦希思罗机场", "倫敦希思羅機場"},
		{"TPE", "台湾桃园国际机场", "臺灣桃園國際機場"},
		{"SYD", "悉尼金斯福德·史密斯机场", "雪梨金斯福德·史密斯機場"},
		{"DXB", "迪拜国际机场", "杜拜國際機場"},
	}
	for _, tt := range tests {
		a, ok := AirportByCode(tt.code)
		if !ok || a.Name.ZhCN != tt.cn || a.Name.ZhTW != tt.tw {
			t.Errorf("%s names %+v, want %s / %s", tt.code, a.Name, tt.cn, tt.tw)
		}
	}
	for code, want := range map[string]string{"CA": "中國國際航空", "BR": "長榮航空", "IT": "台灣虎航", "UA": "聯合航空"} {
		if a, _ := AirlineByCode(code); a.Name.ZhTW != want {
			t.Errorf("airline %s zh-tw %q, want %q", code, a.Name.ZhTW, want)
		}
	}
	if a, _ := AirportByCode("PEK"); a.Pinyin != "beijingshouduguojijichang" {
		t.Errorf("PEK pinyin %q", a.Pinyin)
	}
}

func TestAirlines(t *testing.T) {
	tests := []struct {
		code, en, cn, alliance, hub string
		lowCost                     bool
	}{
		{"CA", "Air China", "中国国际航空", "star", "PEK", false},
		{"BA", "British Airways", "英国航空", "oneworld", "LHR", false},
		{"MU", "China Eastern Airlines", "中国东方航空", "skyteam", "PVG", false},
		{"9C", "Spring Airlines", "春秋航空", "", "PVG", true},
		{"fr", "Ryanair", "瑞安航空", "", "STN", true},
	}
	for _, tt := range tests {
		a, ok := AirlineByCode(tt.code)
		if !ok {
			t.Errorf("no airline %s", tt.code)
			continue
		}
		if a.Name.En != tt.en || a.Name.ZhCN != tt.cn || a.Alliance != tt.alliance || a.LowCost != tt.lowCost || len(a.Hubs) == 0 || a.Hubs[0] != tt.hub {
			t.Errorf("airline %s = %+v", tt.code, a)
		}
	}
	if _, ok := AirlineByCode("AN"); ok {
		t.Error("Ansett Australia (ceased 2002) is listed")
	}
}

func TestRoutes(t *testing.T) {
	has := func(carrier, o, d string) bool {
		for _, r := range RoutesFrom(o) {
			if r.Carrier == carrier && r.Destination == d {
				return true
			}
		}
		return false
	}
	for _, tt := range []struct{ carrier, o, d string }{
		{"CA", "PEK", "LHR"}, {"CA", "LHR", "PEK"}, {"BA", "LHR", "JFK"}, {"BA", "JFK", "LHR"},
		{"MU", "PVG", "CDG"}, {"CZ", "CAN", "PEK"}, {"CX", "HKG", "LHR"}, {"SQ", "SIN", "SYD"}, {"AA", "DFW", "LAX"},
	} {
		if !has(tt.carrier, tt.o, tt.d) {
			t.Errorf("no %s route %s→%s", tt.carrier, tt.o, tt.d)
		}
	}
	all := Routes()
	if len(all) < 10000 {
		t.Errorf("%d routes, want a real network", len(all))
	}
	seen := map[Route]bool{}
	for _, r := range all {
		if _, ok := AirportByCode(r.Origin); !ok {
			t.Errorf("route %+v: unknown origin", r)
		}
		if _, ok := AirportByCode(r.Destination); !ok {
			t.Errorf("route %+v: unknown destination", r)
		}
		if _, ok := AirlineByCode(r.Carrier); !ok {
			t.Errorf("route %+v: unknown carrier", r)
		}
		if r.Origin == r.Destination || seen[r] {
			t.Errorf("route %+v: loop or duplicate", r)
		}
		seen[r] = true
	}
	for r := range seen {
		if !seen[Route{Carrier: r.Carrier, Origin: r.Destination, Destination: r.Origin}] {
			t.Errorf("route %+v has no way back", r)
		}
	}
	for _, r := range RoutesFrom("pek") {
		if r.Origin != "PEK" {
			t.Fatalf("RoutesFrom(PEK) gave %+v", r)
		}
	}
	if RoutesFrom("ZZZ") != nil {
		t.Error("routes from an unknown airport")
	}
}
