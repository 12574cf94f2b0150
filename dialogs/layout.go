package dialogs

import (
	"math"
	"os"
	"strconv"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
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
	// The height the scrolled panes want: wrapped text reports its
	// height once it has been laid out at a width.
	need := minSize.Height - v.center.MinSize().Height
	for _, p := range v.panes {
		need += naturalHeight(p, width)
	}
	// Slack: Markdown measured before its first layout may come out a few
	// pixels short, which would leave the message scrolling by a line.
	need += 2 * theme.Padding()
	height := min(max(need, MinWindowHeight), limit.Height)
	height = max(height, minSize.Height)
	return fyne.NewSize(width, height)
}

// naturalHeight is the height p's content takes at width: the height p
// needs to show it all.
func naturalHeight(p *container.Scroll, width float32) float32 {
	c := p.Content
	c.Resize(fyne.NewSize(width, c.MinSize().Height))
	c.Resize(fyne.NewSize(width, c.MinSize().Height)) // again: rows wrap after the first pass
	return c.MinSize().Height
}

// choicesShare is the part of the height the options pane takes at most
// when the message and the options do not both fit; less when the message
// is short, more when the options need less.
const choicesShare = 0.6

// splitLayout stacks the message pane (objects[0]) over the options pane
// (objects[1]), both scrolls. When both fit, the message gets what it
// needs and the options, right under it, the rest; otherwise the options get what they need up to
// choicesShare of the height (or all that the message leaves), so they
// are in view however long the message is, and each pane scrolls.
type splitLayout struct{}

func (splitLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	msg, opts := objects[0].(*container.Scroll), objects[1].(*container.Scroll)
	msgNeed, optNeed := naturalHeight(msg, size.Width), naturalHeight(opts, size.Width)
	optH := min(optNeed, max(size.Height*choicesShare, size.Height-msgNeed))
	optH = max(optH, min(opts.MinSize().Height, size.Height))
	if msgNeed+optH < size.Height { // room to spare: the options follow the message
		optH = size.Height - msgNeed
	}
	msg.Move(fyne.NewPos(0, 0))
	msg.Resize(fyne.NewSize(size.Width, size.Height-optH))
	opts.Move(fyne.NewPos(0, size.Height-optH))
	opts.Resize(fyne.NewSize(size.Width, optH))
}

func (splitLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	a, b := objects[0].MinSize(), objects[1].MinSize()
	return fyne.NewSize(max(a.Width, b.Width), a.Height+b.Height)
}

// FitSize is the size the window opens with in app a: see fitSize.
func (v *View) FitSize(a fyne.App) fyne.Size { return v.fitSize(maxWindowSize(a)) }
