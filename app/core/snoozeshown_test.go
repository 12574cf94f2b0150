package core

import (
	"context"
	"errors"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// Issue 30: a call that joins a snoozed question (set aside: package snooze) hears that its window
// was shown (EventShown) with the snooze: the window is closed until the
// snooze ends, and the caller's progress must not say "window open".
func TestShownEventOfASnoozedQuestion(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	first := q("a")
	first.Wait = time.Hour
	ch := ask(context.Background(), in, first)
	ui.waitShown(t, "a")
	until := time.Now().Add(time.Hour)
	if _, ok := (host{in}).SetAside("a", wire.Snooze{Until: until}); !ok {
		t.Fatal("not snoozed")
	}
	if r := result(t, ch); !errors.Is(r.err, wire.ErrPending) {
		t.Fatalf("the first call got %+v, %v", r.a, r.err)
	}
	again := attach("a")
	again.Wait = 50 * time.Millisecond // it comes back pending
	r := result(t, ask(context.Background(), in, again))
	if !errors.Is(r.err, wire.ErrPending) || len(r.events) == 0 {
		t.Fatalf("the call made again got %+v, %v, events %+v", r.a, r.err, r.events)
	}
	if e := r.events[0]; e.Type != wire.EventShown || e.Snooze == nil || !e.Snooze.Until.Equal(until) {
		t.Errorf("the call made again heard %+v, want shown with the snooze", e)
	}
}
