package mrz

import (
	"strings"

	"golang.org/x/text/language"
)

// icaoCodes are the codes of ICAO 9303 Part 3 §5 that are not ISO 3166-1
// countries: Germany's "D", the British nationality classes, UN and
// stateless codes, the EU, Kosovo, the sovereign orders; and "UTO", the
// specimens' Utopia.
var icaoCodes = map[string]bool{
	"D": true, "GBD": true, "GBN": true, "GBO": true, "GBP": true, "GBS": true,
	"UNO": true, "UNA": true, "UNK": true, "XXA": true, "XXB": true, "XXC": true, "XXX": true,
	"EUE": true, "RKS": true, "XOM": true, "XPO": true, "XCC": true, "XES": true, "XMP": true,
	"XBA": true, "XIM": true, "XDC": true, "UTO": true,
}

// knownCountry says whether code (with its fillers) names a state or
// organisation that issues travel documents.
func knownCountry(code string) bool {
	c := strings.TrimRight(code, "<")
	if icaoCodes[c] {
		return true
	}
	if len(c) != 3 {
		return false
	}
	r, err := language.ParseRegion(c)
	return err == nil && r.IsCountry() && r.ISO3() == c
}

// countryLookalikes are the letters OCR takes for one another in OCR-B.
var countryLookalikes = map[byte]string{
	'O': "DQ", 'D': "O", 'Q': "O", 'I': "L", 'L': "I", 'K': "<", 'C': "G<", 'G': "C", 'X': "<",
	'E': "F", 'F': "E", 'P': "R", 'R': "P", 'U': "V", 'V': "U", 'M': "N", 'N': "M",
}

// country puts right a country code that names no country when exactly one
// swap of a look-alike letter makes it one (NLO → NLD, O<< → D<<). Nothing
// confirms it, so the change is reported unverified; a code that stays
// unknown is kept as read, as new codes appear.
func (z *zone) country(field string, ps []pos) {
	v := []byte(z.read(ps))
	if knownCountry(string(v)) {
		return
	}
	found, at, to := 0, -1, byte(0)
	for i, c := range v {
		for _, alt := range []byte(countryLookalikes[c]) {
			v[i] = alt
			if (alt != '<' || i > 0) && knownCountry(string(v)) && strings.Trim(string(v), "<") == strings.TrimRight(string(v), "<") {
				found, at, to = found+1, i, alt
			}
		}
		v[i] = c
	}
	if found == 1 {
		z.set(field, ps[at], to, false)
	}
}
