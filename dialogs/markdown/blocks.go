package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// blockColumn draws a column of block segments (flowed paragraphs, lists,
// code, tables, quotes, gaps) exactly where a word-wrapping widget.RichText
// holding them would: inset by the inner padding on every side, the blocks
// full width, a line spacing between two. It is what a list item or a quote
// is drawn in: a RichText costs a row-bounds pass, a visual cache and a
// refresh of every segment per layout, and a message has one per item.
type blockColumn struct {
	widget.BaseWidget
	objs []fyne.CanvasObject
}

// newBlocks returns a column showing segs: a blockColumn when every segment
// is a block that draws itself, else (text or inline segments, or none) a
// word-wrapping RichText.
func newBlocks(segs []widget.RichTextSegment) fyne.CanvasObject {
	if !allBlocks(segs) {
		rt := widget.NewRichText(segs...)
		rt.Wrapping = fyne.TextWrapWord
		return rt
	}
	c := &blockColumn{objs: make([]fyne.CanvasObject, len(segs))}
	for i, s := range segs {
		c.objs[i] = s.Visual()
		s.Update(c.objs[i])
	}
	c.ExtendBaseWidget(c)
	return c
}

// allBlocks reports whether segs is not empty and holds only block segments
// that a RichText would lay out as one row each (no text, inline or
// nesting segments).
func allBlocks(segs []widget.RichTextSegment) bool {
	for _, s := range segs {
		if _, isText := s.(*widget.TextSegment); isText || s.Inline() {
			return false
		}
		if _, nests := s.(widget.RichTextBlock); nests {
			return false
		}
	}
	return len(segs) > 0
}

// CreateRenderer implements fyne.Widget.
func (c *blockColumn) CreateRenderer() fyne.WidgetRenderer { return &blockColumnRenderer{c: c} }

type blockColumnRenderer struct{ c *blockColumn }

func (r *blockColumnRenderer) Layout(size fyne.Size) {
	pad := theme.SizeForWidget(theme.SizeNameInnerPadding, r.c)
	gap := theme.SizeForWidget(theme.SizeNameLineSpacing, r.c)
	y := pad
	for _, o := range r.c.objs {
		h := o.MinSize().Height
		o.Move(fyne.NewPos(pad, y))
		o.Resize(fyne.NewSize(size.Width-2*pad, h))
		y += h + gap
	}
}

func (r *blockColumnRenderer) MinSize() fyne.Size {
	pad := theme.SizeForWidget(theme.SizeNameInnerPadding, r.c)
	gap := theme.SizeForWidget(theme.SizeNameLineSpacing, r.c)
	h := float32(0)
	for i, o := range r.c.objs {
		if i > 0 {
			h += gap
		}
		h += o.MinSize().Height
	}
	return fyne.NewSize(2*pad, h+2*pad)
}

func (r *blockColumnRenderer) Refresh() {
	for _, o := range r.c.objs {
		o.Refresh()
	}
	r.Layout(r.c.Size())
}

func (r *blockColumnRenderer) Objects() []fyne.CanvasObject { return r.c.objs }

func (r *blockColumnRenderer) Destroy() {}
