package dialogs

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// A closed question's window is hidden and reused by the next question,
// never destroyed: nothing of the old question is left in it.
func TestPoolReusesClosedWindows(t *testing.T) {
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	first := p.NewWindow(question(wire.Prompt{Markdown: "one"}), Options{Now: c.Now}, func(wire.Answer) {})
	first.Show()
	test.Type(first.View().prompts[0].entry, "old")
	first.View().RequestDismiss() // asks: a confirmation overlay is up
	if first.Fyne().Canvas().Overlays().Top() == nil {
		t.Fatal("no confirmation")
	}
	native := first.Fyne()
	first.Close()
	if made, idle, _ := p.Windows(); made != 1 || idle != 1 {
		t.Fatalf("after Close: made %d, idle %d; want 1, 1", made, idle)
	}
	r := &recorder{}
	q := question(wire.Prompt{Markdown: "two"})
	q.Title = "Second"
	second := p.NewWindow(q, Options{Now: c.Now}, r.done)
	second.Show()
	if second.Fyne() != native {
		t.Error("the hidden window was not reused")
	}
	if got := native.Title(); got != WindowTitle(q) {
		t.Errorf("title = %q, want %q", got, WindowTitle(q))
	}
	if native.Canvas().Overlays().Top() != nil {
		t.Error("the old question's confirmation is still up")
	}
	if got := native.Canvas().Focused(); got != second.View().prompts[0].entry {
		t.Errorf("focused = %T, want the new reply box", got)
	}
	// The old question's handlers are gone: a dismissal reaches the new one.
	test.Type(second.View().prompts[0].entry, "new")
	second.View().Submit()
	if got := r.only(t).Replies[0].Text; got != "new" {
		t.Errorf("reply = %q", got)
	}
	if made, idle, _ := p.Windows(); made != 1 || idle != 1 {
		t.Errorf("after the second question: made %d, idle %d; want 1, 1", made, idle)
	}
	// Two open at once need two windows.
	x := p.NewWindow(question(wire.Prompt{Markdown: "x"}), Options{Now: c.Now}, func(wire.Answer) {})
	y := p.NewWindow(question(wire.Prompt{Markdown: "y"}), Options{Now: c.Now}, func(wire.Answer) {})
	if x.Fyne() == y.Fyne() {
		t.Fatal("two open questions share a window")
	}
	x.Close()
	y.Close()
	if made, idle, _ := p.Windows(); made != 2 || idle != 2 {
		t.Errorf("made %d, idle %d; want 2, 2", made, idle)
	}
}

