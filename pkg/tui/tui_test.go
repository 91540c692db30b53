package tui

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	tea "github.com/charmbracelet/bubbletea"
	"github.com/charmbracelet/lipgloss"
	"github.com/charmbracelet/x/exp/teatest"

	"github.com/voyage/voyage/pkg/admin"
	"github.com/voyage/voyage/pkg/app/apptest"
	"github.com/voyage/voyage/pkg/flight"
	"github.com/voyage/voyage/pkg/ledger"
)

func TestAgencyListSearchAndDetail(t *testing.T) {
	e := newEnv(t)
	// Six top-ups: the detail shows the five latest.
	for _, ref := range []string{"SEED-1", "SEED-2", "SEED-3", "SEED-4", "SEED-5", "SEED-6"} {
		e.fund(t, "Demo Travel", "100.25", ref)
	}
	c := start(t, e.b, Options{})

	// teatest's own output stream shows the list…
	teatest.WaitFor(t, c.tm.Output(), func(b []byte) bool {
		return bytes.Contains(b, []byte("Blue Sky Travel")) && bytes.Contains(b, []byte("Demo Sub Travel"))
	}, teatest.WithDuration(15*time.Second))
	// …and the whole screen has the three managed agencies with their codes.
	s := c.waitText("page 1/1 · 3 agencies")
	for _, name := range []string{"Demo Travel", "Demo Sub Travel", "Blue Sky Travel"} {
		if !strings.Contains(s, name) || !strings.Contains(s, e.agencies[name].Code) {
			t.Errorf("the list lacks %s (%s):\n%s", name, e.agencies[name].Code, s)
		}
	}
	assertFits(t, s, 80, 24)

	// Typing narrows the list after a pause (no enter needed).
	c.press("/", "demo")
	s = c.waitFor("the search for demo", func(s string) bool {
		return strings.Contains(s, "page 1/1 · 2 agencies") && !strings.Contains(s, "Blue Sky")
	})
	if !strings.Contains(s, "Demo Sub Travel") {
		t.Errorf("searching demo lost Demo Sub Travel:\n%s", s)
	}
	c.press("esc")
	c.waitText("page 1/1 · 3 agencies")

	// The detail pane of the selected agency: balance, credit, settings and
	// the five latest entries, all within 80x24.
	s = c.selectAgency("Demo Travel")
	d := e.detail(t, "Demo Travel")
	for _, want := range []string{
		"Balance       " + d.Balance + " " + d.Currency, "601.50", "Credit limit  " + d.CreditLimit,
		"Available     " + d.Available, "Status        active", "API keys      0",
		"Flight        on", "Train         on", "Payment       enabled", "Sub-agencies  allowed",
		"Recent wallet entries (5 of 6)", "SEED-6", "SEED-2",
	} {
		if !strings.Contains(s, want) {
			t.Errorf("the detail lacks %q:\n%s", want, s)
		}
	}
	if strings.Contains(s, "SEED-1") {
		t.Errorf("the detail shows more than the 5 latest entries:\n%s", s)
	}
	assertFits(t, s, 80, 24)
	if n := strings.Count(s, "+100.25"); n != 5 {
		t.Errorf("%d entries of +100.25 on screen, want 5:\n%s", n, s)
	}
}

func TestAgencyPaging(t *testing.T) {
	e := newEnv(t)
	c := start(t, e.b, Options{PageSize: 2})
	page1 := e.listed(c.waitText("page 1/2 · 3 agencies"))
	c.press("right")
	page2 := e.listed(c.waitFor("page 2", func(s string) bool {
		return strings.Contains(s, "page 2/2 · 3 agencies") && len(e.listed(s)) == 1
	}))
	if len(page1) != 2 || len(page2) != 1 {
		t.Fatalf("pages of 2 and 1 agency, got %v and %v", page1, page2)
	}
	seen := map[string]bool{page1[0]: true, page1[1]: true, page2[0]: true}
	if len(seen) != 3 {
		t.Errorf("the pages do not hold the three agencies once each: %v and %v", page1, page2)
	}
	c.press("left")
	c.waitFor("page 1 again", func(s string) bool {
		return strings.Contains(s, "page 1/2 · 3 agencies") && len(e.listed(s)) == 2
	})
}

