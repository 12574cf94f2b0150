//go:build unix

package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/app/store"
	"feedback/internal/display"
	"feedback/internal/safefile/safefiletest"
)

// DISPLAY naming no X server is a FAIL with a fix, not "OK display".
func TestDeadDisplayFails(t *testing.T) {
	if display.NativeWayland {
		t.Skip("the X11 build's check: the Wayland build does not use DISPLAY")
	}
	h := home(t)
	t.Setenv("DISPLAY", ":987")
	e, out := env(t, h)
	e.ProbeDisplay = display.Probe
	Run(context.Background(), nil, e)
	expect(t, out.String(), map[string][]string{"display": {"FAIL", ":987"}})
	if !strings.Contains(out.String(), "set DISPLAY to") {
		t.Errorf("no fix:\n%s", out)
	}
}

// A bad environment variable is named in the fix, not the settings file.
func TestSettingsFixNamesTheVariable(t *testing.T) {
	h := home(t)
	t.Setenv("FEEDBACK_TIMEOUT", "-3")
	e, out := env(t, h)
	Run(context.Background(), nil, e)
	expect(t, out.String(), map[string][]string{"settings": {"FAIL", "FEEDBACK_TIMEOUT"}})
	if !strings.Contains(out.String(), "fix or unset FEEDBACK_TIMEOUT") || strings.Contains(out.String(), "fix "+h) {
		t.Errorf("the fix does not name the variable:\n%s", out)
	}
}

// FIFOs at the settings, database and client configuration paths: doctor
// reports each as FAIL or WARN at once instead of hanging.
func TestFIFOsDoNotHangDoctor(t *testing.T) {
	h := home(t)
	settingsPath := filepath.Join(h, ".config", "feedback", "settings.json")
	dbPath, _ := store.DefaultPath()
	client := filepath.Join(h, ".cursor", "mcp.json")
	for _, p := range []string{settingsPath, dbPath, client} {
		os.MkdirAll(filepath.Dir(p), 0o700)
		safefiletest.Mkfifo(t, p)
	}
	e, out := env(t, h)
	safefiletest.Returns(t, 20*time.Second, func() error { Run(context.Background(), nil, e); return nil })
	expect(t, out.String(), map[string][]string{
		"settings": {"FAIL", settingsPath, "not a regular file"},
		"database": {"FAIL", dbPath, "not a regular file"},
		"client":   {"WARN", client, "not a regular file"},
	})
	if !strings.Contains(out.String(), "the app refuses it") {
		t.Errorf("the database's fix does not say the app refuses it:\n%s", out)
	}
}
