package e2e

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// hookRun is a hook command started with its standard input a pipe the
// test holds open.
type hookRun struct {
	cmd            *exec.Cmd
	stdin          io.WriteCloser
	stdout, stderr bytes.Buffer
	done           chan error
}

// startHook starts bin with args, standard input a pipe left open.
func startHook(t *testing.T, args ...string) *hookRun {
	t.Helper()
	h := &hookRun{cmd: exec.Command(bin, args...), done: make(chan error, 1)}
	h.cmd.Env = append(os.Environ(), env...)
	h.cmd.Stdout, h.cmd.Stderr = &h.stdout, &h.stderr
	var err error
	if h.stdin, err = h.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	if err := h.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		h.cmd.Process.Kill()
		h.stdin.Close()
	})
	go func() { h.done <- h.cmd.Wait() }()
	return h
}

// exitWithin waits at most d for the hook to exit and returns how long it
// took from since.
func (h *hookRun) exitWithin(t *testing.T, since time.Time, d time.Duration) time.Duration {
	t.Helper()
	select {
	case err := <-h.done:
		if err != nil {
			t.Errorf("%v: %v (stderr %q)", h.cmd.Args[1:], err, h.stderr.String())
		}
		return time.Since(since)
	case <-time.After(d):
		t.Fatalf("%v still runs after %v (stderr so far %q)", h.cmd.Args[1:], d, h.stderr.String())
	}
	return 0
}

// readingStdin waits until one of pid's threads is blocked reading its
// standard input (Linux: read(2), syscall 0 on amd64, on fd 0), which
// comes after the command has set up its signal handling.
func readingStdin(t *testing.T, pid int) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		tasks, _ := filepath.Glob(filepath.Join("/proc", strconv.Itoa(pid), "task", "*", "syscall"))
		for _, f := range tasks {
			if b, err := os.ReadFile(f); err == nil && strings.HasPrefix(string(b), "0 0x0 ") {
				return
			}
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("process %d never read its standard input", pid)
}

// A client may leave the hook's standard input open. The hook still ends:
// at once when the event is whole, within a couple of seconds when
// nothing (or half an event) comes. Before, notify --from and approve
// waited until killed.
func TestHookStdinLeftOpen(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	for _, tc := range []struct {
		name  string
		args  []string
		event string
		max   time.Duration
	}{
		{"notify, a whole event", []string{"notify", "--from", "claude-code"}, `{"hook_event_name":"Stop","cwd":"/tmp/shop","last_assistant_message":"open stdin"}` + "\n", 2 * time.Second},
		{"notify, nothing", []string{"notify", "--from", "gemini"}, "", 4 * time.Second},
		{"notify, half an event", []string{"notify", "--from", "cursor"}, `{"hook_event_name":`, 4 * time.Second},
		{"approve, nothing", []string{"approve", "--from", "claude-code"}, "", 4 * time.Second},
		{"approve, half an event", []string{"approve", "--from", "claude-code"}, `{"hook_event_name":"PermissionRequest","tool_name":`, 4 * time.Second},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			h := startHook(t, tc.args...)
			if tc.event != "" {
				if _, err := io.WriteString(h.stdin, tc.event); err != nil {
					t.Fatal(err)
				}
			}
			took := h.exitWithin(t, start, 10*time.Second)
			if took > tc.max {
				t.Errorf("exited after %v, want at most %v", took, tc.max)
			}
			t.Logf("exited after %v; stdout %q, stderr %q", took.Round(time.Millisecond), h.stdout.String(), h.stderr.String())
			if tc.args[0] == "approve" && h.stdout.Len() > 0 {
				t.Errorf("approve decided on no event: %q", h.stdout.String())
			}
		})
	}
}

// SIGTERM ends a hook at once, although it is blocked reading an open,
// silent standard input (`timeout 30 feedback notify --from …` could not
// stop it).
func TestHookEndsOnSIGTERM(t *testing.T) {
	requireSession(t)
	for _, args := range [][]string{{"notify", "--from", "claude-code"}, {"approve", "--from", "claude-code"}} {
		t.Run(args[0], func(t *testing.T) {
			h := startHook(t, args...)
			readingStdin(t, h.cmd.Process.Pid)
			sent := time.Now()
			h.cmd.Process.Signal(syscall.SIGTERM)
			if took := h.exitWithin(t, sent, 10*time.Second); took > 700*time.Millisecond {
				t.Errorf("exited %v after SIGTERM, want promptly (a second SIGTERM was not needed)", took)
			}
			if args[0] == "approve" && h.stdout.Len() > 0 {
				t.Errorf("approve decided when stopped: %q", h.stdout.String())
			}
		})
	}
}

