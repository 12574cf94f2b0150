package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
	"time"

	"feedback/store"
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

// LoadDND implements DNDStore; a missing file is off.
func (f DNDFile) LoadDND() (DND, error) {
	data, err := os.ReadFile(string(f))
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
	if _, err := DNDFor(d.Mode, time.Now()); err != nil {
		return DND{Mode: DNDOff}, fmt.Errorf("%s: %w", f, err)
	}
	return d, nil
}

// SaveDND implements DNDStore.
func (f DNDFile) SaveDND(d DND) error {
	data, err := json.Marshal(d)
	if err != nil {
		return err
	}
	dir := filepath.Dir(string(f))
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	tmp, err := os.CreateTemp(dir, ".dnd-*.json")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // after the rename: nothing left to remove
	if _, err := tmp.Write(append(data, '\n')); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), string(f))
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
	end       *time.Timer     // ends a timed state
	releasing bool            // a release runs
	closed    bool
	stop      chan struct{} // closed with closed; made by stopLocked
	every     time.Duration // DNDReleaseEvery; tests shorten it
	version   uint64        // of state, to save the latest only

	saveMu sync.Mutex // serialises saves
	saved  uint64     // the version last saved
}

// heldBack is a question held back by do-not-disturb.
type heldBack struct {
	e     *entry
	draft *store.Draft
}

// UseDND has the inbox keep its do-not-disturb state in s: the stored state
// is loaded (an error is logged and the state is off) and every change is
// saved. A nil s turns do not disturb off, saving nothing (a run with no
// way to turn it off: no tray), and opens what it held back. Call it right
// after making the inbox: the questions a restart shows again are held
// back only once the state is loaded.
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
	now := time.Now()
	d.mu.Lock()
	d.store = s
	d.state = st.At(now)
	d.scheduleEndLocked(in, now)
	on := d.state.Active(now)
	release := !on && len(d.queue) > 0 && d.startReleaseLocked()
	d.mu.Unlock()
	if on {
		in.log.Info("do not disturb is on", "mode", st.Mode, "until", st.Until)
	}
	if release {
		go in.releaseHeldBack()
	}
	in.notify()
}

// DND is the do-not-disturb state as it stands now.
func (in *Inbox) DND() DND {
	in.dndExpired()
	d := &in.dnd
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.state.At(time.Now())
}

// DNDActive reports whether do-not-disturb is on now: nothing should make
// a sound or open a window by itself.
func (in *Inbox) DNDActive() bool { return in.DND().Active(time.Now()) }

// SetDND sets do-not-disturb as the user chose it in the tray (an unknown
// mode is an error naming the modes), saves it and, when it ends, starts
// opening the questions it held back. A save error is returned after the
// state has been applied.
func (in *Inbox) SetDND(mode DNDMode) error {
	now := time.Now()
	st, err := DNDFor(mode, now)
	if err != nil {
		return err
	}
	d := &in.dnd
	d.mu.Lock()
	d.state = st
	d.version++
	d.scheduleEndLocked(in, now)
	release := !st.Active(now) && len(d.queue) > 0 && d.startReleaseLocked()
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
	d.end = time.AfterFunc(d.state.Until.Sub(now), func() { in.dndExpired() })
}

// dndExpired ends a timed state whose end has passed, then releases what it
// held back.
func (in *Inbox) dndExpired() {
	d := &in.dnd
	now := time.Now()
	d.mu.Lock()
	if d.state.Mode == DNDOff || d.state.Active(now) {
		d.mu.Unlock()
		return
	}
	ended := d.state
	d.state = DND{Mode: DNDOff}
	d.version++
	release := len(d.queue) > 0 && d.startReleaseLocked()
	d.mu.Unlock()
	in.log.Info("do not disturb ended", "mode", ended.Mode, "until", ended.Until)
	in.saveDND()
	if release {
		go in.releaseHeldBack()
	}
	in.notify()
}

// holdBack is the hook of Inbox.show: while do-not-disturb is active it
// queues e (unless the user raised it) and reports true; its window opens
// when do-not-disturb ends or the user raises it.
func (in *Inbox) holdBack(e *entry, draft *store.Draft) bool {
	in.dndExpired()
	d := &in.dnd
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.pass[e] {
		delete(d.pass, e)
		return false
	}
	if d.closed || !d.state.Active(time.Now()) {
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
	d.queue = append(live, heldBack{e, draft})
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
			in.show(h.e, h.draft)
		} else {
			d.mu.Lock()
			delete(d.pass, h.e)
			d.mu.Unlock()
		}
		return
	}
	d.mu.Unlock()
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
// passed) and then d.every (DNDReleaseEvery). It stops when do-not-disturb
// is on again or the inbox closes.
func (in *Inbox) releaseHeldBack() {
	d := &in.dnd
	every := d.every
	if every <= 0 {
		every = DNDReleaseEvery
	}
	d.mu.Lock()
	stop := d.stopLocked()
	d.mu.Unlock()
	for opened := 0; ; {
		d.mu.Lock()
		if d.closed || d.state.Active(time.Now()) || len(d.queue) == 0 {
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
			t := time.NewTimer(every) // pacing, for the user's sake
			select {
			case <-t.C:
			case <-stop:
				t.Stop()
			}
			d.mu.Lock()
			if d.closed || d.state.Active(time.Now()) {
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
		in.show(h.e, h.draft)
		t := time.NewTimer(dndShownWait)
		select {
		case <-h.e.shown:
		case <-h.e.done:
		case <-stop:
		case <-t.C:
		}
		t.Stop()
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
}
