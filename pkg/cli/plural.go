package cli

import (
	"fmt"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// countNoun is n with the English noun in the form CLDR's plural rule
// picks ("1 entry", "0 entries"), the rule i18n.T applies to the catalogs.
func countNoun(n int, one, other string) string {
	abs := n
	if abs < 0 {
		abs = -abs
	}
	if plural.Cardinal.MatchPlural(language.English, abs, 0, 0, 0, 0) == plural.One {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, other)
}
