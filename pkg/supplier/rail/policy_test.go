package rail

import (
	"errors"
	"testing"
	"time"
)

func TestRefundFeeBands(t *testing.T) {
	p := ChinaRailway()
	depart := time.Date(2026, 12, 20, 9, 0, 0, 0, time.UTC)
	const fare = 55300 // 553 yuan
	for _, c := range []struct {
		name   string
		before time.Duration
		fee    int64
		closed bool
	}{
		{"15 days", 15 * 24 * time.Hour, 0, false},
		{"8 days exactly: free", 8 * 24 * time.Hour, 0, false},
		{"just under 8 days: 5%", 8*24*time.Hour - time.Minute, 2750, false}, // 27.65 → 27.5
		{"3 days: 5%", 72 * time.Hour, 2750, false},
		{"48 h exactly: 5%", 48 * time.Hour, 2750, false},
		{"just under 48 h: 10%", 48*time.Hour - time.Second, 5550, false}, // 55.3 → 55.5
		{"24 h exactly: 10%", 24 * time.Hour, 5550, false},
		{"just under 24 h: 20%", 24*time.Hour - time.Second, 11050, false}, // 110.6 → 110.5
		{"31 min: 20%", 31 * time.Minute, 11050, false},
		{"30 min exactly: still open", 30 * time.Minute, 11050, false},
		{"29 min: closed", 29 * time.Minute, 0, true},
		{"after departure: closed", -time.Hour, 0, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			fee, err := p.RefundFee(fare, depart, depart.Add(-c.before))
			if c.closed {
				if !errors.Is(err, ErrRefundClosed) {
					t.Fatalf("err = %v, want ErrRefundClosed", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if fee != c.fee {
				t.Errorf("fee = %d, want %d", fee, c.fee)
			}
		})
	}
}

func TestRefundMinimumFee(t *testing.T) {
	p := ChinaRailway()
	depart := time.Date(2026, 12, 20, 9, 0, 0, 0, time.UTC)
	for _, c := range []struct {
		name   string
		fare   int64
		before time.Duration
		fee    int64
	}{
		{"5% of 10 yuan is 0.5: 2 yuan", 1000, 72 * time.Hour, 200},
		{"20% of 1.5 yuan: the whole fare", 150, time.Hour, 150},
		{"free band stays free", 1000, 9 * 24 * time.Hour, 0},
		{"above the minimum", 10000, time.Hour, 2000},
	} {
		fee, err := p.RefundFee(c.fare, depart, depart.Add(-c.before))
		if err != nil || fee != c.fee {
			t.Errorf("%s: fee %d (%v), want %d", c.name, fee, err, c.fee)
		}
	}
}

func TestRoundHalfYuan(t *testing.T) {
	for in, want := range map[int64]int64{0: 0, 24: 0, 25: 50, 74: 50, 75: 100, 2765: 2750, 2775: 2800} {
		if got := roundHalfYuan(in); got != want {
			t.Errorf("roundHalfYuan(%d) = %d, want %d", in, got, want)
		}
	}
}

func TestSalesWindow(t *testing.T) {
	p := ChinaRailway()
	now := time.Date(2026, 12, 1, 23, 30, 0, 0, time.FixedZone("CST", 8*3600))
	first, last := p.SalesWindow(now)
	if first != "2026-12-01" || last != "2026-12-15" {
		t.Fatalf("window %s..%s, want 2026-12-01..2026-12-15 (15 days, today included)", first, last)
	}
	for date, want := range map[string]bool{"2026-11-30": false, "2026-12-01": true, "2026-12-15": true, "2026-12-16": false} {
		if got := p.OnSale(date, now); got != want {
			t.Errorf("OnSale(%s) = %v, want %v", date, got, want)
		}
	}
	p.SalesWindowDays = 30
	if !p.OnSale("2026-12-30", now) || p.OnSale("2026-12-31", now) {
		t.Error("a 30-day window does not end on 2026-12-30")
	}
}

func TestPolicyValidate(t *testing.T) {
	if err := ChinaRailway().Validate(); err != nil {
		t.Fatalf("China Railway policy: %v", err)
	}
	for name, mutate := range map[string]func(*Policy){
		"no window":        func(p *Policy) { p.SalesWindowDays = 0 },
		"no bands":         func(p *Policy) { p.RefundBands = nil },
		"percent over 100": func(p *Policy) { p.RefundBands[0].Percent = 101 },
		"bands unordered":  func(p *Policy) { p.RefundBands[1].MinBefore = 9 * 24 * time.Hour },
		"no zero band":     func(p *Policy) { p.RefundBands = p.RefundBands[:3] },
	} {
		p := ChinaRailway()
		mutate(&p)
		if p.Validate() == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}
