package markdown

import (
	"image/color"
	"math"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// codeView draws a code block line by line, monospace, for the two cases
// fyne's RichText cannot: wrapped code (Options.WrapCode), where a line
// wider than the block continues on the next rows, each continuation row
// marked by a bar in the padding left of the text (contBar), so that a
// wrapped line is never read as two, and the window's markers ("[… 300
// spaces …]", which approval.show puts in the text and never lets the
// text itself hold) drawn in the accent colour on a band of their own:
// what the window adds is drawn as nothing the code can draw;
// and a diff, whose added lines are drawn green and removed lines red on a
// tinted band, and hunk headers (@@) muted (diffColors). Not wrapped, it is
// as wide as its longest line (a SideScroll shows it).
//
// Wrapping is done with the advances of the characters (measurer): linear
// in the code, and a resize re-wraps without measuring again.
type codeView struct {
	widget.BaseWidget
	code  string
	lines []string // the code's lines, tabs expanded
	wrap  bool
	diff  bool
	m     *measurer

	marks  [][][2]int                // wrapped: the byte ranges of each line's markers
	widest struct{ size, w float32 } // the longest line's width at a text size, unwrapped
	laidW  float32                   // the width rows were made for; 0: none yet
	rows   []codeRow                 // the rows at laidW
	r      *codeRenderer
}

// codeRow is one drawn row: a piece of line line, from byte start to end,
// a continuation of that line when cont.
type codeRow struct {
	line       int
	start, end int
	cont       bool
}

// A continuation row is indented by the width of contIndent (never drawn)
// and marked by a bar contBar wide in the padding, left of where text is
// drawn.
const (
	contIndent = "↪ "
	contBar    = 3
)

// markOpen and markClose delimit the window's markers in wrapped code.
const (
	markOpen  = "[… "
	markClose = " …]"
)

// markSpans are the byte ranges of the markers of line.
func markSpans(line string) [][2]int {
	var out [][2]int
	for off := 0; ; {
		i := strings.Index(line[off:], markOpen)
		if i < 0 {
			return out
		}
		i += off
		j := strings.Index(line[i+len(markOpen):], markClose)
		if j < 0 {
			return out
		}
		end := i + len(markOpen) + j + len(markClose)
		out = append(out, [2]int{i, end})
		off = end
	}
}

// codeTab is the tab stop of code (the columns a tab advances to a
// multiple of).
const codeTab = 4

func newCodeView(code string, wrap, diff bool) *codeView {
	v := &codeView{code: code, wrap: wrap, diff: diff, m: newMeasurer()}
	for _, l := range strings.Split(code, "\n") {
		l = expandTabs(l)
		v.lines = append(v.lines, l)
		if wrap {
			v.marks = append(v.marks, markSpans(l))
		}
	}
	v.ExtendBaseWidget(v)
	return v
}

// expandTabs replaces each tab by the spaces to the next tab stop.
func expandTabs(s string) string {
	if !strings.Contains(s, "\t") {
		return s
	}
	var b strings.Builder
	col := 0
	for _, r := range s {
		if r == '\t' {
			n := codeTab - col%codeTab
			b.WriteString(strings.Repeat(" ", n))
			col += n
			continue
		}
		b.WriteRune(r)
		col++
	}
	return b.String()
}

func (v *codeView) textSize() float32 { return theme.TextSize() }

var monospace = fyne.TextStyle{Monospace: true}

// rowHeight is the height of one row.
func (v *codeView) rowHeight() float32 {
	return v.m.lineHeight(v.textSize(), monospace) + theme.LineSpacing()
}

// markerWidth is the room a continuation row keeps (contIndent).
func (v *codeView) markerWidth() float32 {
	return v.lineWidth(contIndent)
}

// lineWidth returns the width of s.
func (v *codeView) lineWidth(s string) float32 {
	w := float32(0)
	for _, r := range s {
		w += v.m.width(r, v.textSize(), monospace)
	}
	return w
}

// layoutRows breaks the lines into rows for a content width of w (the
// view's width less its padding); not wrapped, each line is one row.
func (v *codeView) layoutRows(w float32) {
	v.laidW = w
	v.rows = v.rows[:0]
	size := v.textSize()
	mark := v.markerWidth()
	for i, l := range v.lines {
		if !v.wrap || l == "" {
			v.rows = append(v.rows, codeRow{line: i, end: len(l)})
			continue
		}
		// A row ends after its last space when it has one after some
		// text (a word is kept whole), else between two characters.
		start, x, fit, cont := 0, float32(0), w, false
		brk, brkX := -1, float32(0) // the row's last break after a space, and x there
		text := false               // the row has a non-space before brk
		for off, r := range l {
			cw := v.m.width(r, size, monospace)
			if x+cw > fit && off > start {
				end, rest := off, float32(0)
				if brk > start && brk < off {
					end, rest = brk, x-brkX
				}
				v.rows = append(v.rows, codeRow{line: i, start: start, end: end, cont: cont})
				start, x, cont, brk, text = end, rest, true, -1, false
				fit = max(w-mark, cw) // at least one character a row
			}
			x += cw
			if r == ' ' {
				if text {
					brk, brkX = off+1, x
				}
			} else {
				text = true
			}
		}
		v.rows = append(v.rows, codeRow{line: i, start: start, end: len(l), cont: cont})
	}
}

// contentWidth is the width rows are made for when the view is w wide.
func (v *codeView) contentWidth(w float32) float32 {
	if !v.wrap {
		return 1 // any: one row a line
	}
	return max(w-2*theme.InnerPadding(), minFlowWidth)
}

// Resize re-wraps for the new width; a change of height refreshes the
// view so that its container makes room.
func (v *codeView) Resize(s fyne.Size) {
	v.BaseWidget.Resize(s)
	if v.wrap && s.Width < minFlowWidth && v.laidW == 0 {
		return
	}
	if w := v.contentWidth(s.Width); w != v.laidW {
		v.layoutRows(w)
		if v.r != nil {
			v.r.rebuild()
			canvas.Refresh(v)
		}
	}
}

// MinSize: wrapped, the height of the rows at the current width and no
// width (it never forces its container wider); not wrapped, as wide as the
// longest line.
func (v *codeView) MinSize() fyne.Size {
	pad := theme.InnerPadding()
	if !v.wrap {
		if v.laidW == 0 {
			v.layoutRows(1)
		}
		if v.widest.size != v.textSize() {
			v.widest.size, v.widest.w = v.textSize(), 0
			for _, l := range v.lines {
				v.widest.w = max(v.widest.w, v.lineWidth(l))
			}
		}
		w := v.widest.w
		return fyne.NewSize(w+2*pad, float32(len(v.rows))*v.rowHeight()+2*pad-theme.LineSpacing())
	}
	w := v.contentWidth(v.Size().Width)
	if v.Size().Width < minFlowWidth && v.laidW == 0 {
		w = pictureMaxWidth
	}
	if w != v.laidW {
		v.layoutRows(w)
	}
	return fyne.NewSize(0, float32(len(v.rows))*v.rowHeight()+2*pad-theme.LineSpacing())
}

// CreateRenderer implements fyne.Widget.
func (v *codeView) CreateRenderer() fyne.WidgetRenderer {
	r := &codeRenderer{v: v}
	r.rebuild()
	return r
}

type codeRenderer struct {
	v    *codeView
	objs []fyne.CanvasObject
}

// diffKind is how a diff draws a line.
type diffKind int

const (
	diffContext diffKind = iota
	diffAdded
	diffRemoved
	diffHunk
)

func lineKind(l string) diffKind {
	switch {
	case strings.HasPrefix(l, "@@"):
		return diffHunk
	case strings.HasPrefix(l, "+"):
		return diffAdded
	case strings.HasPrefix(l, "-"):
		return diffRemoved
	}
	return diffContext
}

// rebuild makes the objects of the rows: a band behind each added or
// removed line of a diff, a text per row, a marker per continuation row.
func (r *codeRenderer) rebuild() {
	v := r.v
	v.r = r
	r.objs = r.objs[:0]
	if v.laidW == 0 {
		return // no width yet
	}
	scale := float32(1)
	if app := fyne.CurrentApp(); app != nil {
		if c := app.Driver().CanvasForObject(v); c != nil && c.Scale() > 0 {
			scale = c.Scale()
		}
	}
	snap := func(f float32) float32 { return float32(math.Round(float64(f*scale))) / scale }
	pad, h, size := theme.InnerPadding(), v.rowHeight(), v.textSize()
	th := v.Theme()
	variant := fyne.CurrentApp().Settings().ThemeVariant()
	fg := th.Color(theme.ColorNameForeground, variant)
	colors := diffColorsFor(th.Color(theme.ColorNameInputBackground, variant), th.Color(theme.ColorNameBackground, variant))
	accent := th.Color(theme.ColorNamePrimary, variant)
	markBg := th.Color(theme.ColorNameSelection, variant)
	textH := v.m.lineHeight(size, monospace)
	mark := v.markerWidth()
	width := v.Size().Width
	// Bands first, so the texts are drawn over them.
	if v.diff {
		for i := 0; i < len(v.rows); {
			j := i
			for j < len(v.rows) && v.rows[j].line == v.rows[i].line {
				j++
			}
			var bg color.Color
			switch lineKind(v.lines[v.rows[i].line]) {
			case diffAdded:
				bg = colors.addedBg
			case diffRemoved:
				bg = colors.removedBg
			}
			if bg != nil {
				band := canvas.NewRectangle(bg)
				top := pad + float32(i)*h - theme.LineSpacing()/2
				band.Move(fyne.NewPos(0, snap(top)))
				band.Resize(fyne.NewSize(max(width, v.MinSize().Width), snap(float32(j-i)*h)))
				r.objs = append(r.objs, band)
			}
			i = j
		}
	}
	for i, row := range v.rows {
		y := snap(pad + float32(i)*h)
		x := pad
		col := fg
		if v.diff {
			switch lineKind(v.lines[row.line]) {
			case diffAdded:
				col = colors.added
			case diffRemoved:
				col = colors.removed
			case diffHunk:
				col = colors.muted
			}
		}
		if row.cont {
			bar := canvas.NewRectangle(accent)
			bar.CornerRadius = contBar / 2
			bar.Move(fyne.NewPos(snap((pad-contBar)/2), y))
			bar.Resize(fyne.NewSize(contBar, snap(textH)))
			r.objs = append(r.objs, bar)
			x += mark
		}
		line := v.lines[row.line]
		// The row in pieces: the code's own text, and the window's
		// markers on their band.
		from := row.start
		piece := func(to int, marker bool) {
			text := line[from:to]
			w := v.lineWidth(text)
			if marker {
				band := canvas.NewRectangle(markBg)
				band.CornerRadius = 3
				band.Move(fyne.NewPos(snap(x), y))
				band.Resize(fyne.NewSize(w, snap(textH)))
				r.objs = append(r.objs, band)
			}
			if strings.TrimSpace(text) != "" {
				c := col
				if marker {
					c = accent
				}
				t := canvas.NewText(text, c)
				t.TextSize, t.TextStyle = size, monospace
				t.Move(fyne.NewPos(snap(x), y))
				t.Resize(fyne.NewSize(w, textH))
				r.objs = append(r.objs, t)
			}
			x += w
			from = to
		}
		if row.line < len(v.marks) {
			for _, sp := range v.marks[row.line] {
				a, b := max(sp[0], row.start), min(sp[1], row.end)
				if a >= b {
					continue
				}
				if a > from {
					piece(a, false)
				}
				piece(b, true)
			}
		}
		if row.end > from {
			piece(row.end, false)
		}
	}
}

func (r *codeRenderer) Layout(fyne.Size) {}

func (r *codeRenderer) MinSize() fyne.Size { return r.v.MinSize() }

func (r *codeRenderer) Refresh() {
	r.rebuild()
	canvas.Refresh(r.v)
}

func (r *codeRenderer) Objects() []fyne.CanvasObject { return r.objs }

func (r *codeRenderer) Destroy() {}

// diffPalette are the colours of a diff on a given code panel.
type diffPalette struct {
	added, removed, muted color.Color // texts
	addedBg, removedBg    color.Color // bands, over the panel
}

// diffColorsFor picks the diff's colours for a code panel of colour panel
// drawn over a window of colour window (the panel may be translucent): on
// a dark panel light green and red text on dark tints, on a light one dark
// green and red text on light tints, each text at least 4.5:1 against its
// band (TestDiffColorsContrast).
func diffColorsFor(panel, window color.Color) diffPalette {
	base := over(panel, window)
	if luminance(base) < 0.35 {
		return diffPalette{
			added:     color.NRGBA{0x7e, 0xe7, 0x87, 0xff},
			removed:   color.NRGBA{0xff, 0xa1, 0x98, 0xff},
			muted:     color.NRGBA{0xa8, 0xb1, 0xbb, 0xff},
			addedBg:   color.NRGBA{0x2e, 0xa0, 0x43, 0x33},
			removedBg: color.NRGBA{0xf8, 0x51, 0x49, 0x2a},
		}
	}
	return diffPalette{
		added:     color.NRGBA{0x11, 0x63, 0x29, 0xff},
		removed:   color.NRGBA{0x9a, 0x0b, 0x23, 0xff},
		muted:     color.NRGBA{0x57, 0x60, 0x6a, 0xff},
		addedBg:   color.NRGBA{0x2e, 0xa0, 0x43, 0x26},
		removedBg: color.NRGBA{0xf8, 0x51, 0x49, 0x26},
	}
}

// over is c drawn over an opaque bg.
func over(c, bg color.Color) color.NRGBA {
	f := color.NRGBAModel.Convert(c).(color.NRGBA)
	b := color.NRGBAModel.Convert(bg).(color.NRGBA)
	a := float64(f.A) / 255
	mix := func(x, y uint8) uint8 { return uint8(math.Round(float64(x)*a + float64(y)*(1-a))) }
	return color.NRGBA{mix(f.R, b.R), mix(f.G, b.G), mix(f.B, b.B), 0xff}
}

// luminance is the relative luminance of c (WCAG 2).
func luminance(c color.Color) float64 {
	n := color.NRGBAModel.Convert(c).(color.NRGBA)
	ch := func(v uint8) float64 {
		s := float64(v) / 255
		if s <= 0.03928 {
			return s / 12.92
		}
		return math.Pow((s+0.055)/1.055, 2.4)
	}
	return 0.2126*ch(n.R) + 0.7152*ch(n.G) + 0.0722*ch(n.B)
}
