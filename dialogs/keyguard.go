package dialogs

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
)

// The input guard: an answer (a submit, yes/no, an option, a dismissal…)
// only ever comes from a key the user pressed in this window, and never in
// the first moments after the window took the keyboard.
//
//   - For Options.InputGuard (DefaultInputGuard, 600 ms) after the window
//     takes the focus, the keys that act (Ctrl+Enter, Alt+…, Escape, Space
//     on a button) are ignored and the hint line says so. Typed text is not
//     lost: it goes into the reply box as usual, so an Enter or a sentence
//     meant for the editor lands as text, never as an answer.
//   - A key that acts counts only if this window saw it go down, and saw its
//     modifiers (Ctrl, Alt) go down, after the guard. A key already held when
//     the window took the focus, or pressed during the guard, stays refused
//     until it is released. This is what stops a key held down elsewhere
//     (the X server repeating a key that an automation tool pressed and
//     never released) from answering every window that opens.
//
//   - The guard is armed whenever the window takes the keyboard: when it
//     opens, when the user comes to it, and every time the window manager
//     gives it the focus back, say after the user answered another window
//     (armOnFocusIn). A key meant for that other window (a second Enter, a
//     Ctrl+Enter pressed twice) lands in this one a moment later: it is
//     ignored, whatever this window asks and whichever of its controls has
//     the keyboard.
//
// Key presses are seen through desktop.Keyable on the reply box, option
// checkboxes and buttons, and through the canvas when nothing is focused.
// While a widget that reports no key presses has the focus (a link in the
// Markdown, a radio button) only the time rule applies.
//
// The guard's state and rules are a plain type with no toolkit (keyGuard,
// guard.go); this file feeds it Fyne's keys and shortcuts and shows its cue.

// DefaultInputGuard is how long after taking the focus a window ignores
// the keys that act.
const DefaultInputGuard = 600 * time.Millisecond

// guardCue is the hint line's text when a key was ignored (the README
// explains the rule; a longer text is cut off).
func guardCue() string { return i18n.T("question.key_ignored") }

// modifierKeys are the keys of each modifier, left and right.
var modifierKeys = []struct {
	mod  fyne.KeyModifier
	keys [2]string
}{
	{fyne.KeyModifierControl, [2]string{string(desktop.KeyControlLeft), string(desktop.KeyControlRight)}},
	{fyne.KeyModifierAlt, [2]string{string(desktop.KeyAltLeft), string(desktop.KeyAltRight)}},
	{fyne.KeyModifierShift, [2]string{string(desktop.KeyShiftLeft), string(desktop.KeyShiftRight)}},
	{fyne.KeyModifierSuper, [2]string{string(desktop.KeySuperLeft), string(desktop.KeySuperRight)}},
}

// chordOf is the shortcut s as the guard (guard.go) sees it: its key and,
// for each of its modifiers, the modifier's keys. ok is false for a
// shortcut that names no key (a menu's).
func chordOf(s fyne.Shortcut) (key string, mods [][2]string, ok bool) {
	cs, ok := s.(*desktop.CustomShortcut)
	if !ok {
		return "", nil, false
	}
	for _, m := range modifierKeys {
		if cs.Modifier&m.mod != 0 {
			mods = append(mods, m.keys)
		}
	}
	return string(cs.KeyName), mods, true
}

// keyReporter is implemented by the widgets that pass their key presses to
// the view (desktop.Keyable): with one of them focused, the guard knows
// which keys went down.
type keyReporter interface {
	reportsKeys()
}

// ArmGuard starts the input guard: the window has just taken (or asked
// for) the keyboard. The keys the window system says are held now never
// act until released.
func (v *View) ArmGuard() {
	var held []int
	if v.hooks.keysDown != nil {
		held = v.hooks.keysDown()
	}
	v.guard.arm(v.now(), held)
}

// keyDown and keyUp implement keyHandler: a key went down or up in this window.
func (v *View) keyDown(k *fyne.KeyEvent) {
	v.guard.keyDown(string(k.Name), k.Physical.ScanCode, v.now())
}

func (v *View) keyUp(k *fyne.KeyEvent) { v.guard.keyUp(string(k.Name), k.Physical.ScanCode) }

// heldEvery spaces the looks at whether the keys held as the window took
// the keyboard are still held (lookHeld).
const heldEvery = 50 * time.Millisecond

// lookHeld, on the window's heartbeat, lets go of the keys held as the
// window took the keyboard that are no longer down: their release can
// reach the window that had the keyboard before (the shortcut that brought
// this one; the Ctrl+Enter that answered the last one), and the next
// press of such a key is the user's. Only while there are some.
func (v *View) lookHeld(now time.Time) {
	if !v.guard.holdsFromBefore() || v.hooks.keysDown == nil || now.Sub(v.heldLooked) < heldEvery {
		return
	}
	v.heldLooked = now
	if down := v.hooks.keysDown(); down != nil {
		v.guard.stillHeld(down)
	}
}

