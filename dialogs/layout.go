package dialogs

import (
	"math"
	"os"
	"strconv"

	"fyne.io/fyne/v2"
)

// The window's size follows its content: as wide as WindowSize (narrower
// on a small screen), and as tall as the question needs, from
// MinWindowHeight up to the screen's work area less ScreenMargin on every
// side; beyond that the question scrolls.

// MinWindowHeight is the least height a question window opens with.
const MinWindowHeight = 200

// ScreenMargin is the gap, in screen pixels, kept between a window and
// each edge of the screen's work area.
const ScreenMargin = 48

// workArea returns the size, in screen pixels, of the work area of the
// screen (its size less panels and docks) and the scale Fyne detects for
// the screen's density (1 on an ordinary screen), and false when it is not
// known (the test driver). It runs on the Fyne goroutine. See screen.go.
var workArea = func(fyne.App) (w, h int, detected float32, ok bool) { return 0, 0, 1, false }

// maxWindowSize is the largest window, in Fyne units at scale, that fits
// the work area with the margin; WindowSize when the work area is unknown.
func maxWindowSize(a fyne.App) fyne.Size {
	w, h, detected, ok := workArea(a)
	if !ok || w <= 0 || h <= 0 {
		return WindowSize
	}
	scale := windowScale(a, detected)
	return fyne.NewSize(float32(w-2*ScreenMargin)/scale, float32(h-2*ScreenMargin)/scale)
}

// windowScale is the scale Fyne's desktop driver gives a window: the
// user's (FYNE_SCALE, else the settings) times the screen's detected one,
// rounded to a tenth, as fyne's internal/driver/glfw/scale.go computes it.
func windowScale(a fyne.App, detected float32) float32 {
	user := float32(1)
	if env := os.Getenv("FYNE_SCALE"); env != "" && env != "auto" {
		if f, err := strconv.ParseFloat(env, 32); err == nil && f > 0 {
			user = float32(f)
		}
	} else if env != "auto" && a != nil && a.Settings().Scale() > 0 {
		user = a.Settings().Scale()
	}
	if detected <= 0 {
		detected = 1
	}
	scale := float32(math.Round(float64(user*detected*10)) / 10)
	if scale <= 0 {
		return 1
	}
	return scale
}

// fitSize is the size a window with v's content opens with when it may be
// at most limit: WindowSize's width (less when limit is narrower) and the
// height the content needs at that width, between MinWindowHeight and
// limit. It never goes below the content's minimum size, which the
// widgets keep small (long labels wrap).
func (v *View) fitSize(limit fyne.Size) fyne.Size {
	minSize := v.content.MinSize()
	width := min(WindowSize.Width, limit.Width)
	width = max(width, minSize.Width)
	// The height the scrolled part wants at this width: wrapped text
	// reports its height once it has been laid out at a width.
	inner := width - 2*v.scrollInset()
	v.body.Resize(fyne.NewSize(inner, v.body.MinSize().Height))
	v.body.Resize(fyne.NewSize(inner, v.body.MinSize().Height)) // again: rows wrap after the first pass
	need := minSize.Height - v.scroll.MinSize().Height + v.body.MinSize().Height
	height := min(max(need, MinWindowHeight), limit.Height)
	height = max(height, minSize.Height)
	return fyne.NewSize(width, height)
}

// scrollInset is the horizontal room the window's edges take from the
// scrolled part (none: the scroll fills the width).
func (v *View) scrollInset() float32 { return 0 }

// FitSize is the size the window opens with in app a: see fitSize.
func (v *View) FitSize(a fyne.App) fyne.Size { return v.fitSize(maxWindowSize(a)) }
