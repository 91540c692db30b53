package siteinfo_test

import (
	"testing"

	"github.com/voyage/voyage/pkg/siteinfo"
)

// Traditional Chinese readers see the site's name in Traditional
// characters, Simplified readers in Simplified.
func TestNamesInEachLanguage(t *testing.T) {
	i := siteinfo.Info{Name: "Voyage Travel Technology", ShortName: "Voyage", ChineseName: "远航旅行科技", ChineseShortName: "远航",
		TraditionalName: "遠航旅行科技", TraditionalShortName: "遠航"}
	for _, tt := range []struct{ lang, short, name string }{
		{"en", "Voyage", "Voyage Travel Technology"},
		{"zh-cn", "远航", "远航旅行科技"},
		{"zh-tw", "遠航", "遠航旅行科技"},
	} {
		if got := i.ShortNameIn(tt.lang); got != tt.short {
			t.Errorf("ShortNameIn(%s) = %q, want %q", tt.lang, got, tt.short)
		}
		if got := i.NameIn(tt.lang); got != tt.name {
			t.Errorf("NameIn(%s) = %q, want %q", tt.lang, got, tt.name)
		}
	}
	i.TraditionalShortName = ""
	if got := i.ShortNameIn("zh-tw"); got != "远航" {
		t.Errorf("without a Traditional name: %q", got)
	}
}
