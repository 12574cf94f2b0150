//go:build linux && cgo && !ci && !wayland

// Drawing a window off screen (dialogs' Pool.Warm) through Fyne 2.8's GLFW driver on
// X11. Fyne makes a window's native window, GL context and painter only
// in its first Show, which maps it; nothing in its API makes them without
// showing. So this calls the two unexported functions that Show runs,
// by their linker names: (*window).create, which makes the native window
// hidden (GLFW_VISIBLE false on X11) with its context and painter, and
// (*gLDriver).repaintWindow, which lays out and paints the canvas into
// the context's back buffer and swaps only a visible window's. A later
// Show finds the native window made and only maps it (Fyne's doShowAgain,
// the path of every window the Pool reuses).
//
// The names are checked when the binary is linked: a Fyne without them
// fails the build, never a run. They are Fyne v2.8.1's (go.mod pins it);
// dialogs' TestWarmPreparesTheNextQuestionsWindow and e2e
// TestFirstQuestionFindsItsWindowReady prove the behaviour at each upgrade.
// Only on Linux/X11: the Wayland build's windows are made visible, and
// other systems are not measured here.

package native

import (
	"fmt"
	"unsafe"

	"fyne.io/fyne/v2"
	_ "fyne.io/fyne/v2/app" // links Fyne's GLFW driver, whose functions Warm calls, into every binary (the tests' too)
)

//go:linkname glfwCreate fyne.io/fyne/v2/internal/driver/glfw.(*window).create
func glfwCreate(w unsafe.Pointer)

//go:linkname glfwRepaint fyne.io/fyne/v2/internal/driver/glfw.(*gLDriver).repaintWindow
func glfwRepaint(d, w unsafe.Pointer) bool

// pointerOf is the pointer an interface value holds (a *glfw.window, a
// *glfw.gLDriver: the receivers of the functions above).
func pointerOf(i any) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&i))[1] }

// Warm makes w's native window, hidden, and paints its content into it
// once; it reports whether it could. Only a window of Fyne's GLFW driver
// that was never shown; on the Fyne goroutine.
func Warm(a fyne.App, w fyne.Window) bool {
	if fmt.Sprintf("%T", a.Driver()) != "*glfw.gLDriver" || fmt.Sprintf("%T", w) != "*glfw.window" {
		return false
	}
	ctx, ok := w.(interface{ RunWithContext(func()) })
	if !ok {
		return false
	}
	glfwCreate(pointerOf(w))
	painted := false
	ctx.RunWithContext(func() { // runs nothing when create failed: no native window
		glfwRepaint(pointerOf(a.Driver()), pointerOf(w))
		painted = true
	})
	return painted
}
