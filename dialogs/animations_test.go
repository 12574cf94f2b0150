package dialogs

import (
	"strings"
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// animApp is a test app whose driver keeps the animations started and not
// stopped: what Fyne's loop would go on ticking, 60 times a second, in a
// UI process that lingers with no window shown.
type animApp struct {
	fyne.App
	drv *animDriver
}

func (a *animApp) Driver() fyne.Driver { return a.drv }

type animDriver struct {
	fyne.Driver
	mu      sync.Mutex
	running map[*fyne.Animation]bool
}

func (d *animDriver) StartAnimation(a *fyne.Animation) {
	d.mu.Lock()
	d.running[a] = true
	d.mu.Unlock()
	d.Driver.StartAnimation(a)
}

func (d *animDriver) StopAnimation(a *fyne.Animation) {
	d.mu.Lock()
	delete(d.running, a)
	d.mu.Unlock()
	d.Driver.StopAnimation(a)
}

func (d *animDriver) count() int {
	d.mu.Lock()
	defer d.mu.Unlock()
	return len(d.running)
}

// newAnimApp returns a test app, current for the test, that counts the
// running animations.
func newAnimApp(t *testing.T) (fyne.App, *animDriver) {
	base := test.NewTempApp(t)
	a := &animApp{App: base, drv: &animDriver{Driver: base.Driver(), running: map[*fyne.Animation]bool{}}}
	fyne.SetCurrentApp(a)
	return a, a.drv
}

// Once a question's window has closed nothing of it keeps running: its
// heartbeat stops and the reply box's blinking cursor too, also when the
// question ends while a confirmation is up over it (the reply box keeps the
// content's focus under the overlay). A cursor left blinking in a hidden
// window is ticked by Fyne's loop for as long as the process lives.
func TestClosedWindowLeavesNoAnimationRunning(t *testing.T) {
	for _, tc := range []struct {
		name    string
		confirm bool // a discard confirmation is up when the question ends
		token   bool // a 10,000-character token was pasted (the box stops wrapping)
	}{
		{"answered", false, false},
		{"answered after a long token", false, true},
		{"withdrawn under a confirmation", true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, drv := newAnimApp(t)
			p := NewPool(a)
			before := drv.count()
			for round := range 2 { // the second question reuses the hidden window
				w := p.NewWindow(question(wire.Prompt{Markdown: "Deploy?"}), Options{}, func(wire.Answer) {})
				w.Show()
				e := w.View().prompts[0].entry
				if tc.token {
					cb := test.NewClipboard()
					cb.SetContent(strings.Repeat("x", 10000))
					e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: cb})
				}
				test.Type(e, "draft")
				if drv.count() <= before {
					t.Fatalf("question %d: running animations with the window open = %d, want more than %d (heartbeat, cursor)", round+1, drv.count(), before)
				}
				if tc.confirm {
					w.View().RequestDismiss()
					if w.Fyne().Canvas().Overlays().Top() == nil {
						t.Fatalf("question %d: no confirmation", round+1)
					}
					w.Close() // withdrawn by its agent, or timed out
				} else {
					w.View().Submit()
				}
				// the pool's trimmer, which stops once no question has been open for
				// a while (window.go), may be the one left
				if got := drv.count() - trimming(p); got != before {
					t.Errorf("question %d: running animations after the window closed = %d, want %d", round+1, got, before)
				}
				if got := w.Fyne().Canvas().Focused(); got != nil {
					t.Errorf("question %d: the hidden window still has %T focused", round+1, got)
				}
			}
			p.turns = p.lastPut + quietTurns + trimAfter
			p.trim()
			if got := drv.count(); got != before {
				t.Errorf("after the quiet time: running animations = %d, want %d", got, before)
			}
		})
	}
}

// trimming is 1 while p's trimmer runs, else 0.
func trimming(p *Pool) int {
	if p.trimmer != nil {
		return 1
	}
	return 0
}
