package display

import (
	"errors"
	"testing"
	"time"
)

func TestDayRange(t *testing.T) {
	utc := func(s string) time.Time {
		t.Helper()
		v, err := time.Parse(time.RFC3339, s)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	tests := []struct {
		name, zone, from, to string
		start, end           string // RFC 3339 in UTC; "" is an open end
		hours                float64
	}{
		{"east of UTC: a Shanghai month", "Asia/Shanghai", "2026-11-01", "2026-11-30", "2026-10-31T16:00:00Z", "2026-11-30T16:00:00Z", 720},
		{"west of UTC: a Los Angeles day", "America/Los_Angeles", "2026-07-04", "2026-07-04", "2026-07-04T07:00:00Z", "2026-07-05T07:00:00Z", 24},
		{"UTC", "UTC", "2026-01-01", "2026-01-31", "2026-01-01T00:00:00Z", "2026-02-01T00:00:00Z", 744},
		{"half-hour zone", "Asia/Kolkata", "2026-03-10", "2026-03-10", "2026-03-09T18:30:00Z", "2026-03-10T18:30:00Z", 24},
		{"New York spring forward is 23 hours", "America/New_York", "2026-03-08", "2026-03-08", "2026-03-08T05:00:00Z", "2026-03-09T04:00:00Z", 23},
		{"New York fall back is 25 hours", "America/New_York", "2026-11-01", "2026-11-01", "2026-11-01T04:00:00Z", "2026-11-02T05:00:00Z", 25},
		{"a period across New York's DST end", "America/New_York", "2026-10-01", "2026-11-30", "2026-10-01T04:00:00Z", "2026-12-01T05:00:00Z", 61*24 + 1},
		{"Santiago skips midnight: the day starts at 01:00", "America/Santiago", "2026-09-06", "2026-09-06", "2026-09-06T04:00:00Z", "2026-09-07T03:00:00Z", 23},
		{"open start", "Asia/Tokyo", "", "2026-05-01", "", "2026-05-01T15:00:00Z", 0},
		{"open end", "Asia/Tokyo", "2026-05-01", "", "2026-04-30T15:00:00Z", "", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			loc, err := LoadZone(tt.zone)
			if err != nil {
				t.Fatal(err)
			}
			start, end, err := DayRange(tt.from, tt.to, loc)
			if err != nil {
				t.Fatal(err)
			}
			if tt.start == "" && !start.IsZero() || tt.start != "" && !start.Equal(utc(tt.start)) {
				t.Errorf("start = %s, want %s", start.UTC().Format(time.RFC3339), tt.start)
			}
			if tt.end == "" && !end.IsZero() || tt.end != "" && !end.Equal(utc(tt.end)) {
				t.Errorf("end = %s, want %s", end.UTC().Format(time.RFC3339), tt.end)
			}
			if tt.hours != 0 && end.Sub(start).Hours() != tt.hours {
				t.Errorf("the range lasts %v hours, want %v", end.Sub(start).Hours(), tt.hours)
			}
			if !start.IsZero() && start.In(loc).Format(time.DateOnly) != tt.from {
				t.Errorf("start reads %s on the zone's clock, want %s", start.In(loc), tt.from)
			}
			if !end.IsZero() && end.Add(-time.Nanosecond).In(loc).Format(time.DateOnly) != tt.to {
				t.Errorf("the last instant reads %s on the zone's clock, want %s", end.Add(-time.Nanosecond).In(loc), tt.to)
			}
		})
	}
}

func TestDayRangeErrors(t *testing.T) {
	tests := []struct {
		name, from, to string
		from_, to_     bool
	}{
		{"bad first day", "2026-13-01", "2026-12-01", true, false},
		{"bad last day", "2026-11-01", "30/11/2026", false, true},
		{"last day before the first", "2026-11-02", "2026-11-01", false, true},
		{"both bad", "x", "y", true, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start, end, err := DayRange(tt.from, tt.to, time.UTC)
			if errors.Is(err, ErrFromDay) != tt.from_ || errors.Is(err, ErrToDay) != tt.to_ {
				t.Fatalf("err = %v, want from %v to %v", err, tt.from_, tt.to_)
			}
			if !start.IsZero() || !end.IsZero() {
				t.Errorf("a bad range gave instants %v, %v", start, end)
			}
		})
	}
}
