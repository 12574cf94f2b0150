package launch

import (
	"context"
	"errors"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestDisplayError(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("DISPLAY and WAYLAND_DISPLAY matter on Linux and the BSDs")
	}
	// want: the error in the X11 build, then in the Wayland build.
	for _, tc := range []struct {
		name, display, wayland string
		x11Build, waylandBuild error
	}{
		{"X11", ":0", "", nil, ErrX11Only},
		{"Wayland with XWayland", ":0", "wayland-0", nil, nil},
		{"Wayland without XWayland", "", "wayland-0", ErrWaylandOnly, nil},
		{"none", "", "", ErrNoDisplay, ErrNoDisplay},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DISPLAY", tc.display)
			t.Setenv("WAYLAND_DISPLAY", tc.wayland)
			want := tc.x11Build
			if nativeWayland {
				want = tc.waylandBuild
			}
			err := DisplayError()
			if err != want {
				t.Fatalf("DisplayError() = %v, want %v", err, want)
			}
			if err != nil && !errors.Is(err, ErrNoDisplay) {
				t.Errorf("%v does not match ErrNoDisplay: callers would not fall back", err)
			}
			if HasDisplay() != (want == nil) {
				t.Errorf("HasDisplay() = %v with DisplayError %v", HasDisplay(), err)
			}
		})
	}
}

// On a Wayland session without XWayland the X11 build does not start an
// app that would crash: Connect fails at once, naming the Wayland build, and
// the error matches ErrNoDisplay so the shim falls back without waiting.
func TestConnectWaylandOnly(t *testing.T) {
	if runtime.GOOS != "linux" || nativeWayland {
		t.Skip("the X11 build on Linux")
	}
	t.Setenv("DISPLAY", "")
	t.Setenv("WAYLAND_DISPLAY", "wayland-0")
	t.Setenv("FEEDBACK_SOCKET", filepath.Join(t.TempDir(), "none.sock"))
	start := time.Now()
	_, err := Connect(context.Background())
	if !errors.Is(err, ErrNoDisplay) || !errors.Is(err, ErrWaylandOnly) {
		t.Fatalf("Connect = %v, want ErrWaylandOnly", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Connect took %v; want an immediate failure", d)
	}
	if want := "Wayland build"; !strings.Contains(err.Error(), want) {
		t.Errorf("the error %q does not name the %s", err, want)
	}
}