func TestAddFunds(t *testing.T) {
	e := newEnv(t)
	before := e.detail(t, "Demo Travel")
	entries := e.entries(t, "Demo Travel")
	c := e.startOn(t, "Demo Travel")

	c.press("f")
	c.waitText("Add funds · Demo Travel", "Amount received", "Currency received (optional)  > CNY")
	c.press("250.75", "enter", "BANK-42", "enter", "enter", "enter", "enter", "enter")
	s := c.waitText("Balance    " + before.Balance + " → ")
	if !strings.Contains(s, "Credit     250.75 "+before.Currency+" to Demo Travel") || !strings.Contains(s, "Post this top-up?") {
		t.Errorf("the preview lacks the amount or the question:\n%s", s)
	}
	assertFits(t, s, 80, 24)
	if got := e.detail(t, "Demo Travel").Balance; got != before.Balance {
		t.Fatalf("the preview changed the balance: %s → %s", before.Balance, got)
	}

	c.press("y")
	s = c.waitText("Credited 250.75 " + before.Currency + " to Demo Travel.")
	assertFits(t, s, 80, 24)
	after := e.detail(t, "Demo Travel")
	if want := dec(t, before.Balance).Add(dec(t, "250.75")); !dec(t, after.Balance).Equal(want) {
		t.Errorf("balance %s, want %s", after.Balance, want)
	}
	if got := e.entries(t, "Demo Travel"); got != entries+1 {
		t.Errorf("%d wallet entries, want %d", got, entries+1)
	}
	c.press("enter")
	c.waitText("Balance       "+after.Balance+" "+after.Currency, "BANK-42", "Added 250.75")

	// Refused confirmations change nothing: n, then esc.
	for _, refuse := range []string{"n", "esc"} {
		c.press("f")
		c.waitText("Add funds · Demo Travel")
		c.press("99", "enter", "REF-NO", "enter", "enter", "enter", "enter", "enter")
		c.waitText("Post this top-up?", "Credit     99.00")
		c.press(refuse)
		s = c.waitText("Cancelled: nothing was changed.")
		if strings.Contains(s, "Add funds ·") {
			t.Errorf("%s left the form open:\n%s", refuse, s)
		}
		now := e.detail(t, "Demo Travel")
		if now.Balance != after.Balance {
			t.Errorf("refusing with %s changed the balance: %s → %s", refuse, after.Balance, now.Balance)
		}
		if got := e.entries(t, "Demo Travel"); got != entries+1 {
			t.Errorf("refusing with %s: %d wallet entries, want %d", refuse, got, entries+1)
		}
	}

	// A form left with esc before its preview changes nothing either.
	c.press("f", "5", "esc")
	c.waitText("Cancelled: nothing was changed.")
	if got := e.entries(t, "Demo Travel"); got != entries+1 {
		t.Errorf("esc on the form: %d wallet entries, want %d", got, entries+1)
	}
}

// lossy is a backend whose first AddFunds goes through but whose answer is
// lost, as over a network that dropped the reply.
type lossy struct {
	admin.Backend
	mu   sync.Mutex
	keys []string
}

func (l *lossy) AddFunds(ctx context.Context, id int64, t ledger.TopUp) (ledger.TopUpResult, error) {
	l.mu.Lock()
	l.keys = append(l.keys, t.IdempotencyKey)
	first := len(l.keys) == 1
	l.mu.Unlock()
	r, err := l.Backend.AddFunds(ctx, id, t)
	if first && err == nil {
		return ledger.TopUpResult{}, errors.New("connection reset by peer")
	}
	return r, err
}

