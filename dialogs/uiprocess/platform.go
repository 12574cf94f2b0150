package uiprocess

import (
	"os"

	"feedback/internal/display"
)

// keepX11 keeps Fyne's GLFW on the X server in every build but the Wayland
// one. From Fyne 2.8 a build with neither the x11 nor the wayland tag (a
// plain go build; the Makefile's builds say -tags=x11) links GLFW's X11
// and Wayland both and, on a Wayland session, picks Wayland at run time
// unless FYNE_PLATFORM says x11: the windows would then have no X11 window,
// and what dialogs/internal/native does with one (placement, focus,
// urgency, the key guard, the X error handler) would do nothing. This
// build is the X11 one (display.NativeWayland is false), which a Wayland
// session runs through XWayland, as display.EnvError has checked. A build
// with the x11 tag reads no FYNE_PLATFORM. Call it before Fyne's app is
// made.
func keepX11() {
	if !display.NativeWayland {
		os.Setenv("FYNE_PLATFORM", "x11")
	}
}
