//go:build !(linux && cgo && !ci && !wayland)

package native

import "fyne.io/fyne/v2"

// Warm reports false: windows are made as they are shown here.
func Warm(fyne.App, fyne.Window) bool { return false }
