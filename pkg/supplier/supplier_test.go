package supplier

import (
	"testing"
	"time"
)

// TestTypeForAge: the passenger type by age on the travel date (spec §3),
// every line and supplier alike; a birthday counts on its day.
func TestTypeForAge(t *testing.T) {
	t.Parallel()
	tests := []struct{ birthday, travel, want string }{
		{"2000-01-01", "2026-12-01", Adult},
		{"2014-12-02", "2026-12-01", Child}, // 11 the day before the 12th birthday
		{"2014-12-01", "2026-12-01", Adult}, // 12 on the birthday
		{"2024-12-02", "2026-12-01", Infant},
		{"2024-12-01", "2026-12-01", Child},
		{"2012-02-29", "2024-02-28", Child}, // a 29 February birthday comes on 1 March
		{"2012-02-29", "2024-03-01", Adult},
	}
	for _, tt := range tests {
		b, _ := time.Parse(time.DateOnly, tt.birthday)
		tr, _ := time.Parse(time.DateOnly, tt.travel)
		if got := TypeForAge(AgeOn(b, tr)); got != tt.want {
			t.Errorf("born %s travelling %s: %s, want %s", tt.birthday, tt.travel, got, tt.want)
		}
	}
}
