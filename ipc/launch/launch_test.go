package launch

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"feedback/internal/display"
)

func TestLogPath(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("the XDG places are for Linux and the BSDs; userdirs tests the others")
	}
	t.Setenv("XDG_STATE_HOME", "/state")
	if got := LogPath(); got != filepath.Join("/state", "feedback", "app.log") {
		t.Errorf("LogPath = %q", got)
	}
	t.Setenv("XDG_STATE_HOME", "")
	t.Setenv("HOME", "/home/u")
	if got := LogPath(); got != "/home/u/.local/state/feedback/app.log" {
		t.Errorf("LogPath = %q", got)
	}
}

// Without a display Connect fails at once with display.ErrNone instead of
// starting an app that cannot show anything and waiting for it.
func TestConnectWithoutDisplay(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("Linux only")
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("FEEDBACK_SOCKET", filepath.Join(t.TempDir(), "s.sock"))
	_, err := Connect(context.Background())
	if !errors.Is(err, display.ErrNone) {
		t.Fatalf("Connect = %v, want display.ErrNone", err)
	}
}

// Without a Starter (the headless build) Connect fails at once when no app
// answers, instead of waiting for one it cannot start.
func TestConnectWithoutStarter(t *testing.T) {
	t.Setenv("FEEDBACK_SOCKET", filepath.Join(t.TempDir(), "s.sock"))
	saved := Starter
	Starter = nil
	defer func() { Starter = saved }()
	start := time.Now()
	_, err := Connect(context.Background())
	if !errors.Is(err, ErrNotRunning) {
		t.Fatalf("Connect = %v, want ErrNotRunning", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

// A machine that cannot start the app (headless build, or no display with
// FEEDBACK_SOCKET set: an SSH host) fails at once with a message that
// points at the desktop and its forward, not at a log file that only
// exists on the desktop.
func TestConnectRemoteSaysWhereTheAppIs(t *testing.T) {
	sock := filepath.Join(t.TempDir(), "feedback.sock")
	t.Setenv("FEEDBACK_SOCKET", sock)
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "")
	for _, tc := range []struct {
		name    string
		starter func() error
		want    error
	}{
		{"headless build", nil, ErrNotRunning},
		{"no display", Start, display.ErrNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.want == display.ErrNone && runtime.GOOS != "linux" {
				t.Skip("Linux only")
			}
			saved := Starter
			Starter = tc.starter
			defer func() { Starter = saved }()
			_, err := Connect(context.Background())
			if !errors.Is(err, tc.want) {
				t.Fatalf("Connect = %v, want %v", err, tc.want)
			}
			msg := err.Error()
			if !strings.Contains(msg, sock) || !strings.Contains(msg, "RemoteForward") || !strings.Contains(msg, "on the desktop") {
				t.Errorf("message does not point at the desktop's forward: %s", msg)
			}
			if strings.Contains(msg, "app.log") || strings.Contains(msg, "start the feedback app first") {
				t.Errorf("message sends the user to this machine's app or log: %s", msg)
			}
		})
	}
}

// A failure names the app's log only when there is one to read.
func TestWithLogNamesOnlyALogThatExists(t *testing.T) {
	cause := errors.New("nothing answered")
	missing := filepath.Join(t.TempDir(), "app.log")
	if err := withLog(cause, missing); err.Error() != cause.Error() {
		t.Errorf("with no log: %q, want %q", err, cause)
	}
	if err := os.WriteFile(missing, []byte("x"), 0o600); err != nil {
		t.Fatal(err)
	}
	err := withLog(cause, missing)
	if !strings.Contains(err.Error(), missing) || !errors.Is(err, cause) {
		t.Errorf("with a log: %q, want it named and the cause kept", err)
	}
}

// Beside finds a regular file next to an executable, through a symbolic
// link to that executable (/usr/local/bin/feedback → /opt/feedback/feedback),
// and nothing else.
func TestBeside(t *testing.T) {
	dir := t.TempDir()
	app := filepath.Join(dir, "opt", AppName)
	os.MkdirAll(filepath.Join(dir, "opt", "sub"), 0o755)
	os.WriteFile(app, []byte("app"), 0o755)
	link := filepath.Join(dir, AppName)
	if err := os.Symlink(app, link); err != nil {
		t.Skip(err)
	}
	if got := Beside(link, ShimName); got != "" {
		t.Errorf("no shim yet: Beside = %q", got)
	}
	os.WriteFile(filepath.Join(dir, "opt", ShimName), []byte("shim"), 0o755)
	if got, want := Beside(link, ShimName), filepath.Join(dir, "opt", ShimName); got != want {
		t.Errorf("Beside = %q, want %q", got, want)
	}
	if got := Beside(app, "sub"); got != "" {
		t.Errorf("a directory: Beside = %q", got)
	}
}
