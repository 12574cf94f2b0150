package dnd

import (
	"fmt"
	"time"
)

// Mode is how do-not-disturb was turned on, as the tray offers it.
type Mode string

const (
	Off      Mode = "off"      // questions open their windows as they come
	On       Mode = "on"       // until turned off
	Hour     Mode = "hour"     // for an hour from when it was chosen
	Tomorrow Mode = "tomorrow" // until DNDMorning the next morning
	// Scheduled is do not disturb held by the dnd_schedule setting's
	// quiet hours, until their end. It is what Control.State reports, never a
	// choice of the tray, and never saved.
	Scheduled Mode = "schedule"
)

// DNDMorning is the local time of day "until tomorrow" ends at.
const DNDMorning = 8 * time.Hour

// dndNightEnds is the local time of day before which "tomorrow" still
// means the coming morning: chosen at 01:30, "until tomorrow" ends at 08:00
// that same day, not 30 hours later.
const dndNightEnds = 4 * time.Hour

// State is the do-not-disturb state: while it is active, new questions open
// no window and make no sound; they wait in the tray.
type State struct {
	Mode Mode `json:"mode"`
	// Until is when a Hour, Tomorrow or Scheduled ends (zero for
	// On and Off).
	Until time.Time `json:"until,omitzero"`
	// ScheduleOffUntil, in the saved state only: the user turned do not
	// disturb off during the scheduled quiet hours that end then; the
	// schedule holds again from its next start.
	ScheduleOffUntil time.Time `json:"schedule_off_until,omitzero"`
}

// For is the state that choosing mode at now gives. An unknown mode is
// an error naming the modes.
func For(mode Mode, now time.Time) (State, error) {
	switch mode {
	case Off, "":
		return State{Mode: Off}, nil
	case On:
		return State{Mode: On}, nil
	case Hour:
		return State{Mode: Hour, Until: now.Add(time.Hour)}, nil
	case Tomorrow:
		return State{Mode: Tomorrow, Until: tomorrowMorning(now)}, nil
	}
	return State{}, fmt.Errorf("do not disturb: unknown mode %q (want off, on, hour or tomorrow)", mode)
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
func (d State) Active(now time.Time) bool {
	switch d.Mode {
	case On:
		return true
	case Hour, Tomorrow, Scheduled:
		return now.Before(d.Until)
	}
	return false
}

// At is d as it stands at now: Off once a timed mode has ended.
func (d State) At(now time.Time) State {
	if d.Active(now) {
		d.ScheduleOffUntil = time.Time{}
		return d
	}
	return State{Mode: Off}
}
