package e2e

import (
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// The UI process stopped (SIGSTOP) — it reads nothing, shows nothing:
// the app owns the deadlines, so `feedback ask --timeout 5` still returns
// on time, as a timeout (exit 2), never as an answer; its heartbeat
// notices the stopped process and kills it; a question that waited on the
// stopped process comes back in the new one with its countdown running to
// the app's deadline (not from the start), and a new question shows a
// window.
func TestUIProcessStoppedTimesOutAndRestarts(t *testing.T) {
	requireSession(t)
	scr := openScreen(t)
	scr.waitForWindowManager(t)
	db := filepath.Join(t.TempDir(), "feedback.db")
	startApp(t, "FEEDBACK_DB="+db)
	app := appPID()

	warm := choiceQuestion("StopWarm")
	ch, _ := askApp(t, warm)
	activate(t, findWindow(t, "StopWarm — feedback"))
	key(t, "Escape")
	awaitAsk(t, ch)
	stopped := waitUIPIDs(t, app, 1, 5*time.Second)[0]
	if err := syscall.Kill(stopped, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(stopped, syscall.SIGKILL); syscall.Kill(stopped, syscall.SIGCONT) })

	waiting := choiceQuestion("StopWaiting")
	waiting.TimeoutSeconds = 72 // in its last minute by the time it is shown
	asked := time.Now()
	chWaiting, _ := askApp(t, waiting)
	r := startAsk(t, "--timeout", "5", "--title", "StopAsk", "Nobody can see this")
	if code := r.wait(t); code != 2 {
		t.Fatalf("feedback ask exited %d, want 2 (timed out); stdout %q, stderr %q", code, r.stdout.String(), r.stderr.String())
	}
	if took := time.Since(asked); took > 12*time.Second {
		t.Errorf("feedback ask --timeout 5 returned after %v with the UI process stopped", took)
	}
	if r.stdout.Len() != 0 {
		t.Errorf("stdout = %q: a timeout printed as an answer", r.stdout.String())
	}

	// The heartbeat: the stopped process is killed and another started
	// for the question still open.
	for deadline := time.Now().Add(40 * time.Second); slices.Contains(uiPIDs(app), stopped); time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the stopped UI process %d is still the app's after 40 s", stopped)
		}
	}
	// Its countdown ran while the UI process was stopped: the window shows
	// its last minute's band.
	scr.waitWarningBand(t, findWindow(t, "StopWaiting — feedback"), restoredWithin)

	after := startAsk(t, "--timeout", "60", "--title", "StopAfter", "Shown by the new UI process?")
	activate(t, findWindow(t, "StopAfter — feedback"))
	key(t, "Escape")
	if code := after.wait(t); code == 0 {
		t.Errorf("dismissed ask exited 0")
	}
	activate(t, findWindow(t, "StopWaiting — feedback"))
	key(t, "Escape")
	if r := awaitAsk(t, chWaiting); r.err != nil || r.a.Status != wire.StatusDismissed {
		t.Fatalf("answer = %+v, %v; want dismissed", r.a, r.err)
	}
	if appPID() != app {
		t.Error("the resident app changed while only its UI process was stopped")
	}
}
