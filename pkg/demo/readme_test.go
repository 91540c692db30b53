package demo

import (
	"os"
	"strings"
	"testing"
)

// The README's demo logins are the seed's, in the seed's order, so that its
// first login is the living agency's (money, orders in several states:
// TestSeedLivingAgencyTwice checks those) and no login there is missing
// from the seed or the other way round.
func TestReadmeDemoLogins(t *testing.T) {
	t.Parallel()
	b, err := os.ReadFile("../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	text := string(b)
	i := strings.Index(text, "## Demo logins")
	if i < 0 {
		t.Fatal("README has no Demo logins section")
	}
	var got []Login
	for _, line := range strings.Split(text[i:], "\n")[1:] {
		if strings.HasPrefix(line, "## ") {
			break
		}
		cells := strings.Split(strings.Trim(line, "| "), "|")
		if !strings.HasPrefix(line, "|") || len(cells) != 4 || strings.HasPrefix(strings.TrimSpace(cells[0]), "---") ||
			strings.TrimSpace(cells[0]) == "username" {
			continue
		}
		for k := range cells {
			cells[k] = strings.TrimSpace(cells[k])
		}
		got = append(got, Login{cells[0], cells[1], cells[2], cells[3]})
	}
	want := AllLogins()
	if len(got) != len(want) {
		t.Fatalf("README lists %d demo logins %v, the seed makes %d %v", len(got), got, len(want), want)
	}
	for k := range want {
		if got[k] != want[k] {
			t.Errorf("README login %d is %+v, the seed's is %+v", k+1, got[k], want[k])
		}
	}
	if got[0] != LivingLogins[0] {
		t.Errorf("the README's first login %+v is not the living agency's %+v", got[0], LivingLogins[0])
	}
}
