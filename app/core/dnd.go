package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"sync"
	"time"

	"feedback/app/clock"
	"feedback/internal/atomicfile"
	"feedback/internal/safefile"
	"feedback/internal/settings"
)

// Do not disturb in the inbox. While it is active a new question opens no
// window (so it makes no sound and its countdown, which starts when its
// window is first shown, does not run): it waits in the tray, counted in
// the badge and listed in the menu, from where the user can open it. Its
// callers wait as they always do: a caller with a wait limit gets
// ipc.ErrPending when it runs out and comes back ("call again"); nobody
// gets an answer the user did not give. When do-not-disturb ends (turned
// off, or its hour or night over) the waiting questions open one at a
// time, oldest first: each once the one before it is on screen and
// DNDReleaseEvery has passed, so the user is not hit by a wall of windows.
//
// The state survives a restart through a DNDStore (DNDFile: a small JSON
// file in the user's state directory); a timed state that ended while the
// app was not running is off.
//
// The dnd_schedule setting (SetDNDSchedule) adds daily quiet hours: inside
// them do not disturb is on exactly as the tray's "On" makes it, reported
// as DNDScheduled until their end, when what they held back opens by
// itself (a timer armed for the schedule's next start or end, not a poll).
// The tray's choices win over it: On, an hour or until tomorrow hold as
// chosen (when one of them ends inside the quiet hours, the schedule holds
// on); Off chosen inside the quiet hours turns do not disturb off until the
// schedule's next start (saved, so a restart keeps it off). A changed
// schedule forgets that Off.

// DNDReleaseEvery is the pause between two questions opening when
// do-not-disturb ends.
const DNDReleaseEvery = time.Second

// dndShownWait bounds the wait for a released question's window to be on
// screen before the next one opens (a window that never says so holds up
// nothing for long).
const dndShownWait = 5 * time.Second

// DNDStore keeps the do-not-disturb state across restarts.
type DNDStore interface {
	LoadDND() (DND, error) // no state stored yet: DND{Mode: DNDOff}, nil
	SaveDND(DND) error
}

// DNDFile is a DNDStore in a JSON file at this path, written whole through
// a temporary file and a rename, readable by the user only.
type DNDFile string

// maxDNDFileBytes bounds dnd.json: what SaveDND writes is under 200 bytes.
const maxDNDFileBytes = 64 << 10

// LoadDND implements DNDStore; a missing file is off. The file is read
// only when it is a regular file of at most 64 KiB (a FIFO or /dev/zero
// there is an error at once). (The inbox holds what it loads to what its
// mode allows: clampDND.)
func (f DNDFile) LoadDND() (DND, error) {
	data, err := safefile.ReadFile(string(f), maxDNDFileBytes)
	if errors.Is(err, fs.ErrNotExist) {
		return DND{Mode: DNDOff}, nil
	}
	if err != nil {
		return DND{Mode: DNDOff}, err
	}
	var d DND
	if err := json.Unmarshal(data, &d); err != nil {
		return DND{Mode: DNDOff}, fmt.Errorf("%s: %w (delete the file to turn do not disturb off)", f, err)
	}
	if _, err := DNDFor(d.Mode, time.Time{}); err != nil {
		return DND{Mode: DNDOff}, fmt.Errorf("%s: %w", f, err)
	}
	return d, nil
}

