package core

import (
	"feedback/ipc/wire"
)

// Snoozing: the user says "not now" to a question, in its window or from
// the tray. Its window closes (the draft kept), its callers hear that it
// is snoozed and until when (a pending outcome with wire.Answer.Snooze:
// they call again), and it comes back — its window shown again with the
// draft — at the snooze's end, or when the user is back (Back) for one
// snoozed until then. It stays open all along.

// closed is a channel that is always ready: a wait that has ended.
var closed = func() <-chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// putAway closes window id without the "withdrew its question" notice
// of one its agent withdrew unseen: the window of a snoozed question
// (which goes on), or of one the user answered from its notification
// (seen there).
func (in *Inbox) putAway(id string) {
	in.mu.Lock()
	e := in.open[id]
	in.mu.Unlock()
	if e != nil {
		in.closeWindow(e, false) // windows.go
	}
}

// Snooze snoozes the open question whose window is id. It reports false
// when no such question is open, or it is snoozed already.
func (in *Inbox) Snooze(id string, s wire.Snooze) bool {
	_, ok := in.setAside(id, s)
	return ok
}

// setAside snoozes the open question whose window is id (Host.SetAside).
func (in *Inbox) setAside(id string, s wire.Snooze) (*entry, bool) {
	in.mu.Lock()
	e := in.open[id]
	if e == nil || e.snooze != nil {
		in.mu.Unlock()
		return nil, false
	}
	select {
	case <-e.done:
		in.mu.Unlock()
		return nil, false
	default:
	}
	in.snoozeLocked(e, s)
	// Kept, with its snooze, across a restart of the app: the next run
	// keeps it snoozed (reopen, resnoozeLocked) instead of showing it.
	if !e.kept {
		e.kept = true
		in.rec.do("keep open", id, func(p Store) error { return p.SetKeptOpen(id, true) })
	}
	in.recordSnooze(id, &s)
	in.mu.Unlock()
	in.log.Info("question snoozed", "id", id, "until", s.Until, "until_back", s.UntilBack)
	in.putAway(id)
	in.notify()
	return e, true
}

// snoozeLocked snoozes e until s ends: its callers hear of it (snoozeC),
// and a timed snooze wakes it at its end.
func (in *Inbox) snoozeLocked(e *entry, s wire.Snooze) {
	e.snooze = &s
	e.snoozes++
	close(e.snoozeC)
	if !s.UntilBack {
		e.wake = in.clock.AfterFunc(s.Until.Sub(in.clock.Now()), func() { in.bringBack(e) })
	}
}

// recordSnooze records the snooze of question id (nil: none any more).
func (in *Inbox) recordSnooze(id string, s *wire.Snooze) {
	in.rec.do("save snooze", id, func(p Store) error { return p.SetSnooze(id, s) })
}

// resnoozeLocked snoozes again e, which the last run left open snoozed
// (s, nil: it was not): it reports false when s has ended meanwhile, and
// e is to be shown.
func (in *Inbox) resnoozeLocked(e *entry, s *wire.Snooze) bool {
	if s == nil {
		return false
	}
	if !s.UntilBack && !s.Until.After(in.clock.Now()) {
		in.recordSnooze(e.q.ID, nil)
		return false
	}
	in.snoozeLocked(e, *s)
	in.log.Info("question snoozed before the restart stays snoozed", "id", e.q.ID, "until", s.Until, "until_back", s.UntilBack)
	return true
}

// SnoozeAll snoozes every open question that is not snoozed; it returns
// how many.
func (in *Inbox) SnoozeAll(s wire.Snooze) int {
	in.mu.Lock()
	var ids []string
	for id, e := range in.open {
		if e.snooze == nil {
			ids = append(ids, id)
		}
	}
	in.mu.Unlock()
	n := 0
	for _, id := range ids {
		if in.Snooze(id, s) {
			n++
		}
	}
	return n
}

// Back ends the snoozes that last until the user is back.
func (in *Inbox) Back() {
	in.mu.Lock()
	var es []*entry
	for _, e := range in.open {
		if e.snooze != nil && e.snooze.UntilBack {
			es = append(es, e)
		}
	}
	in.mu.Unlock()
	for _, e := range es {
		in.bringBack(e)
	}
}

// SnoozedUntilBack reports whether a question is snoozed until the user
// is back: the presence watcher looks then.
func (in *Inbox) SnoozedUntilBack() bool {
	in.mu.Lock()
	defer in.mu.Unlock()
	for _, e := range in.open {
		if e.snooze != nil && e.snooze.UntilBack {
			return true
		}
	}
	return false
}

// bringBack brings e back: its window opens again with its latest draft.
func (in *Inbox) bringBack(e *entry) {
	in.mu.Lock()
	if in.open[e.q.ID] != e || e.snooze == nil {
		in.mu.Unlock()
		return
	}
	e.snooze = nil
	e.snoozeC = make(chan struct{})
	if e.wake != nil {
		e.wake.Stop()
		e.wake = nil
	}
	in.recordSnooze(e.q.ID, nil)
	in.mu.Unlock()
	in.log.Info("snoozed question back", "id", e.q.ID)
	in.show(e)
}

// snoozeNow is e's snooze, or nil.
func (in *Inbox) snoozeNow(e *entry) *wire.Snooze {
	in.mu.Lock()
	defer in.mu.Unlock()
	if e.snooze == nil {
		return nil
	}
	s := *e.snooze
	return &s
}
