// Package dnd is do not disturb, a feature of the inbox (core.Feature).
// While it is active a new question opens no
// window (so it makes no sound and its countdown, which starts when its
// window is first shown, does not run): it waits in the tray, counted in
// the badge and listed in the menu, from where the user can open it. Its
// callers wait as they always do: a caller with a wait limit gets
// ipc.ErrPending when it runs out and comes back ("call again"); nobody
// gets an answer the user did not give. When do-not-disturb ends (turned
// off, or its hour or night over) the waiting questions open one at a
// time, oldest first: each once the one before it is on screen and
// ReleaseEvery has passed, so the user is not hit by a wall of windows.
//
// The state survives a restart through a Store (the app's: a small JSON
// file in the user's state directory); a timed state that ended while the
// app was not running is off.
//
// The dnd_schedule setting (SetSchedule) adds daily quiet hours: inside
// them do not disturb is on exactly as the tray's "On" makes it, reported
// as Scheduled until their end, when what they held back opens by
// itself (a timer armed for the schedule's next start or end, not a poll).
// The tray's choices win over it: On, an hour or until tomorrow hold as
// chosen (when one of them ends inside the quiet hours, the schedule holds
// on); Off chosen inside the quiet hours turns do not disturb off until the
// schedule's next start (saved, so a restart keeps it off). A changed
// schedule forgets that Off.
package dnd

import (
	"fmt"
	"log/slog"
	"sync"
	"time"

	"feedback/app/clock"
	"feedback/app/core"
	"feedback/internal/settings"
)

// ReleaseEvery is the pause between two questions opening when
// do-not-disturb ends.
const ReleaseEvery = time.Second

// shownWait bounds the wait for a released question's window to be on
// screen before the next one opens (a window that never says so holds up
// nothing for long).
const shownWait = 5 * time.Second

// Store keeps the do-not-disturb state across restarts.
type Store interface {
	Load() (State, error) // no state stored yet: State{Mode: Off}, nil
	Save(State) error
}

// clamp holds a stored state to what its mode allows when chosen at
// now, so that a hand-edited "until" far in the future cannot hold
// questions longer than the tray says: an hour ends within the hour, "until tomorrow" by the next morning,
// on and off have no end, and the schedule's Off lasts at most a day (the
// longest quiet hours). A stored end beyond that is brought back to it.
func clamp(d State, now time.Time) State {
	longest, _ := For(d.Mode, now)
	switch {
	case longest.Until.IsZero():
		d.Until = time.Time{}
	case d.Until.After(longest.Until):
		d.Until = longest.Until
	}
	if limit := now.Add(24 * time.Hour); d.ScheduleOffUntil.After(limit) {
		d.ScheduleOffUntil = limit
	}
	return d
}

// Control is do not disturb: the state, the questions it holds back, and
// the release of them when it ends.
type Control struct {
	log  *slog.Logger
	host core.Host // Attach

	mu        sync.Mutex // guards everything below
	state     State
	store     Store
	queue     []core.Ref  // held back, oldest first
	end       clock.Timer // ends a timed state
	releasing bool        // a release runs
	closed    bool
	stop      chan struct{} // closed with closed; made by stopLocked
	version   uint64        // of state and schedOff, to save the latest only

	sched    settings.QuietHours // the dnd_schedule setting
	schedOff time.Time           // Off chosen in the quiet hours that end then: they do not hold
	boundary clock.Timer         // fires at the schedule's next start or end

	saveMu sync.Mutex // serialises saves
	saved  uint64     // the version last saved
}

var _ core.Feature = (*Control)(nil)

// New returns do not disturb, off; it works once attached to an inbox
// (core.Options.Features).
func New(log *slog.Logger) *Control {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Control{log: log, state: State{Mode: Off}}
}

// Attach implements core.Feature: do not disturb holds windows back, and
// opens one it holds when the user raises it from the tray.
func (c *Control) Attach(h core.Host) core.Hooks {
	c.host = h
	return core.Hooks{HoldBack: c.holdBack, Raise: c.raise}
}

// Use keeps the do-not-disturb state in s: the stored state is loaded (an
// error is logged and the state is off), held to what its mode allows from
// now (clamp), and every change is saved. A nil s turns do not disturb
// off, saving nothing (a run with no way to turn it off: no tray), and
// opens what it held back; the dnd_schedule's quiet hours still hold (they
// end by themselves). Call it before the inbox starts (core.Inbox.Start):
// the questions a restart shows again are held back only once the state
// is loaded.
func (c *Control) Use(s Store) {
	st := State{Mode: Off}
	if s != nil {
		var err error
		if st, err = s.Load(); err != nil {
			c.log.Warn("do not disturb: reading the saved state; it is off", "err", err)
			st = State{Mode: Off}
		}
	}
	c.mu.Lock()
	now := c.now()
	st = clamp(st, now)
	c.store = s
	c.schedOff = st.ScheduleOffUntil
	c.state = st.At(now)
	c.scheduleEndLocked(now)
	eff := c.effectiveLocked(now)
	on := eff.Active(now)
	release := !on && len(c.queue) > 0 && c.startReleaseLocked()
	c.mu.Unlock()
	if on {
		c.log.Info("do not disturb is on", "mode", eff.Mode, "until", eff.Until)
	}
	if release {
		go c.release()
	}
	c.host.Changed()
}

