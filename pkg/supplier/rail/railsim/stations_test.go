package railsim

import (
	"strings"
	"testing"
)

func TestStationFile(t *testing.T) {
	n, err := parseStations(stationsTSV)
	if err != nil {
		t.Fatal(err)
	}
	if len(n.stations) < 60 {
		t.Fatalf("%d stations, want at least 60", len(n.stations))
	}
	for _, st := range n.stations {
		if st.Name == "" || st.NameHans == "" || st.NameHant == "" || st.Pinyin == "" || st.City == "" || st.CityHans == "" || st.CityHant == "" {
			t.Errorf("%s: a name is missing: %+v", st.Code, st)
		}
		if st.Lat < 18 || st.Lat > 54 || st.Lon < 73 || st.Lon > 135 {
			t.Errorf("%s: %v,%v is not in China", st.Code, st.Lat, st.Lon)
		}
		if got := initials(st.Pinyin, st.NameHans); len(got) != len([]rune(st.NameHans)) {
			t.Errorf("%s: pinyin %q does not split into %d syllables (got %q)", st.Code, st.Pinyin, len([]rune(st.NameHans)), got)
		}
	}
}

func TestInitials(t *testing.T) {
	for _, c := range []struct{ pinyin, hans, want string }{
		{"beijingnan", "北京南", "bjn"},
		{"changshanan", "长沙南", "csn"},
		{"xian", "西安", "xa"},
		{"xianbei", "西安北", "xab"},
		{"shanghaihongqiao", "上海虹桥", "shhq"},
		{"haerbinxi", "哈尔滨西", "hebx"},
	} {
		if got := initials(c.pinyin, c.hans); got != c.want {
			t.Errorf("initials(%q) = %q, want %q", c.pinyin, got, c.want)
		}
	}
}

func TestStationSearch(t *testing.T) {
	n, err := parseStations(stationsTSV)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		name, q string
		first   string   // the first hit
		has     []string // codes among the hits
		none    bool
	}{
		{name: "code", q: "aoh", first: "AOH"},
		{name: "code upper", q: "VNP", first: "VNP"},
		{name: "english prefix", q: "shanghai h", first: "AOH"},
		{name: "english no space", q: "beijingsouth", first: "VNP"},
		{name: "english case", q: "GUANGZHOU south", first: "IZQ"},
		{name: "simplified", q: "上海虹", first: "AOH"},
		{name: "traditional", q: "上海虹橋", first: "AOH"},
		{name: "traditional only", q: "廣州", has: []string{"IZQ", "GZQ", "GGQ"}},
		{name: "pinyin", q: "beijingn", first: "VNP"},
		{name: "pinyin initials", q: "shhq", first: "AOH"},
		{name: "city english", q: "shenzhen", has: []string{"IOQ", "SZQ", "NZQ"}},
		{name: "city chinese", q: "北京", has: []string{"BJP", "VNP", "BXP", "VAP", "IFP"}},
		{name: "no match", q: "xyzzy", none: true},
		{name: "empty", q: "  ", none: true},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := n.search(c.q, 0)
			if c.none {
				if len(got) != 0 {
					t.Fatalf("%q found %d stations", c.q, len(got))
				}
				return
			}
			if len(got) == 0 {
				t.Fatalf("%q found nothing", c.q)
			}
			if c.first != "" && got[0].Code != c.first {
				t.Errorf("%q: first %s, want %s", c.q, got[0].Code, c.first)
			}
			codes := map[string]bool{}
			for _, s := range got {
				codes[s.Code] = true
			}
			for _, h := range c.has {
				if !codes[h] {
					t.Errorf("%q: %s missing from %v", c.q, h, keys(codes))
				}
			}
		})
	}
}

func TestStationLimitAndLocalized(t *testing.T) {
	n, _ := parseStations(stationsTSV)
	if got := n.search("b", 3); len(got) != 3 {
		t.Fatalf("limit 3 gave %d", len(got))
	}
	st, _ := n.find("aoh")
	for lang, want := range map[string]string{"en": "Shanghai Hongqiao", "zh-cn": "上海虹桥", "zh-tw": "上海虹橋"} {
		if got, _ := st.Localized(lang); got != want {
			t.Errorf("%s: %q, want %q", lang, got, want)
		}
	}
}

func keys(m map[string]bool) string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	return strings.Join(out, ",")
}
