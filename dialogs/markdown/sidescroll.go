package markdown

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
)

// SideScroll scrolls a wide code block or table sideways, and only
// sideways: the mouse wheel (a vertical scroll) goes on to the message
// around it, so the wheel is never trapped; Shift+wheel (or a touchpad's
// sideways swipe) and its own scrollbar move it. A plain HScroll turns the
// vertical wheel into a sideways scroll and keeps it.
type SideScroll struct {
	container.Scroll
	page func() *container.Scroll // the message's scroll (Options.Page), or nil
}

func newSideScroll(content fyne.CanvasObject, page func() *container.Scroll) *SideScroll {
	s := &SideScroll{page: page}
	s.Direction = container.ScrollHorizontalOnly
	s.Content = content
	s.ExtendBaseWidget(s)
	return s
}

// Scrolled moves the block by the sideways part of ev and hands the
// vertical part to the message's scroll.
func (s *SideScroll) Scrolled(ev *fyne.ScrollEvent) {
	if ev.Scrolled.DX != 0 {
		side := *ev
		side.Scrolled.DY = 0
		s.Scroll.Scrolled(&side)
	}
	if ev.Scrolled.DY != 0 {
		if s.page == nil {
			return
		}
		if outer := s.page(); outer != nil {
			up := *ev
			up.Scrolled.DX = 0
			outer.Scrolled(&up)
		}
	}
}

// MinSize is the block's, one unit taller: the GL painter clips the
// scroll to whole pixels, truncating its position and size, and the last
// row of a block as tall as its scroll (a table's bottom rule) was cut off
// at scale 1.
func (s *SideScroll) MinSize() fyne.Size {
	m := s.Scroll.MinSize()
	return fyne.NewSize(m.Width, m.Height+1)
}
