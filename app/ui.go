package app

import (
	"fmt"

	"fyne.io/fyne/v2"

	"feedback/dialogs"
	"feedback/ipc"
)

// windows is the Fyne Presenter: one dialogs.Window per open question.
type windows struct {
	app  fyne.App
	opts dialogs.Options
	open map[string]*dialogs.Window // touched on the Fyne goroutine only
}

func newWindows(a fyne.App, opts dialogs.Options) *windows {
	return &windows{app: a, opts: opts, open: make(map[string]*dialogs.Window)}
}

// Show implements Presenter.
func (u *windows) Show(q ipc.Question, shown func(), done func(ipc.Answer)) {
	fyne.Do(func() {
		w := dialogs.NewWindow(u.app, q, u.opts, func(a ipc.Answer) {
			delete(u.open, q.ID)
			done(a)
		})
		u.open[q.ID] = w
		w.Show()
		shown()
	})
}

// Withdraw implements Presenter.
func (u *windows) Withdraw(id string) {
	fyne.Do(func() {
		if w, ok := u.open[id]; ok {
			delete(u.open, id)
			w.Close()
		}
	})
}

// Focus implements Presenter.
func (u *windows) Focus(id string) {
	fyne.Do(func() {
		if w, ok := u.open[id]; ok {
			w.Focus()
		}
	})
}

// trayMenu builds the tray menu: the open questions (a click focuses one),
// then Quit. (Fyne appends a missing Quit only after drawing the menu, so it
// would show from the second refresh on: the menu brings its own.)
func trayMenu(items []Item, focus func(id string), quit func()) *fyne.Menu {
	m := fyne.NewMenu("feedback")
	if len(items) == 0 {
		none := fyne.NewMenuItem("No open questions", nil)
		none.Disabled = true
		m.Items = append(m.Items, none)
	}
	for _, it := range items {
		id := it.ID
		label := it.Title
		if it.Client != "" {
			label = fmt.Sprintf("%s (%s)", label, it.Client)
		}
		m.Items = append(m.Items, fyne.NewMenuItem(label, func() { focus(id) }))
	}
	q := fyne.NewMenuItem("Quit", quit)
	q.IsQuit = true
	m.Items = append(m.Items, fyne.NewMenuItemSeparator(), q)
	return m
}
