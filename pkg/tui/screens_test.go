package tui

import (
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/xuri/excelize/v2"

	"github.com/voyage/voyage/pkg/auth"
)

// Funds received in another currency: 100 USD at 7.10 credit 710.00 CNY,
// shown on the confirmation before anything moves, posted once on y.
func TestFundsInAnotherCurrency(t *testing.T) {
	e := newEnv(t)
	before := e.detail(t, "Demo Travel")
	c := e.startOn(t, "Demo Travel")
	c.press("f")
	c.waitText("Currency received (optional)  > CNY")
	c.press("100", "enter", "SWIFT-9", "enter", "enter", "ctrl+u", "USD", "enter", "ctrl+u", "7.10", "enter", "enter")
	s := c.waitText("Received   100.00 USD at 7.1 CNY/USD", "Credit     710.00 CNY to Demo Travel", "Post this top-up?")
	assertFits(t, s, 80, 24)
	if got := e.detail(t, "Demo Travel").Balance; got != before.Balance {
		t.Fatalf("the preview moved money: %s → %s", before.Balance, got)
	}
	c.press("y")
	c.waitText("Credited 710.00 CNY to Demo Travel.")
	if want := dec(t, before.Balance).Add(dec(t, "710")); !dec(t, e.detail(t, "Demo Travel").Balance).Equal(want) {
		t.Errorf("balance %s, want %s", e.detail(t, "Demo Travel").Balance, want)
	}
}

// b blocks the selected agency behind a confirmation; b again unblocks it;
// n on the confirmation changes nothing.
func TestBlockAgency(t *testing.T) {
	e := newEnv(t)
	c := e.startOn(t, "Blue Sky Travel")
	status := func(want, after string) {
		t.Helper()
		if st := e.detail(t, "Blue Sky Travel").Status; st != want {
			t.Fatalf("status %s after %s", st, after)
		}
	}
	c.press("b")
	c.waitText("Block Blue Sky Travel", "Block this agency?")
	c.press("n")
	c.waitText("Cancelled: nothing was changed.")
	status("active", "n")
	c.press("b")
	c.waitText("Block this agency?")
	c.press("y")
	c.waitText("Blue Sky Travel is now blocked.")
	status("blocked", "blocking")
	c.press("enter")
	c.waitText("Status        blocked")
	c.press("b")
	c.waitText("Unblock this agency?")
	c.press("y")
	c.waitText("Blue Sky Travel is now active.")
	status("active", "unblocking")
}

// Finance's month: make the agency's statement of a period, see its totals,
// export it to an XLSX file in Chinese, and be told when a period has a
// statement already.
func TestStatementsMakeAndExport(t *testing.T) {
	e := newEnv(t)
	e.fund(t, "Demo Sub Travel", "1200.50", "ST-1")
	e.fund(t, "Demo Sub Travel", "99.50", "ST-2")
	dir := t.TempDir()
	// A statement's dates are days in the agency's time zone (the demo
	// agencies keep Asia/Shanghai's): in UTC, the top-ups made after 16:00
	// fall on the next day there, outside a period ending today in UTC.
	zone, err := time.LoadLocation("Asia/Shanghai")
	if err != nil {
		t.Fatal(err)
	}
	now := time.Now().In(zone)
	today, first := now.Format(time.DateOnly), now.Format("2006-01")+"-01"
	c := start(t, e.b, Options{ExportDir: dir})
	c.selectAgency("Demo Sub Travel")
	c.press("5")
	c.waitText("Demo Sub Travel · ", "No statement yet: n makes one.")
	c.press("n")
	c.waitText("New statement · Demo Sub Travel")
	c.press("ctrl+u", first, "enter", "ctrl+u", today, "enter")
	c.waitText("Make the statement of Demo Sub Travel for "+first+" – "+today, "Make this statement?")
	c.press("y")
	c.waitText("Made statement")
	c.press("enter")
	s := c.waitText("1 statement", "Closing         1300.00 CNY", "Change          +1300.00 CNY", "2 entries")
	assertFits(t, s, 80, 24)

	// A second statement of the same period is flagged.
	c.press("n")
	c.press("ctrl+u", first, "enter", "ctrl+u", today, "enter")
	c.waitFlat("covers this period already")
	c.press("n")

	c.press("x")
	c.waitText("Export statement", "Format")
	c.press("enter", "ctrl+u", "zh-cn", "enter", "enter")
	c.waitText("Write the statement as XLSX in zh-cn to:", "Write this file?")
	c.press("y")
	c.waitText("Wrote ")
	files, err := filepath.Glob(filepath.Join(dir, "statement-*.xlsx"))
	if err != nil || len(files) != 1 {
		t.Fatalf("exported files %v %v", files, err)
	}
	if others, _ := filepath.Glob(filepath.Join(dir, ".statement-*")); len(others) != 0 {
		t.Errorf("temporary files left: %v", others)
	}
	f, err := excelize.OpenFile(files[0])
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var text strings.Builder
	for _, sheet := range f.GetSheetList() {
		rows, _ := f.GetRows(sheet)
		for _, r := range rows {
			text.WriteString(strings.Join(r, "|") + "\n")
		}
	}
	for _, want := range []string{"ST-1", "ST-2", "充值"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("the XLSX lacks %q:\n%s", want, text.String())
		}
	}
}

