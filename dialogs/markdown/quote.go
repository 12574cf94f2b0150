package markdown

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// QuoteSegment is a Markdown block quote in a widget.RichText: its content, any blocks
// including lists, code, tables and further quotes, is drawn in a nested word-wrapping RichText
// indented behind a vertical bar.
//
// Fyne 2.7's RichTextStyleBlockquote indented only a row made of one plain quote segment, and
// 2.8 indents a text segment by its style's QuotingDepth, which quoted lists, code and tables
// do not carry: quoted content would lose the indentation; hence a block segment of its own.
// The quoted text itself still uses the blockquote (italic) style.
type QuoteSegment struct {
	Content []widget.RichTextSegment
}

// Inline returns false: a quote is a block.
func (q *QuoteSegment) Inline() bool { return false }

// Textual returns the quoted content as plain text.
func (q *QuoteSegment) Textual() string {
	var b strings.Builder
	for _, s := range q.Content {
		b.WriteString(s.Textual())
	}
	return b.String()
}

// Visual returns a new quote view showing the content.
func (q *QuoteSegment) Visual() fyne.CanvasObject {
	return newQuoteView(q)
}

// Update points an existing quote view at this segment and refreshes it.
func (q *QuoteSegment) Update(o fyne.CanvasObject) {
	v, ok := o.(*quoteView)
	if !ok {
		return
	}
	if v.seg != q {
		v.seg = q
		v.text = newBlocks(q.Content)
	}
	v.Refresh()
}

// Select does nothing: rich text selection is not implemented by fyne yet.
func (q *QuoteSegment) Select(_, _ fyne.Position) {}

// SelectedText returns "" as selection is not supported.
func (q *QuoteSegment) SelectedText() string { return "" }

// Unselect does nothing.
func (q *QuoteSegment) Unselect() {}

// quoteBarWidth is the width of the bar left of a quote.
const quoteBarWidth = 3

// quoteView draws a QuoteSegment: a bar and a column of the content's blocks.
type quoteView struct {
	widget.BaseWidget
	seg  *QuoteSegment
	bar  *canvas.Rectangle
	text fyne.CanvasObject // see newBlocks
}

func newQuoteView(q *QuoteSegment) *quoteView {
	v := &quoteView{seg: q, bar: canvas.NewRectangle(nil), text: newBlocks(q.Content)}
	v.ExtendBaseWidget(v)
	return v
}

// CreateRenderer implements fyne.Widget.
func (v *quoteView) CreateRenderer() fyne.WidgetRenderer {
	r := &quoteRenderer{v: v}
	r.applyTheme()
	return r
}

type quoteRenderer struct{ v *quoteView }

func (r *quoteRenderer) Layout(size fyne.Size) {
	r.v.bar.Move(fyne.NewPos(0, 0))
	r.v.bar.Resize(fyne.NewSize(quoteBarWidth, size.Height))
	r.v.text.Move(fyne.NewPos(quoteBarWidth, 0))
	r.v.text.Resize(fyne.NewSize(size.Width-quoteBarWidth, size.Height))
}

func (r *quoteRenderer) MinSize() fyne.Size {
	return r.v.text.MinSize().AddWidthHeight(quoteBarWidth, 0)
}

func (r *quoteRenderer) Refresh() {
	r.applyTheme()
	r.v.bar.Refresh()
	r.v.text.Refresh()
}

func (r *quoteRenderer) applyTheme() {
	r.v.bar.FillColor = theme.ColorForWidget(theme.ColorNameSeparator, r.v)
}

func (r *quoteRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.v.bar, r.v.text}
}

func (r *quoteRenderer) Destroy() {}
