package simcall

import "testing"

// Two instances (or one restarted) agree on what a call prices from h and
// draw its hang and failure apart; one instance's retry draws anew.
func TestAttemptsDrawPerProcess(t *testing.T) {
	a, b := NewAttempts(), NewAttempts()
	ha1, fa1 := a.Draw(7, "confirm", "E123")
	hb1, fb1 := b.Draw(7, "confirm", "E123")
	ha2, fa2 := a.Draw(7, "confirm", "E123")
	if ha1 != hb1 {
		t.Errorf("first attempts on two instances: h %x and %x, want the same", ha1, hb1)
	}
	if fa1 == fb1 {
		t.Errorf("first attempts on two instances drew the same failure draw %x", fa1)
	}
	if ha1 == ha2 || fa1 == fa2 {
		t.Errorf("a retry on one instance drew the first attempt again (h %x %x, fail %x %x)", ha1, ha2, fa1, fa2)
	}
	if hc, _ := NewAttempts().Draw(8, "confirm", "E123"); hc == ha1 {
		t.Errorf("another seed drew the same h %x", hc)
	}
}

// A call that times out on one instance is not bound to time out on every
// other: over 64 instances' first attempts at a 50% time-out rate (the
// draw Answer compares), some hang and some answer.
func TestFirstAttemptsHangApartAcrossInstances(t *testing.T) {
	const rate = 0.5
	var hung int
	for range 64 {
		if _, fail := NewAttempts().Draw(1, "confirm", "E123"); fail.Unit(0) < rate {
			hung++
		}
	}
	if hung == 0 || hung == 64 {
		t.Errorf("64 instances' first attempts: %d hung; want some but not all", hung)
	}
}
