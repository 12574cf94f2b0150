//go:build cgo && !ci

// The work area through GLFW: only where Fyne runs its GLFW driver (cgo, and
// not the software driver of -tags ci); elsewhere (screen_other.go) there
// is none: dialogs keeps a window's default size limit and does not place
// it.

package native

import (
	"fmt"
	"image"
	"strings"

	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.4/glfw"
)

// PrimaryArea is the primary monitor's work area, in screen pixels,
// where its position is on the desktop (on X11 _NET_WORKAREA within the
// monitor: with two monitors, one of them, not both). Fyne goroutine only.
func PrimaryArea(a fyne.App) (r image.Rectangle, ok bool) {
	if a == nil || !strings.Contains(fmt.Sprintf("%T", a.Driver()), "glfw") {
		return image.Rectangle{}, false
	}
	defer func() {
		if recover() != nil { // GLFW not initialised
			ok = false
		}
	}()
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return image.Rectangle{}, false
	}
	x, y, w, h := m.GetWorkarea()
	return image.Rect(x, y, x+w, y+h), w > 0 && h > 0
}

// NoFocusOnShow has GLFW create the next windows without asking for the
// focus when it shows them (its default does): dialogs' Pool asks for the
// focus itself, unless the user is typing in another window (place.go).
// It runs on the Fyne goroutine, once Fyne has initialised GLFW (after a
// NewWindow).
func NoFocusOnShow(a fyne.App) {
	if a == nil || !strings.Contains(fmt.Sprintf("%T", a.Driver()), "glfw") {
		return
	}
	defer func() { recover() }() // GLFW not initialised: nothing to do
	glfw.WindowHint(glfw.FocusOnShow, glfw.False)
}

// WorkArea reads the primary monitor's work area from GLFW (on X11
// the window manager's _NET_WORKAREA, else the whole screen), which Fyne's
// desktop driver has initialised. Fyne exposes no screen size; any other
// driver (the test driver) reports none, and detected is Fyne's density
// scale for that monitor. It runs on the Fyne goroutine, which is the main
// thread GLFW requires.
func WorkArea(a fyne.App) (w, h int, detected float32, ok bool) {
	detected = 1
	if a == nil || !strings.Contains(fmt.Sprintf("%T", a.Driver()), "glfw") {
		return 0, 0, detected, false
	}
	defer func() {
		if recover() != nil { // GLFW not initialised: no size
			ok = false
		}
	}()
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return 0, 0, detected, false
	}
	_, _, w, h = m.GetWorkarea()
	// Fyne's density scale: the screen's DPI over 120, at least 1.
	if mm, _ := m.GetPhysicalSize(); mm > 0 {
		if mode := m.GetVideoMode(); mode != nil {
			if dpi := float32(mode.Width) / (float32(mm) / 25.4); dpi >= 10 && dpi <= 1000 {
				detected = max(dpi/120, 1)
			}
		}
	}
	return w, h, detected, w > 0 && h > 0
}
