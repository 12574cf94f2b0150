package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// optionRadio is the button of one option of a one-choice prompt (wire.
// Prompt.Single): choosing it (a click, Space, Enter or its Alt+digit)
// selects it and clears the prompt's other options; choosing it again
// keeps it selected. Up and Down move the keyboard to the previous or next
// option, Escape asks to dismiss, and its key presses reach the input
// guard, as an option's checkbox does. It has no text: the option's label
// is a wrapping text beside it (optionRowLayout).
type optionRadio struct {
	widget.DisableableWidget
	keys     keyHandler
	move     func(from fyne.Focusable, by int)
	on       bool
	focused  bool
	onChosen func() // the user chose it (it was not selected)
}

func newOptionRadio(keys keyHandler) *optionRadio {
	r := &optionRadio{keys: keys}
	r.ExtendBaseWidget(r)
	return r
}

// setOn selects or clears the option without telling onChosen.
func (r *optionRadio) setOn(on bool) {
	if r.on != on {
		r.on = on
		r.Refresh()
	}
}

// choose selects the option as the user's act.
func (r *optionRadio) choose() {
	if r.Disabled() || r.on {
		return
	}
	r.setOn(true)
	if r.onChosen != nil {
		r.onChosen()
	}
}

// Tapped chooses the option.
func (r *optionRadio) Tapped(*fyne.PointEvent) { r.choose() }

// FocusGained shows the focus ring.
func (r *optionRadio) FocusGained() { r.focused = true; r.Refresh() }

// FocusLost hides it.
func (r *optionRadio) FocusLost() { r.focused = false; r.Refresh() }

// TypedRune does nothing: the option has no text.
func (r *optionRadio) TypedRune(rune) {}

// TypedKey: Space and Enter choose, Up and Down move, Escape dismisses.
func (r *optionRadio) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyEscape:
		r.keys.escape()
	case fyne.KeySpace, fyne.KeyReturn, fyne.KeyEnter:
		r.choose()
	case fyne.KeyUp, fyne.KeyDown:
		if r.move != nil {
			r.move(r, map[fyne.KeyName]int{fyne.KeyUp: -1, fyne.KeyDown: 1}[k.Name])
		}
	}
}

// KeyDown tells the input guard.
func (r *optionRadio) KeyDown(k *fyne.KeyEvent) { r.keys.keyDown(k); r.keys.reveal(r) }

// KeyUp tells the input guard, and shows the option (Tab moved here).
func (r *optionRadio) KeyUp(k *fyne.KeyEvent) { r.keys.keyUp(k); r.keys.reveal(r) }

func (r *optionRadio) reportsKeys() {}

// Cursor is the pointer over a control that acts.
func (r *optionRadio) Cursor() desktop.Cursor { return desktop.PointerCursor }

// CreateRenderer draws the radio icon, as big and where a check's is, and
// the focus ring.
func (r *optionRadio) CreateRenderer() fyne.WidgetRenderer {
	r.ExtendBaseWidget(r)
	icon := canvas.NewImageFromResource(theme.RadioButtonIcon())
	base := &radioRenderer{r: r, icon: icon}
	base.Refresh()
	return &ringRenderer{WidgetRenderer: base, ring: newFocusRing(), around: iconBox, focused: func() bool { return r.focused }}
}

type radioRenderer struct {
	r    *optionRadio
	icon *canvas.Image
}

func (rr *radioRenderer) Destroy() {}

func (rr *radioRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{rr.icon} }

func (rr *radioRenderer) MinSize() fyne.Size {
	return fyne.NewSquareSize(theme.IconInlineSize() + 2*theme.InnerPadding())
}

func (rr *radioRenderer) Layout(s fyne.Size) {
	size := theme.IconInlineSize()
	rr.icon.Move(fyne.NewPos(theme.InnerPadding()/2+theme.InputBorderSize(), (s.Height-size)/2))
	rr.icon.Resize(fyne.NewSquareSize(size))
}

func (rr *radioRenderer) Refresh() {
	var res fyne.Resource = theme.NewColoredResource(theme.RadioButtonIcon(), theme.ColorNameInputBorder)
	if rr.r.on {
		res = theme.NewPrimaryThemedResource(theme.RadioButtonCheckedIcon())
	}
	if rr.r.Disabled() {
		res = theme.NewDisabledResource(res)
	}
	rr.icon.Resource = res
	rr.icon.Refresh()
}
