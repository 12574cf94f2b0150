//go:build !((linux || freebsd || netbsd || openbsd) && cgo && !ci && !wayland)

package native

import "fyne.io/fyne/v2"

// WindowID is 0: no X11 here.
func WindowID(fyne.Window) uint32 { return 0 }

// WatchXErrors does nothing: no X11 here.
func WatchXErrors(func(Fault)) {}
