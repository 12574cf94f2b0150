//go:build !cgo || ci

package native

import (
	"image"

	"fyne.io/fyne/v2"
)

// PrimaryArea reports none: no GLFW here.
func PrimaryArea(fyne.App) (image.Rectangle, bool) { return image.Rectangle{}, false }

// NoFocusOnShow does nothing: no GLFW here.
func NoFocusOnShow(fyne.App) {}

// WorkArea reports none: no GLFW here.
func WorkArea(fyne.App) (w, h int, detected float32, ok bool) { return 0, 0, 1, false }
