//go:build !windows

package ipc

import (
	"errors"
	"net"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// The socket is never placed where another user could create its directory
// first: without XDG_RUNTIME_DIR it goes under the user's cache directory,
// not the shared temporary directory.
func TestSocketPath(t *testing.T) {
	long := "/" + strings.Repeat("x", 120) + "/feedback.sock"
	tests := []struct {
		name                         string
		socket, runtime, cache, home string
		want, wantErr                string
	}{
		{name: "override", socket: "/x/y.sock", runtime: "/run/user/1", want: "/x/y.sock"},
		{name: "runtime dir", runtime: "/run/user/1", want: "/run/user/1/feedback/feedback.sock"},
		{name: "relative runtime dir ignored", runtime: "run", cache: "/c", want: "/c/feedback/run/feedback.sock"},
		{name: "no runtime dir: the cache dir", cache: "/home/u/.cache", want: "/home/u/.cache/feedback/run/feedback.sock"},
		{name: "no runtime dir, no cache dir, no home", wantErr: "set XDG_RUNTIME_DIR"},
		{name: "too long for a socket address", socket: long, wantErr: "bytes long"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv(EnvSocket, tt.socket)
			t.Setenv("XDG_RUNTIME_DIR", tt.runtime)
			t.Setenv("XDG_CACHE_HOME", tt.cache)
			t.Setenv("HOME", tt.home)
			if runtime.GOOS != "linux" && tt.cache != "" && tt.socket == "" && !filepath.IsAbs(tt.runtime) {
				t.Skip("XDG_CACHE_HOME is the cache directory on Linux only")
			}
			got, err := SocketPath()
			switch {
			case tt.wantErr != "":
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Errorf("SocketPath() = %q, %v; want an error saying %q", got, err, tt.wantErr)
				}
			case err != nil || got != tt.want:
				t.Errorf("SocketPath() = %q, %v; want %q", got, err, tt.want)
			case strings.HasPrefix(got, os.TempDir()):
				t.Errorf("SocketPath() = %q: in the shared temporary directory", got)
			}
		})
	}
}

func TestListenPermissions(t *testing.T) {
	path := filepath.Join(filepath.Dir(socketPath(t)), "sub", "feedback.sock")
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	assertPerm(t, filepath.Dir(path), 0o700)
	assertPerm(t, path, 0o600)
}

func TestListenFixesOwnLooseDirectory(t *testing.T) {
	path := socketPath(t)
	if err := os.Chmod(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	assertPerm(t, filepath.Dir(path), 0o700)
}

// A socket put into a folder of the user's that holds other files (say
// FEEDBACK_SOCKET=$HOME/feedback.sock; as root, /feedback.sock made / 0700
// and nobody else could run a program) is refused with what to do, and the
// folder keeps its mode: only a folder of the socket's own is made private.
func TestListenLeavesASharedFolderAlone(t *testing.T) {
	dir := filepath.Dir(socketPath(t))
	if err := os.WriteFile(filepath.Join(dir, "notes.txt"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	l, err := Listen(filepath.Join(dir, "feedback.sock"))
	if err == nil {
		l.Close()
		t.Fatal("listened in a folder that holds other files, readable by others")
	}
	var ee *EndpointError
	if !errors.As(err, &ee) || !strings.Contains(err.Error(), "notes.txt") || !strings.Contains(err.Error(), "a directory of its own") {
		t.Errorf("err = %v, want an EndpointError naming the file and what to do", err)
	}
	assertPerm(t, dir, 0o755)
}

func TestListenRefusesDirectory(t *testing.T) {
	tests := []struct {
		name      string
		setup     func(t *testing.T, dir string)
		wantInErr string
	}{
		{"owned by another user", func(t *testing.T, dir string) {
			if os.Getuid() != 0 {
				t.Skip("needs root to chown")
			}
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Fatal(err)
			}
		}, "uid 65534"},
		{"shared", func(t *testing.T, dir string) {
			if err := os.Chmod(dir, 0o777|os.ModeSticky); err != nil {
				t.Fatal(err)
			}
		}, "shared"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := socketPath(t)
			dir := filepath.Dir(path)
			tt.setup(t, dir)
			before, _ := os.Stat(dir)
			l, err := Listen(path)
			if err == nil {
				l.Close()
				t.Fatal("Listen succeeded")
			}
			for _, want := range []string{dir, tt.wantInErr} {
				if !strings.Contains(err.Error(), want) {
					t.Errorf("error %q does not mention %q", err, want)
				}
			}
			after, _ := os.Stat(dir)
			if before.Mode() != after.Mode() {
				t.Errorf("mode changed from %v to %v", before.Mode(), after.Mode())
			}
			if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("socket created anyway: %v", err)
			}
		})
	}
}

func TestListenReplacesStaleSocket(t *testing.T) {
	path := socketPath(t)
	stale, err := net.ListenUnix("unix", &net.UnixAddr{Name: path, Net: "unix"})
	if err != nil {
		t.Fatal(err)
	}
	stale.SetUnlinkOnClose(false)
	stale.Close() // leaves the file, like a crashed app
	l, err := Listen(path)
	if err != nil {
		t.Fatalf("Listen over a stale socket: %v", err)
	}
	defer l.Close()
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatalf("dial the new socket: %v", err)
	}
	c.Close()
}

func TestListenAlreadyRunning(t *testing.T) {
	path := socketPath(t)
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	l2, err := Listen(path)
	if !errors.Is(err, ErrAlreadyRunning) {
		if l2 != nil {
			l2.Close()
		}
		t.Fatalf("second Listen: got %v, want ErrAlreadyRunning", err)
	}
}

func TestListenConcurrentlyOneWins(t *testing.T) {
	path := socketPath(t)
	const n = 8
	results := make(chan net.Listener, n)
	errs := make(chan error, n)
	for range n {
		go func() {
			l, err := Listen(path)
			if err != nil {
				errs <- err
				return
			}
			results <- l
		}()
	}
	var won []net.Listener
	for range n {
		select {
		case l := <-results:
			won = append(won, l)
		case err := <-errs:
			if !errors.Is(err, ErrAlreadyRunning) {
				t.Errorf("Listen: %v, want ErrAlreadyRunning", err)
			}
		}
	}
	for _, l := range won {
		l.Close()
	}
	if len(won) != 1 {
		t.Errorf("%d concurrent Listens succeeded, want 1", len(won))
	}
}

func TestListenRefusesNonSocket(t *testing.T) {
	path := socketPath(t)
	if err := os.WriteFile(path, []byte("keep me"), 0o600); err != nil {
		t.Fatal(err)
	}
	if l, err := Listen(path); err == nil {
		l.Close()
		t.Fatal("Listen replaced a regular file")
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "keep me" {
		t.Errorf("file changed: %q, %v", b, err)
	}
}

func TestCloseRemovesOnlyOwnSocket(t *testing.T) {
	path := socketPath(t)
	first, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("Close left the socket: %v", err)
	}

	old, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	os.Remove(path) // someone removed it, and a new app took the path
	successor, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer successor.Close()
	if err := old.Close(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(path); err != nil {
		t.Fatalf("closing the old listener removed its successor's socket: %v", err)
	}
}

func assertPerm(t *testing.T, path string, want os.FileMode) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if got := fi.Mode().Perm(); got != want {
		t.Errorf("%s: mode %v, want %v", path, got, want)
	}
}
