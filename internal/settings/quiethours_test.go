package settings

import (
	"strings"
	"testing"
	"time"
)

func TestParseQuietHours(t *testing.T) {
	for _, tc := range []struct {
		in         string
		start, end string // "" when none or refused
		wantErr    string
	}{
		{in: ""},
		{in: "  "},
		{in: "22:00-08:00", start: "22h0m0s", end: "8h0m0s"},
		{in: "9:30 - 17:45", start: "9h30m0s", end: "17h45m0s"},
		{in: "00:00-23:59", start: "0s", end: "23h59m0s"},
		{in: "22:00", wantErr: "must be HH:MM-HH:MM"},
		{in: "22-08", wantErr: "must be HH:MM-HH:MM"},
		{in: "24:00-08:00", wantErr: "must be HH:MM-HH:MM"},
		{in: "22:60-08:00", wantErr: "must be HH:MM-HH:MM"},
		{in: "+2:00-08:00", wantErr: "must be HH:MM-HH:MM"},
		{in: "10pm-8am", wantErr: "must be HH:MM-HH:MM"},
		{in: "22:00-22:00", wantErr: "the same time"},
		{in: strings.Repeat("1", 100), wantErr: "characters long"},
	} {
		q, err := ParseQuietHours(tc.in)
		if tc.wantErr != "" {
			if err == nil || !strings.Contains(err.Error(), tc.wantErr) || q.Set {
				t.Errorf("%q: %+v, %v; want an error saying %q", tc.in, q, err, tc.wantErr)
			}
			continue
		}
		if err != nil {
			t.Errorf("%q: %v", tc.in, err)
			continue
		}
		if tc.start == "" {
			if q.Set {
				t.Errorf("%q: %+v, want no schedule", tc.in, q)
			}
			continue
		}
		if !q.Set || q.Start.String() != tc.start || q.End.String() != tc.end {
			t.Errorf("%q: %+v, want %s to %s", tc.in, q, tc.start, tc.end)
		}
	}
}

func TestQuietHoursWindow(t *testing.T) {
	ny, err := time.LoadLocation("America/New_York")
	if err != nil {
		t.Skip("no time zone database:", err)
	}
	night, _ := ParseQuietHours("22:00-08:00")
	day, _ := ParseQuietHours("09:00-17:00")
	d := func(day, h, m int) time.Time { return time.Date(2026, 6, day, h, m, 0, 0, time.UTC) }
	for _, tc := range []struct {
		name      string
		q         QuietHours
		now       time.Time
		inside    bool
		end, next time.Time
	}{
		{"evening, before the night", night, d(10, 21, 59), false, time.Time{}, d(10, 22, 0)},
		{"the night's start", night, d(10, 22, 0), true, d(11, 8, 0), time.Time{}},
		{"before midnight", night, d(10, 23, 30), true, d(11, 8, 0), time.Time{}},
		{"after midnight", night, d(11, 3, 0), true, d(11, 8, 0), time.Time{}},
		{"the night's end", night, d(11, 8, 0), false, time.Time{}, d(11, 22, 0)},
		{"before the day", day, d(10, 8, 0), false, time.Time{}, d(10, 9, 0)},
		{"during the day", day, d(10, 12, 0), true, d(10, 17, 0), time.Time{}},
		{"after the day", day, d(10, 17, 0), false, time.Time{}, d(11, 9, 0)},
		{"no schedule", QuietHours{}, d(10, 23, 0), false, time.Time{}, time.Time{}},
		// Clocks go back on 1 November 2026 in New York: the night is an
		// hour longer, and still ends at 08:00 on the wall clock.
		{"a night with a DST change", night, time.Date(2026, 10, 31, 23, 0, 0, 0, ny), true, time.Date(2026, 11, 1, 8, 0, 0, 0, ny), time.Time{}},
		{"the day after the change", night, time.Date(2026, 11, 1, 12, 0, 0, 0, ny), false, time.Time{}, time.Date(2026, 11, 1, 22, 0, 0, 0, ny)},
	} {
		inside, end, next := tc.q.Window(tc.now)
		if inside != tc.inside || !end.Equal(tc.end) || !next.Equal(tc.next) {
			t.Errorf("%s: inside %v, end %v, next %v; want %v, %v, %v", tc.name, inside, end, next, tc.inside, tc.end, tc.next)
		}
	}
	_, end, _ := night.Window(time.Date(2026, 10, 31, 23, 0, 0, 0, ny))
	if got := end.Sub(time.Date(2026, 10, 31, 23, 0, 0, 0, ny)); got != 10*time.Hour {
		t.Errorf("the DST night lasts %v from 23:00, want 10h (9 on the wall clock and the hour repeated)", got)
	}
}
