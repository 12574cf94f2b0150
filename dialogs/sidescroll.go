package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// sideScroll scrolls a wide code block or table sideways, and only
// sideways: the mouse wheel (a vertical scroll) goes on to the message
// around it, so the wheel is never trapped; Shift+wheel (or a touchpad's
// sideways swipe) and its own scrollbar move it. A plain HScroll turns the
// vertical wheel into a sideways scroll and keeps it.
type sideScroll struct {
	container.Scroll
}

func newSideScroll(content fyne.CanvasObject) *sideScroll {
	s := &sideScroll{}
	s.Direction = container.ScrollHorizontalOnly
	s.Content = content
	s.ExtendBaseWidget(s)
	return s
}

// Scrolled moves the block by the sideways part of ev and hands the
// vertical part to the message's scroll.
func (s *sideScroll) Scrolled(ev *fyne.ScrollEvent) {
	if ev.Scrolled.DX != 0 {
		side := *ev
		side.Scrolled.DY = 0
		s.Scroll.Scrolled(&side)
	}
	if ev.Scrolled.DY != 0 {
		if outer := outerScroll(s); outer != nil {
			up := *ev
			up.Scrolled.DX = 0
			outer.Scrolled(&up)
		}
	}
}

// views maps a view's content to the view while it is shown, so that a
// sideScroll inside finds the scroll around it.
var views = map[fyne.CanvasObject]*View{}

// outerScroll is the message scroll of the view o is in, or nil.
func outerScroll(o fyne.CanvasObject) *container.Scroll {
	app := fyne.CurrentApp()
	if app == nil {
		return nil
	}
	c := app.Driver().CanvasForObject(o)
	if c == nil {
		return nil
	}
	if v := views[c.Content()]; v != nil {
		return v.scroll
	}
	return nil
}

// forget drops the view from views: it is closed.
func (v *View) forget() { delete(views, v.content) }