// wrote implements keyHandler: the user's typing put text in the reply box.
func (v *View) wrote() { v.guard.wrote(v.now()) }

// keysTracked reports whether the guard sees the key presses now: nothing
// is focused (the canvas reports them) or a keyReporter is.
func (v *View) keysTracked() bool {
	if v.hooks.focused == nil {
		return true
	}
	switch v.hooks.focused().(type) {
	case nil, keyReporter:
		return true
	}
	return false
}

// allowShortcut reports whether s may act now; if not, the hint says why.
func (v *View) allowShortcut(s fyne.Shortcut) bool {
	now := v.now()
	allowed := v.guard.settled(now)
	if key, mods, ok := chordOf(s); ok {
		allowed = v.guard.allowsChord(key, mods, now, v.keysTracked())
	}
	if allowed {
		return true
	}
	v.showGuardCue()
	return false
}

// allowKey implements keyHandler: whether the key k (Escape, Space on a
// button) may act now; if not, the hint says why.
func (v *View) allowKey(k fyne.KeyName) bool {
	if v.guard.allowsKey(string(k), v.now(), v.keysTracked()) {
		return true
	}
	v.showGuardCue()
	return false
}

// allowTap reports whether a click on an answering button may act: not
// during the guard, when a click meant for another window can land here.
func (v *View) allowTap() bool {
	if v.guard.settled(v.now()) {
		return true
	}
	v.showGuardCue()
	return false
}

func (v *View) showGuardCue() {
	v.guard.cue(v.now())
	v.showHint(guardCue())
}

// expireGuardCue restores the hint line once the cue has been shown long
// enough; Tick calls it.
func (v *View) expireGuardCue(now time.Time) {
	if !v.guard.cueOver(now) {
		return
	}
	if text, ok := v.hintSegmentText(); ok && text == guardCue() {
		v.showHint("")
	}
}

// hintSegmentText is the hint line's text.
func (v *View) hintSegmentText() (string, bool) {
	if v.hint.text == nil || len(v.hint.text.Segments) == 0 {
		return "", false
	}
	seg, ok := v.hint.text.Segments[0].(*widget.TextSegment)
	if !ok {
		return "", false
	}
	return seg.Text, true
}

// guarded reports whether s is one of the view's shortcuts, all of which
// answer or change the answer.
func (v *View) guarded(s fyne.Shortcut) bool {
	if isSubmit(s) || isAttach(s) {
		return true
	}
	switch k := altKey(s); {
	case k == fyne.KeyT, k == fyne.KeyP, k == fyne.KeyY, k == fyne.KeyN, k == fyne.KeyZ:
		return true
	case digit(k) > 0:
		return digit(k) <= len(v.options)
	}
	return false
}

// enableGuard turns the input guard on (a Window does) and arms it.
func (v *View) enableGuard() {
	d := v.opts.InputGuard
	if d == 0 {
		d = DefaultInputGuard
	}
	v.guard.enable(d, v.now())
}

// tap wraps an answering button's action in the guard's click rule.
func (v *View) tap(f func()) func() {
	return func() {
		if v.allowTap() {
			f()
		}
	}
}

// focusGained implements keyHandler.
func (v *View) focusGained() { v.ArmGuard() }

// foregroundHook is the part of the app's lifecycle that says one of its
// windows took the keyboard while none had it: Fyne's GLFW driver calls
// that function as it handles a window's focus-in, before the window's
// next key (fyne.io/fyne/v2/internal/app.Lifecycle).
type foregroundHook interface {
	OnEnteredForeground() func()
}

// armOnFocusIn arms the input guard of every open window of p each time
// one of the app's windows takes the keyboard: from another program, or
// from another of the app's windows, which first lets it go (the window
// that had it is left, then the next one entered). Only the window with
// the keyboard gets keys, so arming the others too changes nothing for
// them. A function already set on the lifecycle (another pool's) still
// runs.
//
// Fyne tells no focus-in to a window whose focused widget is not the
// reply box (a button, an option, nothing): the lifecycle is the one
// place it is seen for every window and every kind of question.
func (p *Pool) armOnFocusIn() {
	l := p.app.Lifecycle()
	var prev func()
	if h, ok := l.(foregroundHook); ok {
		prev = h.OnEnteredForeground()
	}
	l.SetOnEnteredForeground(func() {
		if prev != nil {
			prev()
		}
		for _, s := range p.open {
			if w := s.live(); w != nil {
				w.view.ArmGuard()
			}
		}
	})
}