// Results handed back from goroutines and the view's timers run on the
// window's heartbeat, and not at all once the window has closed: nothing
// of a window calls into Fyne after it closed (or after Fyne's loop ended).
func TestHeartbeatRunsPostsAndTimersUntilClose(t *testing.T) {
	a := test.NewTempApp(t)
	w := NewWindow(a, question(wire.Prompt{Markdown: "?"}), Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
	w.Show()
	ran := 0
	w.post(func() { ran++ })
	w.after(0, func() { ran++ })
	stop := w.after(0, func() { t.Error("a stopped timer fired") })
	stop()
	w.after(time.Hour, func() { t.Error("a timer fired early") })
	w.heartbeat()
	if ran != 2 {
		t.Fatalf("%d of 2 ran", ran)
	}
	w.post(func() { t.Error("a post ran after Close") })
	w.after(0, func() { t.Error("a timer fired after Close") })
	w.Close()
	w.heartbeat()
}

// A FIFO (or a device, or a folder) dropped on the window is refused with a
// message at once instead of blocking its reader for good.
func TestReadLimitedRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "pipe.png")
	if err := mkfifo(fifo); err != nil {
		t.Skipf("mkfifo: %v", err)
	}
	for _, path := range []string{fifo, dir} {
		done := make(chan error, 1)
		go func() {
			_, err := readLimited(storage.NewFileURI(path), 1<<20)
			done <- err
		}()
		select {
		case err := <-done:
			if !errors.Is(err, errNotAFile) {
				t.Errorf("%s: err = %v, want errNotAFile", path, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: reading blocked", path)
		}
	}
	file := filepath.Join(dir, "a.png")
	if err := os.WriteFile(file, []byte("12345"), 0o600); err != nil {
		t.Fatal(err)
	}
	data, err := readLimited(storage.NewFileURI(file), 3)
	if err != nil || string(data) != "1234" {
		t.Errorf("regular file: %q, %v; want the limit plus one byte", data, err)
	}
	if !strings.Contains(errNotAFile.Error(), "not a regular file") {
		t.Errorf("message = %q", errNotAFile)
	}
}

// Beyond a few, hidden windows are closed once they have been hidden for
// many loop turns (no event for them can be pending by then); the most
// recently hidden are reused first and kept.
func TestPoolTrimsLongHiddenWindows(t *testing.T) {
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	var open []*Window
	for range keepIdle + 3 {
		open = append(open, p.NewWindow(question(wire.Prompt{Markdown: "?"}), Options{Now: c.Now}, func(wire.Answer) {}))
	}
	for _, w := range open {
		w.Close()
	}
	if p.trimmer == nil {
		t.Fatal("no trimmer with more than keepIdle hidden windows")
	}
	for _, s := range p.idle { // hidden on one turn (the test driver ticks an animation once as it starts)
		s.hiddenTurn = p.turns
	}
	p.turns += trimAfter - 1
	p.trim()
	if _, idle, destroyed := p.Windows(); idle != keepIdle+3 || destroyed != 0 {
		t.Fatalf("before trimAfter turns: idle %d, destroyed %d", idle, destroyed)
	}
	kept := p.idle[len(p.idle)-1].win // the last hidden
	p.turns++
	p.trim()
	if made, idle, destroyed := p.Windows(); made != keepIdle+3 || idle != keepIdle || destroyed != 3 {
		t.Fatalf("made %d, idle %d, destroyed %d; want %d, %d, 3", made, idle, destroyed, keepIdle+3, keepIdle)
	}
	w := p.NewWindow(question(wire.Prompt{Markdown: "?"}), Options{Now: c.Now}, func(wire.Answer) {})
	if w.Fyne() != kept {
		t.Error("the most recently hidden window was not the one reused")
	}
	w.Show()
	p.trim()
	if p.trimmer != nil {
		t.Error("the trimmer still runs with a question open and nothing to trim")
	}
}

// Once no question has been open for quietTurns, the pool closes the hidden
// windows but quietKeep (each keeps the textures and renderers of what it
// showed until it is painted again), lets the memory go, once, and stops.
func TestPoolClosesHiddenWindowsWhenQuiet(t *testing.T) {
	a := test.NewTempApp(t)
	p := NewPool(a)
	released := 0
	p.release = func() { released++ }
	c := &clock{now: t0}
	var open []*Window
	for range quietKeep + 2 {
		open = append(open, p.NewWindow(question(wire.Prompt{Markdown: "# big"}), Options{Now: c.Now}, func(wire.Answer) {}))
	}
	for _, w := range open {
		w.Show()
		w.Close()
	}
	if p.trimmer == nil {
		t.Fatal("no trimmer once the last question closed")
	}
	p.turns = p.lastPut + quietTurns - 1
	p.trim()
	if _, idle, destroyed := p.Windows(); idle != quietKeep+2 || destroyed != 0 || released != 0 {
		t.Fatalf("before quietTurns: idle %d, destroyed %d, released %d", idle, destroyed, released)
	}
	p.turns++
	p.trim()
	if made, idle, destroyed := p.Windows(); made != quietKeep+2 || idle != quietKeep || destroyed != 2 {
		t.Fatalf("after quietTurns: made %d, idle %d, destroyed %d; want %d, %d, 2", made, idle, destroyed, quietKeep+2, quietKeep)
	}
	kept := p.idle[len(p.idle)-1].win
	if p.trimmer != nil || released != 1 {
		t.Errorf("trimmer running %v, released %d times; want stopped, once", p.trimmer != nil, released)
	}
	for _, left := range a.Driver().AllWindows() {
		for _, w := range open[:2] { // the longest hidden
			if left == w.Fyne() {
				t.Error("a hidden window beyond quietKeep was not closed")
			}
		}
	}
	// the next question gets the kept window
	w := p.NewWindow(question(wire.Prompt{Markdown: "?"}), Options{Now: c.Now}, func(wire.Answer) {})
	if w.Fyne() != kept {
		t.Error("the kept window was not reused")
	}
}
