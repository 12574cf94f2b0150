package e2e

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// askCmd runs `feedback ask args…` in the background.
type askRun struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	done           chan error
}

func startAsk(t *testing.T, args ...string) *askRun {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"ask"}, args...)...)
	cmd.Env = append(os.Environ(), env...)
	return startAskCmd(t, cmd)
}

// startAskCmd starts cmd, a `feedback ask` ready to run, in the background.
func startAskCmd(t *testing.T, cmd *exec.Cmd) *askRun {
	t.Helper()
	r := &askRun{cmd: cmd, done: make(chan error, 1)}
	r.cmd.Stdout, r.cmd.Stderr = &r.stdout, &r.stderr
	if err := r.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { r.cmd.Process.Kill() })
	go func() { r.done <- r.cmd.Wait() }()
	return r
}

// wait returns the exit code.
func (r *askRun) wait(t *testing.T) int {
	t.Helper()
	select {
	case err := <-r.done:
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			return exit.ExitCode()
		}
		if errors.Is(err, exec.ErrWaitDelay) {
			return 0 // exited 0; a child held its output past cmd.WaitDelay (wine's services)
		}
		if err != nil {
			t.Fatal(err)
		}
		return 0
	case <-time.After(30 * time.Second):
		t.Fatalf("feedback ask did not exit; stderr: %s", r.stderr.String())
		return -1
	}
}

func TestAskYesNo(t *testing.T) {
	requireSession(t)
	r := startAsk(t, "--yesno", "--title", "AskYes", "Proceed with the migration?")
	win := findWindow(t, "AskYes — feedback")
	activate(t, win)
	key(t, "alt+n")
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d, want 0; stderr: %s", code, r.stderr.String())
	}
	if got := r.stdout.String(); got != "no\n" {
		t.Errorf("stdout = %q, want \"no\\n\"", got)
	}
}

func TestAskOptionsJSON(t *testing.T) {
	requireSession(t)
	r := startAsk(t, "--json", "--multi", "--title", "AskJSON", "--option", "red", "--default", "green", "Pick colours")
	win := findWindow(t, "AskJSON — feedback")
	activate(t, win)
	key(t, "alt+1") // red; green is pre-checked as the default
	typeText(t, "both")
	key(t, "ctrl+Return")
	if code := r.wait(t); code != 0 {
		t.Fatalf("exit %d; stderr: %s", code, r.stderr.String())
	}
	out := r.stdout.String()
	for _, want := range []string{`"status": "answered"`, `"red"`, `"green"`, `"text": "both"`} {
		if !strings.Contains(out, want) {
			t.Errorf("JSON output lacks %s:\n%s", want, out)
		}
	}
}

// At zero the countdown ends the question as timed out: exit 2, nothing on
// stdout, never an answer.
func TestAskTimeout(t *testing.T) {
	requireSession(t)
	r := startAsk(t, "--timeout", "2", "--title", "AskTimeout", "Nobody will answer this")
	findWindow(t, "AskTimeout — feedback")
	if code := r.wait(t); code != 2 {
		t.Fatalf("exit %d, want 2", code)
	}
	if r.stdout.Len() != 0 {
		t.Errorf("stdout = %q, want nothing", r.stdout.String())
	}
	if !strings.Contains(r.stderr.String(), "countdown") {
		t.Errorf("stderr does not explain the timeout: %q", r.stderr.String())
	}
	windowGone(t, "AskTimeout — feedback", 2*time.Second)
}

func TestAskDismissExitCode(t *testing.T) {
	requireSession(t)
	r := startAsk(t, "--title", "AskDismiss", "Dismiss me")
	win := findWindow(t, "AskDismiss — feedback")
	activate(t, win)
	key(t, "Escape")
	if code := r.wait(t); code != 1 {
		t.Fatalf("exit %d, want 1", code)
	}
}

// Flags after the message are taken, as a user types them (`feedback ask
// "Deploy now?" --option yes` printed only the usage), and -h prints the
// usage on stdout and exits 0 (it exited 2).
func TestAskFlagsAfterTheMessage(t *testing.T) {
	requireSession(t)
	r := startAsk(t, "Deploy now?", "--option", "yes", "--title", "AskAfter")
	win := findWindow(t, "AskAfter — feedback")
	activate(t, win)
	key(t, "alt+1")
	key(t, "ctrl+Return")
	if code := r.wait(t); code != 0 || r.stdout.String() != "yes\n" {
		t.Fatalf("exit %d, stdout %q, want 0 and yes; stderr: %s", code, r.stdout.String(), r.stderr.String())
	}
	h := startAsk(t, "-h")
	if code := h.wait(t); code != 0 || !strings.Contains(h.stdout.String(), "usage: feedback ask") {
		t.Errorf("-h: exit %d, stdout %q; want 0 and the usage", code, h.stdout.String())
	}
}
