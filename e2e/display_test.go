package e2e

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// DISPLAY naming an X server that is gone: the app exits at once saying
// so (before GLFW, which would panic), and `feedback ask` does not wait
// 15 s for an app that cannot start.
func TestDeadDisplayFailsAtOnce(t *testing.T) {
	requireSession(t)
	dir, err := os.MkdirTemp("", "fbdead") // short: socket paths are limited
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	deadEnv := append(append(os.Environ(), env...),
		"DISPLAY=:4093", "WAYLAND_DISPLAY=", "FEEDBACK_SOCKET="+filepath.Join(dir, "feedback.sock"),
		"XDG_STATE_HOME="+filepath.Join(dir, "state"))
	for _, tc := range []struct {
		name string
		args []string
	}{{"app", nil}, {"ask", []string{"ask", "--yesno", "Still there?"}}} {
		t.Run(tc.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			cmd := exec.CommandContext(ctx, bin, tc.args...)
			cmd.Env = deadEnv
			start := time.Now()
			out, err := cmd.CombinedOutput()
			took := time.Since(start)
			if err == nil {
				t.Fatalf("exited 0:\n%s", out)
			}
			if took > 5*time.Second {
				t.Errorf("took %v to give up", took)
			}
			if !strings.Contains(string(out), "no X server answers") || !strings.Contains(string(out), ":4093") {
				t.Errorf("the message does not say what is wrong:\n%s", out)
			}
			if strings.Contains(string(out), "panic") {
				t.Errorf("panicked:\n%s", out)
			}
			t.Logf("%v after %v: %s", err, took.Round(time.Millisecond), lastLine(string(out)))
		})
	}
}

func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return lines[len(lines)-1]
}
