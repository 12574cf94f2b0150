package core

import (
	"feedback/ipc/wire"
)

// A question set aside: the user said "not now" to it (snoozed it, in its
// window or from the tray: package snooze decides when it comes back). Its
// window closes (the draft kept), its callers hear that it is snoozed and
// until when (a pending outcome with wire.Answer.Snooze: they call again),
// and it comes back — its window shown again with the draft — when the
// feature brings it back. It stays open all along, and its snooze is
// recorded, so that a restart keeps it aside (Hooks.Restore).

// closed is a channel that is always ready: a wait that has ended.
var closed = func() <-chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// putAway closes window id without the "withdrew its question" notice
// of one its agent withdrew unseen: the window of a question set aside
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

// setAside sets aside the open question whose window is id, snoozed by s
// (Host.SetAside).
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
	in.asideLocked(e, s)
	// Kept, with its snooze, across a restart of the app: the next run
	// keeps it aside (reopen, Hooks.Restore) instead of showing it.
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

// asideLocked sets e aside, snoozed by s: its callers hear of it
// (snoozeC).
func (in *Inbox) asideLocked(e *entry, s wire.Snooze) {
	e.snooze = &s
	e.snoozes++
	close(e.snoozeC)
}

// recordSnooze records the snooze of question id (nil: none any more).
func (in *Inbox) recordSnooze(id string, s *wire.Snooze) {
	in.rec.do("save snooze", id, func(p Store) error { return p.SetSnooze(id, s) })
}

// restore asks the features whether e, which the last run left open
// snoozed by s, stays aside (Hooks.Restore); none attached: it does not.
func (in *Inbox) restore(e *entry, s wire.Snooze) bool {
	for _, h := range in.hooks {
		if h.Restore != nil && h.Restore(Ref{e}, s) {
			return true
		}
	}
	return false
}

// bringBack brings e back from aside (Host.BringBack): its window opens
// again with its latest draft.
func (in *Inbox) bringBack(e *entry) {
	in.mu.Lock()
	if in.open[e.q.ID] != e || e.snooze == nil {
		in.mu.Unlock()
		return
	}
	e.snooze = nil
	e.snoozeC = make(chan struct{})
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
