package dialogs

import "feedback/dialogs/internal/native"

// Everything the window code needs that Fyne does not promise — its GLFW
// driver's unexported functions, GLFW itself, the X11 display GLFW opened,
// Xlib's error handler — comes through dialogs/internal/native, and only
// here (and native_x11.go, the X11 side of nativeDesk). Where there is
// none, native's functions do nothing and report nothing.
func init() {
	warmNative = native.Warm                                                                       // warm.go
	workArea = native.WorkArea                                                                     // layout.go
	noFocusOnShow = native.NoFocusOnShow                                                           // place.go
	monitorArea = native.PrimaryArea                                                               // place.go
	watchXErrors = func() { native.WatchXErrors(func(f native.Fault) { lost.report(xFault(f)) }) } // lost.go
	nativeID = func(s *slot) uint32 { return native.WindowID(s.win) }                              // lost.go
}