// State is the do-not-disturb state as it stands now: the tray's choice while
// it holds, else Scheduled inside the dnd_schedule's quiet hours, else
// off.
func (c *Control) State() State {
	c.expired()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.effectiveLocked(c.now())
}

// Active reports whether do-not-disturb is on now: nothing should make
// a sound or open a window by itself.
func (c *Control) Active() bool {
	c.expired()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.activeLocked(c.now())
}

// now is the time now, on the inbox's clock.
func (c *Control) now() time.Time { return c.host.Clock().Now() }

// effectiveLocked is what holds at now: the tray's choice while it is
// active, else the schedule's quiet hours (unless Off was chosen in them),
// else off.
func (c *Control) effectiveLocked(now time.Time) State {
	if c.state.Active(now) {
		return c.state.At(now)
	}
	if inside, end, _ := c.sched.Window(now); inside && !now.Before(c.schedOff) {
		return State{Mode: Scheduled, Until: end}
	}
	return State{Mode: Off}
}

func (c *Control) activeLocked(now time.Time) bool {
	return c.effectiveLocked(now).Active(now)
}

// SetSchedule sets the dnd_schedule setting: daily quiet hours
// ("22:00-08:00", settings.ParseQuietHours), "" for none; a malformed one is
// an error and changes nothing. It applies at once: inside the new hours
// new questions are held back; outside them what they held back opens. A
// changed schedule forgets an Off chosen in the old one's quiet hours.
func (c *Control) SetSchedule(schedule string) error {
	q, err := settings.ParseQuietHours(schedule)
	if err != nil {
		return fmt.Errorf("dnd_schedule %w", err)
	}
	c.mu.Lock()
	if q == c.sched {
		c.mu.Unlock()
		return nil
	}
	now := c.now()
	c.sched = q
	c.schedOff = time.Time{}
	c.version++
	c.armBoundaryLocked(now)
	eff := c.effectiveLocked(now)
	release := !eff.Active(now) && len(c.queue) > 0 && c.startReleaseLocked()
	c.mu.Unlock()
	c.log.Info("do not disturb schedule set", "dnd_schedule", q.String(), "mode", eff.Mode, "until", eff.Until)
	c.save()
	if release {
		go c.release()
	}
	c.host.Changed()
	return nil
}

// armBoundaryLocked arms the timer that fires at the schedule's next start
// or end (none without a schedule). Like the end of a timed state, the
// schedule is also checked against the wall clock whenever the state is
// read or a question comes (expired).
func (c *Control) armBoundaryLocked(now time.Time) {
	if c.boundary != nil {
		c.boundary.Stop()
		c.boundary = nil
	}
	if c.closed || !c.sched.Set {
		return
	}
	inside, end, next := c.sched.Window(now)
	at := next
	if inside {
		at = end
	}
	c.boundary = c.host.Clock().AfterFunc(at.Sub(now), c.boundaryReached)
}

// boundaryReached runs at a start or an end of the scheduled quiet hours: the
// tray changes, and at an end what they held back opens.
func (c *Control) boundaryReached() {
	c.mu.Lock()
	now := c.now()
	c.armBoundaryLocked(now)
	eff := c.effectiveLocked(now)
	c.mu.Unlock()
	c.log.Info("do not disturb schedule: quiet hours start or end", "mode", eff.Mode, "until", eff.Until)
	c.expired()
	c.host.Changed()
}

// Set sets do-not-disturb as the user chose it in the tray (an unknown
// mode is an error naming the modes), saves it and, when it ends, starts
// opening the questions it held back. A save error is returned after the
// state has been applied.
func (c *Control) Set(mode Mode) error {
	now := c.now()
	st, err := For(mode, now)
	if err != nil {
		return err
	}
	c.mu.Lock()
	// Off inside the scheduled quiet hours holds until their next start;
	// any other choice lets the schedule hold again once it ends.
	c.schedOff = time.Time{}
	if inside, end, _ := c.sched.Window(now); inside && st.Mode == Off {
		c.schedOff = end
	}
	c.state = st
	c.version++
	c.scheduleEndLocked(now)
	release := !c.activeLocked(now) && len(c.queue) > 0 && c.startReleaseLocked()
	c.mu.Unlock()
	c.log.Info("do not disturb set", "mode", st.Mode, "until", st.Until)
	err = c.save()
	if release {
		go c.release()
	}
	c.host.Changed()
	return err
}

// save saves the latest state, unless a later save came first.
func (c *Control) save() error {
	c.mu.Lock()
	s, st, v := c.store, c.state, c.version
	st.ScheduleOffUntil = c.schedOff
	c.mu.Unlock()
	if s == nil {
		return nil
	}
	c.saveMu.Lock()
	defer c.saveMu.Unlock()
	if v <= c.saved {
		return nil // a later state is saved already
	}
	c.saved = v
	if err := s.Save(st); err != nil {
		c.log.Warn("do not disturb: saving the state", "err", err)
		return fmt.Errorf("do not disturb: saving the state: %w", err)
	}
	return nil
}

