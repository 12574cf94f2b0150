package dialogs

import (
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// openOn opens a question window of p on the fake desk, its native window
// made (as the pool's windows are once shown).
func openOn(d *fakeDesk, p *Pool, c *clock, name string, opts Options, done ...func(wire.Answer)) *Window {
	opts.Now = c.Now
	onDone := func(wire.Answer) {}
	if len(done) > 0 {
		onDone = done[0]
	}
	w := p.NewWindow(question(wire.Prompt{Markdown: name}), opts, onDone)
	d.mapped[w.Fyne()] = true
	w.Show()
	return w
}

// After the user answers a window they came to, the keyboard goes back to
// the application they came from, not on to the next open question; with
// none to go back to, to no window. A window that closes without the
// keyboard changes nothing.
func TestAnsweredWindowGivesTheKeyboardBack(t *testing.T) {
	d := newFakeDesk(t)
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	d.other, d.came = 77, 77 // the user's terminal
	first := openOn(d, p, c, "first", Options{})
	second := openOn(d, p, c, "second", Options{})
	if d.other != 77 || d.activeWin != nil {
		t.Fatalf("two questions opened: the focus is with %d (ours %v), want the terminal", d.other, d.activeWin != nil)
	}
	first.Focus() // the user clicks the first
	first.View().Submit()
	if d.activeWin != nil || d.other != 77 {
		t.Errorf("after the answer: the focus is with %d (a question: %v), want the terminal 77", d.other, d.activeWin != nil)
	}
	if d.activeWin == second.Fyne() {
		t.Error("the keyboard went on to the second question")
	}

	// The terminal has gone: the window manager's fallback stands, and
	// the window it chose is not taken for one the user came to.
	d.came = 0
	second.Focus()
	third0 := openOn(d, p, c, "waiting", Options{})
	second.View().Submit()
	d.activeWin = third0.Fyne() // the window manager falls back to it
	p.stepBack(p.backing, time.Now())
	third0.cameTo(time.Now().Add(time.Hour))
	if !third0.Unfocused() || !third0.View().Waiting() {
		t.Errorf("the window the window manager fell back to counts as found: unfocused %v, waiting %v", third0.Unfocused(), third0.View().Waiting())
	}
	third0.Close()

	// Closed while the user is elsewhere: nothing moves.
	d.activeWin, d.other, d.came, d.gaveTo = nil, 90, 77, nil
	third := openOn(d, p, c, "third", Options{})
	third.Close()
	if d.other != 90 || len(d.gaveTo) != 0 {
		t.Errorf("a window closed without the keyboard moved the focus to %v", d.gaveTo)
	}
}

// The windows of this process are not where the user came from.
func TestOursAreNotWhereTheUserCameFrom(t *testing.T) {
	d := newFakeDesk(t)
	a := test.NewTempApp(t)
	p := NewPool(a)
	d.owners = map[uint32]int{5: 1, 6: 2}
	if p.ours(5) || p.ours(6) {
		t.Error("windows of other processes counted as ours")
	}
	d.owners[7] = os.Getpid()
	if !p.ours(7) {
		t.Error("a window of this process is not ours")
	}
}

// Keys the window system says are held as the window takes the keyboard
// never act, whatever the time: the first repeat of a held key arrives as
// a press, after the guard (the X server's first repeat comes 660 ms
// after the press).
func TestKeysHeldWhenTheWindowTakesTheKeyboardNeverAct(t *testing.T) {
	d := newFakeDesk(t)
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	const returnCode = 36
	r := &recorder{}
	w := openOn(d, p, c, "Deploy?", Options{InputGuard: -1}, r.done)
	d.down = []uint32{returnCode, 37}
	w.Focus()
	v := w.View()
	c.now = c.now.Add(time.Second)
	held := &fyne.KeyEvent{Name: fyne.KeyReturn, Physical: fyne.HardwareKey{ScanCode: returnCode}}
	ctrl := &fyne.KeyEvent{Name: desktop.KeyControlLeft, Physical: fyne.HardwareKey{ScanCode: 37}}
	v.keyDown(ctrl) // the first repeats, reported as presses
	v.keyDown(held)
	v.shortcut(ctrlEnter)
	if len(r.answers) != 0 {
		t.Fatalf("a Ctrl+Enter held as the window took the keyboard answered: %+v", r.answers)
	}
	v.keyUp(held)
	v.keyUp(ctrl)
	v.keyDown(ctrl)
	v.keyDown(held)
	v.shortcut(ctrlEnter)
	if len(r.answers) != 1 {
		t.Errorf("the user's own Ctrl+Enter, pressed after the release: %d answers", len(r.answers))
	}
}

// The global shortcut is held while a question is open and let go with
// the last; a press brings the question that has waited longest, from a
// question window the next one; the waiting windows name it.
func TestShortcutBringsTheWaitingQuestion(t *testing.T) {
	d := newFakeDesk(t)
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	if err := p.SetShortcut("Ctrl+Alt+F"); err != nil {
		t.Fatal(err)
	}
	if d.holds != 0 {
		t.Fatal("the shortcut is held with no question open")
	}
	d.other = 77
	first := openOn(d, p, c, "first", Options{})
	second := openOn(d, p, c, "second", Options{})
	if d.holds != 1 {
		t.Fatalf("held %d times with two questions open, want once", d.holds)
	}
	if hint, _ := first.View().hintSegmentText(); !strings.HasPrefix(hint, "Click or Ctrl+Alt+F to answer") {
		t.Errorf("the waiting window's hint: %q", hint)
	}
	d.shortcut(1234) // the user presses it in their terminal
	if d.activeWin != first.Fyne() || len(d.atTimes) != 1 || d.atTimes[0] != 1234 {
		t.Fatalf("the press brought %v (at %v), want the first, at the press's time", d.activeWin, d.atTimes)
	}
	if first.Unfocused() || first.View().Waiting() {
		t.Error("the first still waits for the user")
	}
	d.shortcut(1300) // again, in the first: on to the second
	if d.activeWin != second.Fyne() {
		t.Error("a press in a question window did not move to the next")
	}
	first.Close()
	second.Close()
	if d.holds != 0 {
		t.Errorf("the shortcut is still held (%d) with no question open", d.holds)
	}

	// Turned off: not held, the windows say a click brings them.
	if err := p.SetShortcut(""); err != nil {
		t.Fatal(err)
	}
	w := openOn(d, p, c, "third", Options{})
	if hint, _ := w.View().hintSegmentText(); d.holds != 0 || !strings.HasPrefix(hint, "Click to answer") {
		t.Errorf("off: held %d, hint %q", d.holds, hint)
	}
	w.Close()
	if err := p.SetShortcut("Alt"); err == nil {
		t.Error("a modifier alone was taken as a shortcut")
	}
}

// Where the desktop gives no global shortcut (another program holds the
// chord, Wayland), the windows do not name one.
func TestShortcutTakenElsewhereIsNotNamed(t *testing.T) {
	d := newFakeDesk(t)
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	d.holdErr = errors.New("taken")
	p.SetShortcut("Ctrl+Alt+F")
	w := openOn(d, p, c, "q", Options{})
	if hint, _ := w.View().hintSegmentText(); !strings.HasPrefix(hint, "Click to answer") {
		t.Errorf("hint %q names a shortcut that is not held", hint)
	}
}

// A key held as the window took the keyboard whose release the window did
// not see (it went to the window that had the keyboard a moment before:
// the shortcut's Ctrl) is let go once the window system says it is up:
// the user's next Ctrl+Enter answers.
func TestKeyReleasedUnseenIsNoLongerHeld(t *testing.T) {
	d := newFakeDesk(t)
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	r := &recorder{}
	w := openOn(d, p, c, "Deploy?", Options{InputGuard: -1}, r.done)
	d.down = []uint32{37} // Ctrl, of the shortcut that brought it
	w.Focus()
	v := w.View()
	d.down = []uint32{} // let go, the release sent elsewhere
	v.lookHeld(c.now.Add(time.Second))
	v.keyDown(&fyne.KeyEvent{Name: desktop.KeyControlLeft, Physical: fyne.HardwareKey{ScanCode: 37}})
	v.keyDown(&fyne.KeyEvent{Name: fyne.KeyReturn, Physical: fyne.HardwareKey{ScanCode: 36}})
	v.shortcut(ctrlEnter)
	if len(r.answers) != 1 {
		t.Errorf("the user's Ctrl+Enter after the shortcut's Ctrl was let go: %d answers", len(r.answers))
	}
}

// A hold tried before the window system's connection is up is tried again
// on the heartbeat, and the waiting windows then name the shortcut.
func TestShortcutHeldOnceTheConnectionIsUp(t *testing.T) {
	d := newFakeDesk(t)
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	d.holdErr = errNotYet
	p.SetShortcut("Ctrl+Alt+F")
	w := openOn(d, p, c, "q", Options{})
	if d.holds != 0 || w.View().hint.bring != "" {
		t.Fatalf("held %d, hint names %q before the connection is up", d.holds, w.View().hint.bring)
	}
	d.holdErr = nil
	p.bringKeys.retryAt = time.Time{}
	p.holdShortcut()
	if d.holds != 1 || w.View().hint.bring != "Ctrl+Alt+F" {
		t.Errorf("once up: held %d, hint names %q", d.holds, w.View().hint.bring)
	}
}
