package dialogs

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// A window whose native window another X client destroyed moves, with its
// View (the draft typed in it), into a new native window; the question
// goes on there: its answer is the one typed before.
func TestPoolRenewsALostWindow(t *testing.T) {
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	r := &recorder{}
	w := p.NewWindow(question(wire.Prompt{Markdown: "lost"}), Options{Now: c.Now}, r.done)
	w.Show()
	test.Type(w.View().prompts[0].entry, "typed before")
	old := w.Fyne()
	p.renew(w.slot)
	if w.Fyne() == old {
		t.Fatal("the window was not replaced")
	}
	if w.Fyne().Content() != w.View().Content() {
		t.Error("the view is not in the new window")
	}
	if old.Content() == w.View().Content() {
		t.Error("the view is still in the lost window")
	}
	if p.Open() != 1 || len(p.idle) != 0 {
		t.Errorf("open %d, idle %d; want 1, 0", p.Open(), len(p.idle))
	}
	if got := w.Fyne().Canvas().Focused(); got != w.View().prompts[0].entry {
		t.Errorf("focused = %T, want the reply box", got)
	}
	test.Type(w.View().prompts[0].entry, " and after")
	w.View().Submit()
	if got := r.only(t).Replies[0].Text; got != "typed before and after" {
		t.Errorf("reply = %q", got)
	}
}

// A hidden window lost is dropped: the next question gets a new one.
func TestPoolDropsALostHiddenWindow(t *testing.T) {
	a := test.NewTempApp(t)
	p := NewPool(a)
	w := p.NewWindow(question(wire.Prompt{Markdown: "one"}), Options{}, func(wire.Answer) {})
	w.Show()
	w.Close()
	p.renew(w.slot)
	if made, idle, destroyed := p.Windows(); made != 1 || idle != 0 || destroyed != 1 {
		t.Errorf("made %d, idle %d, destroyed %d; want 1, 0, 1", made, idle, destroyed)
	}
}

// The queue the X error handler fills keeps one fault per resource, and a
// bounded number of them.
func TestLostQueueBounded(t *testing.T) {
	var q lostQueue
	for i := range 3 * maxPending {
		q.report(xFault{Resource: uint32(i % (2 * maxPending)), Code: 9})
		q.report(xFault{Resource: uint32(i % (2 * maxPending)), Code: 3})
	}
	got := q.take()
	if len(got) != maxPending {
		t.Fatalf("%d faults kept, want %d", len(got), maxPending)
	}
	seen := map[uint32]bool{}
	for _, f := range got {
		if seen[f.Resource] {
			t.Fatalf("resource %d twice", f.Resource)
		}
		seen[f.Resource] = true
	}
	if len(q.take()) != 0 {
		t.Error("take did not empty the queue")
	}
}
