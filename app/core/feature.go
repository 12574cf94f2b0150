package core

import (
	"context"

	"feedback/app/clock"
	"feedback/ipc/wire"
)

// The inbox keeps to questions and their windows. What else the app does
// with them — do not disturb, away, snooze, the notes for agents, the
// agents' messages — is a Feature of a package of its own (app/core/dnd,
// away, snooze, notes, messages), which takes part through the Hooks it
// gives the inbox and acts through the narrow Host the inbox gives it, as
// tailscale's ipnext extensions do with its LocalBackend. A feature keeps
// its own state under its own lock; the inbox knows none of it.

// Feature is a part of the app that extends the inbox. New attaches each of
// Options.Features, in order, before the inbox does anything.
type Feature interface {
	// Attach hands the feature the inbox it extends, and returns the
	// feature's hooks. It is called once.
	Attach(h Host) Hooks
}

// Hooks are where a feature takes part in the inbox's work. Any may be
// nil. The inbox calls them holding none of its locks.
type Hooks struct {
	// Gate may answer a new question at once, before any window is opened
	// for it (ok): away's "proceed". It is asked of a question that is not
	// open already, and never of an attach-only ask. The inbox records a
	// question it answers as asked, and the answer as delivered.
	Gate func(r wire.Ask) (a wire.Answer, ok bool)
	// HoldBack may hold back the window of question r, about to be shown
	// (true): do not disturb. The feature shows it later (Host.Show), or
	// never if it ends first.
	HoldBack func(r Ref) bool
	// Raise may bring question id forward itself (true), as a click on it
	// in the tray asks: do not disturb opens one it held back, snooze
	// brings back a snoozed one. When no feature does, the inbox raises the
	// question's window.
	Raise func(id string) bool
	// Snooze snoozes question id, whose window the user snoozed (s: until
	// when).
	Snooze func(id string, s wire.Snooze)
	// Restore is told that the last run left question r open and snoozed
	// by s: it reports whether r stays so (set aside, its window closed
	// until Host.BringBack), or is shown now (s has ended meanwhile).
	Restore func(r Ref, s wire.Snooze) bool
	// Outcome adds to a, the outcome about to reach the caller of q (never
	// a pending one), what the feature has for it: the notes for q's agent.
	Outcome func(ctx context.Context, q wire.Question, a wire.Answer) wire.Answer
	// Ended hears that question r ended: answered, dismissed, timed out or
	// withdrawn.
	Ended func(r Ref)
}

// Host is the part of the inbox a feature may use.
type Host interface {
	// Clock is the inbox's: features time what they time on it.
	Clock() clock.Clock
	// Changed tells the views of the inbox (OnChange: the tray) that what
	// they show changed.
	Changed()
	// Record queues a write to the Store, in order with the inbox's own; a
	// failure is logged, naming what and id.
	Record(what, id string, op func(Store) error)
	// Enqueue queues op on the Store's goroutine, in order with the
	// inbox's writes; it reports false once the inbox is closing (op will
	// not run).
	Enqueue(op func(Store)) bool
	// Items lists the open questions, oldest first.
	Items() []Item
	// IsOpen reports whether question r is still open.
	IsOpen(r Ref) bool
	// Show opens the window of question r, which a HoldBack held back,
	// now (r.Shown, r.Answered tell when it is on screen or has ended); false when r has
	// ended already.
	Show(r Ref) bool
	// SetAside closes the window of the open question id until BringBack,
	// the question staying open and recorded so: snoozed by s. Its callers
	// with a wait hear of it at once (a pending outcome carrying s). It
	// reports false when id is not open, ended, or set aside already.
	SetAside(id string, s wire.Snooze) (Ref, bool)
	// BringBack shows again the window of question r, set aside, with its
	// latest draft (unless a HoldBack holds it back); nothing when r has
	// ended or is not set aside.
	BringBack(r Ref)
	// Aside lists the questions set aside, with their snoozes.
	Aside() []Aside
}

// Ref is a question of the inbox as a feature holds it: comparable, and
// never mistaken for a later question of the same id.
type Ref struct{ e *entry }

// ID is the question's window id (Item.ID).
func (r Ref) ID() string { return r.e.q.ID }

// Shown is closed once the question's window is on screen.
func (r Ref) Shown() <-chan struct{} { return r.e.shown }

// Answered is closed once the question has an outcome (not when it is
// withdrawn).
func (r Ref) Answered() <-chan struct{} { return r.e.done }

// Aside is a question set aside (Host.SetAside) and its snooze.
type Aside struct {
	Ref    Ref
	Snooze wire.Snooze
}

// host is the inbox as its features' Host.
type host struct{ in *Inbox }

var _ Host = host{}

func (h host) Clock() clock.Clock { return h.in.clock }
func (h host) Changed()           { h.in.notify() }
func (h host) Items() []Item      { return h.in.Items() }

func (h host) Record(what, id string, op func(Store) error) { h.in.rec.do(what, id, op) }
func (h host) Enqueue(op func(Store)) bool                  { return h.in.rec.enqueue(op) }

func (h host) IsOpen(r Ref) bool { return h.in.isOpen(r.e) }

func (h host) Show(r Ref) bool {
	if !h.in.isOpen(r.e) {
		return false
	}
	h.in.showNow(r.e)
	return true
}

func (h host) SetAside(id string, s wire.Snooze) (Ref, bool) {
	e, ok := h.in.setAside(id, s)
	return Ref{e}, ok
}

func (h host) BringBack(r Ref) { h.in.bringBack(r.e) }

func (h host) Aside() []Aside {
	in := h.in
	in.mu.Lock()
	defer in.mu.Unlock()
	var as []Aside
	for _, e := range in.open {
		if e.snooze != nil {
			as = append(as, Aside{Ref{e}, *e.snooze})
		}
	}
	return as
}