func TestAddFundsRetryCreditsOnce(t *testing.T) {
	e := newEnv(t)
	before := e.detail(t, "Demo Travel")
	entries := e.entries(t, "Demo Travel")
	b := &lossy{Backend: e.b}
	c := start(t, b, Options{})
	c.selectAgency("Demo Travel")
	c.press("f", "300", "enter", "WIRE-7", "enter", "enter", "enter", "enter", "enter")
	c.waitText("Post this top-up?")
	c.press("y")
	s := c.waitText("error: connection reset by peer", "Try again with the same request?")
	assertFits(t, s, 80, 24)
	c.press("y")
	c.waitText("Credited 300.00", "nothing new was credited")

	b.mu.Lock()
	keys := append([]string(nil), b.keys...)
	b.mu.Unlock()
	if len(keys) != 2 || keys[0] != keys[1] || keys[0] == "" {
		t.Errorf("the retry used idempotency keys %q, want the same key twice", keys)
	}
	after := e.detail(t, "Demo Travel")
	if want := dec(t, before.Balance).Add(dec(t, "300")); !dec(t, after.Balance).Equal(want) {
		t.Errorf("balance %s, want %s (credited once)", after.Balance, want)
	}
	if got := e.entries(t, "Demo Travel"); got != entries+1 {
		t.Errorf("%d wallet entries, want %d", got, entries+1)
	}
}

func TestSetCredit(t *testing.T) {
	e := newEnv(t)
	before := e.detail(t, "Demo Travel")
	c := e.startOn(t, "Demo Travel")

	// An amount with more decimals than the currency has: the backend says
	// so (not "enter the credit limit"), nothing changed.
	c.press("c")
	c.waitText("Set credit · Demo Travel", "Credit limit (CNY)")
	c.press("1.005", "enter", "enter", "enter")
	s := c.waitFlat("error: Some fields need your attention. (creditLimit: CNY allows at most 2 decimal places) [code 100001]")
	if !strings.Contains(s, "Set credit · Demo Travel") {
		t.Errorf("the form closed on the error:\n%s", s)
	}
	assertFits(t, s, 80, 24)
	if got := e.detail(t, "Demo Travel"); got.CreditLimit != before.CreditLimit {
		t.Fatalf("an invalid amount changed the credit limit: %s → %s", before.CreditLimit, got.CreditLimit)
	}

	// Corrected, previewed, confirmed.
	c.press("shift+tab", "shift+tab", "ctrl+u", "5000", "enter", "enter", "enter")
	s = c.waitText("Credit limit  "+before.CreditLimit+" → 5000.00 "+before.Currency, "Set this credit limit?")
	if strings.Contains(s, "error:") {
		t.Errorf("the error stayed after the correction:\n%s", s)
	}
	c.press("y")
	c.waitText("Credit limit of Demo Travel is now 5000.00")
	after := e.detail(t, "Demo Travel")
	if after.CreditLimit != "5000.00" {
		t.Errorf("credit limit %s, want 5000.00", after.CreditLimit)
	}
	if after.CreditPeriod != before.CreditPeriod || after.CreditPeriodUnit != before.CreditPeriodUnit {
		t.Errorf("the credit period changed: %d %s → %d %s", before.CreditPeriod, before.CreditPeriodUnit, after.CreditPeriod, after.CreditPeriodUnit)
	}
	c.press("enter")
	c.waitText("Credit limit  5000.00 " + after.Currency)
}

func TestNewAPIKey(t *testing.T) {
	e := newEnv(t)
	keys, err := e.b.APIKeys(e.ctx, e.id("Blue Sky Travel"))
	if err != nil {
		t.Fatal(err)
	}
	c := e.startOn(t, "Blue Sky Travel")
	c.press("k")
	c.waitText("New API key · Blue Sky Travel")
	c.press("booking engine", "enter")
	c.waitText(`Create the API key "booking engine" for Blue Sky Travel`, "Create this key?")
	c.press("y")
	s := c.waitText("shown only now")
	assertFits(t, s, 80, 24)
	shown := regexp.MustCompile(`vk_[A-Za-z0-9_-]+`).FindString(s)

	after, err := e.b.APIKeys(e.ctx, e.id("Blue Sky Travel"))
	if err != nil {
		t.Fatal(err)
	}
	if len(after) != len(keys)+1 {
		t.Fatalf("%d API keys, want %d", len(after), len(keys)+1)
	}
	var made bool
	for _, k := range after {
		if k.Name == "booking engine" && shown != "" && strings.HasPrefix(shown, k.Prefix+"_") {
			made = true
		}
	}
	if !made {
		t.Errorf("the key shown (%q) is not the one made: %+v", shown, after)
	}
	c.press("enter")
	s = c.waitText("API keys      1")
	if strings.Contains(s, shown) {
		t.Errorf("the key is still on screen after closing:\n%s", s)
	}
}

