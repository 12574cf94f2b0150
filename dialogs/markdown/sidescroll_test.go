package markdown

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

// The wheel over a wide code block or table scrolls the page (Options.Page),
// not the block; a sideways scroll (Shift+wheel) moves the block.
func TestWheelOverWideBlocksScrollsThePage(t *testing.T) {
	test.NewTempApp(t)
	wide := strings.Repeat("x", 400)
	src := "```\n" + wide + "\n```\n\n| " + wide + " |\n|---|\n| a |\n\n" + strings.Repeat("A line.\n\n", 200)
	var page *container.Scroll
	md := New(src, Options{Page: func() *container.Scroll { return page }})
	page = container.NewVScroll(md)
	w := test.NewTempWindow(t, page)
	w.Resize(fyne.NewSize(500, 400))
	sides := findSideScrolls(md)
	if len(sides) != 2 {
		t.Fatalf("%d sideways scrolls, want 2 (the code block and the table)", len(sides))
	}
	for i, side := range sides {
		page.ScrollToTop()
		side.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -50}})
		if page.Offset.Y <= 0 || side.Offset.X != 0 {
			t.Errorf("block %d: wheel down: page offset %v, block offset %v; want the page scrolled only", i, page.Offset, side.Offset)
		}
		side.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DX: -50}})
		if side.Offset.X <= 0 {
			t.Errorf("block %d: Shift+wheel: offset %v, want it scrolled sideways", i, side.Offset)
		}
	}
	// Without a page the wheel does nothing there, and nothing panics.
	alone := New(src, Options{})
	test.NewTempWindow(t, alone).Resize(fyne.NewSize(500, 400))
	for _, side := range findSideScrolls(alone) {
		side.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -50}})
		if side.Offset.X != 0 {
			t.Errorf("wheel down without a page moved the block sideways: %v", side.Offset)
		}
	}
}

// findSideScrolls returns the SideScrolls under o, renderers included.
func findSideScrolls(o fyne.CanvasObject) []*SideScroll {
	var out []*SideScroll
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		switch c := o.(type) {
		case *SideScroll:
			out = append(out, c)
		case *fyne.Container:
			for _, ch := range c.Objects {
				walk(ch)
			}
		case fyne.Widget:
			for _, ch := range test.WidgetRenderer(c).Objects() {
				walk(ch)
			}
		}
	}
	walk(o)
	return out
}
