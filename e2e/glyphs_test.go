package e2e

import (
	"bytes"
	"cmp"
	"fmt"
	"image"
	"image/color"
	"math"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"github.com/go-text/render"
	"github.com/go-text/typesetting/di"
	"github.com/go-text/typesetting/font"
	"github.com/go-text/typesetting/fontscan"
	"github.com/go-text/typesetting/language"
	"github.com/go-text/typesetting/shaping"
	"golang.org/x/image/math/fixed"
)

// glyphWords are drawn in every text style: an underscore (it vanished from
// monospace text at FYNE_SCALE=1.5, "data_old" read "data old"),
// descenders, accented capitals and CJK from a system fallback font.
var glyphWords = []string{"data_old", "gjpqy", "ÀÉÎ", "中文字"}

// glyphStyles are the text styles of a question's Markdown, as the window
// draws them: the style, the size (fyne's text size 14, headings 24, 18
// and 16) and the Markdown that asks for it.
var glyphStyles = []struct {
	name, md string
	style    fyne.TextStyle
	size     float32
}{
	{"regular", "%s", fyne.TextStyle{}, 14},
	{"bold", "**%s**", fyne.TextStyle{Bold: true}, 14},
	{"italic", "*%s*", fyne.TextStyle{Italic: true}, 14},
	{"bold italic", "***%s***", fyne.TextStyle{Bold: true, Italic: true}, 14},
	{"inline code", "`%s`", fyne.TextStyle{Monospace: true}, 14},
	{"code block", "```\n%s\n```", fyne.TextStyle{Monospace: true}, 14},
	{"heading 1", "# %s", fyne.TextStyle{Bold: true}, 24},
	{"heading 2", "## %s", fyne.TextStyle{Bold: true}, 18},
	{"heading 3", "### %s", fyne.TextStyle{Bold: true}, 16},
}

// Every glyph is drawn whole, in every text style, at scales 1, 1.25 (fyne
// draws it at 1.3), 1.5 and 2, through the real GL painter: a question's
// window shows the words of glyphWords in each style of glyphStyles. Each
// word is found in the window and its reference (the word shaped and
// rasterised as fyne does, uncut) placed over it as GL draws it (resampled
// at fractional positions, to a 16th of a pixel); then for each glyph the
// ink of the rows where its outline puts its bottom and its top (its own
// bounds from its font, at the size and scale drawn), and its whole ink,
// must be at least 70% of the reference's. Fyne draws a text into an image
// one line box tall; DejaVu Sans Mono's underscore sits on its descent
// line, and the GL painter's rounding cut it off (none left at 1.5, a
// faint half at 1: 0% and 43%; dialogs/fontbox.go). Screenshots
// glyphs-scale*.
func TestGlyphsDrawnWhole(t *testing.T) {
	requireSession(t)
	refs := newGlyphRefs(t)
	var md []string
	for _, st := range glyphStyles {
		md = append(md, fmt.Sprintf(st.md, strings.Join(glyphWords, " ")))
	}
	for _, scale := range []float32{1, 1.25, 1.5, 2} {
		name := fmt.Sprint(scale)
		drawn := float32(math.Round(float64(scale)*10)) / 10 // fyne rounds its scale to tenths: 1.25 is 1.3
		t.Run("scale"+name, func(t *testing.T) {
			startApp(t, "FYNE_SCALE="+name)
			title := "Glyphs" + name
			r := startAsk(t, "--yesno", "--title", title, strings.Join(md, "\n\n"))
			win := findWindow(t, title+" — feedback")
			_, _, w, h := geometry(t, win)
			waitPainted(t, win, w, h)
			screenshot(t, "glyphs-scale"+name)
			shot := inkOf(openScreen(t).pixels(t, win, image.Rect(0, 0, w, h)), w, h)
			checkGlyphs(t, shot, refs, drawn)
			activate(t, win)
			key(t, "Escape")
			r.wait(t)
		})
	}
}

// inkMap is how much of each pixel is text: 0 (background) to 1 (the text
// colour).
type inkMap struct {
	w, h int
	v    []float64
}

func (m *inkMap) at(x, y int) float64 {
	if x < 0 || y < 0 || x >= m.w || y >= m.h {
		return 0
	}
	return m.v[y*m.w+x]
}

// sum is the ink in the rectangle r.
func (m *inkMap) sum(r image.Rectangle) float64 {
	s := 0.0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			s += m.at(x, y)
		}
	}
	return s
}

// inkFloor is the ink below which a pixel counts as background, in the
// window and in the references alike: panel edges and shades are not text.
const inkFloor = 0.04

