package core

import (
	"strings"
	"testing"
	"time"
	_ "time/tzdata" // the DST case needs Europe/Berlin on any machine
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
		mode DNDMode
		now  time.Time
		want DND
	}{
		{"off", DNDOff, noon, DND{Mode: DNDOff}},
		{"empty is off", "", noon, DND{Mode: DNDOff}},
		{"on", DNDOn, noon, DND{Mode: DNDOn}},
		{"hour", DNDHour, noon, DND{Mode: DNDHour, Until: noon.Add(time.Hour)}},
		{"tomorrow, afternoon", DNDTomorrow, at(berlin, 6, 10, 14, 0), DND{Mode: DNDTomorrow, Until: at(berlin, 6, 11, 8, 0)}},
		{"tomorrow, late evening", DNDTomorrow, at(berlin, 6, 10, 23, 59), DND{Mode: DNDTomorrow, Until: at(berlin, 6, 11, 8, 0)}},
		{"tomorrow, after midnight means this morning", DNDTomorrow, at(berlin, 6, 11, 1, 30), DND{Mode: DNDTomorrow, Until: at(berlin, 6, 11, 8, 0)}},
		{"tomorrow, at 04:00 means the next day", DNDTomorrow, at(berlin, 6, 11, 4, 0), DND{Mode: DNDTomorrow, Until: at(berlin, 6, 12, 8, 0)}},
		{"tomorrow, 07:59", DNDTomorrow, at(berlin, 6, 11, 7, 59), DND{Mode: DNDTomorrow, Until: at(berlin, 6, 12, 8, 0)}},
		{"tomorrow, across the end of month", DNDTomorrow, at(berlin, 6, 30, 20, 0), DND{Mode: DNDTomorrow, Until: at(berlin, 7, 1, 8, 0)}},
		// The clocks go forward at 02:00 on 29 March: 08:00 is still 08:00.
		{"tomorrow, across DST", DNDTomorrow, at(berlin, 3, 28, 22, 0), DND{Mode: DNDTomorrow, Until: at(berlin, 3, 29, 8, 0)}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := DNDFor(tc.mode, tc.now)
			if err != nil || got.Mode != tc.want.Mode || !got.Until.Equal(tc.want.Until) {
				t.Errorf("DNDFor(%q, %v) = %+v, %v; want %+v", tc.mode, tc.now, got, err, tc.want)
			}
			if got.Until.IsZero() {
				return
			}
			if h, m, _ := got.Until.In(tc.now.Location()).Clock(); tc.mode == DNDTomorrow && (h != 8 || m != 0) {
				t.Errorf("ends at %02d:%02d local, want 08:00", h, m)
			}
		})
	}
	if _, err := DNDFor("forever", noon); err == nil || !strings.Contains(err.Error(), `"forever"`) || !strings.Contains(err.Error(), "tomorrow") {
		t.Errorf("an unknown mode gives %v, want an error naming it and the modes", err)
	}
}

func TestDNDActive(t *testing.T) {
	end := noon.Add(time.Hour)
	for _, tc := range []struct {
		d    DND
		now  time.Time
		want bool
	}{
		{DND{}, noon, false},
		{DND{Mode: DNDOff, Until: end}, noon, false},
		{DND{Mode: DNDOn}, noon, true},
		{DND{Mode: DNDHour, Until: end}, noon, true},
		{DND{Mode: DNDHour, Until: end}, end.Add(-time.Nanosecond), true},
		{DND{Mode: DNDHour, Until: end}, end, false},
		{DND{Mode: DNDTomorrow, Until: end}, end.Add(time.Minute), false},
		{DND{Mode: "bogus"}, noon, false},
	} {
		if got := tc.d.Active(tc.now); got != tc.want {
			t.Errorf("%+v.Active(%v) = %v, want %v", tc.d, tc.now, got, tc.want)
		}
		if at := tc.d.At(tc.now); at.Active(tc.now) != tc.want || (!tc.want && at != (DND{Mode: DNDOff})) {
			t.Errorf("%+v.At(%v) = %+v", tc.d, tc.now, at)
		}
	}
}