func TestReviewQueueReject(t *testing.T) {
	e := newEnv(t)
	v := e.refundOrder(t)
	id := v.ID
	if v.Status != flight.RfdReviewing {
		t.Fatalf("the refund request is %s, want %s", v.Status, flight.RfdReviewing)
	}
	c := start(t, e.b, Options{})
	c.waitText("1 to review")
	c.press("2")
	s := c.waitText(v.BookingNumber, "Demo Travel", "refund", "Refund under review", "plans changed", "UTC", "a approve · r reject · o quote")
	assertFits(t, s, 80, 24)

	// Rejecting needs a remark.
	c.press("r")
	c.waitText("Reject · " + v.BookingNumber)
	c.press("enter")
	c.waitText("error: Remark is required.")
	c.press("fare rules do not allow it", "enter")
	s = c.waitText("Reject the refund "+v.BookingNumber+" of Demo Travel.", "Reject it?")
	assertFits(t, s, 80, 24)
	if got, _ := e.b.Order(e.ctx, id); got.Status != flight.RfdReviewing {
		t.Fatalf("the order moved before the confirmation: %s", got.Status)
	}
	c.press("y")
	c.waitText("Rejected: " + v.BookingNumber + " is now Refund rejected.")
	got, err := e.b.Order(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	if got.Status != flight.RfdRejected || got.ReviewRemark != "fare rules do not allow it" {
		t.Errorf("the order is %s with remark %q, want %s with the remark", got.Status, got.ReviewRemark, flight.RfdRejected)
	}
	c.press("enter")
	// The queue reloads after the form closes, in its own message: wait for
	// it rather than read the first frame without the form.
	s = c.waitFor("the form to close and the queue to empty", func(s string) bool {
		return !strings.Contains(s, "enter: close") && strings.Contains(s, "Nothing waits for review.") && strings.Contains(s, "0 to review")
	})
	if strings.Contains(s, "> "+v.BookingNumber) {
		t.Errorf("the rejected order is still queued:\n%s", s)
	}
}

func TestHelpAndSizes(t *testing.T) {
	e := newEnv(t)
	c := start(t, e.b, Options{})
	c.waitText("page 1/1 · 3 agencies")
	// The short help line is there from the start.
	s := c.waitText("? help", "q quit")
	assertFits(t, s, 80, 24)

	c.press("?")
	s = c.waitText("Keys", "add funds", "set credit", "new API key", "approve", "reject", "quote", "search", "refresh", "review queue", "next page")
	assertFits(t, s, 80, 24)
	c.press("?")
	c.waitFor("the help to close", func(s string) bool {
		return !strings.Contains(s, "new API key") && strings.Contains(s, "Recent wallet entries")
	})

	// Bigger and smaller terminals: the screen takes the new width (the
	// header spans it) and nothing is wider or taller.
	for _, size := range []tea.WindowSizeMsg{{Width: 132, Height: 40}, {Width: 60, Height: 16}, {Width: 80, Height: 24}} {
		c.tm.Send(size)
		s := c.waitFor(fmt.Sprintf("a repaint at %dx%d", size.Width, size.Height), func(s string) bool {
			header, _, _ := strings.Cut(s, "\n")
			return lipgloss.Width(header) == size.Width
		})
		assertFits(t, s, size.Width, size.Height)
		if !strings.Contains(s, "Recent wallet entries") || !strings.Contains(s, "? help") && size.Width >= 80 {
			t.Errorf("at %dx%d the detail or the help is missing:\n%s", size.Width, size.Height, s)
		}
	}
	// q quits; the final screen is checked by the console's cleanup.
	c.press("q")
	c.tm.WaitFinished(t, teatest.WithFinalTimeout(10*time.Second))
}

func TestLiveRefresh(t *testing.T) {
	e := newEnv(t)
	clock := time.Date(2025, 3, 4, 12, 34, 56, 0, time.UTC)
	c := start(t, e.b, Options{Refresh: 50 * time.Millisecond, Now: func() time.Time { return clock }})
	c.selectAgency("Demo Travel")
	c.waitText("updated 12:34:56")

	// A top-up made elsewhere shows up without a key press, the selection
	// kept.
	e.fund(t, "Demo Travel", "77.00", "ELSEWHERE-1")
	c.waitText("Balance       77.00", "ELSEWHERE-1", "─ Demo Travel ·")

	// An open form survives the refreshes while the list changes under it.
	c.press("f", "4321")
	c.waitText("Add funds · Demo Travel", "4321")
	e.fund(t, "Demo Travel", "1.00", "ELSEWHERE-2")
	s := c.waitText("78.00")
	if !strings.Contains(s, "Add funds · Demo Travel") || !strings.Contains(s, "4321") {
		t.Errorf("the refresh lost the open form:\n%s", s)
	}
	c.press("esc")
	c.waitText("ELSEWHERE-2")
}

func TestGroupQueue(t *testing.T) {
	e := newEnv(t)
	id := apptest.GroupRequest(t, e.app)
	v, err := e.b.Group(e.ctx, id)
	if err != nil {
		t.Fatal(err)
	}
	c := start(t, e.b, Options{})
	c.waitText("3 Groups")
	c.press("3")
	s := c.waitText("1 group request", v.BookingNumber, "PEK-SHA", "10/10/0", "10 adults, 10 children, 0 infants · economy", "li.lei@example.com",
		fmt.Sprintf("voyage groups quote %d", id))
	assertFits(t, s, 80, 24)
	c.press("tab")
	c.waitText("[4 Orders]")
}

// The review decisions are worded in the console's language, statuses too.
func TestReviewQuoteInChinese(t *testing.T) {
	e := newEnv(t)
	v := e.refundOrder(t)
	id := v.ID
	c := start(t, e.b, Options{Lang: "zh-cn"})
	c.press("2")
	c.waitText(v.BookingNumber)
	c.press("o")
	c.waitText("报价 · "+v.BookingNumber, "退款金额（CNY）", "确认时限（小时）")
	c.press("100", "enter", "enter", "enter", "enter")
	s := c.waitText("为Demo Travel 的退票订单 "+v.BookingNumber+"报价：", "发送此报价？")
	if strings.Contains(s, "Quote the") || strings.Contains(s, "Send this quote") {
		t.Errorf("English left on the Chinese quote form:\n%s", s)
	}
	if got, _ := e.b.Order(e.ctx, id); got.Status != flight.RfdReviewing {
		t.Fatalf("the order moved before the confirmation: %s", got.Status)
	}
	c.press("y")
	c.waitText("已报价：" + v.BookingNumber)
}

// The agency's detail shows as many wallet entries as its pane holds,
// also when the terminal's size comes after the detail was fetched (the
// first size and the first load race at start): the detail is fetched
// again for the taller pane.
func TestAgencyDetailFetchedAgainForATallerPane(t *testing.T) {
	m := New(fixture{}, Options{Now: func() time.Time { return goldenNow }, Lang: "en"}).(*Model)
	// step runs a command, as the program would, and hands its message
	// to the model: the command that follows is the model's answer.
	step := func(cmd tea.Cmd) tea.Cmd {
		t.Helper()
		if cmd == nil {
			t.Fatal("no command to run")
		}
		_, next := m.Update(cmd())
		return next
	}
	entries := func() int {
		t.Helper()
		d, ok := m.ag.list.details[m.ag.list.selected]
		if !ok || d.err != nil {
			t.Fatalf("no detail of the selected agency (%v)", d.err)
		}
		return len(d.val.entries.Items)
	}
	// The list, then its first agency's detail, before any size.
	step(step(m.ag.list.load(m)))
	if n := entries(); n != recentEntries {
		t.Fatalf("before a size, %d entries, want %d", n, recentEntries)
	}
	_, cmd := m.Update(tea.WindowSizeMsg{Width: 160, Height: 48})
	step(cmd)
	// 35 of the fixture's 40, as the 160x48 golden screens show.
	if n := entries(); n != 35 {
		t.Fatalf("in a 160x48 terminal, %d entries, want 35", n)
	}
	// Smaller again: what is loaded still fills the pane.
	if _, cmd = m.Update(tea.WindowSizeMsg{Width: 80, Height: 24}); cmd != nil {
		t.Fatal("a smaller pane fetched the detail again")
	}
}
