package display

import (
	"errors"
	"runtime"
	"testing"
)

func TestEnvError(t *testing.T) {
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
		{"none", "", "", ErrNone, ErrNone},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DISPLAY", tc.display)
			t.Setenv("WAYLAND_DISPLAY", tc.wayland)
			want := tc.x11Build
			if NativeWayland {
				want = tc.waylandBuild
			}
			err := EnvError()
			if err != want {
				t.Fatalf("EnvError() = %v, want %v", err, want)
			}
			if err != nil && !errors.Is(err, ErrNone) {
				t.Errorf("%v does not match ErrNone: callers would not fall back", err)
			}
			if Available() != (want == nil) {
				t.Errorf("Available() = %v with EnvError %v", Available(), err)
			}
		})
	}
}

func TestAvailable(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the display variables only matter on Linux and the BSDs")
	}
	for _, tc := range []struct {
		display, wayland string
		want             bool
	}{{"", "", false}, {":0", "", !NativeWayland}, {"", "wayland-0", NativeWayland}} { // more in TestEnvError
		t.Setenv("DISPLAY", tc.display)
		t.Setenv("WAYLAND_DISPLAY", tc.wayland)
		if got := Available(); got != tc.want {
			t.Errorf("DISPLAY=%q WAYLAND_DISPLAY=%q: Available = %v", tc.display, tc.wayland, got)
		}
	}
}
