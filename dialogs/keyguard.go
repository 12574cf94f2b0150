package dialogs

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"feedback/i18n"
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
//     never released, issue 14) from answering every window that opens.
//
// Key presses are seen through desktop.Keyable on the reply box, option
// checkboxes and buttons, and through the canvas when nothing is focused.
// While a widget that reports no key presses has the focus (a link in the
// Markdown, a radio button) only the time rule applies.

// DefaultInputGuard is how long after taking the focus a window ignores
// the keys that act.
const DefaultInputGuard = 600 * time.Millisecond

// guardCueFor is how long the hint line says that a key was ignored.
const guardCueFor = 3 * time.Second

// guardCue is the hint line's text when a key was ignored (the README
// explains the rule; a longer text is cut off).
func guardCue() string { return i18n.T("question.key_ignored") }

// keyGuard tracks which keys this window saw go down. Touched on the Fyne
// goroutine only.
type keyGuard struct {
	on      bool // guarding; a view without a window (tests) is unguarded
	delay   time.Duration
	until   time.Time // keys that act are ignored before this
	down    map[fyne.KeyName]bool
	tainted map[fyne.KeyName]bool // seen down during the guard: held from before
	cueTill time.Time             // the hint shows guardCue until then
	typed   func()                // a key went down in the window (place.go); nil: nothing to tell
}

// arm starts the guard: the window has just taken the focus. What was held
// before is unknown, so nothing counts as down.
func (g *keyGuard) arm(now time.Time) {
	g.until = now.Add(g.delay)
	g.down = map[fyne.KeyName]bool{}
	g.tainted = map[fyne.KeyName]bool{}
}

func (g *keyGuard) keyDown(k fyne.KeyName, now time.Time) {
	if g.typed != nil {
		g.typed()
	}
	if g.down == nil {
		g.arm(time.Time{})
	}
	if now.Before(g.until) || g.tainted[k] {
		g.tainted[k] = true
		return
	}
	g.down[k] = true
}

func (g *keyGuard) keyUp(k fyne.KeyName) {
	delete(g.down, k)
	delete(g.tainted, k)
}

// allowsKey reports whether k, pressed now, may act. tracked is false while
// the focused widget does not report key presses: then only time counts.
func (g *keyGuard) allowsKey(k fyne.KeyName, now time.Time, tracked bool) bool {
	if !g.on {
		return true
	}
	if now.Before(g.until) {
		return false
	}
	return !tracked || g.down[k]
}

// allows reports whether the shortcut s, typed now, may act: the key and
// each of its modifiers went down in this window after the guard.
func (g *keyGuard) allows(s fyne.Shortcut, now time.Time, tracked bool) bool {
	if !g.on {
		return true
	}
	cs, ok := s.(*desktop.CustomShortcut)
	if !ok {
		return !now.Before(g.until)
	}
	if !g.allowsKey(cs.KeyName, now, tracked) {
		return false
	}
	if !tracked {
		return true
	}
	for _, m := range []struct {
		mod         fyne.KeyModifier
		left, right fyne.KeyName
	}{
		{fyne.KeyModifierControl, desktop.KeyControlLeft, desktop.KeyControlRight},
		{fyne.KeyModifierAlt, desktop.KeyAltLeft, desktop.KeyAltRight},
		{fyne.KeyModifierShift, desktop.KeyShiftLeft, desktop.KeyShiftRight},
		{fyne.KeyModifierSuper, desktop.KeySuperLeft, desktop.KeySuperRight},
	} {
		if cs.Modifier&m.mod != 0 && !g.down[m.left] && !g.down[m.right] {
			return false
		}
	}
	return true
}

// keyReporter is implemented by the widgets that pass their key presses to
// the view (desktop.Keyable): with one of them focused, the guard knows
// which keys went down.
type keyReporter interface {
	reportsKeys()
}

// ArmGuard starts the input guard: the window has just taken (or asked
// for) the keyboard.
func (v *View) ArmGuard() {
	if v.guard.on {
		v.guard.arm(v.now())
	}
}

// keyDown and keyUp implement keyHandler: a key went down or up in this window.
func (v *View) keyDown(k fyne.KeyName) {
	if v.guard.on {
		v.guard.keyDown(k, v.now())
	}
}

func (v *View) keyUp(k fyne.KeyName) {
	if v.guard.on {
		v.guard.keyUp(k)
	}
}

// keysTracked reports whether the guard sees the key presses now: nothing
// is focused (the canvas reports them) or a keyReporter is.
func (v *View) keysTracked() bool {
	if v.focused == nil {
		return true
	}
	switch v.focused().(type) {
	case nil, keyReporter:
		return true
	}
	return false
}

// allowShortcut reports whether s may act now; if not, the hint says why.
func (v *View) allowShortcut(s fyne.Shortcut) bool {
	if v.guard.allows(s, v.now(), v.keysTracked()) {
		return true
	}
	v.showGuardCue()
	return false
}

// allowKey implements keyHandler: whether the key k (Escape, Space on a
// button) may act now; if not, the hint says why.
func (v *View) allowKey(k fyne.KeyName) bool {
	if v.guard.allowsKey(k, v.now(), v.keysTracked()) {
		return true
	}
	v.showGuardCue()
	return false
}

// allowTap reports whether a click on an answering button may act: not
// during the guard, when a click meant for another window can land here.
func (v *View) allowTap() bool {
	if !v.guard.on || !v.now().Before(v.guard.until) {
		return true
	}
	v.showGuardCue()
	return false
}

func (v *View) showGuardCue() {
	v.guard.cueTill = v.now().Add(guardCueFor)
	v.showHint(guardCue())
}

// expireGuardCue restores the hint line once the cue has been shown long
// enough; Tick calls it.
func (v *View) expireGuardCue(now time.Time) {
	if v.guard.cueTill.IsZero() || now.Before(v.guard.cueTill) {
		return
	}
	v.guard.cueTill = time.Time{}
	if text, ok := v.hintSegmentText(); ok && text == guardCue() {
		v.showHint("")
	}
}

// hintSegmentText is the hint line's text.
func (v *View) hintSegmentText() (string, bool) {
	if v.hint == nil || len(v.hint.Segments) == 0 {
		return "", false
	}
	seg, ok := v.hint.Segments[0].(*widget.TextSegment)
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
	case k == fyne.KeyT, k == fyne.KeyP, k == fyne.KeyY, k == fyne.KeyN:
		return true
	case digit(k) > 0:
		return digit(k) <= len(v.options)
	}
	return false
}

// enableGuard turns the input guard on (a Window does) and arms it.
func (v *View) enableGuard() {
	v.guard.on = true
	switch d := v.opts.InputGuard; {
	case d == 0:
		v.guard.delay = DefaultInputGuard
	case d > 0:
		v.guard.delay = d
	}
	v.guard.arm(v.now())
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
