package uiprocess

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/dialogs"
	"feedback/internal/i18n"
)

// confirmQuit asks whether to quit while open questions are open, in a
// small window of its own (the tray has no window to hang a dialog on).
// answer gets true only for Quit (or Alt+Q); Keep running (the primary button),
// Escape, Enter and closing the window all keep the app running.
func confirmQuit(a fyne.App, open int, answer func(yes bool)) fyne.Window {
	w := a.NewWindow(i18n.T("quit.title"))
	answered := false
	reply := func(yes bool) {
		if answered {
			return
		}
		answered = true
		answer(yes)
		w.Close()
	}
	msg := widget.NewLabel(i18n.N("quit.open", open) + "\n" + i18n.T("quit.consequence"))
	msg.Wrapping = fyne.TextWrapWord
	keep := widget.NewButtonWithIcon(i18n.T("quit.keep"), theme.CancelIcon(), func() { reply(false) })
	keep.Importance = widget.HighImportance
	quit := widget.NewButtonWithIcon(i18n.T("quit.quit"), theme.LogoutIcon(), func() { reply(true) })
	quit.Importance = widget.DangerImportance
	w.SetContent(container.NewPadded(container.NewBorder(nil, container.NewHBox(layout.NewSpacer(), quit, keep), nil, nil, msg)))
	w.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) {
		switch k.Name {
		case fyne.KeyEscape, fyne.KeyReturn, fyne.KeyEnter:
			reply(false)
		}
	})
	w.Canvas().AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierAlt}, func(fyne.Shortcut) { reply(true) })
	w.SetCloseIntercept(func() { reply(false) })
	w.Resize(fyne.NewSize(460, 170))
	w.CenterOnScreen()
	w.Show()
	dialogs.CentreOnUsersMonitor(w) // where the user works, as questions open
	w.RequestFocus()                // nothing focused inside: Enter and Escape reach the canvas: keep running
	return w
}
