package snooze

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"feedback/app/core"
	"feedback/app/core/coretest"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// snoozing is an inbox with the snoozes attached, recording in what open
// opens (nil: nothing); it closes with the test.
func snoozing(t *testing.T, open func() (core.Store, error)) (*core.Inbox, *Control, *coretest.UI) {
	t.Helper()
	ui := coretest.NewUI()
	c := New(nil)
	in := core.New(core.Options{Presenter: ui, Open: open, Features: []core.Feature{c}})
	in.Start()
	t.Cleanup(func() { in.Close(5 * time.Second) })
	return in, c, ui
}

// Snoozing closes the window without ending the question: a caller with a
// wait hears "pending, snoozed until …" at once, a caller without one goes
// on waiting; at the snooze's end the window comes back with the draft
// the user left, and its answer reaches the caller that came back.
func TestSnoozeAndComeBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui := snoozing(t, nil)
		ask := func(wait time.Duration) <-chan coretest.Result {
			r := coretest.Q("a")
			r.Wait = wait
			return coretest.Ask(t.Context(), in, r)
		}
		waiting := ask(time.Hour)
		ui.WaitShown(t, "a")
		ui.Draft("a", wire.Draft{Replies: []wire.Reply{{Text: "half"}}})
		until := time.Now().Add(time.Hour)
		c.Snooze("a", wire.Snooze{Until: until})
		if id := ui.WaitWithdrawn(t); id != "a" {
			t.Fatalf("put away %q", id)
		}
		r := coretest.Wait(t, waiting)
		if !errors.Is(r.Err, wire.ErrPending) || r.A.Snooze == nil || !r.A.Snooze.Until.Equal(until) {
			t.Fatalf("the waiting caller got %+v, %v", r.A, r.Err)
		}
		if c.Snooze("a", wire.Snooze{UntilBack: true}) {
			t.Error("a snoozed question was snoozed again")
		}
		if items := in.Items(); len(items) != 1 || items[0].Snoozed == nil {
			t.Errorf("the tray lists %+v, want the snoozed question, marked", items)
		}
		back := ask(2 * time.Hour) // the agent calls again
		time.Sleep(time.Until(until) - time.Millisecond)
		synctest.Wait()
		ui.NoShow(t)
		time.Sleep(time.Millisecond)
		synctest.Wait()
		if id := ui.NextShown(0); id != "a" {
			t.Fatalf("at the snooze's end, shown %q, want a", id)
		}
		restored := ui.Restored("a")
		if restored == nil || !reflect.DeepEqual(restored.Replies, []wire.Reply{{Text: "half"}}) {
			t.Errorf("came back with draft %+v", restored)
		}
		ui.Answer("a", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "done"}}})
		if r := coretest.Wait(t, back); r.Err != nil || r.A.Replies[0].Text != "done" || r.A.Snooze != nil {
			t.Errorf("the caller that came back got %+v, %v", r.A, r.Err)
		}
	})
}

// "Until I'm back" lasts until Back; SnoozeAll snoozes every open question.
func TestSnoozeUntilBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui := snoozing(t, nil)
		var chs []<-chan coretest.Result
		for _, id := range []string{"a", "b"} {
			r := coretest.Q(id)
			r.Wait = time.Hour
			chs = append(chs, coretest.Ask(t.Context(), in, r))
			ui.WaitShown(t, id)
		}
		if n := c.SnoozeAll(wire.Snooze{UntilBack: true}); n != 2 {
			t.Fatalf("SnoozeAll = %d", n)
		}
		var put []string
		for range 2 {
			put = append(put, ui.WaitWithdrawn(t))
		}
		slices.Sort(put)
		if !reflect.DeepEqual(put, []string{"a", "b"}) {
			t.Errorf("put away %v", put)
		}
		for _, ch := range chs {
			if r := coretest.Wait(t, ch); !errors.Is(r.Err, wire.ErrPending) || r.A.Snooze == nil || !r.A.Snooze.UntilBack {
				t.Errorf("got %+v, %v", r.A, r.Err)
			}
		}
		if id := ui.NextShown(30 * time.Minute); id != "" { // (within the hour it is held)
			t.Fatalf("%s came back before the user did", id)
		}
		if !c.UntilBack() {
			t.Error("UntilBack: false, with two questions snoozed until then")
		}
		c.Back()
		var shown []string
		for range 2 {
			shown = append(shown, ui.NextShown(5*time.Second))
		}
		slices.Sort(shown)
		if !reflect.DeepEqual(shown, []string{"a", "b"}) {
			t.Errorf("back: %v", shown)
		}
	})
}

// The user snoozes in the window (uiproto.Snooze, for some minutes or until
// back), or raises a snoozed question from the tray: it comes back at once.
func TestSnoozeFromTheWindowAndRaise(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		in, c, ui := snoozing(t, nil)
		r := coretest.Q("w")
		r.Wait = time.Hour
		ch := coretest.Ask(t.Context(), in, r)
		ui.WaitShown(t, "w")
		ui.Event(uiproto.Snooze{ID: "w", Minutes: 10})
		res := coretest.Wait(t, ch)
		if !errors.Is(res.Err, wire.ErrPending) || res.A.Snooze == nil || !res.A.Snooze.Until.Equal(time.Now().Add(10*time.Minute)) {
			t.Fatalf("snoozed in its window for 10 minutes: %+v, %v", res.A, res.Err)
		}
		in.Raise("w")
		ui.WaitShown(t, "w")
		time.Sleep(10 * time.Minute) // its timer went with the snooze
		synctest.Wait()
		ui.NoShow(t)
		if c.UntilBack() {
			t.Error("UntilBack: true, with nothing snoozed")
		}
	})
}