// scheduleEndLocked arms the timer that ends a timed state. Timers run on
// the monotonic clock, which stands still while the machine sleeps: the
// state is also checked against the wall clock when read and when a
// question comes (expired).
func (c *Control) scheduleEndLocked(now time.Time) {
	if c.end != nil {
		c.end.Stop()
		c.end = nil
	}
	if c.closed || !c.state.Active(now) || c.state.Mode == On {
		return
	}
	c.end = c.host.Clock().AfterFunc(c.state.Until.Sub(now), func() { c.expired() })
}

// expired ends a timed state whose end has passed and, when nothing
// holds any more (the scheduled quiet hours over too), releases what was
// held back.
func (c *Control) expired() {
	c.mu.Lock()
	now := c.now()
	var ended State
	if c.state.Mode != Off && !c.state.Active(now) {
		ended = c.state
		c.state = State{Mode: Off}
		c.version++
	}
	release := !c.activeLocked(now) && len(c.queue) > 0 && c.startReleaseLocked()
	c.mu.Unlock()
	if ended.Mode == "" && !release {
		return
	}
	if ended.Mode != "" {
		c.log.Info("do not disturb ended", "mode", ended.Mode, "until", ended.Until)
		c.save()
	}
	if release {
		go c.release()
	}
	c.host.Changed()
}

// holdBack holds back the window of r while do-not-disturb is active
// (core.Hooks.HoldBack): r waits in the queue; its window opens when
// do-not-disturb ends or the user raises it.
func (c *Control) holdBack(r core.Ref) bool {
	c.expired()
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.closed || !c.activeLocked(c.now()) {
		return false
	}
	// Forget the held-back questions that ended meanwhile (withdrawn).
	live := c.queue[:0]
	for _, h := range c.queue {
		if c.host.IsOpen(h) {
			live = append(live, h)
		}
	}
	clear(c.queue[len(live):])
	c.queue = append(live, r)
	c.log.Info("question held back: do not disturb", "window", r.ID(), "held_back", len(c.queue))
	return true
}

// raise opens the window of question id now if do-not-disturb holds it
// back (core.Hooks.Raise: the user clicked it in the tray), do-not-disturb
// staying on for the others.
func (c *Control) raise(id string) bool {
	c.mu.Lock()
	for i, h := range c.queue {
		if h.ID() != id {
			continue
		}
		c.queue = append(c.queue[:i], c.queue[i+1:]...)
		c.mu.Unlock()
		if c.host.Show(h) {
			c.log.Info("question held back by do not disturb opened from the tray", "window", id)
		}
		return true
	}
	c.mu.Unlock()
	return false
}

// startReleaseLocked claims the release, if none runs.
func (c *Control) startReleaseLocked() bool {
	if c.releasing || c.closed {
		return false
	}
	c.releasing = true
	return true
}

// release opens the held-back questions one at a time, oldest
// first, each once the one before it is on screen (or shownWait has
// passed) and then ReleaseEvery. It stops when do-not-disturb
// is on again or Close is called.
func (c *Control) release() {
	c.mu.Lock()
	stop := c.stopLocked()
	c.mu.Unlock()
	for opened := 0; ; {
		c.mu.Lock()
		if c.closed || c.activeLocked(c.now()) || len(c.queue) == 0 {
			c.releasing = false
			c.mu.Unlock()
			return
		}
		h := c.queue[0]
		c.queue[0] = core.Ref{}
		c.queue = c.queue[1:]
		c.mu.Unlock()
		if !c.host.IsOpen(h) {
			continue // withdrawn while held back
		}
		if opened > 0 {
			paced, unpace := clock.After(c.host.Clock(), ReleaseEvery) // pacing, for the user's sake
			select {
			case <-paced:
			case <-stop:
			}
			unpace()
			c.mu.Lock()
			if c.closed || c.activeLocked(c.now()) {
				// On again meanwhile: it goes back to the head of the queue.
				c.queue = append([]core.Ref{h}, c.queue...)
				c.releasing = false
				c.mu.Unlock()
				return
			}
			c.mu.Unlock()
			if !c.host.IsOpen(h) {
				continue
			}
		}
		opened++
		c.log.Info("question held back by do not disturb opens", "window", h.ID())
		c.host.Show(h)
		waited, unwait := clock.After(c.host.Clock(), shownWait)
		select {
		case <-h.Shown():
		case <-h.Answered():
		case <-stop:
		case <-waited:
		}
		unwait()
	}
}

// stopLocked is the channel closed by Close.
func (c *Control) stopLocked() chan struct{} {
	if c.stop == nil {
		c.stop = make(chan struct{})
	}
	return c.stop
}

// Close stops the timer and any release; nothing held back opens after.
func (c *Control) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.closed {
		close(c.stopLocked())
	}
	c.closed = true
	if c.end != nil {
		c.end.Stop()
		c.end = nil
	}
	if c.boundary != nil {
		c.boundary.Stop()
		c.boundary = nil
	}
}
