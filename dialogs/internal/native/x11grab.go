//go:build (linux || freebsd || netbsd || openbsd) && cgo && !ci && !wayland

package native

/*
#include <X11/Xlib.h>

static int feedbackGrabKeys(void *dpy, unsigned long win) {
	return XGrabKeyboard((Display *)dpy, (Window)win, False, GrabModeAsync, GrabModeAsync, CurrentTime);
}

static void feedbackUngrabKeys(void *dpy) {
	XUngrabKeyboard((Display *)dpy, CurrentTime);
	XFlush((Display *)dpy);
}
*/
import "C"

import (
	"unsafe"

	"github.com/go-gl/glfw/v3.4/glfw"
)

// glfwDisplay is the X connection of Fyne's GLFW driver, or nil. Call it
// on the Fyne goroutine (the main thread, where GLFW runs).
func glfwDisplay() (dpy unsafe.Pointer) {
	defer func() {
		if recover() != nil { // GLFW not initialised
			dpy = nil
		}
	}()
	return unsafe.Pointer(glfw.GetX11Display())
}

// grabKeys sends every key press of the keyboard to the X window win of
// Fyne's own connection, whichever window has the focus, until the
// returned release is called; nil if the grab failed. Only the connection
// that grabs receives the keys, so it is GLFW's, not ours.
func grabKeys(win uint32) (release func()) {
	dpy := glfwDisplay()
	if dpy == nil || win == 0 {
		return nil
	}
	if C.feedbackGrabKeys(dpy, C.ulong(win)) != C.GrabSuccess {
		return nil
	}
	return func() { C.feedbackUngrabKeys(dpy) }
}
