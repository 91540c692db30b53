package cli

import "github.com/voyage/voyage/pkg/i18n"

// countNoun is n with the English noun in the form CLDR's plural rule
// picks ("1 entry", "0 entries").
func countNoun(n int, one, other string) string { return i18n.CountEN(n, one, other) }