// An app that accepts connections but does not answer (stopped by
// SIGSTOP) does not hold the agent: notify --from gives up within a
// couple of seconds (it took 20 s), and approve prints nothing (Claude
// Code then asks itself) as quickly.
func TestHookGivesUpOnAStoppedApp(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	pid := appPID()
	if pid == 0 {
		t.Fatal("no app")
	}
	if err := syscall.Kill(pid, syscall.SIGSTOP); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { syscall.Kill(pid, syscall.SIGCONT) })
	for _, tc := range []struct {
		args  []string
		event string
	}{
		{[]string{"notify", "--from", "claude-code"}, `{"hook_event_name":"Stop","cwd":"/tmp/shop","last_assistant_message":"app stopped"}`},
		{[]string{"approve", "--from", "claude-code"}, `{"hook_event_name":"PermissionRequest","cwd":"/tmp/shop","tool_name":"Bash","tool_input":{"command":"ls"}}`},
	} {
		t.Run(tc.args[0], func(t *testing.T) {
			start := time.Now()
			h := startHook(t, tc.args...)
			io.WriteString(h.stdin, tc.event)
			h.stdin.Close()
			took := h.exitWithin(t, start, 30*time.Second)
			if took > 3500*time.Millisecond {
				t.Errorf("with the app stopped, %v took %v; want about 2 s", tc.args, took)
			}
			if !strings.Contains(h.stderr.String(), "did not answer") {
				t.Errorf("stderr %q does not say the app did not answer", h.stderr.String())
			}
			if tc.args[0] == "approve" && h.stdout.Len() > 0 {
				t.Errorf("approve decided with the app stopped: %q", h.stdout.String())
			}
			t.Logf("%v: %v; stderr %q", tc.args, took.Round(time.Millisecond), h.stderr.String())
		})
	}
}

// `feedback notify` under 40 client names in a row shows at most the
// total the app allows from all clients together (10, then one every
// 3 s); before, each name had its own 5 and all 40 were shown.
func TestNotifyManyClientNames(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	start := time.Now()
	shown, notShown := 0, 0
	for i := range 40 {
		cmd := exec.Command(bin, "notify", "--client", "agent-"+strconv.Itoa(i), "--title", "Finished", "turn "+strconv.Itoa(i))
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		switch {
		case err == nil:
			shown++
		case errors.As(err, &exit) && exit.ExitCode() == 1:
			notShown++
		default:
			t.Fatalf("notify %d: %v: %s", i, err, out)
		}
	}
	allowed := 10 + int(time.Since(start)/(3*time.Second)) + 1
	if shown > allowed || notShown == 0 {
		t.Errorf("40 client names in %v: %d shown, %d not; want at most %d shown", time.Since(start).Round(time.Millisecond), shown, notShown, allowed)
	}
	t.Logf("40 client names in %v: %d shown, %d not shown", time.Since(start).Round(time.Millisecond), shown, notShown)
}

// A title with markup reaches the real notification server inert: dunst
// gets the look-alikes ‹ › ＆ (it would show entities such as &lt; as
// typed, since it escapes the summary itself; a server that parses the
// summary's markup would render tags), and shows them as text.
func TestNotifyTitleInert(t *testing.T) {
	requireSession(t)
	startDunst(t)
	ensureApp(t)
	dunstctl(t, "close-all")
	// Another test may have used up what the app shows from all clients
	// (exit 1, "not shown"): one more is shown within AllMessagesEvery.
	for deadline := time.Now().Add(15 * time.Second); ; time.Sleep(250 * time.Millisecond) {
		cmd := exec.Command(bin, "notify", "--client", "title-test", "--title", `<b>Done</b> & <a href="https://x.test">open</a>`, "the body")
		cmd.Env = append(os.Environ(), env...)
		out, err := cmd.CombinedOutput()
		var exit *exec.ExitError
		if err == nil {
			break
		}
		if !errors.As(err, &exit) || exit.ExitCode() != 1 || time.Now().After(deadline) {
			t.Fatalf("notify: %v: %s", err, out)
		}
	}
	waitDisplayed(t, 1)
	screenshot(t, "notify-title-inert")
	dunstctl(t, "close-all")
	want := `‹b›Done‹/b› ＆ ‹a href="https://x.test"›open‹/a›`
	for _, h := range history(t) {
		if strings.Contains(h.Body, "the body") {
			if !strings.Contains(h.Summary, want) {
				t.Errorf("dunst got the summary %q, want it to hold %q", h.Summary, want)
			}
			return
		}
	}
	t.Fatalf("the notification is not in dunst's history: %v", history(t))
}
