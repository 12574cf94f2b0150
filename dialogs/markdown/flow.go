package markdown

import (
	"image/color"
	"math"
	"net/url"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Paragraphs and headings are wrapped by flowText, not by widget.RichText.
//
// Fyne's RichText wraps a text segment by measuring, for every row, the
// whole rest of the segment and then a binary search of its prefixes, each
// measurement shaping the text with HarfBuzz (about 0.5 ms a call and a few
// µs a character here). That is quadratic in the length of a paragraph: a
// 5 KB paragraph took seconds, 50 KB minutes, on the one goroutine that
// draws every window. flowText measures each distinct character once per
// text style (a process-wide cache), sums the widths of words and breaks
// lines greedily, so wrapping is linear in the text and re-wrapping after a
// resize costs no measurement at all. The sum of the advances of a word's
// characters is at least its shaped width for the scripts we tried (kerning
// and ligatures only narrow it); flowFit leaves a small margin for the rest.
// A word wider than the line is broken between characters.

// flowFit is the share of the width that wrapped text may fill.
const flowFit = 0.985

// minFlowWidth is the narrowest width text is wrapped for: containers give
// their content tiny or negative sizes before their own is known, and
// wrapping for those would break every word into characters for nothing.
// Narrower, the text keeps the lines it had (or those for
// pictureMaxWidth).
const minFlowWidth = 40

// flowWidth returns the width to wrap for when the widget is w wide.
func (t *flowText) flowWidth(w float32) float32 {
	switch {
	case w >= minFlowWidth:
		return w
	case t.laidW > 0:
		return t.laidW
	}
	return pictureMaxWidth
}

// maxAtomRunes bounds the characters in one unit of line breaking, so an
// unbroken token of any length costs the same per character as prose.
const maxAtomRunes = 32

// measureBudget bounds the characters measured for one question: a
// hostile text of many distinct characters gets estimated widths (a wide
// character's for the wide scripts, "W"'s for the rest) past it.
const measureBudget = 512

// measureText is fyne.MeasureText; tests count the calls through it.
var measureText = fyne.MeasureText

// runeWidths caches the advance of each character per text size and style,
// measured in fonts (see forgetOtherFonts).
var runeWidths = struct {
	sync.Mutex
	m     map[runeKey]float32
	fonts [len(measuredStyles)]fontID
}{m: map[runeKey]float32{}}

// measuredStyles are the text styles whose fonts the measurements are of.
var measuredStyles = [...]fyne.TextStyle{{}, {Bold: true}, {Italic: true}, {Bold: true, Italic: true}, {Monospace: true}}

// fontID tells a font resource from another: its name and where its data is.
type fontID struct {
	name string
	data *byte
}

// forgetOtherFonts empties runeWidths when the app's theme draws text in
// other fonts than those it was measured in (a theme set after the first
// question, or by a test), as fyne empties its own caches then.
func forgetOtherFonts() {
	var fonts [len(measuredStyles)]fontID
	if app := fyne.CurrentApp(); app != nil && app.Settings().Theme() != nil {
		th := app.Settings().Theme()
		for i, st := range measuredStyles {
			if f := th.Font(st); f != nil {
				fonts[i].name = f.Name()
				if c := f.Content(); len(c) > 0 {
					fonts[i].data = &c[0]
				}
			}
		}
	}
	runeWidths.Lock()
	if fonts != runeWidths.fonts {
		clear(runeWidths.m)
		runeWidths.fonts = fonts
	}
	runeWidths.Unlock()
}

type runeKey struct {
	r     rune
	size  float32
	style fyne.TextStyle
}

// maxCachedRunes bounds the process-wide cache of character widths.
const maxCachedRunes = 64 << 10

// measurer measures the characters of one question within its budget.
type measurer struct {
	left int // measurements left in the budget
}

// newMeasurer returns a measurer with a full budget, for the fonts of the
// app's theme.
func newMeasurer() *measurer {
	forgetOtherFonts()
	return &measurer{left: measureBudget}
}

// width returns the advance of r at size in style.
func (m *measurer) width(r rune, size float32, style fyne.TextStyle) float32 {
	k := runeKey{r, size, style}
	runeWidths.Lock()
	w, ok := runeWidths.m[k]
	runeWidths.Unlock()
	if ok {
		return w
	}
	if m.left <= 0 && r != 'W' && r != '中' {
		if r >= 0x1100 {
			return m.width('中', size, style)
		}
		return m.width('W', size, style)
	}
	m.left--
	w = measureText(string(r), size, style).Width
	runeWidths.Lock()
	if len(runeWidths.m) < maxCachedRunes {
		runeWidths.m[k] = w
	}
	runeWidths.Unlock()
	return w
}

// lineHeight returns the height of a line of text at size in style.
func (m *measurer) lineHeight(size float32, style fyne.TextStyle) float32 {
	k := runeKey{-1, size, style}
	runeWidths.Lock()
	h, ok := runeWidths.m[k]
	runeWidths.Unlock()
	if ok {
		return h
	}
	h = measureText("M", size, style).Height
	runeWidths.Lock()
	runeWidths.m[k] = h
	runeWidths.Unlock()
	return h
}

// baseline returns the distance from the top of a line of text at size in
// style to its baseline.
func (m *measurer) baseline(size float32, style fyne.TextStyle) float32 {
	k := runeKey{-2, size, style}
	runeWidths.Lock()
	b, ok := runeWidths.m[k]
	runeWidths.Unlock()
	if ok {
		return b
	}
	b = 0.8 * size // without an app to ask
	if app := fyne.CurrentApp(); app != nil {
		_, b = app.Driver().RenderedTextSize("M", size, style, nil)
	}
	runeWidths.Lock()
	runeWidths.m[k] = b
	runeWidths.Unlock()
	return b
}

// flowRun is a piece of a paragraph in one style; link is set for a
// hyperlink's text, strike for struck text.
type flowRun struct {
	text   string
	style  widget.RichTextStyle
	link   *url.URL
	strike bool
}

// flowSegment is a paragraph or heading of the displayed Markdown: its
// inline text and links, wrapped by flowText.
type flowSegment struct {
	runs []flowRun
	m    *measurer
	// gapAfter: another block follows, kept apart by paragraphGap;
	// gapBefore: a block other than a paragraph comes before (a list, code,
	// a quote, a table), kept apart by it too.
	gapAfter, gapBefore bool
}

// paragraphGap is the space after a paragraph or heading that another
// block follows, in body text sizes (7 px at fyne's 14), on top of the
// line spacing every block gets.
const paragraphGap = 0.5

// gap returns the space kept before and after the paragraph.
func (t *flowText) gap() float32 { return t.gapTop() + t.gapBottom() }

func (t *flowText) gapTop() float32 {
	if !t.seg.gapBefore {
		return 0
	}
	return paragraphGap * theme.SizeForWidget(theme.SizeNameText, t)
}

func (t *flowText) gapBottom() float32 {
	if !t.seg.gapAfter {
		return 0
	}
	return paragraphGap * theme.SizeForWidget(theme.SizeNameText, t)
}

// Inline returns false: a paragraph is a block.
func (f *flowSegment) Inline() bool { return false }

// Textual returns the paragraph's text.
func (f *flowSegment) Textual() string {
	var b strings.Builder
	for _, r := range f.runs {
		b.WriteString(r.text)
	}
	return b.String()
}

// Visual returns a new flowText of the paragraph.
func (f *flowSegment) Visual() fyne.CanvasObject { return newFlowText(f) }

// Update points an existing flowText at this paragraph.
func (f *flowSegment) Update(o fyne.CanvasObject) {
	if t, ok := o.(*flowText); ok && t.seg != f {
		t.seg = f
		t.atoms = nil
		t.Refresh()
	}
}

// Select does nothing: rich text selection is not implemented by fyne yet.
func (f *flowSegment) Select(_, _ fyne.Position) {}

// SelectedText returns "".
func (f *flowSegment) SelectedText() string { return "" }

// Unselect does nothing.
func (f *flowSegment) Unselect() {}

// flowAtom is a unit of line breaking: a word or part of one, a CJK
// character, or a hard line break, with the spaces that follow it.
type flowAtom struct {
	run        int
	start, end int     // byte offsets of the text in the run, spaces excluded
	spaceEnd   int     // byte offset after the trailing spaces
	width      float32 // of the text without the trailing spaces
	space      float32 // of the trailing spaces
	brk        bool    // a line may break after the atom
	newline    bool    // a hard line break
}

// flowPiece is the text of one run on one line.
type flowPiece struct {
	run        int
	start, end int // byte offsets in the run
	x, width   float32
}

type flowLine struct {
	pieces []flowPiece
	height float32
}

// flowText draws a flowSegment wrapped to its width.
type flowText struct {
	widget.BaseWidget
	seg *flowSegment

	atoms   []flowAtom
	heights []float32 // line height of each run
	sizes   []float32 // text size of each run when measured
	laidW   float32   // the width lines were broken for
	lines   []flowLine
	height  float32
	r       *flowRenderer // nil until rendered
}

func newFlowText(seg *flowSegment) *flowText {
	t := &flowText{seg: seg}
	t.ExtendBaseWidget(t)
	return t
}

// runSize returns the text size and style of run i.
func (t *flowText) runSize(i int) (float32, fyne.TextStyle) {
	st := t.seg.runs[i].style
	return textSize(st.SizeName, t), st.TextStyle
}

// textSize returns the size of text of the size name in w: the theme's,
// or for a heading size the theme does not define, the body size scaled
// by headingScale.
func textSize(name fyne.ThemeSizeName, w fyne.Widget) float32 {
	if name == "" {
		name = theme.SizeNameText
	}
	size := theme.SizeForWidget(name, w)
	if scale, ok := headingScale[name]; ok && size == 0 {
		size = theme.SizeForWidget(theme.SizeNameText, w) * scale
	}
	return size
}

// measure splits the runs into atoms and measures them.
func (t *flowText) measure() {
	t.atoms = t.atoms[:0]
	t.heights = make([]float32, len(t.seg.runs))
	t.sizes = make([]float32, len(t.seg.runs))
	m := t.seg.m
	if m == nil {
		m = newMeasurer()
		t.seg.m = m
	}
	for i, run := range t.seg.runs {
		size, style := t.runSize(i)
		t.sizes[i] = size
		t.heights[i] = m.lineHeight(size, style)
		var ascii [128]float32 // this run's widths of ASCII characters: no lock, no hashing
		width := func(r rune) float32 {
			if r >= 0 && r < 128 && ascii[r] > 0 {
				return ascii[r]
			}
			w := m.width(r, size, style)
			if r >= 0 && r < 128 {
				ascii[r] = w
			}
			return w
		}
		text := run.text
		a := flowAtom{run: i}
		n := 0 // runes in the atom
		closeAtom := func(at int, brk bool) {
			if a.start < at || a.newline {
				a.end, a.spaceEnd, a.brk = at, at, brk
				t.atoms = append(t.atoms, a)
			}
			a = flowAtom{run: i, start: at}
			n = 0
		}
		for off := 0; off < len(text); {
			r, size1 := utf8.DecodeRuneInString(text[off:])
			switch {
			case r == '\n':
				closeAtom(off, true)
				t.atoms = append(t.atoms, flowAtom{run: i, start: off, end: off, spaceEnd: off + 1, brk: true, newline: true})
				a.start = off + 1
			case unicode.IsSpace(r):
				// trailing spaces belong to the atom before them
				end := off
				for off < len(text) {
					r2, s2 := utf8.DecodeRuneInString(text[off:])
					if r2 == '\n' || !unicode.IsSpace(r2) {
						break
					}
					a.space += width(r2)
					off += s2
				}
				a.end, a.spaceEnd, a.brk = end, off, true
				t.atoms = append(t.atoms, a)
				a = flowAtom{run: i, start: off}
				n = 0
				continue
			case isCJK(r):
				closeAtom(off, true)
				a.width = width(r)
				n = 1
				off += size1
				closeAtom(off, true)
				continue
			default:
				if n == maxAtomRunes {
					closeAtom(off, false)
				}
				a.width += width(r)
				n++
			}
			off += size1
		}
		closeAtom(len(text), false)
	}
	if len(t.atoms) > 0 {
		t.atoms[len(t.atoms)-1].brk = true
	}
}

// sizesChanged reports whether the theme's text sizes differ from those
// the atoms were measured at.
func (t *flowText) sizesChanged() bool {
	if len(t.sizes) != len(t.seg.runs) {
		return true
	}
	for i := range t.seg.runs {
		if size, _ := t.runSize(i); size != t.sizes[i] {
			return true
		}
	}
	return false
}

// layoutLines breaks the atoms into lines of at most width w.
func (t *flowText) layoutLines(w float32) {
	if t.atoms == nil {
		t.measure()
	}
	fit := w * flowFit
	t.lines = t.lines[:0]
	var cur flowLine
	x := float32(0)
	newLine := func() {
		t.lines = append(t.lines, cur)
		cur = flowLine{}
		x = 0
	}
	place := func(run, start, end int, width float32) {
		if n := len(cur.pieces); n > 0 && cur.pieces[n-1].run == run && cur.pieces[n-1].end == start {
			cur.pieces[n-1].end = end
			cur.pieces[n-1].width += width
		} else {
			cur.pieces = append(cur.pieces, flowPiece{run: run, start: start, end: end, x: x, width: width})
		}
		cur.height = max(cur.height, t.heights[run])
		x += width
	}
	for i := 0; i < len(t.atoms); {
		if t.atoms[i].newline {
			cur.height = max(cur.height, t.heights[t.atoms[i].run])
			newLine()
			i++
			continue
		}
		// a word: atoms up to one after which a line may break
		j, width := i, float32(0)
		for ; j < len(t.atoms) && !t.atoms[j].newline; j++ {
			width += t.atoms[j].width
			if t.atoms[j].brk {
				j++
				break
			}
			width += t.atoms[j].space
		}
		if x > 0 && x+width > fit {
			newLine()
		}
		long := width > fit // a token wider than a line fills each line to the edge
		for k := i; k < j; k++ {
			a := t.atoms[k]
			if x == 0 && a.start == a.end {
				continue // spaces at the start of a line
			}
			if x+a.width > fit && a.width > 0 {
				if !long && x > 0 {
					newLine()
				}
				if x+a.width > fit {
					t.breakAtom(a, fit, &x, place, newLine)
					continue
				}
			}
			place(a.run, a.start, a.spaceEnd, a.width+a.space)
		}
		i = j
	}
	if len(cur.pieces) > 0 || len(t.lines) == 0 {
		if cur.height == 0 && len(t.heights) > 0 {
			cur.height = t.heights[0]
		}
		newLine()
	}
	t.height = 0
	for _, l := range t.lines {
		t.height += l.height
	}
	t.laidW = w
}

// breakAtom places an atom wider than the line's room character by
// character, starting new lines as they fill.
func (t *flowText) breakAtom(a flowAtom, fit float32, x *float32, place func(run, start, end int, w float32), newLine func()) {
	size, style := t.runSize(a.run)
	text := t.seg.runs[a.run].text
	start, w := a.start, float32(0)
	for off := a.start; off < a.end; {
		r, n := utf8.DecodeRuneInString(text[off:])
		rw := t.seg.m.width(r, size, style)
		if *x+w+rw > fit && (off > start || *x > 0) {
			if off > start {
				place(a.run, start, off, w)
			}
			newLine()
			start, w = off, 0
		}
		w += rw
		off += n
	}
	place(a.run, start, a.spaceEnd, w+a.space)
}

// Resize re-wraps the text for the new width; a change of height
// refreshes the widget so that its container makes room.
func (t *flowText) Resize(s fyne.Size) {
	t.BaseWidget.Resize(s)
	if s.Width < minFlowWidth && t.laidW == 0 {
		return
	}
	if w := t.flowWidth(s.Width); w != t.laidW {
		t.layoutLines(w)
		if t.r != nil {
			t.r.rebuild()
			canvas.Refresh(t)
		}
	}
}

// MinSize is the height of the text at its current width and no width:
// wrapped text never forces its container wider.
func (t *flowText) MinSize() fyne.Size {
	if t.Size().Width < minFlowWidth && t.laidW == 0 {
		return fyne.NewSize(0, t.estimateHeight(pictureMaxWidth)+t.gap())
	}
	w := t.flowWidth(t.Size().Width)
	if t.atoms == nil || w != t.laidW {
		t.layoutLines(w)
	}
	return fyne.NewSize(0, t.height+t.gap())
}

// estimateHeight guesses the height at width w without breaking lines:
// containers ask before they give the text a width, and the lines would
// be broken again as soon as they do.
func (t *flowText) estimateHeight(w float32) float32 {
	if t.atoms == nil {
		t.measure()
	}
	lines, width, height := 1, float32(0), float32(0)
	for _, a := range t.atoms {
		height = max(height, t.heights[a.run])
		if a.newline {
			lines++
			continue
		}
		width += a.width + a.space
	}
	lines += int(width / (w * flowFit))
	return float32(lines) * height
}

// CreateRenderer implements fyne.Widget.
func (t *flowText) CreateRenderer() fyne.WidgetRenderer {
	r := &flowRenderer{t: t}
	r.rebuild()
	return r
}

type flowRenderer struct {
	t     *flowText
	objs  []fyne.CanvasObject
	scale float32 // of the canvas the objects were placed for
}

// scale returns the scale of the canvas t is shown on, 1 before it is.
func (t *flowText) scale() float32 {
	if app := fyne.CurrentApp(); app != nil {
		if c := app.Driver().CanvasForObject(t); c != nil && c.Scale() > 0 {
			return c.Scale()
		}
	}
	return 1
}

// rebuild creates one text object per piece of each line.
func (r *flowRenderer) rebuild() {
	t := r.t
	t.r = r
	r.objs = r.objs[:0]
	if t.Size().Width < minFlowWidth && t.laidW == 0 {
		return // no width yet: the objects are made when there is one
	}
	if w := t.flowWidth(t.Size().Width); t.atoms == nil || w != t.laidW {
		t.layoutLines(w)
	}
	// Texts are placed on whole device pixels: the GL painter rounds a
	// text's size against its position, and a fractional position draws
	// it a pixel wider or narrower than its texture, blurred.
	scale := t.scale()
	r.scale = scale
	snap := func(v float32) float32 { return float32(math.Round(float64(v*scale))) / scale }
	y := t.gapTop()
	for _, l := range t.lines {
		for i, p := range l.pieces {
			run := t.seg.runs[p.run]
			text := run.text[p.start:p.end]
			width := p.width
			if i == len(l.pieces)-1 {
				trimmed := strings.TrimRightFunc(text, unicode.IsSpace)
				width -= t.spaceWidth(p.run, text[len(trimmed):])
				text = trimmed
			}
			if text == "" {
				continue
			}
			size, style := t.runSize(p.run)
			h := t.heights[p.run]
			pos := fyne.NewPos(snap(p.x), snap(y+l.height-h))
			drawn, lead := leadSpace(text, t.seg.m, size, style)
			switch {
			case run.link != nil:
				obj := newFlowLink(drawn, run.link, size, style, t)
				obj.Move(fyne.NewPos(snap(p.x-lead), pos.Y))
				obj.Resize(fyne.NewSize(p.width+lead, h))
				r.objs = append(r.objs, obj)
			case style.Bold && hasWide(text):
				r.drawBold(text, textColor(run.style, t), size, style, p.x, pos.Y, h, 1/scale, snap)
			default:
				c := canvas.NewText(drawn, textColor(run.style, t))
				c.TextSize, c.TextStyle = size, style
				c.Move(fyne.NewPos(snap(p.x-lead), pos.Y))
				c.Resize(fyne.NewSize(p.width+lead, h))
				r.objs = append(r.objs, c)
			}
			if run.strike {
				ly, thick := strikeLine(size, t.seg.m.baseline(size, style), hasWide(text))
				line := canvas.NewRectangle(textColor(run.style, t))
				line.Move(fyne.NewPos(pos.X, snap(pos.Y+ly-thick/2)))
				line.Resize(fyne.NewSize(width, max(thick, 1/scale)))
				r.objs = append(r.objs, line)
			}
		}
		y += l.height
	}
}

// leadSpace returns the text to draw for text, and how far left of the
// text's place to draw it. Fyne 2.7 put a text's baseline where the font of
// its first character put it, 2.8 at the tallest ascent of the fonts the
// text is drawn in: a piece of a fallback font alone (CJK, an emoji) would
// sit higher than the pieces beside it, whose font (the theme's, its line
// box grown: dialogs/fontbox.go) rises higher than any fallback. Such a
// piece is drawn after a space, which the text's own font has, moved left
// by the space's width.
func leadSpace(text string, m *measurer, size float32, style fyne.TextStyle) (string, float32) {
	if text == "" || text[0] < utf8.RuneSelf {
		return text, 0
	}
	return " " + text, m.width(' ', size, style)
}

// spaceWidth returns the width of the white space s in run i.
func (t *flowText) spaceWidth(i int, s string) float32 {
	size, style := t.runSize(i)
	w := float32(0)
	for _, c := range s {
		w += t.seg.m.width(c, size, style)
	}
	return w
}

// drawBold draws bold text holding CJK characters: the CJK fallback fonts
// (WenQuanYi, Noto Sans CJK) are not chosen in a bold weight by Fyne, so
// bold CJK would look like the text around it. The text is drawn in pieces
// of CJK and other characters, and each CJK piece a second time a device
// pixel to the right, which thickens every stroke, as browsers do for a
// font without a bold face; Latin text has its bold face and is drawn once.
// Both copies of a piece are the same text at whole device pixels, so they
// are drawn alike and exactly a pixel apart.
func (r *flowRenderer) drawBold(text string, col color.Color, size float32, style fyne.TextStyle, x0, y, h, px float32, snap func(float32) float32) {
	m := r.t.seg.m
	draw := func(piece string, x, w float32, wide bool) {
		drawn, lead := leadSpace(piece, m, size, style)
		copies := 1
		if wide {
			copies = 2
		}
		for i := range copies {
			c := canvas.NewText(drawn, col)
			c.TextSize, c.TextStyle = size, style
			c.Move(fyne.NewPos(snap(x0+x-lead)+float32(i)*px, y))
			c.Resize(fyne.NewSize(w+lead, h))
			r.objs = append(r.objs, c)
		}
	}
	start, startX, x := 0, float32(0), float32(0)
	wide := false
	for off, ch := range text {
		if w := isWide(ch); w != wide && off > start {
			draw(text[start:off], startX, x-startX, wide)
			start, startX = off, x
		}
		wide = isWide(ch)
		x += m.width(ch, size, style)
	}
	if start < len(text) {
		draw(text[start:], startX, x-startX, wide)
	}
}

// hasWide reports whether s holds a CJK or Hangul character.
func hasWide(s string) bool {
	for _, c := range s {
		if isWide(c) {
			return true
		}
	}
	return false
}

func textColor(st widget.RichTextStyle, w fyne.Widget) color.Color {
	name := st.ColorName
	if name == "" {
		name = theme.ColorNameForeground
	}
	return theme.ColorForWidget(name, w)
}

func (r *flowRenderer) Layout(fyne.Size) {}

func (r *flowRenderer) MinSize() fyne.Size { return r.t.MinSize() }

func (r *flowRenderer) Refresh() {
	if r.t.sizesChanged() {
		r.t.atoms = nil // measured again for the theme's new sizes
	}
	r.rebuild()
	canvas.Refresh(r.t)
}

// Objects returns the texts, placed again first if the canvas's scale
// changed since they were: a window gets its scale when it is first shown,
// after its content was laid out, and texts must sit on whole pixels of it.
func (r *flowRenderer) Objects() []fyne.CanvasObject {
	if r.scale != 0 && r.t.scale() != r.scale {
		r.rebuild()
	}
	return r.objs
}

func (r *flowRenderer) Destroy() {}

// flowLink is the text of a link on one line: tapping it opens the URL.
type flowLink struct {
	widget.BaseWidget
	text *canvas.Text
	url  *url.URL
}

func newFlowLink(text string, u *url.URL, size float32, style fyne.TextStyle, parent fyne.Widget) *flowLink {
	c := canvas.NewText(text, theme.ColorForWidget(theme.ColorNameHyperlink, parent))
	c.TextSize, c.TextStyle = size, style
	l := &flowLink{text: c, url: u}
	l.ExtendBaseWidget(l)
	return l
}

// CreateRenderer implements fyne.Widget.
func (l *flowLink) CreateRenderer() fyne.WidgetRenderer { return widget.NewSimpleRenderer(l.text) }

// Tapped opens the link.
func (l *flowLink) Tapped(*fyne.PointEvent) {
	if app := fyne.CurrentApp(); app != nil {
		_ = app.OpenURL(l.url)
	}
}

// Cursor is the pointing hand.
func (l *flowLink) Cursor() desktop.Cursor { return desktop.PointerCursor }
