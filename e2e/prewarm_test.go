package e2e

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/e2e/internal/xmaps"
)

// mapsOnRoot counts the top-level windows mapped on the display from now
// on, until the test ends.
func mapsOnRoot(t *testing.T) func() int {
	t.Helper()
	mapped, stop, err := xmaps.Watch()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	n := 0
	return func() int {
		for {
			select {
			case <-mapped:
				n++
			default:
				return n
			}
		}
	}
}

// With no app running, an agent's MCP client starting is enough: its shim
// starts the app once the client has initialized, the app starts its UI
// process, and that prepares the first question window without showing
// anything (no window is mapped). The first question then opens in it and
// is answered as usual. With "ui_prewarm": false the shim starts nothing
// until the first call. (The session's FEEDBACK_UI_PREWARM=0 is blanked:
// the settings file decides, and its default is on.)
func TestFirstQuestionFindsItsWindowReady(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	stopApp()
	t.Cleanup(stopApp) // the next test starts the session's app again
	state := t.TempDir()
	maps := mapsOnRoot(t)
	c := newMCP(t, "prewarm", writeSettings(t, `{}`), "XDG_STATE_HOME="+state, "FEEDBACK_UI_PREWARM=")
	logPath := filepath.Join(state, "feedback", "app.log")
	var log string
	waitFor(t, "the UI process to say its first window is ready", 20*time.Second, func() bool {
		data, _ := os.ReadFile(logPath)
		log = string(data)
		return strings.Contains(log, "the first window is ready")
	})
	app := appPID()
	if app == 0 {
		t.Fatal("no app answers after the client initialized")
	}
	if pids := uiPIDs(app); len(pids) != 1 {
		t.Fatalf("UI processes %v, want the prepared one", pids)
	}
	time.Sleep(500 * time.Millisecond) // a window mapped late would be counted
	if n := maps(); n != 0 {
		t.Fatalf("%d windows were mapped before any question; the prepared window must not show", n)
	}

	res := call(c, "interactive_feedback", map[string]any{"message": "Ship the **release**?",
		"header_label": "Prewarmed", "predefined_options": []any{"Ship", "Wait"}})
	win := findWindow(t, "Prewarmed — feedback")
	if pids := uiPIDs(app); len(pids) != 1 {
		t.Fatalf("UI processes %v, want the prepared one showing the question", pids)
	}
	activate(t, win)
	key(t, "alt+1")
	screenshot(t, "prewarmed-first-question")
	key(t, "ctrl+Return")
	r := await(t, res)
	if sc := structured(t, r); sc["status"] != "answered" || !strings.Contains(text(r), "- Ship") {
		t.Errorf("the answer: %v, %q; want Ship answered", sc, text(r))
	}
	if n := maps(); n != 1 {
		t.Errorf("%d windows mapped, want the question's alone", n)
	}

	// Turned off: the client's start starts nothing.
	stopApp()
	newMCP(t, "no-prewarm", writeSettings(t, `{"ui_prewarm": false}`), "XDG_STATE_HOME="+t.TempDir(), "FEEDBACK_UI_PREWARM=")
	time.Sleep(2 * time.Second) // the app, started, would answer well within this
	if appPID() != 0 {
		t.Error(`with "ui_prewarm": false the client's start started the app`)
	}
}
