package dialogs

import (
	"runtime"

	"fyne.io/fyne/v2"
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
