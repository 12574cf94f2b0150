package dialogs

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
)

// The focus ring: the control with the keyboard (a button, a checkbox, a
// radio button, the reply box) is outlined in colorNameFocusRing, 2 px wide, so that it
// is found at a glance. Fyne's own indicator is a faint tint (about 1.1:1
// against the background); the ring reaches MinNonTextContrast against the
// background (theme_test.go), and a gap of background (focusRingGap)
// keeps it apart from the control it surrounds, so that it stands out
// beside the Submit button's primary fill too.

// focusRingColor is the ring's colour in th's variant v: the text colour.
func focusRingColor(th fyne.Theme, v fyne.ThemeVariant) color.Color {
	return th.Color(theme.ColorNameForeground, v)
}

// focusRingWidth is the ring's stroke; focusRingGap the background between
// it and the control.
const (
	focusRingWidth = 2
	focusRingGap   = 2
)

// newFocusRing is a hidden ring; ringRenderer shows it while focused.
func newFocusRing() *canvas.Rectangle {
	r := canvas.NewRectangle(color.Transparent)
	r.StrokeWidth = focusRingWidth
	r.CornerRadius = theme.InputRadiusSize() + focusRingWidth
	r.Hide()
	return r
}

// ringRenderer adds a focus ring to a widget's own renderer. around gives
// the rectangle the ring outlines, in the widget's coordinates, for its
// size; focused reports whether the widget has the keyboard.
type ringRenderer struct {
	fyne.WidgetRenderer
	ring    *canvas.Rectangle
	around  func(fyne.Size) (fyne.Position, fyne.Size)
	focused func() bool
	size    fyne.Size
}

func (r *ringRenderer) Objects() []fyne.CanvasObject {
	return append(r.WidgetRenderer.Objects(), r.ring)
}

func (r *ringRenderer) Layout(s fyne.Size) {
	r.size = s
	r.WidgetRenderer.Layout(s)
	pos, size := r.around(s)
	g := float32(focusRingWidth + focusRingGap)
	r.ring.Move(pos.SubtractXY(g, g))
	r.ring.Resize(size.AddWidthHeight(2*g, 2*g))
}

func (r *ringRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	if r.focused() {
		r.ring.StrokeColor = focusRingColor(fyne.CurrentApp().Settings().Theme(), fyne.CurrentApp().Settings().ThemeVariant())
		r.ring.Show()
	} else {
		r.ring.Hide()
	}
	r.ring.Refresh()
}

// whole is the ring's rectangle for a button: the widget's own bounds,
// the ring drawn just outside them.
func whole(s fyne.Size) (fyne.Position, fyne.Size) { return fyne.Position{}, s }

// onBorder is the ring's rectangle for the reply box: the ring lies on the
// box's own border, inside its bounds (a scroll or the window's edge
// would cut a ring outside them), and covers it. The stroke is centred on
// the rectangle's edge: it is laid out as Fyne lays out the entry's border,
// half a stroke in, and half a pixel less at the trailing edges.
func onBorder(s fyne.Size) (fyne.Position, fyne.Size) {
	g := float32(focusRingWidth + focusRingGap) // ringRenderer takes it off again
	in := float32(focusRingWidth)/2 - .5
	return fyne.NewSquareOffsetPos(g + in), s.SubtractWidthHeight(2*(g+in)+.5, 2*(g+in)+.5)
}

// iconBox is the ring's rectangle for a checkbox or a radio button without
// text: its icon, as Fyne's check lays it out, and a little around it.
func iconBox(s fyne.Size) (fyne.Position, fyne.Size) {
	icon := theme.IconInlineSize()
	pad := theme.InnerPadding() / 4
	x := theme.InnerPadding()/2 + theme.InputBorderSize() - pad // where Fyne's check draws its icon
	return fyne.NewPos(x, (s.Height-icon)/2-pad), fyne.NewSquareSize(icon + 2*pad)
}

// ringRoom is the room the footer leaves at the window's left, right and
// bottom edges: a ring drawn outside a button at an edge reaches the
// window's own padding, and was cut by the edge at scale 1.5 (and drawn
// against it at 1). Above, the footer's neighbour leaves room enough.
const ringRoom = focusRingGap

// ringRoomLayout lays out its objects inset by ringRoom at the left, the
// right and the bottom.
type ringRoomLayout struct{}

func (ringRoomLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(ringRoom, 0))
		o.Resize(fyne.NewSize(size.Width-2*ringRoom, size.Height-ringRoom))
	}
}

func (ringRoomLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var min fyne.Size
	for _, o := range objects {
		min = min.Max(o.MinSize())
	}
	return min.AddWidthHeight(2*ringRoom, ringRoom)
}