// inkOf reads a window's BGRX pixels as ink: each pixel's distance from
// the lightest pixel near it (the background under it: the window, a code
// panel) toward the text colour (the darkest pixel of the window), in
// colour values, which text is blended in. A dark theme is read inverted.
func inkOf(px []byte, w, h int) *inkMap {
	lum := make([]float64, w*h)
	total := 0.0
	for i := range lum {
		p := px[4*i:]
		lum[i] = (0.114*float64(p[0]) + 0.587*float64(p[1]) + 0.299*float64(p[2])) / 255
		total += lum[i]
	}
	if total/float64(len(lum)) < 0.5 { // a dark theme: light text
		for i := range lum {
			lum[i] = 1 - lum[i]
		}
	}
	// The background near each pixel: the lightest within 5 px (wider than
	// any stroke drawn here), a separable max filter.
	const rad = 5
	rows := make([]float64, w*h)
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			m := 0.0
			for d := max(0, x-rad); d <= min(w-1, x+rad); d++ {
				m = max(m, lum[y*w+d])
			}
			rows[y*w+x] = m
		}
	}
	fg := 1.0
	for _, l := range lum {
		fg = min(fg, l)
	}
	out := &inkMap{w: w, h: h, v: make([]float64, w*h)}
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			bg := 0.0
			for d := max(0, y-rad); d <= min(h-1, y+rad); d++ {
				bg = max(bg, rows[d*w+x])
			}
			v := 0.0
			if bg-fg > 0.2 {
				v = (bg - lum[y*w+x]) / (bg - fg)
			}
			if v < inkFloor {
				v = 0
			}
			out.v[y*w+x] = min(1, v)
		}
	}
	return out
}

// glyphRefs shapes and rasterises text as fyne's painter does (go-text's
// HarfBuzz shaper and renderer, fyne's fonts, a system font for what they
// lack), but into an image large enough that nothing is cut.
type glyphRefs struct {
	faces    map[fyne.TextStyle]*font.Face
	fallback *fontscan.FontMap
}

type quietLogger struct{}

func (quietLogger) Printf(string, ...any) {}

func newGlyphRefs(t *testing.T) *glyphRefs {
	t.Helper()
	g := &glyphRefs{faces: map[fyne.TextStyle]*font.Face{}, fallback: fontscan.NewFontMap(quietLogger{})}
	for _, st := range glyphStyles {
		f, err := font.ParseTTF(bytes.NewReader(theme.DefaultTheme().Font(st.style).Content()))
		if err != nil {
			t.Fatalf("fyne's font for %+v: %v", st.style, err)
		}
		g.faces[st.style] = f
	}
	if err := g.fallback.UseSystemFonts(t.TempDir()); err != nil {
		t.Fatalf("system fonts: %v", err)
	}
	return g
}

// fontmap resolves a rune to the style's font or, lacking it, to the
// system font fyne falls back to (its family: monospace or sans-serif, and
// the rune's script, as fyne 2.8 asks: go-text's fontscan 0.3 picks no CJK
// font for a query without one).
type fontmap struct {
	primary *font.Face
	g       *glyphRefs
	family  string
}

func (m fontmap) ResolveFace(r rune) *font.Face {
	if _, ok := m.primary.NominalGlyph(r); ok {
		return m.primary
	}
	m.g.fallback.SetQuery(fontscan.Query{Families: []string{m.family}})
	m.g.fallback.SetScript(language.LookupScript(r))
	if f := m.g.fallback.ResolveFace(r); f != nil {
		return f
	}
	return m.primary
}

// glyphBox is one glyph's ink as its font's outline bounds say, in the
// reference image's pixels (y down).
type glyphBox struct {
	r                     rune
	left, right, top, bot float64
}

// wordRef is a word rasterised uncut, its glyphs' boxes, and the rectangle
// holding its ink.
type wordRef struct {
	word   string
	ink    *inkMap
	glyphs []glyphBox
	bounds image.Rectangle
}

