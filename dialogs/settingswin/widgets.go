package settingswin

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"
)

// wheelForward is a transparent layer that takes the mouse wheel only:
// it hands each scroll to onScroll. Laid over an input, it lets clicks,
// drags and keys through (it is neither tappable nor draggable).
type wheelForward struct {
	widget.BaseWidget
	onScroll func(*fyne.ScrollEvent)
}

func newWheelForward(onScroll func(*fyne.ScrollEvent)) *wheelForward {
	f := &wheelForward{onScroll: onScroll}
	f.ExtendBaseWidget(f)
	return f
}

// Scrolled implements fyne.Scrollable.
func (f *wheelForward) Scrolled(ev *fyne.ScrollEvent) { f.onScroll(ev) }

func (f *wheelForward) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

// tapLabel is a label in the error colour that does something when tapped
// (the problem summary by Save), one line, cut with an ellipsis.
type tapLabel struct {
	widget.Label
	onTap func()
}

func newTapLabel(onTap func()) *tapLabel {
	l := &tapLabel{onTap: onTap}
	l.Importance = widget.DangerImportance
	l.Truncation = fyne.TextTruncateEllipsis
	l.ExtendBaseWidget(l)
	return l
}

// Tapped implements fyne.Tappable.
func (l *tapLabel) Tapped(*fyne.PointEvent) { l.onTap() }

// Cursor shows a pointing hand: it acts like a link.
func (l *tapLabel) Cursor() desktop.Cursor { return desktop.PointerCursor }
