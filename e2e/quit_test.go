package e2e

import (
	"os"
	"strings"
	"syscall"
	"testing"
	"time"
)

// Quitting with windows open (countdowns ticking, a draft being typed)
// leaves no "Error in Fyne call thread" in the log: no ticker, draft timer
// or attachment calls into Fyne after its loop has ended (issues 13, 14).
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
