package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// StrikeSegment is ~~struck~~ text: drawn in its style's colour (the normal
// text colour) with a line through it. fyne.TextStyle has no strikethrough,
// so paragraphs draw the line themselves (flow.go) and elsewhere (a table
// cell) the segment's own visual does.
type StrikeSegment struct {
	Text  string
	Style widget.RichTextStyle
}

// Inline returns true: struck text flows with the text around it.
func (s *StrikeSegment) Inline() bool { return true }

// Textual returns the text, unchanged.
func (s *StrikeSegment) Textual() string { return s.Text }

// Visual returns the text with a line through it, unwrapped.
func (s *StrikeSegment) Visual() fyne.CanvasObject { return newStruckText(s) }

// Update points a visual made by Visual at this segment.
func (s *StrikeSegment) Update(o fyne.CanvasObject) {
	if v, ok := o.(*struckText); ok {
		v.seg = s
		v.Refresh()
	}
}

// Select does nothing: rich text selection is not implemented by fyne yet.
func (s *StrikeSegment) Select(_, _ fyne.Position) {}

// SelectedText returns "".
func (s *StrikeSegment) SelectedText() string { return "" }

// Unselect does nothing.
func (s *StrikeSegment) Unselect() {}

// strikeLine returns where the line through text of the given size goes,
// measured down from the top of the text, and its thickness: a little above
// the middle of the lower-case letters, as fonts put it, or through the
// middle of CJK characters (wide), which stand taller on the baseline.
func strikeLine(size, baseline float32, wide bool) (y, thickness float32) {
	if wide {
		return baseline - 0.38*size, max(1, size/14)
	}
	return baseline - 0.3*size, max(1, size/14)
}

// struckText draws a StrikeSegment (strike set) or bold CJK text of a table
// cell (boldWideSegment) where a widget.RichText lays it out: the text as
// tall as the text beside it in its row, so RichText keeps the row's
// baseline, with a line through it, and for bold CJK a second copy a device
// pixel to the right (see drawBold).
type struckText struct {
	widget.BaseWidget
	seg    *StrikeSegment
	strike bool
	text   *canvas.Text
	bold   *canvas.Text // the second copy of bold CJK, or nil
	line   *canvas.Rectangle
}

func newStruckText(s *StrikeSegment) *struckText { return newInlineText(s, true) }

func newInlineText(s *StrikeSegment, strike bool) *struckText {
	v := &struckText{seg: s, strike: strike, text: canvas.NewText("", nil), line: canvas.NewRectangle(nil)}
	v.line.Hidden = !strike
	v.ExtendBaseWidget(v)
	return v
}

// CreateRenderer implements fyne.Widget.
func (v *struckText) CreateRenderer() fyne.WidgetRenderer {
	r := &struckRenderer{v: v}
	r.Refresh()
	return r
}

// struckRenderer lays a struckText out. Text starting with a CJK character
// is drawn after a space, lead wide, moved left by it (see leadSpace).
type struckRenderer struct {
	v    *struckText
	lead float32
}

func (r *struckRenderer) Layout(fyne.Size) {
	full := r.v.text.MinSize()
	r.v.text.Move(fyne.NewPos(-r.lead, 0))
	r.v.text.Resize(full)
	if b := r.v.bold; b != nil {
		r.placeBold()
		b.Resize(full)
	}
	_, baseline := fyne.CurrentApp().Driver().RenderedTextSize("M", r.v.text.TextSize, r.v.text.TextStyle, nil)
	y, thick := strikeLine(r.v.text.TextSize, baseline, hasWide(r.v.seg.Text))
	r.v.line.Move(fyne.NewPos(0, y-thick/2))
	r.v.line.Resize(fyne.NewSize(full.Width-r.lead, thick))
}

// MinSize is the text's: as tall as the text beside it in the row, which
// widget.RichText then leaves on the same baseline.
func (r *struckRenderer) MinSize() fyne.Size {
	return r.v.text.MinSize().SubtractWidthHeight(r.lead, 0)
}

func (r *struckRenderer) Refresh() {
	t := r.v.text
	t.TextStyle = r.v.seg.Style.TextStyle
	t.TextSize = textSize(r.v.seg.Style.SizeName, r.v)
	t.Color = textColor(r.v.seg.Style, r.v)
	t.Text, r.lead = leadSpace(r.v.seg.Text, newMeasurer(), t.TextSize, t.TextStyle)
	if t.TextStyle.Bold && hasWide(t.Text) {
		if r.v.bold == nil {
			r.v.bold = canvas.NewText("", nil)
		}
		b := r.v.bold
		b.Text, b.TextStyle, b.TextSize, b.Color = t.Text, t.TextStyle, t.TextSize, t.Color
	} else {
		r.v.bold = nil
	}
	r.v.line.FillColor = t.Color
	r.Layout(r.v.Size())
	t.Refresh()
	if r.v.bold != nil {
		r.v.bold.Refresh()
	}
	r.v.line.Refresh()
}

// placeBold puts bold CJK's second copy a device pixel right of the text.
func (r *struckRenderer) placeBold() {
	scale := float32(1)
	if c := fyne.CurrentApp().Driver().CanvasForObject(r.v); c != nil && c.Scale() > 0 {
		scale = c.Scale()
	}
	r.v.bold.Move(fyne.NewPos(-r.lead+1/scale, 0))
}

