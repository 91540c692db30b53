package i18n

import (
	"fmt"
	"math"
	"strconv"

	"golang.org/x/text/feature/plural"
	"golang.org/x/text/language"
)

// The catalogs keep plural variants as i18next does: key_one, key_other
// (and _zero, _two, _few, _many where a language has them). Which one a
// count takes is CLDR's rule for the language, from golang.org/x/text, so
// Go and the islands agree ("1 entry", "2 entries"; Chinese has only
// "other").
var pluralTags = map[string]language.Tag{
	EN:   language.English,
	ZhCN: language.SimplifiedChinese,
	ZhTW: language.TraditionalChinese,
}

var pluralSuffix = map[plural.Form]string{
	plural.Zero: "_zero", plural.One: "_one", plural.Two: "_two",
	plural.Few: "_few", plural.Many: "_many", plural.Other: "_other",
}

// pluralKey is the variant of key that count takes in lang, when the
// catalog has plural variants of key; otherwise key itself.
func (c *Catalog) pluralKey(lang, key string, args []any) string {
	count, ok := countArg(args)
	if !ok {
		return key
	}
	msgs := c.msgs[lang]
	if _, ok := msgs[key+"_other"]; !ok {
		if _, ok := c.msgs[EN][key+"_other"]; !ok {
			return key
		}
	}
	tag, ok := pluralTags[lang]
	if !ok {
		tag = language.English
	}
	n := count
	if n < 0 {
		n = -n
	}
	// i is the integer digits; with no visible fraction v, w, f and t are 0.
	form := plural.Cardinal.MatchPlural(tag, int(min(n, math.MaxInt32)), 0, 0, 0, 0)
	if k := key + pluralSuffix[form]; c.has(lang, k) {
		return k
	}
	return key + "_other"
}

func (c *Catalog) has(lang, key string) bool {
	if _, ok := c.msgs[lang][key]; ok {
		return true
	}
	_, ok := c.msgs[EN][key]
	return ok
}

// countArg finds the integer "count" placeholder among name, value pairs.
func countArg(args []any) (int64, bool) {
	for i := 0; i+1 < len(args); i += 2 {
		if fmt.Sprint(args[i]) != "count" {
			continue
		}
		switch v := args[i+1].(type) {
		case int:
			return int64(v), true
		case int64:
			return v, true
		case int32:
			return int64(v), true
		case uint:
			return int64(v), true
		case uint64:
			return int64(min(v, math.MaxInt64)), true
		case string:
			n, err := strconv.ParseInt(v, 10, 64)
			return n, err == nil
		}
		return 0, false
	}
	return 0, false
}

// CountEN is n with an English noun in the form CLDR's rule picks ("1
// agency", "2 agencies"), for the terminal's English-only texts.
func CountEN(n int, one, other string) string {
	abs := n
	if abs < 0 {
		abs = -abs
	}
	if plural.Cardinal.MatchPlural(language.English, abs, 0, 0, 0, 0) == plural.One {
		return fmt.Sprintf("%d %s", n, one)
	}
	return fmt.Sprintf("%d %s", n, other)
}
