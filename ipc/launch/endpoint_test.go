//go:build unix

package launch

import (
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/ipc"
)

// A socket in a directory other users can reach is refused at once with the
// refusal itself: Connect neither starts the app nor waits for one, and does
// not send the user to the app's log.
func TestConnectRefusesUntrustedEndpoint(t *testing.T) {
	dir, err := os.MkdirTemp("", "fbl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	path := filepath.Join(dir, "s.sock")
	l, err := net.Listen("unix", path) // answers nothing: a client that talks to it waits
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if err := os.Chmod(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv(ipc.EnvSocket, path)
	saved := Starter
	Starter = func() error { t.Error("Connect started the app"); return nil }
	defer func() { Starter = saved }()

	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = Connect(ctx)
	if !errors.Is(err, ipc.ErrUntrustedEndpoint) {
		t.Fatalf("Connect = %v, want ErrUntrustedEndpoint", err)
	}
	if msg := err.Error(); !strings.Contains(msg, dir) || strings.Contains(msg, "log") {
		t.Errorf("the refusal %q should name %s and nothing else to look at", msg, dir)
	}
}

// connectAt neither starts the app nor waits for it at an untrusted
// endpoint: it returns the refusal at once, and ends its wait as soon as a
// started app turns out to be behind one.
func TestConnectAtRefusesUntrustedEndpoint(t *testing.T) {
	untrusted := func(t *testing.T, path string) {
		l, err := net.Listen("unix", path) // answers nothing
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { l.Close() })
		if err := os.Chmod(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	t.Run("before starting", func(t *testing.T) {
		path := socketPath(t)
		untrusted(t, path)
		start := func() error { t.Error("start called for an untrusted endpoint"); return nil }
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if _, err := connectAt(ctx, path, start, time.Minute); !errors.Is(err, ipc.ErrUntrustedEndpoint) {
			t.Fatalf("connectAt = %v, want ErrUntrustedEndpoint", err)
		}
	})
	t.Run("while waiting", func(t *testing.T) {
		path := socketPath(t)
		start := func() error { untrusted(t, path); return nil }
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		begin := time.Now()
		if _, err := connectAt(ctx, path, start, time.Minute); !errors.Is(err, ipc.ErrUntrustedEndpoint) {
			t.Fatalf("connectAt = %v, want ErrUntrustedEndpoint", err)
		}
		if d := time.Since(begin); d > 4*time.Second {
			t.Errorf("connectAt waited %v for an untrusted endpoint", d)
		}
	})
}