// Objects returns the text, bold CJK's second copy (placed again for the
// canvas's scale, which a window gets when it is first shown) and the line.
func (r *struckRenderer) Objects() []fyne.CanvasObject {
	if r.v.bold != nil {
		r.placeBold()
		return []fyne.CanvasObject{r.v.text, r.v.bold, r.v.line}
	}
	return []fyne.CanvasObject{r.v.text, r.v.line}
}

func (r *struckRenderer) Destroy() {}

// boldWideSegment is bold CJK text of a table cell, drawn heavier by a
// struckText without a line (a widget.RichText draws bold CJK like regular).
type boldWideSegment struct{ StrikeSegment }

// Visual returns the text with its second copy.
func (s *boldWideSegment) Visual() fyne.CanvasObject { return newInlineText(&s.StrikeSegment, false) }

// Update points a visual made by Visual at this segment.
func (s *boldWideSegment) Update(o fyne.CanvasObject) {
	if v, ok := o.(*struckText); ok {
		v.seg = &s.StrikeSegment
		v.Refresh()
	}
}

// cellSegments returns the segments a table cell shows: bold CJK text as a
// boldWideSegment, the rest as it is.
func cellSegments(segs []widget.RichTextSegment) []widget.RichTextSegment {
	out := make([]widget.RichTextSegment, len(segs))
	for i, s := range segs {
		out[i] = s
		if t, ok := s.(*widget.TextSegment); ok && t.Style.Inline && t.Style.TextStyle.Bold && hasWide(t.Text) {
			out[i] = &boldWideSegment{StrikeSegment{Text: t.Text, Style: t.Style}}
		}
	}
	return out
}

// LinkSegment is a link in a heading: a hyperlink with the heading's style
// (its size, bold), as widget.HyperlinkSegment has no style of its own.
type LinkSegment struct {
	*widget.HyperlinkSegment
	Style widget.RichTextStyle
}

// TaskSegment is the check box of a GFM task-list item ("- [ ] x"). A list
// draws it in place of the item's bullet, as a check box icon the size of
// the text; elsewhere it is a glyph.
type TaskSegment struct {
	Checked bool
}

// Task-list glyphs, for where a TaskSegment is shown as text (Textual).
const (
	taskUnchecked = "☐ "
	taskChecked   = "☑ "
)

// Inline returns true.
func (t *TaskSegment) Inline() bool { return true }

// Textual returns a check box glyph.
func (t *TaskSegment) Textual() string {
	if t.Checked {
		return taskChecked
	}
	return taskUnchecked
}

// Visual returns the check box icon.
func (t *TaskSegment) Visual() fyne.CanvasObject { return newTaskBox(t.Checked) }

// Update sets a visual made by Visual to this segment's state.
func (t *TaskSegment) Update(o fyne.CanvasObject) {
	if b, ok := o.(*taskBox); ok {
		b.img.Resource = taskIcon(t.Checked)
		b.Refresh()
	}
}

// Select does nothing.
func (t *TaskSegment) Select(_, _ fyne.Position) {}

// SelectedText returns "".
func (t *TaskSegment) SelectedText() string { return "" }

// Unselect does nothing.
func (t *TaskSegment) Unselect() {}

// taskIcon is the theme's check box icon, checked or not.
func taskIcon(checked bool) fyne.Resource {
	if checked {
		return theme.CheckButtonCheckedIcon()
	}
	return theme.CheckButtonIcon()
}

// taskBoxScale is the size of a task's check box icon in text sizes: the
// box drawn in it is three quarters of the icon, about a capital letter.
const taskBoxScale = 1.2

// taskBox is a task's check box icon the size of the body text. Its size
// is fixed: asking a canvas.Image of a themed SVG for its size colours and
// parses the SVG again every time, which lists of tasks did on every layout.
type taskBox struct {
	widget.BaseWidget
	img *canvas.Image
}

// newTaskBox returns a check box icon the size of the body text.
func newTaskBox(checked bool) *taskBox {
	img := canvas.NewImageFromResource(taskIcon(checked))
	img.FillMode = canvas.ImageFillContain
	b := &taskBox{img: img}
	b.ExtendBaseWidget(b)
	return b
}

// MinSize is taskBoxScale text sizes square.
func (b *taskBox) MinSize() fyne.Size {
	s := theme.SizeForWidget(theme.SizeNameText, b) * taskBoxScale
	return fyne.NewSize(s, s)
}

// CreateRenderer implements fyne.Widget.
func (b *taskBox) CreateRenderer() fyne.WidgetRenderer { return &taskBoxRenderer{b: b} }

type taskBoxRenderer struct{ b *taskBox }

func (r *taskBoxRenderer) Layout(s fyne.Size) { r.b.img.Resize(s) }

func (r *taskBoxRenderer) MinSize() fyne.Size { return r.b.MinSize() }

func (r *taskBoxRenderer) Refresh() { r.b.img.Refresh() }

func (r *taskBoxRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.b.img} }

func (r *taskBoxRenderer) Destroy() {}
