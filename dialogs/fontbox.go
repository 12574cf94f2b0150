package dialogs

import (
	"bytes"
	"encoding/binary"
	"math"
	"sort"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/typesetting/font"
)

// Fyne's painters draw a canvas.Text into an image exactly one line box
// tall (the font's ascent + descent + line gap at the text size), with the
// baseline at the ascent rounded up to a device pixel; the GL painter
// rounds the image's height to the nearest pixel. Ink outside that box is
// cut off, and the rounding takes up to 1.5 device pixels from the bottom.
// Fyne's monospace font (DejaVu Sans Mono) puts its underscore exactly on
// its descent line, so at FYNE_SCALE=1.5 every underscore vanished
// ("data_old" read "data old") and at 1 it was a faint line; descenders of
// the other fonts came within a pixel of the edge, and some were cut.
//
// boxedFont serves the same font with its line box (hhea and OS/2 ascent
// and descent) grown just enough that, drawn as fyne v2.7.1 draws it, the
// ink of every glyph of inkRepertoire stays inside the image, at the
// theme's text sizes and every scale fyne draws at up to maxScale (fyne
// rounds its scale to tenths). Fyne 2.8 draws into an image one pixel
// taller, the baseline where it was: a box that holds the ink for 2.7.1
// holds it for 2.8.1 with a pixel to spare below, and Fyne's own fonts are
// still cut there (TestThemeFontsHoldTheirInk models 2.8.1). The boxes
// keep 2.7.1's rule, so that the lines of a window did not move with the
// upgrade.

// inkRepertoire is the text whose ink the line box holds: Latin (with
// Vietnamese's stacked accents), Greek, Cyrillic, punctuation, currency,
// arrows, and box drawing (tree and table output in code blocks).
// Combining marks (positioned by the shaper), rare letters (Latin Extended
// Additional's, say Ḁ's ring below) and rare symbols are left out.
var inkRepertoire = [][2]rune{
	{0x20, 0x7e}, {0xa0, 0x24f}, {0x370, 0x3ff}, {0x400, 0x4ff}, {0x1ea0, 0x1eff},
	{0x2000, 0x206f}, {0x20a0, 0x20cf}, {0x2190, 0x21ff}, {0x2500, 0x259f},
}

// maxScale is the largest scale the line box is made for; from 1 to it in
// tenths.
const maxScale = 3

// lineBox is a font's line box in font units: ascent and descent, both
// positive, above and below the baseline.
type lineBox struct{ ascent, descent int }

// textSizes are the sizes the app draws text at, in fyne units: th's
// caption, body, sub-heading and heading text, and a Markdown level 3
// heading (8/7 of the body, dialogs/markdown).
func textSizes(th fyne.Theme) []float32 {
	body := th.Size(theme.SizeNameText)
	return []float32{th.Size(theme.SizeNameCaptionText), body, body * 8 / 7,
		th.Size(theme.SizeNameSubHeadingText), th.Size(theme.SizeNameHeadingText)}
}

// fontInk is what a font's line box must hold: the highest and the lowest
// ink of the glyphs of inkRepertoire (font units, both positive away from
// the baseline), and its line box and gap as they are.
type fontInk struct {
	top, bottom, upem, gap float64
	have                   lineBox
}

// measureInk reads face's fontInk.
func measureInk(face *font.Face) fontInk {
	ext, _ := face.FontHExtents()
	in := fontInk{upem: float64(face.Upem()), gap: float64(ext.LineGap),
		have: lineBox{int(math.Round(float64(ext.Ascender))), int(math.Round(float64(-ext.Descender)))}}
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
			in.top = max(in.top, float64(e.YBearing))
			in.bottom = max(in.bottom, -float64(e.YBearing+e.Height))
		}
	}
	return in
}

