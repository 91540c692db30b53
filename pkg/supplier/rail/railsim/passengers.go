package railsim

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/voyage/voyage/pkg/supplier/rail"
)

func validTicketType(t string) bool {
	switch t {
	case rail.TicketAdult, rail.TicketChild, rail.TicketStudent, rail.TicketDisabledMilitary:
		return true
	}
	return false
}

// Document number formats 12306 accepts: the resident ID card's 18
// characters with the GB 11643-1999 check digit, a passport's 5–17 letters
// and digits, the Hong Kong and Macao permit's H or M and 8 digits (10
// with the issue count), the Taiwan permit's 8 digits (10 with the count).
var (
	passportRe  = regexp.MustCompile(`^[A-Z0-9]{5,17}$`)
	hkMacaoRe   = regexp.MustCompile(`^[HM][0-9]{8}([0-9]{2})?$`)
	taiwanRe    = regexp.MustCompile(`^[0-9]{8}([0-9]{2})?$`)
	idWeights   = [17]int{7, 9, 10, 5, 8, 4, 2, 1, 6, 3, 7, 9, 10, 5, 8, 4, 2}
	idCheckChar = "10X98765432"
)

// validIDCard checks a resident identity card number's check digit.
func validIDCard(n string) bool {
	if len(n) != 18 {
		return false
	}
	sum := 0
	for i := 0; i < 17; i++ {
		if n[i] < '0' || n[i] > '9' {
			return false
		}
		sum += int(n[i]-'0') * idWeights[i]
	}
	return n[17] == idCheckChar[sum%11]
}

// checkPassenger applies the real-name rule's form checks (the railway
// checks the name against the document itself) and the seat letter.
func checkPassenger(p rail.Passenger, lay classLayout) error {
	if !validTicketType(p.Type) {
		return fmt.Errorf("ticket type %q: %w", p.Type, rail.ErrRejected)
	}
	if strings.TrimSpace(p.Surname) == "" || strings.TrimSpace(p.GivenName) == "" {
		return fmt.Errorf("name missing: %w", rail.ErrRejected)
	}
	num := strings.ToUpper(strings.TrimSpace(p.DocumentNumber))
	var ok bool
	switch p.DocumentType {
	case rail.DocIDCard:
		ok = validIDCard(num)
	case rail.DocPassport:
		ok = passportRe.MatchString(num)
	case rail.DocHKMacaoPermit:
		ok = hkMacaoRe.MatchString(num)
	case rail.DocTaiwanPermit:
		ok = taiwanRe.MatchString(num)
	default:
		return fmt.Errorf("document type %q: %w", p.DocumentType, rail.ErrRejected)
	}
	if !ok {
		return fmt.Errorf("%s number %q is malformed: %w", p.DocumentType, p.DocumentNumber, rail.ErrRejected)
	}
	if p.SeatLetter != "" {
		l := strings.ToUpper(p.SeatLetter)
		if lay.kind != kindRow || len(l) != 1 || !strings.Contains(lay.letters, l) {
			return fmt.Errorf("seat letter %q in %s: %w", p.SeatLetter, lay.class, rail.ErrRejected)
		}
	}
	return nil
}
