package settingswin

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/lang"
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

// Escape closes the window (RequestClose: asking first about unsaved
// changes), as it closes History, the questions and the note window,
// whatever has the keyboard. Fyne hands a key to the focused widget only,
// and to the canvas when none is: each kind of input here passes Escape
// on to esc.

// escEntry is an entry, one line or many, that passes Escape on.
type escEntry struct {
	widget.Entry
	esc func()
}

func newEscEntry(multiLine bool, esc func()) *escEntry {
	e := &escEntry{esc: esc}
	e.MultiLine = multiLine
	if multiLine {
		e.Wrapping = fyne.TextWrapWord
	}
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey implements fyne.Focusable.
func (e *escEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape {
		e.esc()
		return
	}
	e.Entry.TypedKey(k)
}

// escCheck is a checkbox that passes Escape on.
type escCheck struct {
	widget.Check
	esc func()
}

func newEscCheck(esc func()) *escCheck {
	c := &escCheck{esc: esc}
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey implements fyne.Focusable.
func (c *escCheck) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape {
		c.esc()
		return
	}
	c.Check.TypedKey(k)
}

// escSelect is a drop-down that passes Escape on (an open list takes it
// first, and closes).
type escSelect struct {
	widget.Select
	esc func()
}

func newEscSelect(options []string, esc func()) *escSelect {
	s := &escSelect{esc: esc}
	s.Options = options
	s.PlaceHolder = lang.L("(Select one)")
	s.ExtendBaseWidget(s)
	return s
}

// TypedKey implements fyne.Focusable.
func (s *escSelect) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape {
		s.esc()
		return
	}
	s.Select.TypedKey(k)
}
