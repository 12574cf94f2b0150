package e2e

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"

	"feedback/e2e/internal/procs"
)

// waitUIState waits until the UI process pid is in state want ('T':
// stopped), failing after within.
func waitUIState(t *testing.T, pid int, want byte, within time.Duration) {
	t.Helper()
	waitFor(t, "UI process "+string(want)+" state", within, func() bool { return procs.State(pid) == want })
}

// Past ui_linger_seconds the UI process sleeps (stopped: no CPU) instead
// of exiting; the next question wakes it, and its window is shown by the
// same process; the app killed outright takes the sleeping process with
// it (nothing stopped is left behind).
func TestUIProcessSleepsAndWakes(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	startApp(t, writeSettings(t, `{"ui_linger_seconds": 1}`))
	app := appPID()
	r := startAsk(t, "--yesno", "--title", "Sleep1", "First?")
	activate(t, findWindow(t, "Sleep1 — feedback"))
	ui := waitUIPIDs(t, app, 1, time.Second)[0]
	key(t, "alt+y")
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d", code)
	}
	waitUIState(t, ui, 'T', 10*time.Second)

	r = startAsk(t, "--yesno", "--title", "Sleep2", "Second?")
	w := findWindow(t, "Sleep2 — feedback")
	if pids := uiPIDs(app); len(pids) != 1 || pids[0] != ui {
		t.Fatalf("UI processes %v, want the sleeping one (%d) woken", pids, ui)
	}
	if s := procs.State(ui); s == 'T' {
		t.Fatal("the UI process showed a window and is still stopped")
	}
	screenshot(t, "woken-window")
	activate(t, w)
	key(t, "alt+n")
	if code := r.wait(t); code != 0 || r.stdout.String() != "no\n" {
		t.Fatalf("exit %d, stdout %q; want the answer no", code, r.stdout.String())
	}
	waitUIState(t, ui, 'T', 10*time.Second) // asleep again

	if err := syscall.Kill(app, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the sleeping UI process to die with the app", 5*time.Second, func() bool {
		return procs.State(ui) == 0 || procs.State(ui) == 'Z'
	})
}

// A UI process holding the clipboard (the user copied text from a
// question window) exits after the linger time instead of sleeping: a
// stopped owner would hang every program that pastes. What was copied
// was on the clipboard while it ran.
func TestUIProcessHoldingTheClipboardDoesNotSleep(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	logPath := startApp(t, writeSettings(t, `{"ui_linger_seconds": 2}`))
	app := appPID()
	r := startAsk(t, "--title", "Copy", "Copy your reply before you send it")
	activate(t, findWindow(t, "Copy — feedback"))
	ui := waitUIPIDs(t, app, 1, time.Second)[0]
	typeText(t, "copied words")
	key(t, "ctrl+a", "ctrl+c", "ctrl+Return")
	if code := r.wait(t); code != 0 || !strings.Contains(r.stdout.String(), "copied words") {
		t.Fatalf("exit %d, stdout %q", code, r.stdout.String())
	}
	out, err := exec.Command("xclip", "-o", "-selection", "clipboard").Output()
	if err != nil || string(out) != "copied words" {
		t.Fatalf("the clipboard holds %q (%v), want the copied reply", out, err)
	}
	stopped := false
	waitFor(t, "the UI process to exit", 10*time.Second, func() bool {
		stopped = stopped || procs.State(ui) == 'T'
		return len(uiPIDs(app)) == 0
	})
	data, _ := os.ReadFile(logPath)
	if stopped || !strings.Contains(string(data), "the UI process cannot sleep: it exits") {
		t.Errorf("the UI process holding the clipboard: stopped %v; want it to exit, saying why", stopped)
	}
}
