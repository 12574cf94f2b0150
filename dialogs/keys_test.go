package dialogs

import (
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"feedback/wire"
)

func TestModsPerSystem(t *testing.T) {
	for _, tt := range []struct {
		goos                   string
		primary                fyne.KeyModifier
		submit, toggle, attach string
	}{
		{"darwin", fyne.KeyModifierSuper, "Cmd+Enter", "Option+1", "Cmd+O"},
		{"linux", fyne.KeyModifierControl, "Ctrl+Enter", "Alt+1", "Ctrl+O"},
		{"windows", fyne.KeyModifierControl, "Ctrl+Enter", "Alt+1", "Ctrl+O"},
		{"freebsd", fyne.KeyModifierControl, "Ctrl+Enter", "Alt+1", "Ctrl+O"},
	} {
		m := modsFor(tt.goos)
		if m.Primary != tt.primary || m.Alt != fyne.KeyModifierAlt {
			t.Errorf("%s: modifiers %v/%v, want %v/Alt", tt.goos, m.Primary, m.Alt, tt.primary)
		}
		if got := m.withPrimary("Enter"); got != tt.submit {
			t.Errorf("%s: submit is %q, want %q", tt.goos, got, tt.submit)
		}
		if got := m.withPrimary("O"); got != tt.attach {
			t.Errorf("%s: attach is %q, want %q", tt.goos, got, tt.attach)
		}
		if got := m.withAlt("1"); got != tt.toggle {
			t.Errorf("%s: toggle is %q, want %q", tt.goos, got, tt.toggle)
		}
	}
}

// On macOS Cmd (KeyModifierSuper) submits, Ctrl does not, Option (Alt)
// toggles, and the hint line says so.
func TestMacOSKeysAndHint(t *testing.T) {
	defer func(m keyMods) { mods = m }(mods)
	mods = modsFor("darwin")

	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A"}, {Label: "B"}}}), Options{})
	for _, want := range []string{"Cmd+Enter submit", "Option+1–2 options"} {
		if !strings.Contains(v.hintText, want) {
			t.Errorf("hint %q lacks %q", v.hintText, want)
		}
	}
	if strings.Contains(v.hintText, "Ctrl") || strings.Contains(v.hintText, "Alt+") {
		t.Errorf("hint %q names a PC key on macOS", v.hintText)
	}
	entry := v.prompts[0].entry
	entry.TypedShortcut(alt("2"))
	entry.TypedShortcut(ctrlEnter)
	if len(r.answers) != 0 {
		t.Fatalf("Ctrl+Enter submitted on macOS: %+v", r.answers)
	}
	entry.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierSuper})
	if got := r.only(t); len(got.Replies) != 1 || !reflect.DeepEqual(got.Replies[0].Selected, []string{"B"}) {
		t.Errorf("Cmd+Enter answered %+v, want option B selected", got)
	}
}

// Elsewhere Ctrl submits and Cmd/Super does nothing.
func TestPCKeys(t *testing.T) {
	defer func(m keyMods) { mods = m }(mods)
	mods = modsFor("windows")

	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{})
	if !strings.HasPrefix(v.hintText, "Ctrl+Enter submit") {
		t.Errorf("hint %q, want it to start with Ctrl+Enter submit", v.hintText)
	}
	entry := v.prompts[0].entry
	entry.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierSuper})
	if len(r.answers) != 0 {
		t.Fatalf("Super+Enter submitted on Windows: %+v", r.answers)
	}
	entry.TypedShortcut(ctrlEnter)
	r.only(t)
}
