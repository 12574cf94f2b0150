// Package native is the one door to what Fyne and its GLFW binding do not
// promise, for the question windows of package dialogs: two unexported
// functions of Fyne's GLFW driver called by their linker names, to make a
// window without showing it (warm_glfw.go); GLFW called directly on the
// driver's behalf, for the work area and to show windows without the focus
// (screen.go); the X11 display GLFW opened, to hold the keys for a window
// (x11grab.go) and to install Xlib's process-wide error handler on it
// (x11errors.go); a space given to the symbol font Fyne falls back to, at
// init, in every build (symbolfont.go); and, over an X connection of its
// own, the window manager's properties that place, focus and flag windows,
// the user's idle time and the monitors (x11.go).
//
// Each touch was verified against the Fyne and go-gl/glfw versions that
// TestFynePrivateTouchesVerified names; it fails when go.mod names others.
// docs/upstream/ lists the touches with the requests that would make them
// unneeded. Elsewhere (another window system, the software driver of
// -tags ci, no cgo) every function here does nothing and reports nothing
// (other.go, screen_other.go, warm_other.go).
//
// Nothing here decides anything: dialogs (place.go's nativeDesk) does.
package native