// word shapes and draws word in style at size and scale.
func (g *glyphRefs) word(word string, style fyne.TextStyle, size, scale float32) *wordRef {
	family := fontscan.SansSerif
	if style.Monospace {
		family = fontscan.Monospace
	}
	fm := fontmap{g.faces[style], g, family}
	runes := []rune(word)
	in := shaping.Input{Text: runes, RunEnd: len(runes), Direction: di.DirectionLTR,
		Face: fm.primary, Size: fixed.Int26_6(size * 64)}
	px := size * scale
	pad := int(2 * px)
	w, h := int(px*float32(len(runes)+2)), int(4*px)
	img := image.NewNRGBA(image.Rect(0, 0, w, h))
	base := 2 * int(px)
	ren := render.Renderer{FontSize: size, PixScale: scale, Color: color.Black}
	ref := &wordRef{word: word}
	x := float32(pad)
	shaper := &shaping.HarfbuzzShaper{}
	for _, seg := range (&shaping.Segmenter{}).Split(in, fm) {
		out := shaper.Shape(seg)
		ren.DrawShapedRunAt(out, img, int(x), base)
		if style.Bold && out.Face != fm.primary {
			// Bold CJK: fyne has no bold face for it; the window draws it a
			// second time a device pixel over (dialogs/markdown).
			ren.DrawShapedRunAt(out, img, int(x)+1, base)
		}
		k := float64(px) / float64(out.Face.Upem())
		pen := float64(int(x))
		for _, gl := range out.Glyphs {
			e, _ := out.Face.GlyphExtents(gl.GlyphID)
			gx := pen + float64(gl.XOffset)/64*float64(scale)
			gy := float64(base) - float64(gl.YOffset)/64*float64(scale)
			ref.glyphs = append(ref.glyphs, glyphBox{
				r:     runes[gl.TextIndex()],
				left:  gx + float64(e.XBearing)*k,
				right: gx + float64(e.XBearing+e.Width)*k,
				top:   gy - float64(e.YBearing)*k,
				bot:   gy - float64(e.YBearing+e.Height)*k,
			})
			pen += float64(gl.Advance) / 64 * float64(scale)
		}
		x += float32(out.Advance) / 64 * scale
	}
	ref.ink = &inkMap{w: w, h: h, v: make([]float64, w*h)}
	ref.bounds = image.Rectangle{Min: image.Pt(w, h)}
	for i := range ref.ink.v {
		v := float64(img.Pix[4*i+3]) / 255
		if v < inkFloor {
			v = 0
		}
		ref.ink.v[i] = v
		if v > 0 {
			p := image.Pt(i%w, i/w)
			ref.bounds = ref.bounds.Union(image.Rectangle{Min: p, Max: p.Add(image.Pt(1, 1))})
		}
	}
	return ref
}

// band is a run of window rows holding ink: a line of text.
type band struct{ top, bot int }

// inkBands returns the runs of rows of m with ink.
func inkBands(m *inkMap) []band {
	var out []band
	in := false
	for y := 0; y <= m.h; y++ {
		row := 0.0
		if y < m.h {
			row = m.sum(image.Rect(0, y, m.w, y+1))
		}
		switch {
		case row >= 0.5 && !in:
			out = append(out, band{top: y})
			in = true
		case row < 0.5 && in:
			out[len(out)-1].bot = y
			in = false
		}
	}
	return out
}

// findWord returns where ref's image lies over the window's ink in the
// rows of b (the offset of ref's origin), the best match of the word's ink
// from x0 on, and its normalised correlation (1: the same ink). Columns'
// ink first picks a few places along the band; each is then matched
// pixel by pixel a few pixels around.
func findWord(shot *inkMap, b band, ref *wordRef, x0 int) (off image.Point, score float64) {
	rb := ref.bounds
	rows := image.Rect(0, max(0, b.top-6), 0, min(shot.h, b.bot+6))
	rcol := make([]float64, rb.Dx())
	for x := range rcol {
		rcol[x] = ref.ink.sum(image.Rect(rb.Min.X+x, rb.Min.Y, rb.Min.X+x+1, rb.Max.Y))
	}
	scol := make([]float64, shot.w)
	for x := range scol {
		scol[x] = shot.sum(image.Rect(x, rows.Min.Y, x+1, rows.Max.Y))
	}
	type cand struct {
		x int
		c float64
	}
	var cands []cand
	for x := x0; x+len(rcol) <= shot.w; x++ {
		dot, n1, n2 := 0.0, 0.0, 0.0
		for i, r := range rcol {
			dot += r * scol[x+i]
			n1 += r * r
			n2 += scol[x+i] * scol[x+i]
		}
		if n2 > 0 {
			cands = append(cands, cand{x, dot / math.Sqrt(n1*n2)})
		}
	}
	slices.SortFunc(cands, func(a, b cand) int { return cmp.Compare(b.c, a.c) })
	refNorm := 0.0
	for y := rb.Min.Y; y < rb.Max.Y; y++ {
		for x := rb.Min.X; x < rb.Max.X; x++ {
			refNorm += ref.ink.at(x, y) * ref.ink.at(x, y)
		}
	}
	best := -1.0
	for _, c := range cands[:min(len(cands), 5)] {
		for dy := b.top - rb.Min.Y - 6; dy <= b.bot-rb.Max.Y+6; dy++ {
			for dx := c.x - rb.Min.X - 2; dx <= c.x-rb.Min.X+2; dx++ {
				dot, norm := 0.0, 0.0
				for y := rb.Min.Y; y < rb.Max.Y; y++ {
					for x := rb.Min.X; x < rb.Max.X; x++ {
						s := shot.at(x+dx, y+dy)
						dot += s * ref.ink.v[y*ref.ink.w+x]
						norm += s * s
					}
				}
				if norm == 0 {
					continue
				}
				if v := dot / math.Sqrt(norm*refNorm); v > best {
					best, off = v, image.Pt(dx, dy)
				}
			}
		}
	}
	return off, best
}

