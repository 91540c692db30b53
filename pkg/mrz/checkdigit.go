package mrz

// charValue is the ICAO 9303 Part 3 §4.9 value of an MRZ character: digits
// are themselves, A-Z are 10-35 and the filler '<' is 0. Anything else has no
// value and makes the check fail (ok false).
func charValue(c byte) (int, bool) {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0'), true
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10, true
	case c == '<':
		return 0, true
	}
	return 0, false
}

// checkDigit computes the 7-3-1 weighted check digit of s (ICAO 9303 Part 3
// §4.9). ok is false when s holds a character outside the MRZ set.
func checkDigit(s string) (byte, bool) {
	weights := [3]int{7, 3, 1}
	sum := 0
	for i := 0; i < len(s); i++ {
		v, ok := charValue(s[i])
		if !ok {
			return 0, false
		}
		sum += v * weights[i%3]
	}
	return byte('0' + sum%10), true
}

// checkMatches reports whether c is the check digit of s. ICAO allows '<'
// as the check digit of an optional-data field that is all fillers, and
// '<' counts as 0 there.
func checkMatches(s string, c byte) bool {
	want, ok := checkDigit(s)
	if !ok {
		return false
	}
	if c == '<' {
		c = '0'
	}
	return c == want
}
