package rail

import "regexp"

// Document number formats 12306 accepts: the resident ID card's 18
// characters with the GB 11643-1999 check digit, a passport's 5–17 letters
// and digits, the Hong Kong and Macao permit's H or M and 8 digits (10
// with the issue count), the Taiwan permit's 8 digits (10 with the count).
// The train line checks a booking with them before it asks the railway,
// and a railway (the simulator) refuses what they refuse.
var (
	passportRe  = regexp.MustCompile(`^[A-Z0-9]{5,17}$`)
	hkMacaoRe   = regexp.MustCompile(`^[HM][0-9]{8}([0-9]{2})?$`)
	taiwanRe    = regexp.MustCompile(`^[0-9]{8}([0-9]{2})?$`)
	idWeights   = [17]int{7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2}
	idCheckChar = "10X98765432"
)

// ValidDocument says whether typ is a document type the railway takes
// (known) and whether num, upper-cased and trimmed, is a well-formed
// number of it (ok).
func ValidDocument(typ, num string) (known, ok bool) {
	switch typ {
	case DocIDCard:
		return true, validIDCard(num)
	case DocPassport:
		return true, passportRe.MatchString(num)
	case DocHKMacaoPermit:
		return true, hkMacaoRe.MatchString(num)
	case DocTaiwanPermit:
		return true, taiwanRe.MatchString(num)
	}
	return false, false
}

// validIDCard checks a resident identity card number's check digit.
func validIDCard(n string) bool {
	if len(n) != 18 {
		return false
	}
	for i := 0; i < 17; i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
	}
	return n[17] == IDCardCheck(n[:17])
}

// IDCardCheck is the GB 11643-1999 check character of a resident identity
// card number's first 17 digits.
func IDCardCheck(first17 string) byte {
	sum := 0
	for i := 0; i < 17; i++ {
		sum += int(first17[i]-'0') * idWeights[i]
	}
	return idCheckChar[sum%11]
}
