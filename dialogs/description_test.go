package dialogs

import (
	"image"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"feedback/ipc/wire"
)

// inkBands are the runs of rows of img, within the columns x0..x1 and the
// rows y0..y1, that hold ink: a pixel apart from the background bg
// (contrast 1.5 or more). Each band is [first row, last row].
func inkBands(img image.Image, x0, x1, y0, y1 int, bg fyne.ThemeVariant) [][2]int {
	back := Theme().Color(theme.ColorNameBackground, bg)
	var bands [][2]int
	for y := y0; y <= y1; y++ {
		ink := false
		for x := x0; x <= x1 && !ink; x++ {
			ink = contrast(img.At(x, y), back) >= 1.5
		}
		switch {
		case ink && (len(bands) == 0 || bands[len(bands)-1][1] != y-1):
			bands = append(bands, [2]int{y, y})
		case ink:
			bands[len(bands)-1][1] = y
		}
	}
	return bands
}

// An option's description sits right under its label, as a second line of
// the same option, not floating a line below it (34 px at scale 1.5): as
// drawn, the gap between the label's ink and the description's is at most
// half a line of text, in the light and the dark theme.
func TestDescriptionSitsUnderItsLabel(t *testing.T) {
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		a := test.NewTempApp(t)
		a.Settings().SetTheme(variantTheme{Theme(), v})
		q := question(wire.Prompt{Markdown: "Which?", Kind: wire.KindChoice, Single: true,
			Options: []wire.Option{{Label: "Rewrite", Description: "faster, riskier"}, {Label: "Refactor", Description: "slower, safer"}}})
		w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
		w.Fyne().Resize(fyne.NewSize(480, 360))
		w.Show()
		w.Fyne().Content().Refresh()
		img := w.Fyne().Canvas().Capture()
		in, _ := w.Fyne().Canvas().InteractiveArea()
		pv := w.View().prompts[0]
		label, desc := pv.tapLabels[1], pv.descs[1]
		lp := a.Driver().AbsolutePositionForObject(label).Add(in)
		dp := a.Driver().AbsolutePositionForObject(desc).Add(in)
		x0 := int(dp.X) + 1
		bands := inkBands(img, x0, x0+40, int(lp.Y), int(dp.Y+desc.Size().Height), v)
		if len(bands) < 2 {
			t.Fatalf("variant %d: ink bands %v, want the label's and the description's", v, bands)
		}
		gap := bands[1][0] - bands[0][1] - 1
		if line := int(theme.TextSize() * 1.4); gap > line/2 {
			t.Errorf("variant %d: the description's text is %d px under its label's (bands %v), want at most %d", v, gap, bands, line/2)
		}
		w.Close()
	}
}
