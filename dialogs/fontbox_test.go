package dialogs

import (
	"bytes"
	"fmt"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
)

// textStyles are the styles a question's text is drawn in (symbols apart).
var textStyles = []fyne.TextStyle{{}, {Bold: true}, {Italic: true}, {Bold: true, Italic: true}, {Monospace: true}}

// styleName names a text style for messages.
func styleName(s fyne.TextStyle) string {
	switch {
	case s.Monospace:
		return "monospace"
	case s.Bold && s.Italic:
		return "bold italic"
	case s.Bold:
		return "bold"
	case s.Italic:
		return "italic"
	}
	return "regular"
}

// cutGlyphs returns how the glyphs of th's font for style, drawn at size
// (fyne units) and scale as fyne's GL painter draws a canvas.Text, are cut
// by the image the text is drawn into, one line per glyph cut. As
// fyne.io/fyne/v2 v2.8.1 does it (internal/painter/font.go DrawString and
// walkString, internal/painter/gl/texture.go newGlTextTexture): the line
// box is the LineBounds of a shaped space at size, the image is that box's
// height times scale rounded to a pixel and one pixel more
// (painter.TextVectorPad, new in 2.8), the baseline the ascent times scale
// rounded up (for text in one font: 2.8 puts it at the tallest ascent of
// the fonts a text is drawn in); a glyph's ink is its outline's bounds.
func cutGlyphs(t *testing.T, th fyne.Theme, style fyne.TextStyle, size, scale float32) []string {
	t.Helper()
	face, err := font.ParseTTF(bytes.NewReader(th.Font(style).Content()))
	if err != nil {
		t.Fatal(err)
	}
	space := (&shaping.HarfbuzzShaper{}).Shape(shaping.Input{Text: []rune{' '}, RunEnd: 1,
		Direction: di.DirectionLTR, Face: face, Size: fixed.Int26_6(size * 64)})
	height := math.Round(float64(space.LineBounds.LineThickness())/64*float64(scale)) + 1
	baseline := math.Ceil(float64(space.LineBounds.Ascent) / 64 * float64(scale))
	px := float64(size*scale) / float64(face.Upem())
	var cut []string
	for _, rg := range inkRepertoire {
		for r := rg[0]; r <= rg[1]; r++ {
			gid, ok := face.NominalGlyph(r)
			if !ok {
				continue
			}
			e, ok := face.GlyphExtents(gid)
			if !ok || e.Height == 0 {
				continue
			}
			top, bottom := baseline-float64(e.YBearing)*px, baseline-float64(e.YBearing+e.Height)*px
			if top < 0 || bottom > height {
				cut = append(cut, fmt.Sprintf("%q: ink from row %.2f to %.2f of an image %.0f rows tall", r, top, bottom, height))
			}
		}
	}
	return cut
}

// No glyph of the theme's fonts is cut by the image fyne draws a text
// into: underscores, descenders, accents, in every text style, at every
// scale fyne draws from 1 to 3 (it rounds its scale to tenths) and the
// sizes a window uses (caption, text, headings). With fyne's own fonts the
// monospace underscore lost its bottom at 1.5 in 2.7 (all of it:
// "data_old" read "data old"); 2.8's extra pixel below keeps it, but the
// marks below other letters of that font at that scale (Ģ's comma) are
// still cut: the test checks that it still finds those, and that the model
// agrees with fyne's measure of the text.
func TestThemeFontsHoldTheirInk(t *testing.T) {
	sizes := []float32{11, 14, 16, 18, 24} // caption, text, headings 3, 2 and 1
	fyneCut := 0
	for _, style := range textStyles {
		for _, size := range sizes {
			for tenths := 10; tenths <= 30; tenths++ {
				scale := float32(tenths) / 10
				if cut := cutGlyphs(t, Theme(), style, size, scale); len(cut) > 0 {
					t.Errorf("%s at size %g, scale %g: %d glyphs cut, first %s", styleName(style), size, scale, len(cut), cut[0])
				}
				fyneCut += len(cutGlyphs(t, theme.DefaultTheme(), style, size, scale))
			}
		}
	}
	if cut := cutGlyphs(t, theme.DefaultTheme(), fyne.TextStyle{Monospace: true}, 14, 1.5); len(cut) == 0 {
		t.Errorf("fyne's own monospace font draws whole at 1.5: the test no longer sees what it guards against")
	}
	t.Logf("fyne's own fonts: %d glyph drawings cut", fyneCut)

	// The model's line box is fyne's: the theme's text measures as tall.
	a := test.NewTempApp(t)
	a.Settings().SetTheme(Theme())
	for _, style := range textStyles {
		face, _ := font.ParseTTF(bytes.NewReader(Theme().Font(style).Content()))
		space := (&shaping.HarfbuzzShaper{}).Shape(shaping.Input{Text: []rune{' '}, RunEnd: 1,
			Direction: di.DirectionLTR, Face: face, Size: fixed.I(14)})
		want := float32(space.LineBounds.LineThickness()) / 64
		if got := fyne.MeasureText("data_old", 14, style).Height; math.Abs(float64(got-want)) > 0.01 {
			t.Errorf("%s: fyne measures text 14 tall as %g, the model %g", styleName(style), got, want)
		}
	}
}

// The rewritten fonts are fonts: their glyphs are Fyne's, their line box
// the one asked for, and their checksums hold. The proportional styles
// share one box, as Fyne's own fonts do.
func TestBoxedFontIsAFont(t *testing.T) {
	res := theme.DefaultTextMonospaceFont()
	orig, _ := font.ParseTTF(bytes.NewReader(res.Content()))
	box := holdingBox(textSizes(theme.DefaultTheme()), measureInk(orig))
	boxed := boxedFont(res, box)
	if boxed == res {
		t.Fatal("the monospace font was served unchanged")
	}
	face, err := font.ParseTTF(bytes.NewReader(boxed.Content()))
	if err != nil {
		t.Fatal(err)
	}
	ext, _ := face.FontHExtents()
	if int(ext.Ascender) != box.ascent || int(-ext.Descender) != box.descent {
		t.Errorf("line box %v/%v, want %+v", ext.Ascender, ext.Descender, box)
	}
	for _, r := range "data_old gjpqy ÀÉÎ" {
		g1, _ := orig.NominalGlyph(r)
		g2, _ := face.NominalGlyph(r)
		e1, _ := orig.GlyphExtents(g1)
		e2, _ := face.GlyphExtents(g2)
		if g1 != g2 || e1 != e2 {
			t.Errorf("%q changed: glyph %d %+v, was %d %+v", r, g2, e2, g1, e1)
		}
	}
	if sum := checksum(boxed.Content()); sum != 0xB1B0AFBA {
		t.Errorf("the font's checksum is %#x, want 0xB1B0AFBA", sum)
	}

	first, _ := font.ParseTTF(bytes.NewReader(Theme().Font(family[0]).Content()))
	want, _ := first.FontHExtents()
	for _, st := range family {
		f, _ := font.ParseTTF(bytes.NewReader(Theme().Font(st).Content()))
		if got, _ := f.FontHExtents(); got != want {
			t.Errorf("%s has the line box %+v, regular text %+v", styleName(st), got, want)
		}
	}
	t.Logf("line boxes: %+v (regular) and %+v (monospace)", want, ext)
}
