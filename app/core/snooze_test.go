package core

import (
	"errors"
	"reflect"
	"slices"
	"testing"
	"testing/synctest"
	"time"

	"feedback/ipc/wire"
)

// putUI is a fakeUI that also reports the windows it closes (a snoozed
// question's is put away).
type putUI struct {
	*fakeUI
	put chan string
}

func (p putUI) Withdraw(id string) {
	p.fakeUI.Withdraw(id)
	select {
	case p.put <- id:
	default:
	}
}

// Snoozing closes the window without ending the question: a caller with a
// wait hears "pending, snoozed until …" at once, a caller without one goes
// on waiting; at the snooze's end the window comes back with the draft
// the user left, and its answer reaches the caller that came back.
func TestSnoozeAndComeBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ui := putUI{newFakeUI(), make(chan string, 4)}
		in := New(Options{Presenter: ui})
		in.Start()
		defer in.Close(time.Second)
		ask := func(wait time.Duration) <-chan askResult {
			r := q("a")
			r.Wait = wait
			return ask(t.Context(), in, r)
		}
		waiting := ask(time.Hour)
		ui.waitShown(t, "a")
		ui.draft("a", wire.Draft{Replies: []wire.Reply{{Text: "half"}}})
		until := time.Now().Add(time.Hour)
		in.Snooze("a", wire.Snooze{Until: until})
		if id := <-ui.put; id != "a" {
			t.Fatalf("put away %q", id)
		}
		r := result(t, waiting)
		if !errors.Is(r.err, wire.ErrPending) || r.a.Snooze == nil || !r.a.Snooze.Until.Equal(until) {
			t.Fatalf("the waiting caller got %+v, %v", r.a, r.err)
		}
		if in.Snooze("a", wire.Snooze{UntilBack: true}) {
			t.Error("a snoozed question was snoozed again")
		}
		if items := in.Items(); len(items) != 1 || items[0].Snoozed == nil {
			t.Errorf("the tray lists %+v, want the snoozed question, marked", items)
		}
		back := ask(2 * time.Hour) // the agent calls again
		time.Sleep(time.Until(until) - time.Millisecond)
		synctest.Wait()
		select {
		case id := <-ui.showCh:
			t.Fatalf("%s came back before its snooze ended", id)
		default:
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		select {
		case id := <-ui.showCh:
			if id != "a" {
				t.Fatalf("shown %q", id)
			}
		default:
			t.Fatal("the snoozed question did not come back at the snooze's end")
		}
		ui.mu.Lock()
		restored := ui.restored["a"]
		ui.mu.Unlock()
		if restored == nil || !reflect.DeepEqual(restored.Replies, []wire.Reply{{Text: "half"}}) {
			t.Errorf("came back with draft %+v", restored)
		}
		ui.answer("a", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "done"}}})
		if r := result(t, back); r.err != nil || r.a.Replies[0].Text != "done" || r.a.Snooze != nil {
			t.Errorf("the caller that came back got %+v, %v", r.a, r.err)
		}
	})
}

// "Until I'm back" lasts until Back; SnoozeAll snoozes every open question.
func TestSnoozeUntilBack(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ui := putUI{newFakeUI(), make(chan string, 4)}
		in := New(Options{Presenter: ui})
		in.Start()
		defer in.Close(time.Second)
		var chs []<-chan askResult
		for _, id := range []string{"a", "b"} {
			r := q(id)
			r.Wait = time.Hour
			chs = append(chs, ask(t.Context(), in, r))
			ui.waitShown(t, id)
		}
		if n := in.SnoozeAll(wire.Snooze{UntilBack: true}); n != 2 {
			t.Fatalf("SnoozeAll = %d", n)
		}
		var put []string
		for range 2 {
			put = append(put, <-ui.put)
		}
		slices.Sort(put)
		if !reflect.DeepEqual(put, []string{"a", "b"}) {
			t.Errorf("put away %v", put)
		}
		for _, ch := range chs {
			if r := result(t, ch); !errors.Is(r.err, wire.ErrPending) || r.a.Snooze == nil || !r.a.Snooze.UntilBack {
				t.Errorf("got %+v, %v", r.a, r.err)
			}
		}
		select {
		case id := <-ui.showCh:
			t.Fatalf("%s came back before the user did", id)
		case <-time.After(200 * time.Millisecond):
		}
		in.Back()
		var shown []string
		for range 2 {
			select {
			case id := <-ui.showCh:
				shown = append(shown, id)
			case <-time.After(5 * time.Second):
				t.Fatal("not back")
			}
		}
		slices.Sort(shown)
		if !reflect.DeepEqual(shown, []string{"a", "b"}) {
			t.Errorf("back: %v", shown)
		}
	})
}
