package native

import (
	"bytes"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/font"
)

// Fyne's symbol font still has no space: when it has one, the patch
// (symbolfont.go) and docs/upstream/fyne-symbol-font-space.md can go.
func TestSymbolFontStillLacksASpace(t *testing.T) {
	face, err := font.ParseTTF(bytes.NewReader(symbolFontAsShipped))
	if err != nil {
		t.Fatal(err)
	}
	if _, ok := face.NominalGlyph(' '); ok {
		t.Error("Fyne's symbol font has a space now: drop symbolfont.go and docs/upstream/fyne-symbol-font-space.md")
	}
	if !symbolFontPatched {
		t.Error("the symbol font was not given a space (a font of another shape?): arrows followed by a space draw U+FFFD")
	}
}

// The patched font maps the space to an empty glyph as wide as the text
// font's, and every other character to the glyph it had, drawn as before.
func TestSymbolFontHasASpace(t *testing.T) {
	was, err := font.ParseTTF(bytes.NewReader(symbolFontAsShipped))
	if err != nil {
		t.Fatal(err)
	}
	now, err := font.ParseTTF(bytes.NewReader(theme.DefaultSymbolFont().Content()))
	if err != nil {
		t.Fatalf("the patched font does not parse: %v", err)
	}
	g, ok := now.NominalGlyph(' ')
	if !ok {
		t.Fatal("no space in the patched symbol font")
	}
	if e, _ := now.GlyphExtents(g); e.Width != 0 || e.Height != 0 {
		t.Errorf("the space has ink: %+v", e)
	}
	if adv, want := now.HorizontalAdvance(g), float32(spaceEm*float64(now.Upem())); adv < want-1 || adv > want+1 {
		t.Errorf("the space is %v units wide, want %v", adv, want)
	}
	seen := 0
	for r := rune(0x21); r < 0x10000; r++ {
		gw, okw := was.NominalGlyph(r)
		gn, okn := now.NominalGlyph(r)
		if okw != okn || gw != gn {
			t.Errorf("%q maps to %d (%v), was %d (%v)", r, gn, okn, gw, okw)
			continue
		}
		if !okw {
			continue
		}
		seen++
		ew, _ := was.GlyphExtents(gw)
		en, _ := now.GlyphExtents(gn)
		if ew != en || was.HorizontalAdvance(gw) != now.HorizontalAdvance(gn) {
			t.Errorf("%q is drawn otherwise: %+v %v, was %+v %v", r, en, now.HorizontalAdvance(gn), ew, was.HorizontalAdvance(gw))
		}
	}
	if seen < 20 {
		t.Errorf("only %d characters in the symbol font", seen)
	}
}

// A space after an arrow is as wide as a space: no replacement glyph
// (an em wide) is drawn for it.
func TestArrowThenSpace(t *testing.T) {
	test.NewTempApp(t)
	size := theme.TextSize()
	w := func(s string) float32 { return fyne.MeasureText(s, size, fyne.TextStyle{}).Width }
	if got, parts := w("a → b"), w("a →")+w(" b"); got > parts+1 {
		t.Errorf(`"a → b" is %.1f wide, "a →" and " b" %.1f: the space after the arrow is drawn as something else`, got, parts)
	}
}

// A font that has a space already, or of a shape the patch does not know,
// is left alone.
func TestWithSpaceRefuses(t *testing.T) {
	if _, err := withSpace(theme.DefaultTextFont().Content()); err == nil {
		t.Error("a font with a space was given another")
	}
	if _, err := withSpace([]byte("OTTO\x00\x00")); err == nil {
		t.Error("a CFF font was rewritten")
	}
}
