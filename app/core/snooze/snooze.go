// Package snooze is the user's "not now" to a question, a feature of the
// inbox (core.Feature): snoozed in its window or from the tray, a question
// is set aside by the inbox (its window closed, its draft kept, its
// callers told until when; core.Host.SetAside), and this package brings it
// back at the snooze's end, when the user is back (Back) for one snoozed
// until then, or when the user raises it from the tray. A snooze outlives
// a restart of the app: the inbox records it, and asks here whether it
// still holds (core.Hooks.Restore).
package snooze

import (
	"log/slog"
	"sync"

	"feedback/app/clock"
	"feedback/app/core"
	"feedback/ipc/wire"
)

// Control is the snoozes: when each snoozed question comes back.
type Control struct {
	log  *slog.Logger
	host core.Host // Attach

	mu   sync.Mutex               // guards wake
	wake map[core.Ref]clock.Timer // brings back a question snoozed until a time
}

var _ core.Feature = (*Control)(nil)

// New returns the snoozes' control; it works once attached to an inbox
// (core.Options.Features).
func New(log *slog.Logger) *Control {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Control{log: log, wake: map[core.Ref]clock.Timer{}}
}

// Attach implements core.Feature: a window's snooze comes here, a snoozed
// question raised from the tray comes back, a snooze left by the last run
// holds until its end, an ended question's timer goes.
func (c *Control) Attach(h core.Host) core.Hooks {
	c.host = h
	return core.Hooks{
		Snooze:  func(id string, s wire.Snooze) { c.Snooze(id, s) },
		Raise:   c.raise,
		Restore: c.restore,
		Ended:   c.disarm,
	}
}

// Snooze snoozes the open question whose window is id until s ends. It
// reports false when no such question is open, or it is snoozed already.
func (c *Control) Snooze(id string, s wire.Snooze) bool {
	r, ok := c.host.SetAside(id, s)
	if ok {
		c.arm(r, s)
	}
	return ok
}

// SnoozeAll snoozes every open question that is not snoozed; it returns
// how many.
func (c *Control) SnoozeAll(s wire.Snooze) int {
	n := 0
	for _, it := range c.host.Items() {
		if it.Snoozed == nil && c.Snooze(it.ID, s) {
			n++
		}
	}
	return n
}

// Back ends the snoozes that last until the user is back.
func (c *Control) Back() {
	for _, a := range c.host.Aside() {
		if a.Snooze.UntilBack {
			c.bringBack(a.Ref)
		}
	}
}

// UntilBack reports whether a question is snoozed until the user is back:
// the presence watcher looks then.
func (c *Control) UntilBack() bool {
	for _, a := range c.host.Aside() {
		if a.Snooze.UntilBack {
			return true
		}
	}
	return false
}

// raise brings back the snoozed question id, which the user wants now
// after all (core.Hooks.Raise).
func (c *Control) raise(id string) bool {
	for _, a := range c.host.Aside() {
		if a.Ref.ID() == id {
			c.bringBack(a.Ref)
			return true
		}
	}
	return false
}

// restore keeps r snoozed by s, as the last run left it, unless s has
// ended (core.Hooks.Restore).
func (c *Control) restore(r core.Ref, s wire.Snooze) bool {
	if !s.UntilBack && !s.Until.After(c.host.Clock().Now()) {
		return false
	}
	c.arm(r, s)
	c.log.Info("question snoozed before the restart stays snoozed", "id", r.ID(), "until", s.Until, "until_back", s.UntilBack)
	return true
}

// arm has a snooze until a time bring r back at its end.
func (c *Control) arm(r core.Ref, s wire.Snooze) {
	if s.UntilBack {
		return
	}
	clk := c.host.Clock()
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.wake[r]; t != nil {
		t.Stop()
	}
	c.wake[r] = clk.AfterFunc(s.Until.Sub(clk.Now()), func() { c.bringBack(r) })
}

// disarm stops r's timer, if any: it came back, or ended.
func (c *Control) disarm(r core.Ref) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.wake[r]; t != nil {
		t.Stop()
		delete(c.wake, r)
	}
}

// bringBack ends r's snooze: its window opens again with its draft.
func (c *Control) bringBack(r core.Ref) {
	c.disarm(r)
	c.host.BringBack(r)
}
