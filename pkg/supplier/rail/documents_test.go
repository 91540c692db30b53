package rail

import "testing"

// The railway's form rules for each document type, as a booking and the
// simulated railway both apply them.
func TestValidDocument(t *testing.T) {
	for _, c := range []struct {
		typ, num  string
		known, ok bool
	}{
		{DocIDCard, "11010519491231002X", true, true},
		{DocIDCard, "11010119900307000" + string(IDCardCheck("11010119900307000")+1), true, false},
		{DocIDCard, "1101011990030700", true, false},
		{DocIDCard, "11010119900307A00X", true, false},
		{DocPassport, "E12345678", true, true},
		{DocPassport, "E1234", true, true},
		{DocPassport, "E123", true, false},
		{DocPassport, "e12345678", true, false},
		{DocHKMacaoPermit, "H12345678", true, true},
		{DocHKMacaoPermit, "M1234567801", true, true},
		{DocHKMacaoPermit, "X12345678", true, false},
		{DocTaiwanPermit, "12345678", true, true},
		{DocTaiwanPermit, "1234567890", true, true},
		{DocTaiwanPermit, "123456789", true, false},
		{"driving_licence", "123456", false, false},
	} {
		known, ok := ValidDocument(c.typ, c.num)
		if known != c.known || ok != c.ok {
			t.Errorf("ValidDocument(%q, %q) = %v, %v; want %v, %v", c.typ, c.num, known, ok, c.known, c.ok)
		}
	}
	// 11010519491231002X: the standard's own example number.
	if got := IDCardCheck("11010519491231002"); got != 'X' {
		t.Errorf("IDCardCheck(11010519491231002) = %c, want X", got)
	}
}
