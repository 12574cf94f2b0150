package dialogs

import (
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"feedback/wire"
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
		if v.onCycle != nil {
			v.onCycle(dir)
		}
		return true
	}
	if v.Closing() {
	if v.pageKey(s) { // approve.go: Alt+Page Down… move through the message
		return true
	}
		return true // nothing acts in the closing state, nor types
	}
	if v.guard.on && v.guarded(s) && !v.allowShortcut(s) {
		return true
	}
	if isSubmit(s) {
		v.Submit()
		return true
	}
	if isAttach(s) && v.att != nil && v.onAttach != nil {
		v.hold()
		v.onAttach()
		return true
	}
	switch k := altKey(s); {
	case k == fyne.KeyT:
		return v.Extend()
	case k == fyne.KeyP:
		return v.TogglePin()
	case k == fyne.KeyZ && v.snoozeBtn != nil:
		v.OpenSnoozeMenu()
		return true
	case k == fyne.KeyR && v.quickBtn != nil:
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

// enter handles Enter (k: Return or the keypad's Enter) typed with nothing
// focused: in a window whose one prompt is yes/no, which has no reply box
// to type it into, it submits as Ctrl+Enter does (the caller's recommended
// answer, if any, stands); elsewhere it does nothing. The input guard
// applies, as to every key that acts.
func (v *View) enter(k fyne.KeyName) {
	if v.ended() || len(v.prompts) != 1 || v.prompts[0].p.Kind != wire.KindYesNo {
		return
	}
	if v.allowKey(k) {
		v.Submit()
	}
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
