package e2e

import (
	"syscall"
	"testing"
	"time"
)

// The app is killed (SIGKILL) while a question is open: the shim restarts
// it and asks the same question (same ID) again; the window comes back
// with the same title and the draft typed before the crash (the app saves
// drafts by question ID as the user types), and its answer reaches the
// original call.
func TestAppKilledMidQuestion(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	c := newMCP(t, "survivor")
	res := call(c, "interactive_feedback", map[string]any{"message": "Survive a crash", "header_label": "Survivor"})
	win := findWindow(t, "Survivor — feedback")
	activate(t, win)
	typeText(t, "typed before the crash")
	time.Sleep(700 * time.Millisecond) // let the app save the draft
	old := appPID()
	if old == 0 {
		t.Fatal("no app answers on the socket")
	}
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	windowGone(t, "Survivor — feedback", 3*time.Second)
	win = findWindow(t, "Survivor — feedback")
	now := appPID()
	if now == 0 || now == old {
		t.Fatalf("the app was not restarted: pid %d, was %d", now, old)
	}
	activate(t, win)
	screenshot(t, "restart-reopened")
	key(t, "End") // after the restored draft (one line); the app leaves the cursor at its start
	typeText(t, " and after")
	key(t, "ctrl+Return")
	r := await(t, res)
	wantText(t, r, "User reply:\ntyped before the crash and after")
}
