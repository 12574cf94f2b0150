package dialogs

import (
	"fmt"
	"image"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"feedback/ipc/wire"
)

// ringAt measures, in the drawn image img, the focus ring on one side of
// the control drawn in the rectangle r (in pixels): walking outwards along
// the middle of that side (dx, dy: one of the four directions) from a
// little inside the control's edge, past the control's own fill, it counts
// the gap of pixels close to the background bg (contrast under 1.5) and
// then the run of pixels that reach MinNonTextContrast against it (the
// ring). run is 0 when nothing stands out within reach.
func ringAt(img image.Image, r image.Rectangle, dx, dy int, scale float32, bg fyne.ThemeVariant) (gap, run int) {
	in := int(3 * scale) // inside the edge: the control's fill
	x, y := (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2
	switch {
	case dx < 0:
		x = r.Min.X + in
	case dx > 0:
		x = r.Max.X - in
	case dy < 0:
		y = r.Min.Y + in
	default:
		y = r.Max.Y - in
	}
	back := Theme().Color(theme.ColorNameBackground, bg)
	fill := true // still on the control's own fill
	for i := 0; i < in+int(4*(focusRingWidth+focusRingGap)*scale); i, x, y = i+1, x+dx, y+dy {
		if !(image.Point{x, y}).In(img.Bounds()) {
			break
		}
		c := contrast(img.At(x, y), back)
		switch {
		case c < 1.5:
			if run > 0 {
				return gap, run
			}
			fill = false
			gap++
		case fill:
		case c >= MinNonTextContrast:
			run++
		case run > 0:
			return gap, run
		}
	}
	return gap, run
}

// A yes/no window opens with the keyboard on the recommended button, and
// that is seen: as drawn, in both themes and at scale 1 and 1.5, the
// button is outlined on all four sides by a ring at least 2 px wide that
// reaches MinNonTextContrast against the window's background, apart from
// the button, inside the window; the other button has none.
func TestYesNoFocusRingIsSeen(t *testing.T) {
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		for _, scale := range []float32{1, 1.5} {
			for _, rec := range []string{"Yes", "No"} {
				t.Run(fmt.Sprintf("variant%d-scale%v-%s", v, scale, rec), func(t *testing.T) {
					a := test.NewTempApp(t)
					a.Settings().SetTheme(variantTheme{Theme(), v})
					w := NewWindow(a, yesNoQuestion(rec), Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
					w.Fyne().Canvas().(interface{ SetScale(float32) }).SetScale(scale)
					w.Fyne().Resize(fyne.NewSize(480, 200))
					w.Show()
					defer w.Close()
					w.Fyne().Content().Refresh()
					img := w.Fyne().Canvas().Capture()
					px := func(b *keyButton) image.Rectangle {
						p := a.Driver().AbsolutePositionForObject(b)
						s := b.Size()
						f := float64(scale)
						return image.Rect(int(math.Ceil(float64(p.X)*f)), int(math.Ceil(float64(p.Y)*f)),
							int(math.Floor(float64(p.X+s.Width)*f)), int(math.Floor(float64(p.Y+s.Height)*f)))
					}
					other := map[string]string{"Yes": "No", "No": "Yes"}[rec]
					focused, unfocused := px(yesNoButton(t, w, rec)), px(yesNoButton(t, w, other))
					const minRun = 2 // px: at scale 1.5 the ring's third pixel is blended
					for _, side := range []struct {
						name   string
						dx, dy int
					}{{"left", -1, 0}, {"right", 1, 0}, {"top", 0, -1}, {"bottom", 0, 1}} {
						gap, run := ringAt(img, focused, side.dx, side.dy, scale, v)
						if run < minRun || gap < 1 {
							t.Errorf("%s of the focused %s: a ring of %d px after a gap of %d px, want >= %d px apart from the button", side.name, rec, run, gap, minRun)
						}
					}
					for _, dy := range []int{-1, 1} { // above and below it: nothing but the background
						if _, run := ringAt(img, unfocused, 0, dy, scale, v); run > 0 {
							t.Errorf("the unfocused %s is outlined (%d px)", other, run)
						}
					}
				})
			}
		}
	}
}

// The reply box, which has the keyboard when most windows open, is
// outlined as a focused button is: as drawn, in both themes and at scale 1
// and 1.5, on all four sides, a ring at least 2 px wide that reaches
// MinNonTextContrast against the window's background. Unfocused, its
// border is thinner than that. Fyne's own focused border, 1 px in the
// primary colour, reaches only 2.0–2.2:1 in the dark theme and differs
// from the unfocused border by its hue alone.
func TestReplyFocusRingIsSeen(t *testing.T) {
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		for _, scale := range []float32{1, 1.5} {
			t.Run(fmt.Sprintf("variant%d-scale%v", v, scale), func(t *testing.T) {
				a := test.NewTempApp(t)
				a.Settings().SetTheme(variantTheme{Theme(), v})
				q := question(wire.Prompt{Markdown: "Anything to add?", Kind: wire.KindText})
				w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
				w.Fyne().Canvas().(interface{ SetScale(float32) }).SetScale(scale)
				w.Fyne().Resize(fyne.NewSize(480, 300))
				w.Show()
				defer w.Close()
				e := w.View().prompts[0].entry
				if got := w.Fyne().Canvas().Focused(); got != e {
					t.Fatalf("focused %T at open, want the reply box", got)
				}
				px := func() image.Rectangle {
					in, _ := w.Fyne().Canvas().InteractiveArea() // the test driver takes it off
					p := a.Driver().AbsolutePositionForObject(e).Add(in)
					s := e.Size()
					f := float64(scale)
					return image.Rect(int(math.Ceil(float64(p.X)*f)), int(math.Ceil(float64(p.Y)*f)),
						int(math.Floor(float64(p.X+s.Width)*f)), int(math.Floor(float64(p.Y+s.Height)*f)))
				}
				sides := []struct {
					name   string
					dx, dy int
				}{{"left", -1, 0}, {"right", 1, 0}, {"top", 0, -1}, {"bottom", 0, 1}}
				w.Fyne().Content().Refresh()
				img := w.Fyne().Canvas().Capture()
				minRun := int(focusRingWidth * scale) // device pixels: 3 at scale 1.5, where a 1 px border takes 2
				for _, side := range sides {
					if _, run := ringAt(img, px(), side.dx, side.dy, scale, v); run < minRun {
						t.Errorf("%s of the focused reply box: a ring of %d px reaching %.1f:1, want >= %d px", side.name, run, MinNonTextContrast, minRun)
					}
				}
				w.Fyne().Canvas().Unfocus()
				w.Fyne().Content().Refresh()
				img = w.Fyne().Canvas().Capture()
				for _, side := range sides {
					if _, run := ringAt(img, px(), side.dx, side.dy, scale, v); run >= minRun {
						t.Errorf("%s of the unfocused reply box: %d px, as wide as the focus ring", side.name, run)
					}
				}
			})
		}
	}
}