// Setting a rate shows the rate in force and the new one, and only y sets
// it.
func TestRateSet(t *testing.T) {
	e := newEnv(t)
	c := start(t, e.b, Options{})
	c.press("6")
	c.waitText("What one unit is worth in CNY", "AUD")
	c.press("s")
	c.waitText("Set an exchange rate")
	c.press("ctrl+u", "USD", "enter", "7.2468", "enter")
	c.waitText("1 USD = 7.2468", "In force now", "Set this rate?")
	c.press("y")
	c.waitText("1 USD is now 7.2468.")
	h, err := e.b.RateHistory(e.ctx, "USD", 1)
	if err != nil || len(h) == 0 || !dec(t, h[0].Rate).Equal(dec(t, "7.2468")) {
		t.Errorf("USD history %v %v", h, err)
	}
}

// A user is blocked (and logged out) and unblocked from the users screen.
func TestUsersBlockUnblock(t *testing.T) {
	e := newEnv(t)
	c := e.startOn(t, "Demo Travel")
	c.press("7")
	c.waitText("demo-super", "demo-operator", "3 users")
	c.press("down")
	c.waitText("─ demo-operator")
	c.press("u")
	c.waitText("demo-operator is not blocked.")
	c.press("b")
	c.waitText("Block demo-operator of Demo Travel", "Block this user?")
	c.press("y")
	c.waitText("demo-operator is now blocked.")
	status := func() string {
		p, err := e.b.Users(e.ctx, e.id("Demo Travel"), auth.UserFilter{Page: 1, PageSize: 20})
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range p.Items {
			if u.Username == "demo-operator" {
				return u.Status
			}
		}
		return ""
	}
	if st := status(); st != auth.StatusInactive {
		t.Fatalf("status %q after blocking", st)
	}
	c.press("enter")
	c.waitText("Status          blocked")
	c.press("u")
	c.waitText("Unblock this user?")
	c.press("y")
	c.waitText("demo-operator is now active.")
	if st := status(); st != auth.StatusActive {
		t.Fatalf("status %q after unblocking", st)
	}
}

// An API key is made with the roles given, shown once, and revoked.
func TestAPIKeyCreateAndRevoke(t *testing.T) {
	e := newEnv(t)
	c := e.startOn(t, "Demo Sub Travel")
	c.press("8")
	c.waitText("No API key yet: n makes one.")
	c.press("n")
	c.press("reports", "enter", "ctrl+u", "finance, pilot", "enter")
	c.waitFlat("Unknown role pilot")
	c.press("ctrl+u", "finance", "enter")
	c.waitText("Create the API key \"reports\" for Demo Sub Travel", "finance", "Create this key?")
	c.press("y")
	s := c.waitText("shown only now")
	if !strings.Contains(s, "vk_") {
		t.Errorf("the key is not shown:\n%s", s)
	}
	c.press("enter")
	c.waitText("─ reports ·", "Roles           finance")
	keys, err := e.b.APIKeys(e.ctx, e.id("Demo Sub Travel"))
	if err != nil || len(keys) != 1 || strings.Join(keys[0].Roles, ",") != "finance" {
		t.Fatalf("keys %+v %v", keys, err)
	}
	c.press("x")
	c.waitText("Revoke this key?")
	c.press("y")
	c.waitText("Revoked \"reports\"")
	keys, _ = e.b.APIKeys(e.ctx, e.id("Demo Sub Travel"))
	if keys[0].RevokedAt == nil {
		t.Errorf("the key is not revoked")
	}
	c.press("enter")
	c.waitText("revoked")
	c.press("x")
	c.waitText("reports is revoked already.")
}

// The order search finds an order by its booking number and shows it; t
// turns to train and group orders.
func TestOrderSearch(t *testing.T) {
	e := newEnv(t)
	v := e.refundOrder(t)
	c := start(t, e.b, Options{})
	c.press("4")
	c.waitText("[Flights]", v.BookingNumber)
	c.press("/", v.BookingNumber, "enter")
	s := c.waitText("search: "+v.BookingNumber, "1 order", "─ "+v.BookingNumber, "Demo Travel", "Passengers")
	assertFits(t, s, 80, 24)
	c.press("t")
	c.waitText("[Trains]")
	c.press("t")
	c.waitText("[Groups]")
}
