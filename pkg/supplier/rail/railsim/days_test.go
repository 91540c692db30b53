package railsim

import (
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/supplier/rail"
)

// TestEveryDayOf2027 runs the browser's and the app's train tests' path
// (tomorrow's and the last on-sale day's Beijing South → Shanghai Hongqiao
// trains, a second-class seat on the first G train that has one, booked
// and ticketed) with the clock on each
// day of 2027: with failures off, no date's draws refuse a search or a
// booking. The draws are keyed by route and date, so a test that passed
// today could fail on a given day every year (2026-12-23 did) until
// failures were made the test's choice.
func TestEveryDayOf2027(t *testing.T) {
	t.Parallel()
	s, clock := newSim(t, 1)
	for day := time.Date(2027, 1, 1, 8, 0, 0, 0, china); day.Year() == 2027; day = day.AddDate(0, 0, 1) {
		clock.set(day)
		_, last := s.SalesWindow()
		for _, date := range []string{day.AddDate(0, 0, 1).Format(time.DateOnly), last} {
			offers := search(t, s, "VNP", "AOH", date)
			// The first G train with a second-class seat left, as the
			// browser test picks it.
			var g *rail.Offer
			for i := range offers {
				if c, ok := offers[i].Class(rail.ClassSecond); ok && offers[i].TrainType == rail.TypeG && c.Available > 0 {
					g = &offers[i]
					break
				}
			}
			if g == nil {
				t.Fatalf("today %s: no G train with second-class seats on %s", day.Format(time.DateOnly), date)
			}
			if b := book(t, s, *g, rail.ClassSecond, adults(1, "")); b.Status != rail.StatusTicketed {
				t.Fatalf("today %s: %s on %s booked as %s", day.Format(time.DateOnly), g.TrainNumber, date, b.Status)
			}
		}
	}
}
