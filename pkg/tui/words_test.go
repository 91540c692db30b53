package tui

import (
	"testing"
	"time"

	"github.com/voyage/voyage/pkg/flight"
)

func TestWords(t *testing.T) {
	dep := time.Date(2026, 7, 3, 5, 0, 0, 0, time.UTC)
	for got, want := range map[string]string{
		statusText(flight.RfdReviewing): "Refund under review",
		statusText("no_such_status"):    "no_such_status",
		reasonText(2):                   "Illness",
		reasonText(99):                  "reason 99",
		flightText("MU", "MU8034"):      "MU8034",
		flightText("MU", "8034"):        "MU8034",
		departText(dep, "PEK"):          "2026-07-03 13:00 PEK local",
		departText(dep, "LHR"):          "2026-07-03 06:00 LHR local",
		utcText(dep):                    "2026-07-03 05:00 UTC",
	} {
		if got != want {
			t.Errorf("got %q, want %q", got, want)
		}
	}
}