// clampDND holds a stored state to what its mode allows when chosen at
// now, so that a hand-edited "until" far in the future cannot hold
// questions longer than the tray says: an hour ends within the hour, "until tomorrow" by the next morning,
// on and off have no end, and the schedule's Off lasts at most a day (the
// longest quiet hours). A stored end beyond that is brought back to it.
func clampDND(d DND, now time.Time) DND {
	longest, _ := DNDFor(d.Mode, now)
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

// SaveDND implements DNDStore.
func (f DNDFile) SaveDND(d DND) error {
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	return atomicfile.WriteFile(string(f), append(data, '\n'), atomicfile.Options{Perm: 0o600})
}

// dndControl is the inbox's do-not-disturb: the state, the questions it
// holds back, and the release of them when it ends. Lock order: mu, then
// Inbox.mu; it is never taken with Inbox.mu held.
type dndControl struct {
	mu        sync.Mutex // guards everything below
	state     DND
	store     DNDStore
	queue     []heldBack      // oldest first
	pass      map[*entry]bool // raised by the user: shown though do-not-disturb is on
	end       clock.Timer     // ends a timed state
	releasing bool            // a release runs
	closed    bool
	stop      chan struct{} // closed with closed; made by stopLocked
	version   uint64        // of state and schedOff, to save the latest only

	sched    settings.QuietHours // the dnd_schedule setting
	schedOff time.Time           // Off chosen in the quiet hours that end then: they do not hold
	boundary clock.Timer         // fires at the schedule's next start or end
	clock    clock.Clock         // the inbox's

	saveMu sync.Mutex // serialises saves
	saved  uint64     // the version last saved
}

// heldBack is a question held back by do-not-disturb.
type heldBack struct {
	e *entry
}

// UseDND has the inbox keep its do-not-disturb state in s: the stored state
// is loaded (an error is logged and the state is off), held to what its
// mode allows from now (clampDND), and every change is saved. A nil s turns do not disturb off, saving nothing (a run with no
// way to turn it off: no tray), and opens what it held back; the
// dnd_schedule's quiet hours still hold (they end by themselves). Call it
// right after making the inbox: the questions a restart shows again are
// held back only once the state is loaded.
func (in *Inbox) UseDND(s DNDStore) {
	st := DND{Mode: DNDOff}
	if s != nil {
		var err error
		if st, err = s.LoadDND(); err != nil {
			in.log.Warn("do not disturb: reading the saved state; it is off", "err", err)
			st = DND{Mode: DNDOff}
		}
	}
	d := &in.dnd
	d.mu.Lock()
	now := d.now()
	st = clampDND(st, now)
	d.store = s
	d.schedOff = st.ScheduleOffUntil
	d.state = st.At(now)
	d.scheduleEndLocked(in, now)
	eff := d.effectiveLocked(now)
	on := eff.Active(now)
	release := !on && len(d.queue) > 0 && d.startReleaseLocked()
	d.mu.Unlock()
	if on {
		in.log.Info("do not disturb is on", "mode", eff.Mode, "until", eff.Until)
	}
	if release {
		go in.releaseHeldBack()
	}
	in.notify()
}

// DND is the do-not-disturb state as it stands now: the tray's choice while
// it holds, else DNDScheduled inside the dnd_schedule's quiet hours, else
// off.
func (in *Inbox) DND() DND {
	in.dndExpired()
	d := &in.dnd
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.effectiveLocked(d.now())
}

// DNDActive reports whether do-not-disturb is on now: nothing should make
// a sound or open a window by itself.
func (in *Inbox) DNDActive() bool {
	in.dndExpired()
	d := &in.dnd
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.activeLocked(d.now())
}

// now is the time now, on the inbox's clock.
func (d *dndControl) now() time.Time { return d.clock.Now() }

// effectiveLocked is what holds at now: the tray's choice while it is
// active, else the schedule's quiet hours (unless Off was chosen in them),
// else off.
func (d *dndControl) effectiveLocked(now time.Time) DND {
	if d.state.Active(now) {
		return d.state.At(now)
	}
	if inside, end, _ := d.sched.Window(now); inside && !now.Before(d.schedOff) {
		return DND{Mode: DNDScheduled, Until: end}
	}
	return DND{Mode: DNDOff}
}

func (d *dndControl) activeLocked(now time.Time) bool {
	return d.effectiveLocked(now).Active(now)
}

// SetDNDSchedule sets the dnd_schedule setting: daily quiet hours
// ("22:00-08:00", settings.ParseQuietHours), "" for none; a malformed one is
// an error and changes nothing. It applies at once: inside the new hours
// new questions are held back; outside them what they held back opens. A
// changed schedule forgets an Off chosen in the old one's quiet hours.
func (in *Inbox) SetDNDSchedule(schedule string) error {
	q, err := settings.ParseQuietHours(schedule)
	if err != nil {
		return fmt.Errorf("dnd_schedule %w", err)
	}
	d := &in.dnd
	d.mu.Lock()
	if q == d.sched {
		d.mu.Unlock()
		return nil
	}
	now := d.now()
	d.sched = q
	d.schedOff = time.Time{}
	d.version++
	d.armBoundaryLocked(in, now)
	eff := d.effectiveLocked(now)
	release := !eff.Active(now) && len(d.queue) > 0 && d.startReleaseLocked()
	d.mu.Unlock()
	in.log.Info("do not disturb schedule set", "dnd_schedule", q.String(), "mode", eff.Mode, "until", eff.Until)
	in.saveDND()
	if release {
		go in.releaseHeldBack()
	}
	in.notify()
	return nil
}

// armBoundaryLocked arms the timer that fires at the schedule's next start
// or end (none without a schedule). Like the end of a timed state, the
// schedule is also checked against the wall clock whenever the state is
// read or a question comes (dndExpired).
func (d *dndControl) armBoundaryLocked(in *Inbox, now time.Time) {
	if d.boundary != nil {
		d.boundary.Stop()
		d.boundary = nil
	}
	if d.closed || !d.sched.Set {
		return
	}
	inside, end, next := d.sched.Window(now)
	at := next
	if inside {
		at = end
	}
	d.boundary = d.clock.AfterFunc(at.Sub(now), in.dndBoundary)
}

// dndBoundary runs at a start or an end of the scheduled quiet hours: the
// tray changes, and at an end what they held back opens.
func (in *Inbox) dndBoundary() {
	d := &in.dnd
	d.mu.Lock()
	now := d.now()
	d.armBoundaryLocked(in, now)
	eff := d.effectiveLocked(now)
	d.mu.Unlock()
	in.log.Info("do not disturb schedule: quiet hours start or end", "mode", eff.Mode, "until", eff.Until)
	in.dndExpired()
	in.notify()
}

// SetDND sets do-not-disturb as the user chose it in the tray (an unknown
// mode is an error naming the modes), saves it and, when it ends, starts
// opening the questions it held back. A save error is returned after the
// state has been applied.
func (in *Inbox) SetDND(mode DNDMode) error {
	d := &in.dnd
	now := d.now()
	st, err := DNDFor(mode, now)
	if err != nil {
		return err
	}
	d.mu.Lock()
	// Off inside the scheduled quiet hours holds until their next start;
	// any other choice lets the schedule hold again once it ends.
	d.schedOff = time.Time{}
	if inside, end, _ := d.sched.Window(now); inside && st.Mode == DNDOff {
		d.schedOff = end
	}
	d.state = st
	d.version++
	d.scheduleEndLocked(in, now)
	release := !d.activeLocked(now) && len(d.queue) > 0 && d.startReleaseLocked()
	d.mu.Unlock()
	in.log.Info("do not disturb set", "mode", st.Mode, "until", st.Until)
	err = in.saveDND()
	if release {
		go in.releaseHeldBack()
	}
	in.notify()
	return err
}

// saveDND saves the latest state, unless a later save came first.
func (in *Inbox) saveDND() error {
	d := &in.dnd
	d.mu.Lock()
	s, st, v := d.store, d.state, d.version
	st.ScheduleOffUntil = d.schedOff
	d.mu.Unlock()
	if s == nil {
		return nil
	}
	d.saveMu.Lock()
	defer d.saveMu.Unlock()
	if v <= d.saved {
		return nil // a later state is saved already
	}
	d.saved = v
	if err := s.SaveDND(st); err != nil {
		in.log.Warn("do not disturb: saving the state", "err", err)
		return fmt.Errorf("do not disturb: saving the state: %w", err)
	}
	return nil
}

// scheduleEndLocked arms the timer that ends a timed state. Timers run on
// the monotonic clock, which stands still while the machine sleeps: the
// state is also checked against the wall clock when read and when a
// question comes (dndExpired).
func (d *dndControl) scheduleEndLocked(in *Inbox, now time.Time) {
	if d.end != nil {
		d.end.Stop()
		d.end = nil
	}
	if d.closed || !d.state.Active(now) || d.state.Mode == DNDOn {
		return
	}
	d.end = d.clock.AfterFunc(d.state.Until.Sub(now), func() { in.dndExpired() })
}

// dndExpired ends a timed state whose end has passed and, when nothing
// holds any more (the scheduled quiet hours over too), releases what was
// held back.
func (in *Inbox) dndExpired() {
	d := &in.dnd
	d.mu.Lock()
	now := d.now()
	var ended DND
	if d.state.Mode != DNDOff && !d.state.Active(now) {
		ended = d.state
		d.state = DND{Mode: DNDOff}
		d.version++
	}
	release := !d.activeLocked(now) && len(d.queue) > 0 && d.startReleaseLocked()
	d.mu.Unlock()
	if ended.Mode == "" && !release {
		return
	}
	if ended.Mode != "" {
		in.log.Info("do not disturb ended", "mode", ended.Mode, "until", ended.Until)
		in.saveDND()
	}
	if release {
		go in.releaseHeldBack()
	}
	in.notify()
}

// holdBack is the hook of Inbox.show: while do-not-disturb is active it
// queues e (unless the user raised it) and reports true; its window opens
// when do-not-disturb ends or the user raises it.
func (in *Inbox) holdBack(e *entry) bool {
	in.dndExpired()
	d := &in.dnd
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pass[e] {
		delete(d.pass, e)
		return false
	}
	if d.closed || !d.activeLocked(d.now()) {
		return false
	}
	// Forget the held-back questions that ended meanwhile (withdrawn).
	live := d.queue[:0]
	for _, h := range d.queue {
		if in.isOpen(h.e) {
			live = append(live, h)
		}
	}
	clear(d.queue[len(live):])
	d.queue = append(live, heldBack{e})
	in.log.Info("question held back: do not disturb", "window", e.q.ID, "held_back", len(d.queue))
	return true
}

// isOpen reports whether e is still an open question.
func (in *Inbox) isOpen(e *entry) bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.open[e.q.ID] == e
}

