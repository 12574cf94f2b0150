// Package modal holds what the windows' dialogs share: a button that
// Enter presses and Escape cancels, and the dialog that asks whether to
// throw away what the user typed (the question window's reply, the
// Settings window's edits).
package modal

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Render wraps a button's renderer (the question window draws CJK labels
// heavier); nil leaves it as it is.
type Render func(fyne.Widget, fyne.WidgetRenderer) fyne.WidgetRenderer

// Button is a dialog's button: Enter (and Space) press it, Escape calls
// Cancel, which closes the dialog the safe way.
type Button struct {
	widget.Button
	Cancel func()
	render Render
}

// NewButton makes a button; set its Cancel before it is shown.
func NewButton(label string, icon fyne.Resource, tapped func(), render Render) *Button {
	b := &Button{render: render}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// CreateRenderer is the button's, wrapped by its Render.
func (b *Button) CreateRenderer() fyne.WidgetRenderer {
	r := b.Button.CreateRenderer()
	if b.render != nil {
		return b.render(b, r)
	}
	return r
}

// TypedKey: Enter presses the button, Escape cancels.
func (b *Button) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		b.OnTapped()
	case fyne.KeyEscape:
		if b.Cancel != nil {
			b.Cancel()
		}
	default:
		b.Button.TypedKey(k)
	}
}

// Discard is what the discard dialog says, in the user's language.
type Discard struct {
	Title, Message string
	Keep, Discard  string // the buttons' labels
}

// AskDiscard asks in win whether to throw away what the user typed. The
// safe choice, Keep, is the primary button and has the keyboard (its
// focus colour shows it): Enter or Space takes it, and so does Escape;
// only a deliberate Discard (a click, or Tab to it and Enter) calls
// discard. It returns the dialog's buttons.
func AskDiscard(win fyne.Window, text Discard, discard func(), render Render) (keep, drop *Button) {
	var d *dialog.CustomDialog
	keep = NewButton(text.Keep, theme.DocumentCreateIcon(), func() { d.Hide() }, render)
	keep.Importance = widget.HighImportance
	drop = NewButton(text.Discard, theme.DeleteIcon(), func() { d.Hide(); discard() }, render)
	keep.Cancel, drop.Cancel = keep.OnTapped, keep.OnTapped
	msg := widget.NewLabel(text.Message)
	msg.Wrapping = fyne.TextWrapWord
	d = dialog.NewCustomWithoutButtons(text.Title, msg, win)
	d.SetButtons([]fyne.CanvasObject{drop, keep})
	d.Resize(fyne.NewSize(380, 0))
	d.Show()
	win.Canvas().Focus(keep)
	return keep, drop
}
