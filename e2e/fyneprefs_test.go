package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"feedback/ipc/wire"
)

// Fyne's preferences file left empty (a UI process killed while Fyne
// rewrote it): the next UI process starts without "Preferences load error:
// EOF", and its file is readable again.
func TestEmptyFynePreferencesFile(t *testing.T) {
	requireSession(t)
	config := t.TempDir()
	prefs := filepath.Join(config, "fyne", "io.feedback.app", "preferences.json")
	if err := os.MkdirAll(filepath.Dir(prefs), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(prefs, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	logPath := startApp(t, "XDG_CONFIG_HOME="+config)
	ch, _ := askApp(t, choiceQuestion("EmptyPrefs"))
	activate(t, findWindow(t, "EmptyPrefs — feedback"))
	key(t, "Escape")
	if r := awaitAsk(t, ch); r.err != nil || r.a.Status != wire.StatusDismissed {
		t.Fatalf("answer = %+v, %v", r.a, r.err)
	}
	data, _ := os.ReadFile(logPath)
	if strings.Contains(string(data), "Preferences load error") {
		t.Errorf("the UI process could not read Fyne's preferences:\n%s", data)
	}
	if got, _ := os.ReadFile(prefs); strings.TrimSpace(string(got)) == "" {
		t.Error("the preferences file is still empty")
	}
}
