package e2e

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"feedback/internal/safefile/safefiletest"
	"feedback/ipc/wire"
)

// hostileConfig returns an XDG_CONFIG_HOME=… whose settings.json is made
// by mk (a FIFO, a link to /dev/zero).
func hostileConfig(t *testing.T, mk func(testing.TB, string)) string {
	t.Helper()
	config := filepath.Join(t.TempDir(), "config")
	path := filepath.Join(config, "feedback", "settings.json")
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	mk(t, path)
	return "XDG_CONFIG_HOME=" + config
}

// The shim answers initialize and tools/list at once with a FIFO or
// /dev/zero at the settings path (it used to block on the FIFO for ever, or
// read /dev/zero into gigabytes), and logs why the settings were ignored.
func TestShimWithHostileSettingsFile(t *testing.T) {
	requireBinary(t)
	for name, mk := range map[string]func(testing.TB, string){"fifo": safefiletest.Mkfifo, "dev-zero": safefiletest.LinkDevZero} {
		t.Run(name, func(t *testing.T) {
			start := time.Now()
			c := newMCP(t, "hostile-"+name, append(noGUIEnv(t), hostileConfig(t, mk))...) // fails the test when initialize does not answer in 10 s
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			tools, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil || len(tools.Tools) == 0 {
				t.Fatalf("tools/list: %v", err)
			}
			if d := time.Since(start); d > 5*time.Second {
				t.Errorf("initialize and tools/list took %v", d)
			}
		})
	}
}

// runQuick runs the binary with args and env added, and fails the test
// when it has not exited within 10 s.
func runQuick(t *testing.T, env []string, args ...string) (code int, out string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(os.Environ(), env...)
	var b bytes.Buffer
	cmd.Stdout, cmd.Stderr = &b, &b
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		cmd.Process.Kill()
		<-done
		t.Fatalf("feedback %s hangs; output: %s", strings.Join(args, " "), b.String())
	}
	return cmd.ProcessState.ExitCode(), b.String()
}

// FIFOs at a client's configuration, the settings and the database: setup,
// ask, history and doctor each say which file is wrong and exit at once.
func TestCommandsWithFIFOsExitAtOnce(t *testing.T) {
	requireBinary(t)
	home := t.TempDir()
	claude := filepath.Join(home, ".claude.json")
	db := filepath.Join(home, "feedback.db")
	safefiletest.Mkfifo(t, claude)
	safefiletest.Mkfifo(t, db)
	env := append(noGUIEnv(t), "HOME="+home, "FEEDBACK_DB="+db, hostileConfig(t, safefiletest.Mkfifo))
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"setup", "claude-code"}, claude + " is not a regular file"},
		{[]string{"history"}, db + " is not a regular file"},
		{[]string{"doctor"}, "settings.json is not a regular file"},
		{[]string{"ask", "--timeout", "86401", "hello"}, "timeout_seconds: at most 86400"},
	} {
		code, out := runQuick(t, env, tc.args...)
		if code == 0 || !strings.Contains(out, tc.want) {
			t.Errorf("feedback %s: exit %d, want non-zero and %q in:\n%s", strings.Join(tc.args, " "), code, tc.want, out)
		}
	}
}

// The app started with a link at the database path refuses it (persistence
// off, the log says why and names the path: for people, read once a
// question has been through the app) and leaves the link's target as it
// was: it used to make the target 0600 and move the link aside as corrupt.
func TestAppRefusesALinkedDatabase(t *testing.T) {
	requireSession(t)
	dir := t.TempDir()
	target := filepath.Join(dir, "someone-elses-file")
	if err := os.WriteFile(target, []byte("not a database\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	db := filepath.Join(dir, "feedback.db")
	if err := os.Symlink(target, db); err != nil {
		t.Fatal(err)
	}
	logPath := startApp(t, "FEEDBACK_DB="+db)
	// A question goes through the app: it looked for its draft in the
	// database it was given, so it has opened or refused it.
	q := choiceQuestion("LinkedDB")
	ch, _ := askApp(t, q)
	activate(t, findWindow(t, "LinkedDB — feedback"))
	key(t, "Escape")
	if r := awaitAsk(t, ch); r.err != nil || r.a.Status != wire.StatusDismissed {
		t.Fatalf("answer = %+v, %v", r.a, r.err)
	}
	if log, _ := os.ReadFile(logPath); !strings.Contains(string(log), db) || !strings.Contains(string(log), "is a symbolic link") {
		t.Errorf("the log does not say why:\n%s", log)
	}
	if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o644 {
		t.Errorf("the link's target: %v %v", fi.Mode().Perm(), err)
	}
	if data, _ := os.ReadFile(target); string(data) != "not a database\n" {
		t.Errorf("the link's target now holds %q", data)
	}
	if fi, err := os.Lstat(db); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was moved or replaced")
	}
	if moved, _ := filepath.Glob(db + ".corrupt-*"); len(moved) > 0 {
		t.Errorf("moved aside: %v", moved)
	}
	if appPID() == 0 {
		t.Error("the app does not run without its database")
	}
}