// placement is where the painter put a word's image in the window: the
// reference's pixel (x, y) lands at (x+dx, pivot+(y-pivot)*sy+dy). GL
// draws a text's image stretched to a rectangle up to a pixel taller or
// shorter (both rounded to pixels, apart), at fractional pixel positions,
// sampled linearly: the window shows the image resampled.
type placement struct {
	dx, dy, sy, pivot float64
}

func (p placement) x(x float64) float64 { return x + p.dx }
func (p placement) y(y float64) float64 { return p.pivot + (y-p.pivot)*p.sy + p.dy }

// model is the ink the window would show at its pixel (x, y) for ref
// placed at p: ref sampled linearly, as GL samples a texture.
func (p placement) model(ref *inkMap, x, y int) float64 {
	u := float64(x) - p.dx
	v := p.pivot + (float64(y)+0.5-p.dy-p.pivot)/p.sy - 0.5
	x0, y0 := int(math.Floor(u)), int(math.Floor(v))
	fx, fy := u-float64(x0), v-float64(y0)
	return (1-fy)*((1-fx)*ref.at(x0, y0)+fx*ref.at(x0+1, y0)) + fy*((1-fx)*ref.at(x0, y0+1)+fx*ref.at(x0+1, y0+1))
}

// modelSum is the model's ink in the window's rectangle r.
func (p placement) modelSum(ref *inkMap, r image.Rectangle) float64 {
	s := 0.0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			s += p.model(ref, x, y)
		}
	}
	return s
}

// fit finds the placement of ref near the whole-pixel offset off that
// matches the window best, to a sixteenth of a pixel, with the image a
// pixel of its line box (lineBox px tall) taller or shorter, and its
// normalised correlation.
func fit(shot *inkMap, ref *wordRef, off image.Point, lineBox float64) (best placement, score float64) {
	score = -1
	try := func(p placement) {
		if c := correlate(shot, ref, p); c > score {
			best, score = p, c
		}
	}
	for _, sy := range []float64{1 - 1/lineBox, 1, 1 + 1/lineBox} {
		for qy := -4; qy <= 4; qy++ {
			for qx := -4; qx <= 4; qx++ {
				try(placement{dx: float64(off.X) + float64(qx)/4, dy: float64(off.Y) + float64(qy)/4, sy: sy, pivot: float64(ref.bounds.Min.Y)})
			}
		}
	}
	coarse := best
	for qy := -3; qy <= 3; qy++ {
		for qx := -3; qx <= 3; qx++ {
			p := coarse
			p.dx += float64(qx) / 16
			p.dy += float64(qy) / 16
			try(p)
		}
	}
	return best, score
}

// correlate is the normalised correlation of the window's ink with ref
// placed at p.
func correlate(shot *inkMap, ref *wordRef, p placement) float64 {
	rb := ref.bounds
	win := image.Rect(int(math.Floor(p.x(float64(rb.Min.X))))-1, int(math.Floor(p.y(float64(rb.Min.Y))))-1,
		int(math.Ceil(p.x(float64(rb.Max.X))))+1, int(math.Ceil(p.y(float64(rb.Max.Y))))+1)
	dot, n1, n2 := 0.0, 0.0, 0.0
	for y := win.Min.Y; y < win.Max.Y; y++ {
		for x := win.Min.X; x < win.Max.X; x++ {
			m, s := p.model(ref.ink, x, y), shot.at(x, y)
			dot += m * s
			n1 += m * m
			n2 += s * s
		}
	}
	if n1 == 0 || n2 == 0 {
		return -1
	}
	return dot / math.Sqrt(n1*n2)
}

// goodFit is the correlation of a word placed in the window with its
// reference from which the word counts as found there.
const goodFit = 0.9

