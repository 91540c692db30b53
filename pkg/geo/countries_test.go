package geo

import (
	"testing"
)

func TestLookup(t *testing.T) {
	tests := []struct {
		code   string
		ok     bool
		en, cn string
		tw     string
	}{
		{"SG", true, "Singapore", "新加坡", "新加坡"},
		{"cn", true, "People's Republic of China", "中国", "中國"},
		{" hk ", true, "Hong Kong", "香港", "香港"},
		{"XX", false, "", "", ""},
		{"", false, "", "", ""},
	}
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			c, ok := Lookup(tt.code)
			if ok != tt.ok {
				t.Fatalf("Lookup(%q) ok = %v, want %v", tt.code, ok, tt.ok)
			}
			if !ok {
				return
			}
			if got := c.Name("en"); got != tt.en {
				t.Errorf("en name = %q, want %q", got, tt.en)
			}
			if got := c.Name("zh-cn"); got != tt.cn {
				t.Errorf("zh-cn name = %q, want %q", got, tt.cn)
			}
			if got := c.Name("zh-tw"); got != tt.tw {
				t.Errorf("zh-tw name = %q, want %q", got, tt.tw)
			}
			if got := c.Name("fr"); got != tt.en {
				t.Errorf("unknown language falls back to English: got %q", got)
			}
		})
	}
}

func TestCountriesComplete(t *testing.T) {
	for _, lang := range []string{"en", "zh-cn", "zh-tw"} {
		list := Countries(lang)
		if len(list) < 240 {
			t.Fatalf("%s: %d countries, want every ISO 3166-1 country", lang, len(list))
		}
		seen := map[string]bool{}
		for _, c := range list {
			if len(c.Code) != 2 || seen[c.Code] {
				t.Errorf("%s: bad or duplicate code %q", lang, c.Code)
			}
			seen[c.Code] = true
			for _, l := range []string{"en", "zh-cn", "zh-tw"} {
				if c.Names[l] == "" {
					t.Errorf("%s has no %s name", c.Code, l)
				}
			}
		}
	}
}

func TestCountriesSortedPerLanguage(t *testing.T) {
	en := Countries("en")
	if en[0].Code != "AF" {
		t.Errorf("first English country = %s (%s), want Afghanistan", en[0].Code, en[0].Name("en"))
	}
	// Pinyin order: 阿富汗 (a) comes before 中国 (zhong).
	cn := Countries("zh-cn")
	pos := map[string]int{}
	for i, c := range cn {
		pos[c.Code] = i
	}
	if pos["AF"] > pos["CN"] {
		t.Errorf("zh-cn order: Afghanistan at %d after China at %d", pos["AF"], pos["CN"])
	}
	if got := Countries("xx"); len(got) != len(en) || got[0].Code != en[0].Code {
		t.Error("an unknown language lists countries in English order")
	}
}

func TestAltNames(t *testing.T) {
	c, _ := Lookup("GB")
	found := false
	for _, n := range c.Alt {
		if n == "UK" {
			found = true
		}
	}
	if !found {
		t.Errorf("GB alt names %v lack UK", c.Alt)
	}
}
