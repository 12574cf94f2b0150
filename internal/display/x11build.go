//go:build !wayland

package display

// NativeWayland: this binary is the default X11 build; on a Wayland session
// its window app needs XWayland (a DISPLAY).
const NativeWayland = false
