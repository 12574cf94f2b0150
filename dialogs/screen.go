package dialogs

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.3/glfw"
)

func init() { workArea = glfwWorkArea }

// glfwWorkArea reads the primary monitor's work area from GLFW (on X11
// the window manager's _NET_WORKAREA, else the whole screen), which Fyne's
// desktop driver has initialised. Fyne exposes no screen size; any other
// driver (the test driver) reports none. It runs on the Fyne goroutine,
// which is the main thread GLFW requires.
func glfwWorkArea(a fyne.App) (w, h int, ok bool) {
	if a == nil || !strings.Contains(fmt.Sprintf("%T", a.Driver()), "glfw") {
		return 0, 0, false
	}
	defer func() {
		if recover() != nil { // GLFW not initialised: no size
			ok = false
		}
	}()
	m := glfw.GetPrimaryMonitor()
	if m == nil {
		return 0, 0, false
	}
	_, _, w, h = m.GetWorkarea()
	return w, h, w > 0 && h > 0
}
