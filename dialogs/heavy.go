package dialogs

import (
	"image/color"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
)

// Bold CJK in the window's chrome (buttons, chips, the keys dialog's
// buttons): the CJK fallback fonts (WenQuanYi, Noto Sans CJK) have no bold
// face that Fyne picks, so "提交" on a button looked like the text around
// it. As the Markdown renderer does (markdown.drawBold), each run of CJK
// is drawn a second time a device pixel to the right, which thickens its
// strokes; Latin text has its bold face and is drawn once.

// isWide reports whether r is drawn from a CJK or Hangul fallback font.
func isWide(r rune) bool { return i18n.IsCJK(r) || unicode.Is(unicode.Hangul, r) }

// hasWide reports whether s holds a CJK or Hangul character.
func hasWide(s string) bool { return strings.IndexFunc(s, isWide) >= 0 }

// heavyCopies returns the second copies of the wide runs of text, drawn at
// origin (where the text's own canvas.Text is) in col, size and style, one
// device pixel (px) to the right.
func heavyCopies(text string, origin fyne.Position, c color.Color, size float32, style fyne.TextStyle, px float32) []fyne.CanvasObject {
	var out []fyne.CanvasObject
	// A text's baseline is its tallest font's (its first character's in
	// Fyne 2.7): a run drawn on its own after Latin text starts with a
	// space, which the Latin font has, moved left by the space
	// (markdown.leadSpace).
	lead := ""
	if r, _ := utf8.DecodeRuneInString(text); !isWide(r) {
		lead = " "
	}
	leadW := fyne.MeasureText(lead, size, style).Width
	for start := 0; start < len(text); {
		r, n := utf8.DecodeRuneInString(text[start:])
		if !isWide(r) {
			start += n
			continue
		}
		end := start + n
		for end < len(text) {
			r, n := utf8.DecodeRuneInString(text[end:])
			if !isWide(r) {
				break
			}
			end += n
		}
		t := canvas.NewText(lead+text[start:end], c)
		t.TextSize, t.TextStyle = size, style
		x := fyne.MeasureText(text[:start], size, style).Width - leadW
		t.Move(origin.AddXY(x+px, 0))
		t.Resize(t.MinSize())
		out = append(out, t)
		start = end
	}
	return out
}

// devicePixel is one pixel of the screen o is drawn on, in Fyne units.
func devicePixel(o fyne.CanvasObject) float32 {
	if a := fyne.CurrentApp(); a != nil {
		if c := a.Driver().CanvasForObject(o); c != nil && c.Scale() > 0 {
			return 1 / c.Scale()
		}
	}
	return 1
}

// heavyRenderer is a widget's renderer with the bold CJK of its one-line
// rich texts (a button's label) or of its own bold texts (a rich text's
// segments) drawn heavier.
type heavyRenderer struct {
	fyne.WidgetRenderer
	owner fyne.Widget
	extra []fyne.CanvasObject
}

// heavy wraps r, the renderer of owner.
func heavy(owner fyne.Widget, r fyne.WidgetRenderer) fyne.WidgetRenderer {
	return &heavyRenderer{WidgetRenderer: r, owner: owner}
}

func (r *heavyRenderer) Layout(s fyne.Size) {
	r.WidgetRenderer.Layout(s)
	r.place()
}

func (r *heavyRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.place()
}

func (r *heavyRenderer) Objects() []fyne.CanvasObject {
	objs := r.WidgetRenderer.Objects()
	if len(r.extra) == 0 {
		return objs
	}
	return append(objs[:len(objs):len(objs)], r.extra...)
}

