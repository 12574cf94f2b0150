package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
)

// askDiscard asks in win whether to throw away the user's reply. The safe
// choice, "Keep editing", is the primary button and has the keyboard (its
// focus colour shows it): Enter or Space takes it, and so does Escape;
// only a deliberate "Discard" (a click, or Tab to it and Enter) calls
// discard.
func askDiscard(win fyne.Window, title, message string, discard func()) *dialog.CustomDialog {
	var d *dialog.CustomDialog
	keep := newDialogButton(i18n.T("discard.keep"), theme.DocumentCreateIcon(), func() { d.Hide() })
	keep.Importance = widget.HighImportance
	drop := newDialogButton(i18n.T("discard.discard"), theme.DeleteIcon(), func() { d.Hide(); discard() })
	keep.cancel, drop.cancel = keep.OnTapped, keep.OnTapped
	msg := widget.NewLabel(message)
	msg.Wrapping = fyne.TextWrapWord
	d = dialog.NewCustomWithoutButtons(title, msg, win)
	d.SetButtons([]fyne.CanvasObject{drop, keep})
	d.Resize(fyne.NewSize(380, 0))
	d.Show()
	win.Canvas().Focus(keep)
	return d
}

// dialogButton is a button of the discard dialog: Enter (and Space) press
// it, Escape cancels the dialog.
type dialogButton struct {
	widget.Button
	cancel func()
}

func newDialogButton(label string, icon fyne.Resource, tapped func()) *dialogButton {
	b := &dialogButton{}
	b.Text, b.Icon, b.OnTapped = label, icon, tapped
	b.ExtendBaseWidget(b)
	return b
}

// CreateRenderer draws a CJK label heavier (heavy.go).
func (b *dialogButton) CreateRenderer() fyne.WidgetRenderer {
	return heavy(b, b.Button.CreateRenderer())
}

// TypedKey: Enter presses the button, Escape cancels.
func (b *dialogButton) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		b.OnTapped()
	case fyne.KeyEscape:
		b.cancel()
	default:
		b.Button.TypedKey(k)
	}
}
