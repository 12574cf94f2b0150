//go:build wayland

package display

// NativeWayland: this binary was built with -tags wayland (make
// build-wayland); its window app speaks Wayland only and needs no XWayland.
const NativeWayland = true
