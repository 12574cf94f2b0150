// Package display says whether this binary can show windows here, before
// any GUI code runs: which display protocol the session speaks against the
// one this build does (EnvError), and whether the X server that DISPLAY
// names answers (Check, Probe), in pure Go (GLFW would panic without one).
// The app, the UI process, launch (before it starts the app) and feedback
// doctor use it; it imports no GUI code.
package display

import (
	"errors"
	"os"
	"runtime"
)

// ErrNone means the app cannot show windows here.
var ErrNone = errors.New("no graphical display: neither DISPLAY nor WAYLAND_DISPLAY is set")

// Available reports whether windows can be shown: on Linux and the BSDs a
// DISPLAY or WAYLAND_DISPLAY must be set, the one this build speaks (see
// EnvError); elsewhere there always is one.
func Available() bool { return EnvError() == nil }

// EnvError says why this binary cannot show windows here: nil,
// ErrNone, or (both matching ErrNone with errors.Is, so callers
// fall back at once) ErrWaylandOnly or ErrX11Only when the session speaks
// only the protocol this build does not.
func EnvError() error {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd":
		x11, wayland := os.Getenv("DISPLAY") != "", os.Getenv("WAYLAND_DISPLAY") != ""
		switch {
		case NativeWayland && wayland, !NativeWayland && x11:
			return nil
		case wayland:
			return ErrWaylandOnly
		case x11:
			return ErrX11Only
		}
		return ErrNone
	}
	return nil
}

// ErrWaylandOnly: a Wayland session without XWayland, and the X11 build.
var ErrWaylandOnly error = &displayError{"a Wayland session without XWayland (WAYLAND_DISPLAY is set, DISPLAY is not), " +
	"and this feedback is the X11 build: install the Wayland build (make build-wayland), or enable XWayland"}

// ErrX11Only: an X11 session (no WAYLAND_DISPLAY), and the Wayland build.
var ErrX11Only error = &displayError{"an X11 session (DISPLAY is set, WAYLAND_DISPLAY is not), " +
	"and this feedback is the Wayland build: use the X11 build (make build)"}

// displayError is a display this build cannot use; it matches ErrNone.
type displayError struct{ msg string }

func (e *displayError) Error() string        { return e.msg }
func (e *displayError) Is(target error) bool { return target == ErrNone }
