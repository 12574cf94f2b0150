package dialogs

import (
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// keyMods are the modifiers of the window's keyboard contract on one system,
// and their names for the hint line and the tips.
type keyMods struct {
	// Primary submits (+Enter), attaches (+O) and pastes (+V): Cmd on macOS,
	// Ctrl elsewhere, as each system's own shortcuts are.
	Primary     fyne.KeyModifier
	PrimaryName string
	// Alt toggles options (+digit), answers yes/no (+Y/+N) and works the
	// countdown (+T/+P). Fyne reports the Option key of a Mac as
	// KeyModifierAlt, so only the name changes.
	Alt     fyne.KeyModifier
	AltName string
}

// modsFor returns the modifiers on the system goos (a runtime.GOOS value).
func modsFor(goos string) keyMods {
	if goos == "darwin" {
		return keyMods{Primary: fyne.KeyModifierSuper, PrimaryName: "Cmd", Alt: fyne.KeyModifierAlt, AltName: "Option"}
	}
	return keyMods{Primary: fyne.KeyModifierControl, PrimaryName: "Ctrl", Alt: fyne.KeyModifierAlt, AltName: "Alt"}
}

// mods are this system's modifiers; tests may swap them.
var mods = modsFor(runtime.GOOS)

// withPrimary names Primary+key for people, e.g. "Cmd+Enter".
func (m keyMods) withPrimary(key string) string { return m.PrimaryName + "+" + key }

// withAlt names Alt+key for people, e.g. "Option+P".
func (m keyMods) withAlt(key string) string { return m.AltName + "+" + key }

// shortcut implements keyHandler: the keyboard contract.
func (v *View) shortcut(s fyne.Shortcut) bool {
	if v.done {
		return false
	}
	if dir := cycleDir(s); dir != 0 { // to another open question (place.go): never guarded
		if v.hooks.onCycle != nil {
			v.hooks.onCycle(dir)
		}
		return true
	}
	if v.Closing() {
		return true // nothing acts in the closing state, nor types
	}
	if v.pageKey(s) { // approve.go: Alt+Page Down… move through the message
		return true
	}
	if v.guard.on && v.guarded(s) && !v.allowShortcut(s) {
		return true
	}
	if isSubmit(s) {
		v.Submit()
		return true
	}
	if isAttach(s) && v.att != nil && v.hooks.onAttach != nil {
		v.hold()
		v.hooks.onAttach()
		return true
	}
	switch k := altKey(s); {
	case k == fyne.KeyT:
		return v.Extend()
	case k == fyne.KeyP:
		return v.TogglePin()
	case k == fyne.KeyZ && v.snooze.btn != nil:
		v.OpenSnoozeMenu()
		return true
	case k == fyne.KeyR && v.quick.btn != nil:
		v.OpenQuickReplies()
		return true
	case k == fyne.KeyY:
		return v.answerYesNo(true)
	case k == fyne.KeyN:
		return v.answerYesNo(false)
	case digit(k) > 0:
		return v.ToggleOption(digit(k))
	}
	return false
}

// Enter in a window of one yes/no question presses the button that has the
// keyboard, and only that one: what Enter will do is seen before it is
// pressed.
//
//   - The window opens with the keyboard on the recommended answer's
//     button (the primary one), outlined by the focus ring (focusring.go);
//     Enter presses it, under the input guard, as Space does. Tab and
//     Shift+Tab move the keyboard to the other buttons, No and Yes among
//     them, and Enter then presses the one it is on.
//   - Without a recommendation no button has the keyboard and Enter
//     answers nothing: the caller has no default for the user to accept,
//     and a key that merely lands in the window (a stray Enter) must not
//     decide. "No" is not focused for safety either: a no the user did not
//     give is an answer nobody gave. Alt+Y, Alt+N, a click, or Tab to a
//     button then Enter or Space answer.
//   - With nothing focused (the user clicked the message, which takes the
//     keyboard from the buttons) Enter gives the keyboard back to the
//     recommended button, so the ring shows again, and answers nothing; the
//     next Enter presses it.

// focusYesNo gives the keyboard, when the window opens, to the button of
// the recommended answer (yes or no) in a window of one yes/no question.
// The view.go footer calls it with the two buttons it made.
func (v *View) focusYesNo(yes, no *keyButton) {
	if v.focus.initial != nil || v.hasSubmit() {
		return
	}
	v.yesNo = [2]*keyButton{yes, no}
	switch v.recommended() {
	case "yes":
		v.focus.initial = yes
	case "no":
		v.focus.initial = no
	}
}

// enterAnswer is what Enter answers in a window of one yes/no question,
// for the hint line: "yes" or "no" while that button has the keyboard (or
// is about to: the window is not shown yet, or nothing has it and Enter
// gives it back), "" while Enter answers nothing.
func (v *View) enterAnswer() string {
	if v.yesNo[0] == nil {
		return ""
	}
	f := v.focus.initial
	if v.hooks.focused != nil {
		if now := v.hooks.focused(); now != nil {
			f = now
		}
	}
	switch f {
	case nil:
		return ""
	case fyne.Focusable(v.yesNo[0]):
		return "yes"
	case fyne.Focusable(v.yesNo[1]):
		return "no"
	}
	return ""
}

// enterFollows has the hint line name what Enter does now: the keyboard
// moved (followFocus).
func (v *View) enterFollows() {
	if v.yesNo[0] != nil && v.hint.text != nil {
		v.fitHint(v.hint.text.Size().Width)
	}
}

// enter handles Enter (k: Return or the keypad's Enter) typed with nothing
// focused. In a window of one yes/no question it gives the keyboard back to
// the recommended button (focusYesNo), answering nothing; elsewhere it does
// nothing.
func (v *View) enter(fyne.KeyName) {
	if v.ended() || v.hasSubmit() || v.focus.initial == nil || v.hooks.focusOn == nil {
		return
	}
	v.hooks.focusOn(v.focus.initial)
}

func (v *View) escape() {
	if v.allowKey(fyne.KeyEscape) {
		v.RequestDismiss()
	}
}

// Shortcuts lists the window-level shortcuts of the contract, for canvases
// whose focused widget does not take shortcuts itself.
func (v *View) Shortcuts() []fyne.Shortcut {
	var list []fyne.Shortcut
	add := func(k fyne.KeyName, m fyne.KeyModifier) {
		list = append(list, &desktop.CustomShortcut{KeyName: k, Modifier: m})
	}
	add(fyne.KeyReturn, mods.Primary)
	add(fyne.KeyEnter, mods.Primary)
	add(fyne.KeyO, mods.Primary)
	add(fyne.KeyY, mods.Alt)
	add(fyne.KeyN, mods.Alt)
	add(fyne.KeyT, mods.Alt)
	add(fyne.KeyP, mods.Alt)
	add(fyne.KeyZ, mods.Alt)
	add(fyne.KeyR, mods.Alt)
	for d := '1'; d <= '9'; d++ {
		add(fyne.KeyName(string(d)), mods.Alt)
	}
	return list
}

// isSubmit reports whether s is Ctrl+Enter (Cmd+Enter on macOS; keys.go).
func isSubmit(s fyne.Shortcut) bool {
	cs, ok := s.(*desktop.CustomShortcut)
	return ok && cs.Modifier == mods.Primary &&
		(cs.KeyName == fyne.KeyReturn || cs.KeyName == fyne.KeyEnter)
}

// isAttach reports whether s is Ctrl+O (Cmd+O on macOS), which opens the
// Attach… picker.
func isAttach(s fyne.Shortcut) bool {
	cs, ok := s.(*desktop.CustomShortcut)
	return ok && cs.Modifier == mods.Primary && cs.KeyName == fyne.KeyO
}

// altKey returns the key of an Alt+key (Option+key) shortcut, or "" for
// anything else.
func altKey(s fyne.Shortcut) fyne.KeyName {
	cs, ok := s.(*desktop.CustomShortcut)
	if !ok || cs.Modifier != mods.Alt {
		return ""
	}
	return cs.KeyName
}

// digit returns 1–9 for the keys 1–9, else 0.
func digit(k fyne.KeyName) int {
	if len(k) == 1 && k[0] >= '1' && k[0] <= '9' {
		return int(k[0] - '0')
	}
	return 0
}
