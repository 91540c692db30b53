package geo

import (
	"slices"
	"testing"
)

func codes(ps []Place) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Code
	}
	return out
}

func TestSearch(t *testing.T) {
	tests := []struct {
		name, q, lang string
		first, typ    string // the first answer
		firstName     string // its name in lang, when checked
		cityName      string
		airports      []string // nested airports of a city answer
	}{
		{"airport code", "PEK", "en", "PEK", "airport", "Beijing Capital International Airport", "Beijing", nil},
		{"code any case", "pek", "zh-cn", "PEK", "airport", "北京首都国际机场", "北京", nil},
		{"city code", "BJS", "en", "BJS", "city", "Beijing", "Beijing", []string{"PEK", "PKX"}},
		{"city code that is an airport code", "SHA", "zh-cn", "SHA", "city", "上海", "上海", []string{"PVG", "SHA"}},
		{"london code", "LON", "en", "LON", "city", "London", "London", []string{"LHR", "LGW", "STN", "LTN", "LCY", "SEN"}},
		{"simplified chinese city", "北京", "zh-cn", "BJS", "city", "北京", "北京", []string{"PEK", "PKX"}},
		{"traditional answer", "北京", "zh-tw", "BJS", "city", "北京", "北京", []string{"PEK", "PKX"}},
		{"pinyin", "beijing", "zh-cn", "BJS", "city", "北京", "", []string{"PEK", "PKX"}},
		{"pinyin with spaces and case", "Bei Jing", "en", "BJS", "city", "Beijing", "", nil},
		{"pinyin initials", "bj", "zh-cn", "BJS", "city", "", "", nil},
		{"london in chinese", "伦敦", "zh-cn", "LON", "city", "伦敦", "", []string{"LHR", "LGW", "STN", "LTN", "LCY", "SEN"}},
		{"london in traditional", "倫敦", "zh-tw", "LON", "city", "倫敦", "", nil},
		{"shanghai", "上海", "zh-cn", "SHA", "city", "上海", "", []string{"PVG", "SHA"}},
		{"english city", "london", "en", "LON", "city", "London", "", nil},
		{"airport word", "heathrow", "zh-tw", "LHR", "airport", "倫敦希思羅機場", "倫敦", nil},
		{"airport in chinese", "首都", "zh-cn", "PEK", "airport", "北京首都国际机场", "北京", nil},
		{"single-airport city", "广州", "en", "CAN", "airport", "Guangzhou Baiyun International Airport", "Guangzhou", nil},
		{"single-airport city pinyin", "guangzhou", "zh-tw", "CAN", "airport", "廣州白雲國際機場", "廣州", nil},
		{"whole name first", "xian", "en", "XIY", "airport", "", "Xi'an", nil},
		{"taiwan spelling", "臺北", "zh-tw", "TPE", "city", "臺北", "", []string{"TPE", "TSA"}},
		{"taiwan term", "雪梨", "zh-tw", "SYD", "airport", "雪梨金斯福德·史密斯機場", "雪梨", nil},
		{"accents", "sao paulo", "en", "SAO", "city", "São Paulo", "", []string{"GRU", "CGH", "VCP"}},
		{"city then airport", "tokyo haneda", "en", "HND", "airport", "", "Tokyo", nil},
		{"empty is busiest", "", "en", "ATL", "airport", "", "", nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := Search(tt.q, tt.lang, 10)
			if len(got) == 0 {
				t.Fatalf("Search(%q) found nothing", tt.q)
			}
			p := got[0]
			if p.Code != tt.first || p.Type != tt.typ {
				t.Fatalf("Search(%q) first %s/%s, want %s/%s (all %v)", tt.q, p.Code, p.Type, tt.first, tt.typ, codes(got))
			}
			if tt.firstName != "" && p.Name != tt.firstName {
				t.Errorf("name %q, want %q", p.Name, tt.firstName)
			}
			if tt.cityName != "" && p.CityName != tt.cityName {
				t.Errorf("city name %q, want %q", p.CityName, tt.cityName)
			}
			if tt.airports != nil && !slices.Equal(codes(p.Airports), tt.airports) {
				t.Errorf("airports %v, want %v", codes(p.Airports), tt.airports)
			}
			if p.Country == "" || p.CountryName == "" || p.CityCode == "" {
				t.Errorf("incomplete place %+v", p)
			}
			for i, a := range p.Airports {
				if a.Type != "airport" || a.CityCode != p.Code || a.Name == "" {
					t.Errorf("nested airport %d: %+v", i, a)
				}
			}
		})
	}
}

func TestSearchAnswers(t *testing.T) {
	// A city's airports are inside it, not beside it.
	for _, q := range []string{"london", "BJS", "北京", "", "s"} {
		got := Search(q, "en", 50)
		seen := map[string]bool{}
		for _, p := range got {
			if seen[p.Code+p.Type] {
				t.Errorf("Search(%q): %s twice", q, p.Code)
			}
			seen[p.Code+p.Type] = true
		}
		for _, p := range got {
			if p.Type == "airport" {
				if c, _ := CityByCode(p.CityCode); len(c.Airports) > 1 && seen[p.CityCode+"city"] {
					t.Errorf("Search(%q): airport %s beside its city %s", q, p.Code, p.CityCode)
				}
			}
		}
	}
	if got := Search("lon", "en", 3); len(got) != 3 {
		t.Errorf("limit 3 gave %d", len(got))
	}
	if got := Search("zzzzzz", "en", 10); len(got) != 0 {
		t.Errorf("nonsense found %v", codes(got))
	}
	if got := Search("--", "en", 10); len(got) != 0 {
		t.Errorf("punctuation found %v", codes(got))
	}
	// The code first, then the busiest of the prefix matches.
	got := Search("san", "en", 10)
	if len(got) < 2 || got[0].Code != "SAN" || got[1].Code != "SFO" {
		t.Errorf("san: %v, want San Diego (the code) then San Francisco", codes(got))
	}
}

func BenchmarkSearch(b *testing.B) {
	Search("", "en", 10) // load and index outside the timing
	for _, q := range []string{"PEK", "bei", "北京", "london", "s", "heathrow", "sao paulo", "伦敦", ""} {
		b.Run(q, func(b *testing.B) {
			b.ReportAllocs()
			for i := 0; i < b.N; i++ {
				Search(q, "zh-cn", 10)
			}
		})
	}
}
