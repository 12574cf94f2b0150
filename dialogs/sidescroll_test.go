package dialogs

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/dialogs/markdown"
	"feedback/ipc/wire"
)

// The wheel over a wide code block scrolls the message, not the block;
// a sideways scroll (Shift+wheel) moves the block.
func TestWheelOverWideCodeScrollsTheMessage(t *testing.T) {
	md := "```\n" + strings.Repeat("x", 400) + "\n```\n\n" + strings.Repeat("A line.\n\n", 200)
	a := test.NewTempApp(t)
	w := NewWindow(a, question(wire.Prompt{Markdown: md}), Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
	w.Fyne().Resize(fyne.NewSize(500, 400))
	w.Show()
	defer w.Close()
	v := w.View()
	var side *markdown.SideScroll
	for _, s := range findDeep[*markdown.SideScroll](v.Content()) {
		side = s
	}
	if side == nil {
		t.Fatal("no sideways scroll for the code block")
	}
	side.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -50}})
	if v.panes.scroll.Offset.Y <= 0 || side.Offset.X != 0 {
		t.Errorf("wheel down over the code: message offset %v, code offset %v; want the message scrolled only", v.panes.scroll.Offset, side.Offset)
	}
	side.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DX: -50}})
	if side.Offset.X <= 0 {
		t.Errorf("Shift+wheel over the code: offset %v, want it scrolled sideways", side.Offset)
	}
}
