package core

import (
	"fmt"
	"time"
)

// DNDMode is how do-not-disturb was turned on, as the tray offers it.
type DNDMode string

const (
	DNDOff      DNDMode = "off"      // questions open their windows as they come
	DNDOn       DNDMode = "on"       // until turned off
	DNDHour     DNDMode = "hour"     // for an hour from when it was chosen
	DNDTomorrow DNDMode = "tomorrow" // until DNDMorning the next morning
	// DNDScheduled is do not disturb held by the dnd_schedule setting's
	// quiet hours, until their end. It is what Inbox.DND reports, never a
	// choice of the tray, and never saved.
	DNDScheduled DNDMode = "schedule"
)

// DNDMorning is the local time of day "until tomorrow" ends at.
const DNDMorning = 8 * time.Hour

// dndNightEnds is the local time of day before which "tomorrow" still
// means the coming morning: chosen at 01:30, "until tomorrow" ends at 08:00
// that same day, not 30 hours later.
const dndNightEnds = 4 * time.Hour

// DND is the do-not-disturb state: while it is active, new questions open
// no window and make no sound; they wait in the tray.
type DND struct {
	Mode DNDMode `json:"mode"`
	// Until is when a DNDHour, DNDTomorrow or DNDScheduled ends (zero for
	// DNDOn and DNDOff).
	Until time.Time `json:"until,omitzero"`
	// ScheduleOffUntil, in the saved state only: the user turned do not
	// disturb off during the scheduled quiet hours that end then; the
	// schedule holds again from its next start.
	ScheduleOffUntil time.Time `json:"schedule_off_until,omitzero"`
}

// DNDFor is the state that choosing mode at now gives. An unknown mode is
// an error naming the modes.
func DNDFor(mode DNDMode, now time.Time) (DND, error) {
	switch mode {
	case DNDOff, "":
		return DND{Mode: DNDOff}, nil
	case DNDOn:
		return DND{Mode: DNDOn}, nil
	case DNDHour:
		return DND{Mode: DNDHour, Until: now.Add(time.Hour)}, nil
	case DNDTomorrow:
		return DND{Mode: DNDTomorrow, Until: tomorrowMorning(now)}, nil
	}
	return DND{}, fmt.Errorf("do not disturb: unknown mode %q (want off, on, hour or tomorrow)", mode)
}

// tomorrowMorning is DNDMorning local time on the next day, or on the same
// day when now is before dndNightEnds.
func tomorrowMorning(now time.Time) time.Time {
	y, m, d := now.Date()
	midnight := time.Date(y, m, d, 0, 0, 0, 0, now.Location())
	if now.Sub(midnight) >= dndNightEnds {
		d++
	}
	// time.Date normalises the day and keeps 08:00 across a DST change.
	h := int(DNDMorning / time.Hour)
	return time.Date(y, m, d, h, int(DNDMorning%time.Hour/time.Minute), 0, 0, now.Location())
}

// Active reports whether do-not-disturb holds at now.
func (d DND) Active(now time.Time) bool {
	switch d.Mode {
	case DNDOn:
		return true
	case DNDHour, DNDTomorrow, DNDScheduled:
		return now.Before(d.Until)
	}
	return false
}

// At is d as it stands at now: DNDOff once a timed mode has ended.
func (d DND) At(now time.Time) DND {
	if d.Active(now) {
		d.ScheduleOffUntil = time.Time{}
		return d
	}
	return DND{Mode: DNDOff}
}
