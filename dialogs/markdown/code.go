package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// CodeSegment is a fenced or indented code block: its text exactly as
// written, monospace, on a shaded panel, so consecutive blocks and the
// prose around them stay apart. A line wider than the window scrolls
// sideways, or, with Wrap (Options.WrapCode), continues on the next rows
// after a continuation marker (codeView). A diff (a block fenced as
// "diff") draws its added and removed lines in colour.
type CodeSegment struct {
	Code string
	Wrap bool                     // wrapped at the panel's width, never scrolled sideways
	Diff bool                     // coloured as a diff
	page func() *container.Scroll // see Options.Page
}

// Inline returns false: a code block is a block.
func (c *CodeSegment) Inline() bool { return false }

// Textual returns the code.
func (c *CodeSegment) Textual() string { return c.Code }

// Visual returns the shaded code panel: wrapped, or scrolling sideways.
func (c *CodeSegment) Visual() fyne.CanvasObject {
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	if c.Wrap {
		return container.NewStack(bg, newCodeView(c.Code, true, c.Diff))
	}
	var text fyne.CanvasObject
	if c.Diff {
		text = newCodeView(c.Code, false, true)
	} else {
		text = widget.NewRichText(&widget.TextSegment{Text: c.Code, Style: widget.RichTextStyleCodeBlock})
	}
	return container.NewStack(bg, newSideScroll(text, c.page)) // sidescroll.go: the wheel is not trapped
}

// Update refreshes a panel made by Visual with this segment's code.
func (c *CodeSegment) Update(o fyne.CanvasObject) {
	stack, ok := o.(*fyne.Container)
	if !ok || len(stack.Objects) != 2 {
		return
	}
	var view *codeView
	switch in := stack.Objects[1].(type) {
	case *codeView:
		view = in
	case *SideScroll:
		view, _ = in.Content.(*codeView)
	}
	if view != nil {
		if view.code != c.Code || view.wrap != c.Wrap || view.diff != c.Diff {
			fresh := newCodeView(c.Code, c.Wrap, c.Diff)
			view.lines, view.code, view.wrap, view.diff, view.laidW = fresh.lines, fresh.code, fresh.wrap, fresh.diff, 0
			view.widest.size = 0
			view.Refresh()
		}
		return
	}
	if scroll, ok := stack.Objects[1].(*SideScroll); ok {
		if text, ok := scroll.Content.(*widget.RichText); ok {
			text.Segments = []widget.RichTextSegment{&widget.TextSegment{Text: c.Code, Style: widget.RichTextStyleCodeBlock}}
			text.Refresh()
		}
	}
}

// Select does nothing: rich text selection is not implemented by fyne yet.
func (c *CodeSegment) Select(_, _ fyne.Position) {}

// SelectedText returns "".
func (c *CodeSegment) SelectedText() string { return "" }

// Unselect does nothing.
func (c *CodeSegment) Unselect() {}
