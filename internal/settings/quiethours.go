package settings

import (
	"fmt"
	"strconv"
	"strings"
	"time"
)

// QuietHours are daily hours of do not disturb (the dnd_schedule setting):
// from Start to End, each a local time of day (a duration since midnight,
// whole minutes). End before Start crosses midnight ("22:00-08:00"). The
// zero value is no schedule.
type QuietHours struct {
	Start, End time.Duration
	Set        bool // false: no schedule
}

// maxScheduleLen bounds the text ParseQuietHours reads: "22:00-08:00" with
// some spaces.
const maxScheduleLen = 40

// ParseQuietHours reads dnd_schedule: "HH:MM-HH:MM" (24-hour clock, spaces
// around the dash allowed), or "" for none. The error says what is wrong
// and what to write, as a FieldError's Problem does.
func ParseQuietHours(s string) (QuietHours, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return QuietHours{}, nil
	}
	if len(s) > maxScheduleLen {
		return QuietHours{}, problem("is %d characters long: use HH:MM-HH:MM, e.g. 22:00-08:00, or leave it empty", len(s))
	}
	from, to, ok := strings.Cut(s, "-")
	start, err1 := clockTime(from)
	end, err2 := clockTime(to)
	switch {
	case !ok || err1 != nil || err2 != nil:
		return QuietHours{}, problem("must be HH:MM-HH:MM (24-hour clock), e.g. 22:00-08:00, or empty for none, not %q", s)
	case start == end:
		return QuietHours{}, problem("starts and ends at the same time (%q): use two different times, e.g. 22:00-08:00, or leave it empty", s)
	}
	return QuietHours{Start: start, End: end, Set: true}, nil
}

// clockTime reads "HH:MM" (00:00 to 23:59; the hour may have one digit).
func clockTime(s string) (time.Duration, error) {
	h, m, ok := strings.Cut(strings.TrimSpace(s), ":")
	if !ok || len(h) < 1 || len(h) > 2 || len(m) != 2 {
		return 0, fmt.Errorf("not HH:MM")
	}
	hh, err1 := strconv.Atoi(h)
	mm, err2 := strconv.Atoi(m)
	if err1 != nil || err2 != nil || hh < 0 || hh > 23 || mm < 0 || mm > 59 || strings.ContainsAny(h+m, "+-") {
		return 0, fmt.Errorf("not HH:MM")
	}
	return time.Duration(hh)*time.Hour + time.Duration(mm)*time.Minute, nil
}

// String is the schedule as the setting writes it: "22:00-08:00", or "".
func (q QuietHours) String() string {
	if !q.Set {
		return ""
	}
	f := func(d time.Duration) string {
		return fmt.Sprintf("%02d:%02d", int(d/time.Hour), int(d%time.Hour/time.Minute))
	}
	return f(q.Start) + "-" + f(q.End)
}

// at is the time of day d on the day of t (local to t's location):
// time.Date keeps the wall-clock time across a daylight-saving change
// (a time that does not exist that day is normalised by time.Date).
func at(t time.Time, dayOffset int, d time.Duration) time.Time {
	y, m, day := t.Date()
	return time.Date(y, m, day+dayOffset, int(d/time.Hour), int(d%time.Hour/time.Minute), 0, 0, t.Location())
}

// Window is the quiet period now is in: inside reports whether it is, and
// end when that period ends; when now is outside, next is when the next
// one starts. Times are in now's location (the local one in the app).
func (q QuietHours) Window(now time.Time) (inside bool, end, next time.Time) {
	if !q.Set {
		return false, time.Time{}, time.Time{}
	}
	startToday, endToday := at(now, 0, q.Start), at(now, 0, q.End)
	if q.Start < q.End { // within one day
		switch {
		case now.Before(startToday):
			return false, time.Time{}, startToday
		case now.Before(endToday):
			return true, endToday, time.Time{}
		default:
			return false, time.Time{}, at(now, 1, q.Start)
		}
	}
	// Across midnight: from Start today to End tomorrow, and the part of
	// yesterday's period that runs until End today.
	switch {
	case now.Before(endToday):
		return true, endToday, time.Time{}
	case now.Before(startToday):
		return false, time.Time{}, startToday
	default:
		return true, at(now, 1, q.End), time.Time{}
	}
}
