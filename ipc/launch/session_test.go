//go:build unix

package launch

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"feedback/internal/display"
)

// TestMain gives the tests a home of their own: StartExe reads the session
// record under HOME, and a record of the developer's desktop must not make
// a test start the test binary there.
func TestMain(m *testing.M) {
	home, err := os.MkdirTemp("", "fbhome")
	if err != nil {
		panic(err)
	}
	os.Setenv("HOME", home)
	code := m.Run()
	os.RemoveAll(home)
	os.Exit(code)
}

// minimalEnv gives the test process the environment the TypeScript SDK's
// stdio transport gives a server: HOME (here a fresh one) and no
// XDG_RUNTIME_DIR, FEEDBACK_SOCKET, DISPLAY or WAYLAND_DISPLAY.
func minimalEnv(t *testing.T) (home string) {
	t.Helper()
	home = t.TempDir()
	t.Setenv("HOME", home)
	for _, k := range []string{"XDG_RUNTIME_DIR", "FEEDBACK_SOCKET", "DISPLAY", "WAYLAND_DISPLAY", "XDG_CACHE_HOME"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	return home
}

// The app records where it listens and its session; a process with only
// HOME reads it back and tries that socket after its own.
func TestSessionRecordedAndFound(t *testing.T) {
	minimalEnv(t)
	t.Setenv("DISPLAY", ":7")
	t.Setenv("LANG", "zh_CN.UTF-8")
	if err := RecordSession("/run/elsewhere/feedback/feedback.sock"); err != nil {
		t.Fatal(err)
	}
	os.Unsetenv("DISPLAY")
	path := SessionPath()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o600 {
		t.Errorf("the record's mode is %v, want 0600", fi.Mode().Perm())
	}
	s, err := readSession(path)
	if err != nil {
		t.Fatal(err)
	}
	if s.Socket != "/run/elsewhere/feedback/feedback.sock" || s.Env["DISPLAY"] != ":7" || s.Env["LANG"] != "zh_CN.UTF-8" {
		t.Errorf("read back %+v", s)
	}
	got := SocketCandidates("/home/u/.cache/feedback/run/feedback.sock")
	if len(got) < 2 || got[0] != "/home/u/.cache/feedback/run/feedback.sock" || got[1] != "/run/elsewhere/feedback/feedback.sock" {
		t.Errorf("SocketCandidates = %q, want this environment's socket, then the recorded one", got)
	}

	// An environment that names its socket place uses that alone.
	t.Setenv("XDG_RUNTIME_DIR", "/run/user/4242")
	if got := SocketCandidates("/run/user/4242/feedback/feedback.sock"); len(got) != 1 {
		t.Errorf("with XDG_RUNTIME_DIR, SocketCandidates = %q, want the one socket", got)
	}
}

// A record that someone else could have written is not believed: it says
// where questions go and which display and session bus a started app uses.
func TestSessionRecordTrust(t *testing.T) {
	write := func(t *testing.T) string {
		t.Helper()
		minimalEnv(t)
		if err := RecordSession("/x/feedback.sock"); err != nil {
			t.Fatal(err)
		}
		return SessionPath()
	}
	tests := []struct {
		name  string
		spoil func(t *testing.T, path string)
		want  string
	}{
		{"a link", func(t *testing.T, path string) {
			real := filepath.Join(t.TempDir(), "other.json")
			os.WriteFile(real, []byte(`{"socket":"/evil.sock"}`), 0o600)
			os.Remove(path)
			if err := os.Symlink(real, path); err != nil {
				t.Fatal(err)
			}
		}, "symbolic link"},
		{"writable by others", func(t *testing.T, path string) { os.Chmod(path, 0o622) }, "written by others"},
		{"in a shared directory", func(t *testing.T, path string) { os.Chmod(filepath.Dir(path), 0o777) }, "written by others"},
		{"another user's", func(t *testing.T, path string) {
			if os.Getuid() != 0 {
				t.Skip("only root can give a file away")
			}
			if err := os.Chown(path, 4242, 4242); err != nil {
				t.Fatal(err)
			}
		}, "owned by uid 4242"},
		{"a FIFO", func(t *testing.T, path string) {
			os.Remove(path)
			if err := mkfifo(path); err != nil {
				t.Skip(err)
			}
		}, "not a regular file"},
		{"huge", func(t *testing.T, path string) {
			os.WriteFile(path, []byte(`{"socket":"`+strings.Repeat("x", maxSessionBytes)+`"}`), 0o600)
		}, "larger than"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := write(t)
			tt.spoil(t, path)
			_, err := readSession(path)
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("readSession = %v, want an error saying %q", err, tt.want)
			}
			if got := SocketCandidates("/primary.sock"); slices.Contains(got, "/x/feedback.sock") || slices.Contains(got, "/evil.sock") {
				t.Errorf("SocketCandidates = %q trusts the spoilt record", got)
			}
		})
	}
}