// Raise brings the question id forward, as a click on it in the tray does:
// a question held back by do-not-disturb opens its window now; any other
// has its window raised.
func (in *Inbox) Raise(id string) {
	d := &in.dnd
	d.mu.Lock()
	for i, h := range d.queue {
		if h.e.q.ID != id {
			continue
		}
		d.queue = append(d.queue[:i], d.queue[i+1:]...)
		if d.pass == nil {
			d.pass = map[*entry]bool{}
		}
		d.pass[h.e] = true
		d.mu.Unlock()
		if in.isOpen(h.e) {
			in.log.Info("question held back by do not disturb opened from the tray", "window", id)
			in.show(h.e)
		} else {
			d.mu.Lock()
			delete(d.pass, h.e)
			d.mu.Unlock()
		}
		return
	}
	d.mu.Unlock()
	for _, h := range in.hooks { // snooze: the user wants a snoozed one now after all
		if h.Raise != nil && h.Raise(id) {
			return
		}
	}
	in.p.Focus(id)
}

// startReleaseLocked claims the release, if none runs.
func (d *dndControl) startReleaseLocked() bool {
	if d.releasing || d.closed {
		return false
	}
	d.releasing = true
	return true
}

// releaseHeldBack opens the held-back questions one at a time, oldest
// first, each once the one before it is on screen (or dndShownWait has
// passed) and then DNDReleaseEvery. It stops when do-not-disturb
// is on again or the inbox closes.
func (in *Inbox) releaseHeldBack() {
	d := &in.dnd
	d.mu.Lock()
	stop := d.stopLocked()
	d.mu.Unlock()
	for opened := 0; ; {
		d.mu.Lock()
		if d.closed || d.activeLocked(d.now()) || len(d.queue) == 0 {
			d.releasing = false
			d.mu.Unlock()
			return
		}
		h := d.queue[0]
		d.queue[0] = heldBack{}
		d.queue = d.queue[1:]
		d.mu.Unlock()
		if !in.isOpen(h.e) {
			continue // withdrawn while held back
		}
		if opened > 0 {
			paced, unpace := clock.After(d.clock, DNDReleaseEvery) // pacing, for the user's sake
			select {
			case <-paced:
			case <-stop:
			}
			unpace()
			d.mu.Lock()
			if d.closed || d.activeLocked(d.now()) {
				// On again meanwhile: it goes back to the head of the queue.
				d.queue = append([]heldBack{h}, d.queue...)
				d.releasing = false
				d.mu.Unlock()
				return
			}
			d.mu.Unlock()
			if !in.isOpen(h.e) {
				continue
			}
		}
		opened++
		in.log.Info("question held back by do not disturb opens", "window", h.e.q.ID)
		in.show(h.e)
		waited, unwait := clock.After(d.clock, dndShownWait)
		select {
		case <-h.e.shown:
		case <-h.e.done:
		case <-stop:
		case <-waited:
		}
		unwait()
	}
}

// stopLocked is the channel closed when the inbox closes.
func (d *dndControl) stopLocked() chan struct{} {
	if d.stop == nil {
		d.stop = make(chan struct{})
	}
	return d.stop
}

// closeDND stops the timer and any release; nothing held back opens after.
func (in *Inbox) closeDND() {
	d := &in.dnd
	d.mu.Lock()
	defer d.mu.Unlock()
	if !d.closed {
		close(d.stopLocked())
	}
	d.closed = true
	if d.end != nil {
		d.end.Stop()
		d.end = nil
	}
	if d.boundary != nil {
		d.boundary.Stop()
		d.boundary = nil
	}
}
