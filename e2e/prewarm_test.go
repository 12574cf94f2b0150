package e2e

import (
	"fmt"
	"os/exec"
	"strconv"
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

// preparedWindow waits until app has one UI process and it has a window on
// the display (made hidden: Pool.Warm; GLFW names its process in
// _NET_WM_PID), and returns the process and the window.
func preparedWindow(t *testing.T, app int, within time.Duration) (ui int, win string) {
	t.Helper()
	var pids []int
	var ids []string
	for deadline := time.Now().Add(within); ; time.Sleep(50 * time.Millisecond) {
		if pids = uiPIDs(app); len(pids) == 1 {
			out, _ := xdo("search", "--pid", strconv.Itoa(pids[0])).Output()
			if ids = strings.Fields(string(out)); len(ids) == 1 {
				return pids[0], ids[0]
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("waited %v for the UI process to prepare its first window: UI processes %v, their windows %v", within, pids, ids)
		}
	}
}

// mapState is win's map state as xwininfo says it (IsUnMapped,
// IsUnviewable, IsViewable), or the error.
func mapState(win string) string {
	out, err := exec.Command("xwininfo", "-id", win).CombinedOutput()
	if err != nil {
		return fmt.Sprintf("%v: %s", err, out)
	}
	for _, l := range strings.Split(string(out), "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(l), "Map State: "); ok {
			return v
		}
	}
	return "of no map state"
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
	asked := time.Now()
	var app int
	waitFor(t, "the app the client's start started to answer", 20*time.Second, func() bool {
		app = appPID()
		return app != 0
	})
	startedIn := time.Since(asked)
	ui, prepared := preparedWindow(t, app, 20*time.Second)
	// Nothing shows while a window would open: the prepared one stays
	// unmapped, and no other is mapped.
	for deadline := time.Now().Add(windowOpens); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if n := maps(); n != 0 {
			t.Fatalf("%d windows were mapped before any question; the prepared window must not show", n)
		}
		if st := mapState(prepared); st != "IsUnMapped" {
			t.Fatalf("the prepared window %s is %s; it must not show", prepared, st)
		}
	}

	res := call(c, "interactive_feedback", map[string]any{"message": "Ship the **release**?",
		"header_label": "Prewarmed", "predefined_options": []any{"Ship", "Wait"}})
	win := findWindow(t, "Prewarmed — feedback")
	if pids := uiPIDs(app); len(pids) != 1 || pids[0] != ui {
		t.Fatalf("UI processes %v, want the prepared one (%d) showing the question", pids, ui)
	}
	if win != prepared {
		t.Errorf("the question opened in window %s, want the prepared %s", win, prepared)
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
	// It would answer within twice the time it took above (and a window's
	// opening time): nothing else marks a start that did not happen.
	for deadline := time.Now().Add(max(2*startedIn, windowOpens)); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if appPID() != 0 {
			t.Fatal(`with "ui_prewarm": false the client's start started the app`)
		}
	}
}
