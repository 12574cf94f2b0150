package dialogs

import (
	"fmt"
	"time"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// The countdown of a question, free of any toolkit: the View drives it and
// draws what it says. It runs to a deadline; "+ time" extends it; an edit
// by the user holds it for good (the user is answering); pinning removes
// the deadline and unpinning gives back the time that was left. In its
// last minute it warns, and asks for the user's attention once (Urge); at
// zero it closes (Expire), and then nothing changes it any more. Nothing
// in it reads a clock: every method that depends on the time is told it.

// Countdown is a question's countdown. The zero value is no countdown.
type Countdown struct {
	on       bool          // there is a countdown (running, held or pinned)
	deadline time.Time     // when a running countdown reaches zero
	held     bool          // an edit stopped it for good
	pinned   bool          // the user removed the deadline
	left     time.Duration // while pinned: what was left, given back on unpin
	whole    time.Duration // the question's whole time limit, given back on an unpin that kept nothing
	closing  bool          // it reached zero (Expire): the question is ending
	urged    bool          // the last minute asked for the user's attention (Urge)
}

// warnUnder is the time left from which the countdown warns.
const warnUnder = 60 * time.Second

// TimeLimit is a question's whole time limit: timeoutSeconds when it is
// more than zero, def (the app's default) when it is zero, and none (zero)
// otherwise or when def is zero or less.
func TimeLimit(timeoutSeconds int, def time.Duration) time.Duration {
	switch {
	case timeoutSeconds > 0:
		return time.Duration(timeoutSeconds) * time.Second
	case timeoutSeconds == 0 && def > 0:
		return def
	}
	return 0
}

// NewCountdown returns a countdown running from start for limit (see
// TimeLimit); a limit of zero or less is no countdown.
func NewCountdown(start time.Time, limit time.Duration) Countdown {
	if limit <= 0 {
		return Countdown{}
	}
	return Countdown{on: true, deadline: start.Add(limit), whole: limit}
}

// RestoreCountdown returns the countdown s describes, of a question whose
// whole time limit is limit (given back on an unpin when s kept nothing).
// The zero state is no countdown.
func RestoreCountdown(s wire.Countdown, limit time.Duration) Countdown {
	if s.Deadline.IsZero() && !s.Held && !s.Pinned {
		return Countdown{}
	}
	return Countdown{on: true, deadline: s.Deadline, held: s.Held, pinned: s.Pinned,
		left: max(s.Left, 0), whole: max(limit, 0)}
}

// State is the countdown as it stands, for RestoreCountdown.
func (c Countdown) State() wire.Countdown {
	if !c.on {
		return wire.Countdown{}
	}
	s := wire.Countdown{Deadline: c.deadline, Held: c.held, Pinned: c.pinned}
	if c.pinned {
		s.Left = c.left
	}
	return s
}

// On reports whether there is a countdown at all (running, held or pinned).
func (c Countdown) On() bool { return c.on }

// Expire reports whether the countdown reaches zero at now, once: a
// running countdown past its deadline closes, and from then on it is
// Closing and cannot be extended, held or pinned.
func (c *Countdown) Expire(now time.Time) bool {
	if c.closing || !c.Expired(now) {
		return false
	}
	c.closing = true
	return true
}

// Closing reports whether the countdown has reached zero (Expire).
func (c Countdown) Closing() bool { return c.closing }

// Urge reports whether to ask for the user's attention at now: true the
// first time it is asked while the countdown warns, never again after.
func (c *Countdown) Urge(now time.Time) bool {
	if c.urged || !c.Warning(now) {
		return false
	}
	c.urged = true
	return true
}

// Running reports whether the countdown is counting down.
func (c Countdown) Running() bool { return c.on && !c.held && !c.pinned }

// Held reports whether an edit stopped the countdown.
func (c Countdown) Held() bool { return c.held }

// Pinned reports whether the user removed the deadline.
func (c Countdown) Pinned() bool { return c.pinned }

// Left is the time left at now: zero once the deadline has passed, and
// zero while the countdown does not run.
func (c Countdown) Left(now time.Time) time.Duration {
	if !c.Running() {
		return 0
	}
	return max(c.deadline.Sub(now), 0)
}

// Expired reports whether a running countdown has reached zero at now.
func (c Countdown) Expired(now time.Time) bool { return c.Running() && !now.Before(c.deadline) }

// Warning reports whether a running countdown is in its last minute at now
// (or past zero).
func (c Countdown) Warning(now time.Time) bool {
	// Rounded as Text rounds, so the words and the colour change together.
	return c.Running() && c.deadline.Sub(now).Round(time.Second) < warnUnder
}

// Extend adds d to a running countdown and reports whether it did.
func (c *Countdown) Extend(d time.Duration) bool {
	if !c.Running() || c.closing || d <= 0 {
		return false
	}
	c.deadline = c.deadline.Add(d)
	return true
}

// Hold stops the countdown for good and reports whether that changed
// anything.
func (c *Countdown) Hold() bool {
	if !c.on || c.held || c.closing {
		return false
	}
	c.held = true
	return true
}

// CanPin reports whether TogglePin would do something: there is a
// countdown, no edit holds it and it has not reached zero.
func (c Countdown) CanPin() bool { return c.on && !c.held && !c.closing }

// TogglePin removes the deadline at now, keeping what was left, or, when
// pinned, restarts the countdown at now with what was left (the whole
// time limit, when nothing was kept: see wire.Countdown.Left). It reports
// whether it did anything.
func (c *Countdown) TogglePin(now time.Time) bool {
	if !c.CanPin() {
		return false
	}
	if c.pinned {
		left := c.left
		if left <= 0 {
			left = c.whole
		}
		c.pinned, c.left = false, 0
		c.deadline = now.Add(left)
		return true
	}
	c.pinned = true
	c.left = max(c.deadline.Sub(now), 0)
	return true
}

// Text is what the countdown says at now.
func (c Countdown) Text(now time.Time) string {
	switch {
	case !c.on:
		return i18n.T("countdown.none")
	case c.held:
		return i18n.T("countdown.held")
	case c.pinned:
		return i18n.T("countdown.pinned")
	case c.closing, c.Expired(now):
		return i18n.T("countdown.closing")
	}
	// Rounded, so that a tick a little early or late reads the whole second.
	left := int(c.deadline.Sub(now).Round(time.Second) / time.Second)
	text := formatLeft(left)
	if c.Warning(now) {
		text += " · " + i18n.T("countdown.closes_soon")
	}
	return text
}

// formatLeft renders seconds left as "m:ss left" (or "h:mm:ss left"; in
// Chinese "剩余 m:ss").
func formatLeft(s int) string {
	if s < 0 {
		s = 0
	}
	t := fmt.Sprintf("%d:%02d", s/60, s%60)
	if s >= 3600 {
		t = fmt.Sprintf("%d:%02d:%02d", s/3600, s/60%60, s%60)
	}
	return i18n.T("countdown.left", map[string]any{"Time": t})
}

// formatExtend names what "+ time" adds: "+5 min", "+90 s" ("+5 分钟").
func formatExtend(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return i18n.T("duration.plus_min", map[string]any{"Count": int(d / time.Minute)})
	}
	return i18n.T("duration.plus_s", map[string]any{"Count": int((d + time.Second/2) / time.Second)})
}

// describeExtend is formatExtend in words, for the button's tip.
func describeExtend(d time.Duration) string {
	if d >= time.Minute && d%time.Minute == 0 {
		return i18n.N("duration.minutes", int(d/time.Minute))
	}
	return i18n.N("duration.seconds", int((d+time.Second/2)/time.Second))
}
