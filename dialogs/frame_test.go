package dialogs

import (
	"image"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
)

// The tallest window's whole frame — the window manager's title bar and
// borders counted — fits the work area less ScreenMargin on every side:
// with the frame's size as seen on a window, and with a guess before any
// was seen. A canvas alone sized to the work area leaves the frame 25 px
// (openbox's title bar) taller than the margins allow at 1280x800.
func TestTallestFrameFitsTheWorkArea(t *testing.T) {
	a := test.NewTempApp(t)
	t.Setenv("FYNE_SCALE", "1.5")
	oldArea, oldDecor := workArea, frameDecor
	t.Cleanup(func() { workArea, frameDecor = oldArea, oldDecor })
	workArea = func(fyne.App) (int, int, float32, bool) { return 1280, 800, 1, true }
	openbox := image.Pt(2, 25) // its frame under e2e's openbox: 2 px wider, 25 higher
	for _, tc := range []struct {
		name  string
		decor func() (image.Point, bool)
	}{
		{"frame seen", func() (image.Point, bool) { return openbox, true }},
		{"no frame seen yet", func() (image.Point, bool) { return image.Point{}, false }},
	} {
		frameDecor = tc.decor
		m := maxWindowSize(a)
		fw := int(math.Round(float64(m.Width*1.5))) + openbox.X
		fh := int(math.Round(float64(m.Height*1.5))) + openbox.Y
		if fw > 1280-2*ScreenMargin || fh > 800-2*ScreenMargin {
			t.Errorf("%s: the tallest window is %v (at scale 1.5), its frame %dx%d: over the %dx%d the work area leaves", tc.name, m, fw, fh, 1280-2*ScreenMargin, 800-2*ScreenMargin)
		}
		if d, ok := tc.decor(); ok && fh < 800-2*ScreenMargin-1 {
			t.Errorf("%s (%v): the tallest frame is %d high, want all of the %d the work area leaves", tc.name, d, fh, 800-2*ScreenMargin)
		}
	}
}
