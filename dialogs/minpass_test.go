package dialogs

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// Fyne's GLFW SetContent lays a window's new content out at its minimum
// size first, the canvas keeping its size (a pooled or prepared window).
// Nothing measured in that pass may stick: after the layout at the
// window's size, the Sending line is where a fresh layout puts it. (A
// refit from inside the minimum pass resized the footer to the window's
// width, and the layout that followed, at the same size, skipped it: the
// line was left at width 0 over the help button.)
func TestMinimumPassLeavesNothingBehind(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(Theme())
	q := question(wire.Prompt{Markdown: "Deploy the **staging** build now?", Options: []wire.Option{{Label: "Yes", Default: true}, {Label: "No"}}})
	p := NewPool(a)
	w := p.NewWindow(q, Options{}, func(wire.Answer) {})
	w.Show()
	defer w.Close()
	v := w.View()
	c := v.Content()
	full := c.Size()
	c.Resize(c.MinSize())
	c.Resize(full)
	got, at := v.sending.inline.Size(), v.sending.inline.Position()
	relayout(c)
	if got != v.sending.inline.Size() || at != v.sending.inline.Position() {
		t.Errorf("after a minimum pass the Sending line is %v at %v; a fresh layout puts it %v at %v",
			got, at, v.sending.inline.Size(), v.sending.inline.Position())
	}
	if got.Width <= 0 {
		t.Errorf("the Sending line is %v wide", got.Width)
	}
}
