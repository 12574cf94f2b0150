package dialogs

import (
	"sync"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/wire"
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
	}{
		{"answered", false},
		{"withdrawn under a confirmation", true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a, drv := newAnimApp(t)
			p := NewPool(a)
			before := drv.count()
			w := p.NewWindow(question(wire.Prompt{Markdown: "Deploy?"}), Options{}, func(wire.Answer) {})
			w.Show()
			test.Type(w.View().prompts[0].entry, "draft")
			if drv.count() <= before {
				t.Fatalf("running animations with the window open = %d, want more than %d (heartbeat, cursor)", drv.count(), before)
			}
			if tc.confirm {
				w.View().RequestDismiss()
				if w.Fyne().Canvas().Overlays().Top() == nil {
					t.Fatal("no confirmation")
				}
				w.Close() // withdrawn by its agent, or timed out
			} else {
				w.View().Submit()
			}
			if got := drv.count(); got != before {
				t.Errorf("running animations after the window closed = %d, want %d", got, before)
			}
			if got := w.Fyne().Canvas().Focused(); got != nil {
				t.Errorf("the hidden window still has %T focused", got)
			}
		})
	}
}
