package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Quitting with windows open (countdowns ticking, a draft being typed)
// leaves no "Error in Fyne call thread" in the log: no ticker, draft timer
// or attachment calls into Fyne after its loop has ended.
func TestQuitWithWindowsOpenIsClean(t *testing.T) {
	requireSession(t)
	logPath := startApp(t)
	pid := appPID()
	var titles []string
	for _, title := range []string{"QuitA", "QuitB", "QuitC", "QuitD"} {
		q := textQuestion(title)
		q.TimeoutSeconds = 60
		askApp(t, q)
		titles = append(titles, title)
	}
	var last string
	for _, title := range titles {
		last = findWindow(t, title+" — feedback")
	}
	activate(t, last)
	typeText(t, "typing when the app quits")
	start := time.Now()
	syscall.Kill(pid, syscall.SIGTERM)
	for deadline := time.Now().Add(15 * time.Second); syscall.Kill(pid, 0) == nil; time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the app did not quit on SIGTERM within 15 s")
		}
	}
	t.Logf("the app quit %v after SIGTERM", time.Since(start).Round(time.Millisecond))
	data, _ := os.ReadFile(logPath)
	for _, bad := range []string{"Error in Fyne call thread", "panic:"} {
		if strings.Contains(string(data), bad) {
			t.Fatalf("the log has %q after quitting:\n%s", bad, data)
		}
	}
}

// feedback quit ends this user's app as the tray's Quit does: the agent
// waiting on an open question is told the user quit (not a dropped
// connection, after which its shim would start the app again); the
// command waits until the app is gone and says what ended; run again, it
// says the app is not running and succeeds.
func TestQuitCommand(t *testing.T) {
	requireSession(t)
	startApp(t)
	pid := appPID()
	c := newMCP(t, "quitter")
	res := call(c, "interactive_feedback", map[string]any{"message": "Still there?", "header_label": "QuitCmd"})
	findWindow(t, "QuitCmd — feedback")
	quit := func() (string, error) {
		cmd := exec.Command(bin, "quit")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		return string(out), err
	}
	out, err := quit()
	if err != nil || !strings.Contains(out, fmt.Sprintf("feedback (pid %d) has quit; its open question ended as dismissed by you", pid)) {
		t.Fatalf("feedback quit: %v\n%s", err, out)
	}
	if syscall.Kill(pid, 0) == nil {
		t.Errorf("the app (pid %d) still runs after feedback quit returned", pid)
	}
	r := await(t, res)
	if sc := structured(t, r); sc["status"] != "dismissed" || !strings.Contains(text(r), "quit the feedback app") {
		t.Errorf("the agent was told %q (%v)", text(r), sc)
	}
	if out, err := quit(); err != nil || strings.TrimSpace(out) != "feedback is not running." {
		t.Errorf("feedback quit with no app: %v\n%s", err, out)
	}
}