// With no app at its own socket, Connect's search finds the app at the
// recorded one and starts nothing.
func TestConnectFindsTheRecordedSocket(t *testing.T) {
	appSocket := socketPath(t)
	serve(t, appSocket)
	minimalEnv(t)
	if err := RecordSession(appSocket); err != nil {
		t.Fatal(err)
	}
	primary := filepath.Join(t.TempDir(), "nothing.sock")
	start := func() error { t.Error("started an app although one runs at the recorded socket"); return nil }
	c, err := connectAny(context.Background(), SocketCandidates(primary), start, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != appSocket {
		t.Errorf("connected at %s, want the recorded %s", c.Path, appSocket)
	}
}

// Nothing answers anywhere: the error names every socket tried.
func TestConnectNamesEverySocketTried(t *testing.T) {
	minimalEnv(t)
	recorded := filepath.Join(t.TempDir(), "gone.sock")
	if err := RecordSession(recorded); err != nil {
		t.Fatal(err)
	}
	primary := filepath.Join(t.TempDir(), "nothing.sock")
	_, err := connectAny(context.Background(), SocketCandidates(primary), nil, time.Second)
	if !errors.Is(err, ErrNotRunning) || !strings.Contains(err.Error(), primary) || !strings.Contains(err.Error(), recorded) {
		t.Fatalf("connectAny = %v, want ErrNotRunning naming %s and %s", err, primary, recorded)
	}
}

// A process whose environment has no display starts the app on the
// session the app recorded, when that session's X server answers: with
// its DISPLAY, runtime directory and bus; a dead one is not used.
func TestStartOnTheRecordedSession(t *testing.T) {
	runtimeDir := shortDir(t)
	// A stand-in X server: DISPLAY may name a socket path ending in :N.
	// The Wayland build's display is the compositor's socket instead,
	// named relative to the runtime directory.
	xsock := filepath.Join(shortDir(t), "X") + ":0"
	displayVar, displayValue, sock := "DISPLAY", xsock, xsock
	if display.NativeWayland {
		displayVar, displayValue, sock = "WAYLAND_DISPLAY", "wayland-fb", filepath.Join(runtimeDir, "wayland-fb")
	}
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	home := minimalEnv(t)
	t.Setenv(displayVar, displayValue)
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/run/bus-of-the-session")
	if err := RecordSession(filepath.Join(runtimeDir, "feedback", "feedback.sock")); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{displayVar, "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS"} {
		os.Unsetenv(k)
	}

	out := filepath.Join(home, "env.txt")
	exe := filepath.Join(home, "fake-app")
	os.WriteFile(exe, []byte("#!/bin/sh\nenv > "+out+".tmp && mv "+out+".tmp "+out+"\n"), 0o700)
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	if err := StartExe(exe); err != nil {
		t.Fatal(err)
	}
	var got string
	for deadline := time.Now().Add(10 * time.Second); got == ""; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the app was not started")
		}
		b, _ := os.ReadFile(out)
		got = string(b)
	}
	for _, want := range []string{displayVar + "=" + displayValue + "\n", "XDG_RUNTIME_DIR=" + runtimeDir + "\n", "DBUS_SESSION_BUS_ADDRESS=unix:path=/run/bus-of-the-session\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("the started app's environment lacks %q:\n%s", want, got)
		}
	}

	// The session's X server (or compositor) is gone: nothing is
	// started, and the error says why.
	l.Close()
	os.Remove(out)
	err = StartExe(exe)
	if !errors.Is(err, display.ErrNone) || !strings.Contains(err.Error(), "is gone") {
		t.Fatalf("StartExe with the session gone = %v, want display.ErrNone saying the session is gone", err)
	}
}

// shortDir is a fresh private directory with a path short enough for a
// Unix socket.
func shortDir(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "fbs")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return dir
}

func mkfifo(path string) error { return syscall.Mkfifo(path, 0o600) }

// A record whose socket is stale while the app runs in the record's own
// runtime directory (a record left by another run, or written by hand):
// Connect finds the app there, starts nothing, and does not wait.
func TestConnectFindsTheAppOfAStaleRecordsSession(t *testing.T) {
	runtimeDir := shortDir(t)
	appSocket := filepath.Join(runtimeDir, "feedback", "feedback.sock")
	os.MkdirAll(filepath.Dir(appSocket), 0o700)
	serve(t, appSocket)
	minimalEnv(t)
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
	if err := RecordSession(filepath.Join(shortDir(t), "stale.sock")); err != nil {
		t.Fatal(err)
	}
	os.Unsetenv("XDG_RUNTIME_DIR")
	primary := filepath.Join(t.TempDir(), "nothing.sock")
	start := func() error { t.Error("started an app although one runs in the recorded session"); return nil }
	begin := time.Now()
	c, err := connectAny(context.Background(), SocketCandidates(primary), start, 15*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if c.Path != appSocket {
		t.Errorf("connected at %s, want %s", c.Path, appSocket)
	}
	if d := time.Since(begin); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}

// The record stands in for a display the environment does not name, never
// for one it names that is dead: with DISPLAY naming a gone X server, the
// app is not started on the recorded (live) session, and the error names
// the dead display.
func TestDeadDisplayIsNotTheRecordedOne(t *testing.T) {
	if display.NativeWayland {
		t.Skip("the X11 build")
	}
	runtimeDir := shortDir(t)
	xsock := filepath.Join(shortDir(t), "X") + ":0"
	l, err := net.Listen("unix", xsock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	home := minimalEnv(t)
	t.Setenv("DISPLAY", xsock)
	t.Setenv("XDG_RUNTIME_DIR", runtimeDir)
	if err := RecordSession(filepath.Join(runtimeDir, "feedback", "feedback.sock")); err != nil {
		t.Fatal(err)
	}
	os.Unsetenv("XDG_RUNTIME_DIR")
	t.Setenv("DISPLAY", filepath.Join(shortDir(t), "gone")+":0")

	// StartExe returns nil once it has started the app (detached): an
	// error is nothing started.
	t.Setenv("XDG_STATE_HOME", filepath.Join(home, "state"))
	if err := StartExe(filepath.Join(home, "no-app")); !errors.Is(err, display.ErrDead) {
		t.Fatalf("StartExe with a dead DISPLAY = %v, want display.ErrDead and nothing started", err)
	}
}