// place makes the copies for the bold CJK of the rich texts laid out now.
func (r *heavyRenderer) place() {
	r.extra = r.extra[:0]
	px := devicePixel(r.owner)
	for _, o := range r.WidgetRenderer.Objects() {
		if t, ok := o.(*canvas.Text); ok { // a rich text's own segment (heavyRichText)
			if t.Visible() && t.TextStyle.Bold && hasWide(t.Text) {
				r.extra = append(r.extra, heavyCopies(t.Text, t.Position(), t.Color, t.TextSize, t.TextStyle, px)...)
			}
			continue
		}
		rt, ok := o.(*widget.RichText)
		if !ok || !rt.Visible() || len(rt.Segments) != 1 {
			continue
		}
		seg, ok := rt.Segments[0].(*widget.TextSegment)
		if !ok || !seg.Style.TextStyle.Bold || !hasWide(seg.Text) || strings.Contains(seg.Text, "\n") {
			continue
		}
		size := theme.TextSize()
		if seg.Style.SizeName != "" {
			size = theme.Size(seg.Style.SizeName)
		}
		col := seg.Style.ColorName
		if col == "" {
			col = theme.ColorNameForeground
		}
		tw := fyne.MeasureText(seg.Text, size, seg.Style.TextStyle)
		// Where the rich text draws its one line: its inner padding
		// around the text, and the line aligned in the width it has.
		min := rt.MinSize()
		x := (min.Width - tw.Width) / 2
		switch seg.Style.Alignment {
		case fyne.TextAlignCenter:
			x = (rt.Size().Width - tw.Width) / 2
		case fyne.TextAlignTrailing:
			x = rt.Size().Width - x - tw.Width
		}
		origin := rt.Position().AddXY(x, (min.Height-tw.Height)/2)
		c := theme.ColorForWidget(col, r.owner)
		r.extra = append(r.extra, heavyCopies(seg.Text, origin, c, size, seg.Style.TextStyle, px)...)
	}
}

// heavyTextLayout lays out a bold canvas.Text (objects[0]) inset by h and
// v, and the second copies of its CJK runs (the rest, made by heavyCopies
// at the origin with no pixel) where they go, a device pixel right.
type heavyTextLayout struct {
	h, v float32
	at   []fyne.Position // each copy's place from the text's origin
}

// newHeavyText returns t in a container that draws its bold CJK heavier,
// inset by h and v.
func newHeavyText(t *canvas.Text, h, v float32) *fyne.Container {
	l := &heavyTextLayout{h: h, v: v}
	objs := []fyne.CanvasObject{t}
	if t.TextStyle.Bold && hasWide(t.Text) {
		for _, c := range heavyCopies(t.Text, fyne.Position{}, t.Color, t.TextSize, t.TextStyle, 0) {
			l.at = append(l.at, c.Position())
			objs = append(objs, c)
		}
	}
	return container.New(l, objs...)
}

func (l *heavyTextLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	objects[0].Move(fyne.NewPos(l.h, l.v))
	objects[0].Resize(fyne.NewSize(size.Width-2*l.h, size.Height-2*l.v))
	px := devicePixel(objects[0])
	for i, o := range objects[1:] {
		o.Move(l.at[i].AddXY(l.h+px, l.v))
	}
}

func (l *heavyTextLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	return objects[0].MinSize().Add(fyne.NewSize(2*l.h, 2*l.v))
}

// heavyRichText is a rich text whose bold CJK runs are drawn heavier,
// whatever its segments (the context bar's "来自"): its renderer draws
// each bold canvas.Text it lays out that holds CJK a second time, a device
// pixel to the right.
type heavyRichText struct{ widget.RichText }

func newHeavyRichText(segs ...widget.RichTextSegment) *heavyRichText {
	t := &heavyRichText{}
	t.Segments = segs
	t.Scroll = container.ScrollNone // as widget.NewRichText: the zero value scrolls
	t.ExtendBaseWidget(t)
	return t
}

// CreateRenderer wraps the rich text's own renderer: its objects are the
// canvas.Texts of its segments (heavyRenderer.place).
func (t *heavyRichText) CreateRenderer() fyne.WidgetRenderer {
	return heavy(t, t.RichText.CreateRenderer())
}
