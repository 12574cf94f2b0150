package launch

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"feedback/internal/display"
)

// On a Wayland session without XWayland the X11 build does not start an
// app that would crash: Connect fails at once, naming the Wayland build, and
// the error matches display.ErrNone so the shim falls back without waiting.
func TestConnectWaylandOnly(t *testing.T) {
	if runtime.GOOS != "linux" || display.NativeWayland {
		t.Skip("the X11 build on Linux")
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "wayland-0")
	t.Setenv("FEEDBACK_SOCKET", filepath.Join(t.TempDir(), "none.sock"))
	start := time.Now()
	_, err := Connect(context.Background())
	if !errors.Is(err, display.ErrNone) || !errors.Is(err, display.ErrWaylandOnly) {
		t.Fatalf("Connect = %v, want display.ErrWaylandOnly", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Connect took %v; want an immediate failure", d)
	}
	if want := "Wayland build"; !strings.Contains(err.Error(), want) {
		t.Errorf("the error %q does not name the %s", err, want)
	}
}

// With DISPLAY naming a dead server, Connect fails at once with
// display.ErrNone instead of starting an app that panics and waiting 15 s.
func TestConnectWithADeadDisplay(t *testing.T) {
	if runtime.GOOS != "linux" || display.NativeWayland {
		t.Skip("the X11 build on Linux")
	}
	t.Setenv("DISPLAY", ":4093")
	t.Setenv("WAYLAND_DISPLAY", "")
	t.Setenv("FEEDBACK_SOCKET", filepath.Join(t.TempDir(), "s.sock"))
	start := time.Now()
	_, err := Connect(t.Context())
	if !errors.Is(err, display.ErrNone) || !errors.Is(err, display.ErrDead) {
		t.Fatalf("Connect = %v, want display.ErrDead", err)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
}