// checkGlyphs finds each style's line in the window (the bands in order,
// each the first where its first word fits) and each word in it, and
// checks every glyph's bottom and top rows and whole ink against its
// reference placed as the window shows it.
func checkGlyphs(t *testing.T, shot *inkMap, refs *glyphRefs, scale float32) {
	t.Helper()
	bands := inkBands(shot)
	next := 0
	low := lowest{ratio: math.Inf(1)}
	defer func() { t.Logf("the least ink drawn of a glyph's part: %.0f%% (%s)", 100*low.ratio, low.what) }()
	for _, st := range glyphStyles {
		words := make([]*wordRef, len(glyphWords))
		for i, w := range glyphWords {
			words[i] = refs.word(w, st.style, st.size, scale)
		}
		lineBox := refs.lineBox(st.style, st.size, scale)
		found := -1
		var place placement
		var seen []string
		for i := next; i < len(bands) && found < 0; i++ {
			off, _ := findWord(shot, bands[i], words[0], 0)
			p, score := fit(shot, words[0], off, lineBox)
			seen = append(seen, fmt.Sprintf("rows %d–%d: %.2f", bands[i].top, bands[i].bot, score))
			if score >= goodFit {
				found, place = i, p
			}
		}
		if found < 0 {
			t.Errorf("%s: no line of the window shows %q; the lines left and how well the word fits them: %s",
				st.name, glyphWords[0], strings.Join(seen, ", "))
			continue
		}
		next = found + 1
		x := int(place.x(float64(words[0].bounds.Max.X)))
		for i, w := range words {
			p, score := place, 1.0
			if i > 0 {
				off, _ := findWord(shot, bands[found], w, x)
				p, score = fit(shot, w, off, lineBox)
			}
			if score < goodFit {
				t.Errorf("%s: %q not found in its line (best fit %.2f)", st.name, w.word, score)
				continue
			}
			x = int(p.x(float64(w.bounds.Max.X)))
			checkWord(t, st.name, shot, w, p, &low)
		}
	}
}

// lowest remembers the glyph part drawn with the least of its ink.
type lowest struct {
	ratio float64
	what  string
}

func (l *lowest) note(ratio float64, what string) {
	if ratio < l.ratio {
		l.ratio, l.what = ratio, what
	}
}

// lineBox is the height in pixels of the line box of fyne's own font for
// style at size and scale.
func (g *glyphRefs) lineBox(style fyne.TextStyle, size, scale float32) float64 {
	f := g.faces[style]
	ext, _ := f.FontHExtents()
	return float64((ext.Ascender - ext.Descender + ext.LineGap) / float32(f.Upem()) * size * scale)
}

// checkWord compares each glyph of w, placed at p in the window, with its
// reference placed alike: its whole ink, and the ink of the two pixel rows
// where its outline's bottom is and of the two where its top is (the
// glyph's own bounds from its font), with a row beyond for the blur of
// resampling. A glyph cut by its line box has lost its bottom or top rows.
func checkWord(t *testing.T, style string, shot *inkMap, w *wordRef, p placement, low *lowest) {
	t.Helper()
	const enough = 0.7 // of the reference's ink
	for _, g := range w.glyphs {
		l, r := int(math.Floor(p.x(g.left))), int(math.Ceil(p.x(g.right)))
		if r <= l {
			continue // a space
		}
		top, bot := int(math.Floor(p.y(g.top))), int(math.Ceil(p.y(g.bot)))
		for _, zone := range []struct {
			part string
			r    image.Rectangle
		}{
			{"bottom", image.Rect(l, bot-2, r, bot+1)},
			{"top", image.Rect(l, top-1, r, top+2)},
			{"whole", image.Rect(l, top-1, r, bot+1)},
		} {
			want := p.modelSum(w.ink, zone.r)
			if want < 0.5 {
				continue // too little ink to compare
			}
			got := shot.sum(zone.r)
			var rows []string
			for y := top - 2; y < bot+2; y++ {
				row := image.Rect(l, y, r, y+1)
				rows = append(rows, fmt.Sprintf("%.1f/%.1f", shot.sum(row), p.modelSum(w.ink, row)))
			}
			low.note(got/want, fmt.Sprintf("%s %q %s: %s; fit %+v", style, g.r, zone.part, strings.Join(rows, " "), p))
			if got < enough*want {
				t.Errorf("%s: %q in %q: the %s of the glyph has %.0f%% of its ink (%.1f of %.1f px in rows %d–%d of the window); "+
					"its ink drawn/whole by row from row %d: %s",
					style, g.r, w.word, zone.part, 100*got/want, got, want, zone.r.Min.Y, zone.r.Max.Y, top-2, strings.Join(rows, " "))
			}
		}
	}
}
