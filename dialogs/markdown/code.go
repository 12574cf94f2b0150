package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// CodeSegment is a fenced or indented code block: its text exactly as
// written, monospace, on a shaded panel that scrolls sideways when a line
// is wider than the window (code is never wrapped), so consecutive blocks
// and the prose around them stay apart.
type CodeSegment struct {
	Code string
	page func() *container.Scroll // see Options.Page
}

// Inline returns false: a code block is a block.
func (c *CodeSegment) Inline() bool { return false }

// Textual returns the code.
func (c *CodeSegment) Textual() string { return c.Code }

// Visual returns the shaded, horizontally scrolling code panel.
func (c *CodeSegment) Visual() fyne.CanvasObject {
	text := widget.NewRichText(&widget.TextSegment{Text: c.Code, Style: widget.RichTextStyleCodeBlock})
	bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius)
	return container.NewStack(bg, newSideScroll(text, c.page)) // sidescroll.go: the wheel is not trapped
}

// Update refreshes a panel made by Visual with this segment's code.
func (c *CodeSegment) Update(o fyne.CanvasObject) {
	stack, ok := o.(*fyne.Container)
	if !ok || len(stack.Objects) != 2 {
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