// holdingBox returns the line box, no smaller than the fonts' own, that
// holds the ink of every one of fonts (of one units per em) at sizes
// (inkFits): the shortest found with an ascent up to a 20th of an em above
// the least that holds the tops (a taller ascent moves the baseline's
// rounding), each with the least descent that holds the bottoms (which
// only grows with the descent).
func holdingBox(sizes []float32, fonts ...fontInk) lineBox {
	var least lineBox
	for _, f := range fonts {
		least.ascent = max(least.ascent, f.have.ascent, int(math.Ceil(f.top)))
		least.descent = max(least.descent, f.have.descent, int(math.Ceil(f.bottom)))
	}
	fits := func(box lineBox) (topIn, bottomIn bool) {
		topIn, bottomIn = true, true
		for _, f := range fonts {
			t, b := inkFits(box, f.gap, f.top, f.bottom, f.upem, sizes)
			topIn, bottomIn = topIn && t, bottomIn && b
		}
		return topIn, bottomIn
	}
	for topIn, _ := fits(least); !topIn; topIn, _ = fits(least) {
		least.ascent++
	}
	span := int(fonts[0].upem)
	best := lineBox{}
	for extra := 0; extra <= span/20; extra++ {
		ascent := least.ascent + extra
		if topIn, _ := fits(lineBox{ascent, least.descent}); !topIn {
			continue
		}
		// The least descent from least.descent on that holds the bottoms.
		descent := least.descent + sort.Search(span, func(d int) bool {
			_, bottomIn := fits(lineBox{ascent, least.descent + d})
			return bottomIn
		})
		if best == (lineBox{}) || ascent+descent < best.ascent+best.descent {
			best = lineBox{ascent, descent}
		}
	}
	return best
}

// inkFits reports whether ink up to top above the baseline and down to
// bottom below it (font units) stays inside the image fyne v2.7.1's GL
// painter draws a text into (v2.8.1's is a pixel taller: see boxedFont), for the line box box and the line gap, at each
// of sizes and scales from 1 to maxScale in tenths. As fyne and go-text
// compute it (internal/painter/font.go DrawString, gl/texture.go
// newGlTextTexture, go-text/typesetting shaping and harfbuzz): the line
// bounds in 64ths of a pixel at the size rounded up, the image's height
// rounded to a pixel, the baseline rounded up; the ink at the size itself.
// A 32nd of a pixel is kept to spare.
func inkFits(box lineBox, gap, top, bottom, upem float64, sizes []float32) (topIn, bottomIn bool) {
	topIn, bottomIn = true, true
	for _, size := range sizes {
		em := math.Ceil(float64(size)) * 64 / upem // harfbuzz's scale: 64ths of a pixel per font unit
		a := math.Round(float64(box.ascent)*em) / 64
		h := a + math.Round(float64(box.descent)*em)/64 + math.Round(gap*em)/64
		ink := float64(size) / upem
		for tenths := 10; tenths <= 10*maxScale; tenths++ {
			s := float64(tenths) / 10
			baseline := math.Ceil(a * s)
			if baseline-top*ink*s < 1.0/32 {
				topIn = false
			}
			if baseline+bottom*ink*s > math.Round(h*s)-1.0/32 {
				bottomIn = false
			}
		}
	}
	return topIn, bottomIn
}

// boxedFont returns res with its line box set to box, or res itself when
// it has that box or is not a font this can rewrite.
func boxedFont(res fyne.Resource, box lineBox) fyne.Resource {
	data := res.Content()
	face, err := font.ParseTTF(bytes.NewReader(data))
	if err != nil || measureInk(face).have == box {
		return res
	}
	out, ok := setLineBox(data, box)
	if !ok {
		return res
	}
	return fyne.NewStaticResource(res.Name(), out)
}

