package dnd

import (
	"strings"
	"testing"
	"time"
	_ "time/tzdata"

	"feedback/app/core" // the DST case needs Europe/Berlin on any machine
)

// noon is a fixed "now" far from midnight, in a zone of its own.
var noon = time.Date(2026, 3, 10, 12, 0, 0, 0, time.FixedZone("test", 3600))

func TestDNDFor(t *testing.T) {
	berlin, err := time.LoadLocation("Europe/Berlin")
	if err != nil {
		t.Fatal(err)
	}
	at := func(loc *time.Location, mo time.Month, d, h, m int) time.Time {
		return time.Date(2026, mo, d, h, m, 0, 0, loc)
	}
	for _, tc := range []struct {
		name string
		mode Mode
		now  time.Time
		want State
	}{
		{"off", Off, noon, State{Mode: Off}},
		{"empty is off", "", noon, State{Mode: Off}},
		{"on", On, noon, State{Mode: On}},
		{"hour", Hour, noon, State{Mode: Hour, Until: noon.Add(time.Hour)}},
		{"tomorrow, afternoon", Tomorrow, at(berlin, 6, 10, 14, 0), State{Mode: Tomorrow, Until: at(berlin, 6, 11, 8, 0)}},
		{"tomorrow, late evening", Tomorrow, at(berlin, 6, 10, 23, 59), State{Mode: Tomorrow, Until: at(berlin, 6, 11, 8, 0)}},
		{"tomorrow, after midnight means this morning", Tomorrow, at(berlin, 6, 11, 1, 30), State{Mode: Tomorrow, Until: at(berlin, 6, 11, 8, 0)}},
		{"tomorrow, at 04:00 means the next day", Tomorrow, at(berlin, 6, 11, 4, 0), State{Mode: Tomorrow, Until: at(berlin, 6, 12, 8, 0)}},
		{"tomorrow, 07:59", Tomorrow, at(berlin, 6, 11, 7, 59), State{Mode: Tomorrow, Until: at(berlin, 6, 12, 8, 0)}},
		{"tomorrow, across the end of month", Tomorrow, at(berlin, 6, 30, 20, 0), State{Mode: Tomorrow, Until: at(berlin, 7, 1, 8, 0)}},
		// The clocks go forward at 02:00 on 29 March: 08:00 is still 08:00.
		{"tomorrow, across DST", Tomorrow, at(berlin, 3, 28, 22, 0), State{Mode: Tomorrow, Until: at(berlin, 3, 29, 8, 0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := For(tc.mode, tc.now)
			if err != nil || got.Mode != tc.want.Mode || !got.Until.Equal(tc.want.Until) {
				t.Errorf("For(%q, %v) = %+v, %v; want %+v", tc.mode, tc.now, got, err, tc.want)
			}
			if got.Until.IsZero() {
				return
			}
			if h, m, _ := got.Until.In(tc.now.Location()).Clock(); tc.mode == Tomorrow && (h != 8 || m != 0) {
				t.Errorf("ends at %02d:%02d local, want 08:00", h, m)
			}
		})
	}
	if _, err := For("forever", noon); err == nil || !strings.Contains(err.Error(), `"forever"`) || !strings.Contains(err.Error(), "tomorrow") {
		t.Errorf("an unknown mode gives %v, want an error naming it and the modes", err)
	}
}

func TestDNDActive(t *testing.T) {
	end := noon.Add(time.Hour)
	for _, tc := range []struct {
		d    State
		now  time.Time
		want bool
	}{
		{State{}, noon, false},
		{State{Mode: Off, Until: end}, noon, false},
		{State{Mode: On}, noon, true},
		{State{Mode: Hour, Until: end}, noon, true},
		{State{Mode: Hour, Until: end}, end.Add(-time.Nanosecond), true},
		{State{Mode: Hour, Until: end}, end, false},
		{State{Mode: Tomorrow, Until: end}, end.Add(time.Minute), false},
		{State{Mode: "bogus"}, noon, false},
	} {
		if got := tc.d.Active(tc.now); got != tc.want {
			t.Errorf("%+v.Active(%v) = %v, want %v", tc.d, tc.now, got, tc.want)
		}
		if at := tc.d.At(tc.now); at.Active(tc.now) != tc.want || (!tc.want && at != (State{Mode: Off})) {
			t.Errorf("%+v.At(%v) = %+v", tc.d, tc.now, at)
		}
	}
}

// A stored end beyond what the mode allows is brought back to it: "hour"
// with until 9999 holds for an hour at most, not for ever; the inbox holds
// what it loads to it.
func TestDNDLoadedIsClampedToTheMode(t *testing.T) {
	now := time.Now()
	far := time.Date(9999, 12, 31, 23, 59, 59, 0, time.UTC)
	for _, tc := range []struct {
		d       State
		longest time.Duration
	}{
		{State{Mode: Hour, Until: far}, time.Hour},
		{State{Mode: Tomorrow, Until: far}, 29 * time.Hour},
		{State{Mode: Off, ScheduleOffUntil: far}, 0},
	} {
		d := clamp(tc.d, now)
		if limit := now.Add(tc.longest + time.Minute); d.Until.After(limit) {
			t.Errorf("%+v: until %v, want at most %v", tc.d, d.Until, limit)
		}
		if limit := now.Add(25 * time.Hour); d.ScheduleOffUntil.After(limit) {
			t.Errorf("%+v: schedule_off_until %v, want at most %v", tc.d, d.ScheduleOffUntil, limit)
		}
	}
	if d := clamp(State{Mode: On, Until: far}, now); d.Mode != On || !d.Until.IsZero() {
		t.Errorf("on: %+v", d)
	}

	s := &memDND{state: State{Mode: Hour, Until: far}} // a hand-edited file
	_, c, _ := dndInboxWith(t, core.Options{}, s)
	if st := c.State(); st.Mode != Hour || st.Until.After(time.Now().Add(time.Hour+time.Minute)) {
		t.Errorf("loaded: %+v, want an hour at most", st)
	}
}
