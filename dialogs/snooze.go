package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
)

// The snoozes the window offers: for minutes, or until the user is back.
var snoozeChoices = []struct {
	key     string
	minutes int
	back    bool
}{
	{"snooze.10min", 10, false},
	{"snooze.1h", 60, false},
	{"snooze.back", 0, true},
}

// OpenSnoozeMenu shows the Snooze button's menu under it; choosing an
// entry calls Options.OnSnooze. Nothing happens once the view has ended.
func (v *View) OpenSnoozeMenu() {
	if v.snooze.btn == nil || v.ended() {
		return
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(v.snooze.btn)
	if c == nil {
		return
	}
	var items []*fyne.MenuItem
	for _, ch := range snoozeChoices {
		items = append(items, fyne.NewMenuItem(i18n.T(ch.key), func() { v.Snooze(ch.minutes, ch.back) }))
	}
	m := widget.NewPopUpMenu(fyne.NewMenu("", items...), c)
	v.snooze.menu = m
	m.ShowAtRelativePosition(fyne.NewPos(0, v.snooze.btn.Size().Height), v.snooze.btn)
	c.Focus(m) // the arrows and Enter choose, Escape closes
}

// Snooze snoozes the question (Options.OnSnooze) unless the view has ended.
func (v *View) Snooze(minutes int, untilBack bool) {
	if v.opts.OnSnooze == nil || v.ended() {
		return
	}
	v.opts.OnSnooze(minutes, untilBack)
}