// setLineBox returns a copy of the TrueType/OpenType font data with the
// ascent and descent of its hhea table and of its OS/2 table (typographic
// and Windows metrics, so whichever a renderer reads agrees) set to box,
// the tables' checksums and head's checkSumAdjustment updated.
func setLineBox(data []byte, box lineBox) ([]byte, bool) {
	out := bytes.Clone(data)
	be := binary.BigEndian
	if len(out) < 12 {
		return nil, false
	}
	n := int(be.Uint16(out[4:]))
	type rec struct{ at, off, length int }
	tables := map[string]rec{}
	for i := 0; i < n; i++ {
		at := 12 + 16*i
		if at+16 > len(out) {
			return nil, false
		}
		r := rec{at, int(be.Uint32(out[at+8:])), int(be.Uint32(out[at+12:]))}
		if r.off < 0 || r.length < 0 || r.off+r.length > len(out) {
			return nil, false
		}
		tables[string(out[at:at+4])] = r
	}
	hhea, os2, head := tables["hhea"], tables["OS/2"], tables["head"]
	if hhea.length < 10 || os2.length < 78 || head.length < 12 {
		return nil, false
	}
	put16 := func(at, v int) { be.PutUint16(out[at:], uint16(int16(v))) }
	put16(hhea.off+4, box.ascent)
	put16(hhea.off+6, -box.descent)
	put16(os2.off+68, box.ascent)
	put16(os2.off+70, -box.descent)
	be.PutUint16(out[os2.off+74:], uint16(box.ascent))
	be.PutUint16(out[os2.off+76:], uint16(box.descent))

	be.PutUint32(out[head.off+8:], 0)
	for _, r := range []rec{hhea, os2, head} {
		be.PutUint32(out[r.at+4:], checksum(out[r.off:r.off+r.length]))
	}
	be.PutUint32(out[head.off+8:], 0xB1B0AFBA-checksum(out))
	return out, true
}

// checksum is the OpenType table checksum of b: the sum of its big-endian
// 32-bit words, the last padded with zeros.
func checksum(b []byte) uint32 {
	var sum uint32
	for i := 0; i < len(b); i += 4 {
		var w [4]byte
		copy(w[:], b[i:])
		sum += binary.BigEndian.Uint32(w[:])
	}
	return sum
}

// family are the styles whose fonts share one line box, as Fyne's own (Noto
// Sans) do: text of one size in them keeps one baseline where a layout
// lines texts up by their boxes' bottoms (dialogs/markdown's paragraphs).
// Monospace has a box of its own.
var family = []fyne.TextStyle{{}, {Bold: true}, {Italic: true}, {Bold: true, Italic: true}}

// boxedFonts holds the theme's fonts with their line boxes grown, made
// once per text style (the app has one theme, and its sizes do not
// change): the first caller makes it, later ones wait for it.
var boxedFonts struct {
	sync.Mutex
	m map[fyne.TextStyle]*boxedEntry
}

type boxedEntry struct {
	once sync.Once
	res  fyne.Resource
}

// boxedFontFor returns th's font for style with its line box grown to hold
// its ink and its family's (holdingBox). Symbol fonts (icons) are served as
// they are.
func boxedFontFor(th fyne.Theme, style fyne.TextStyle) fyne.Resource {
	if style.Symbol {
		return th.Font(style)
	}
	key := fyne.TextStyle{Bold: style.Bold, Italic: style.Italic, Monospace: style.Monospace}
	boxedFonts.Lock()
	if boxedFonts.m == nil {
		boxedFonts.m = map[fyne.TextStyle]*boxedEntry{}
	}
	e := boxedFonts.m[key]
	if e == nil {
		e = &boxedEntry{}
		boxedFonts.m[key] = e
	}
	boxedFonts.Unlock()
	e.once.Do(func() { e.res = makeBoxedFont(th, key) })
	return e.res
}

// makeBoxedFont returns th's font for style with the line box that holds
// the ink of its family's fonts.
func makeBoxedFont(th fyne.Theme, style fyne.TextStyle) fyne.Resource {
	members := family
	if style.Monospace {
		members = []fyne.TextStyle{style}
	}
	var inks []fontInk
	for _, m := range members {
		face, err := font.ParseTTF(bytes.NewReader(th.Font(m).Content()))
		if err != nil {
			continue
		}
		in := measureInk(face)
		if len(inks) > 0 && in.upem != inks[0].upem {
			continue // another design grid: its box would not be the same
		}
		inks = append(inks, in)
	}
	res := th.Font(style)
	if len(inks) == 0 {
		return res
	}
	return boxedFont(res, holdingBox(textSizes(th), inks...))
}

// warmFonts makes th's fonts with their line boxes grown (boxedFontFor) in
// the background, once per process, so that the first window does not wait
// for them (some 15 ms). th is made by the caller: fyne makes its default
// theme on first use, unguarded.
func warmFonts(th fyne.Theme) {
	warmOnce.Do(func() {
		go func() {
			for _, st := range append([]fyne.TextStyle{{Monospace: true}}, family...) {
				boxedFontFor(th, st)
			}
		}()
	})
}

var warmOnce sync.Once
