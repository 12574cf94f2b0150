package app

import (
	"fmt"
	"sync/atomic"

	"fyne.io/fyne/v2"

	"feedback/dialogs"
	"feedback/store"
	"feedback/wire"
)

// windows is the Fyne Presenter: one dialogs.Window per open question,
// all from one dialogs.Pool (a closed question's window is hidden and
// reused, not destroyed at once: see Pool).
type windows struct {
	app     fyne.App
	opts    dialogs.Options
	pool    *dialogs.Pool              // touched on the Fyne goroutine only
	open    map[string]*dialogs.Window // touched on the Fyne goroutine only
	ended   chan struct{}              // closed when the Fyne loop has returned: nothing to call into
	stopped atomic.Bool                // the app is quitting: no more work on the Fyne goroutine
}

var _ DraftPresenter = (*windows)(nil)

func newWindows(a fyne.App, opts dialogs.Options) *windows {
	return &windows{app: a, opts: opts, pool: dialogs.NewPool(a), open: make(map[string]*dialogs.Window), ended: make(chan struct{})}
}

// do runs f on the Fyne goroutine, unless the app is quitting or the loop
// has ended. (Once Fyne's loop has drained, fyne.Do runs f on the calling
// goroutine: f checks again when it runs.)
func (u *windows) do(f func()) {
	if u.stopped.Load() {
		return
	}
	select {
	case <-u.ended:
	default:
		fyne.Do(func() {
			if !u.stopped.Load() {
				f()
			}
		})
	}
}

// stop is called on the Fyne goroutine when the app starts quitting: the
// windows close (each reports its unreported draft first, and its
// heartbeat — countdown, draft timers, attachments — stops), and nothing
// runs on the Fyne goroutine through do any more.
func (u *windows) stop() {
	if u.stopped.Swap(true) {
		return
	}
	for id, w := range u.open {
		delete(u.open, id)
		w.Close()
	}
}

// loopEnded records that the Fyne loop has returned; call it once.
func (u *windows) loopEnded() {
	u.stopped.Store(true)
	close(u.ended)
}

// Show implements Presenter.
func (u *windows) Show(q wire.Question, shown func(), done func(wire.Answer)) {
	u.ShowDraft(q, nil, Hooks{Shown: shown, Draft: func(store.Draft) {}, Done: done})
}

// ShowDraft implements DraftPresenter.
func (u *windows) ShowDraft(q wire.Question, draft *store.Draft, h Hooks) {
	opts := u.opts
	opts.OnDraft = func(d dialogs.Draft) { h.Draft(store.Draft{Replies: d.Replies, Images: d.Images}) }
	u.do(func() {
		w := u.pool.NewWindow(q, opts, func(a wire.Answer) {
			delete(u.open, q.ID)
			h.Done(a)
		})
		u.open[q.ID] = w
		w.Show()
		if draft != nil { // once shown, so the cursor lands at the end of the laid-out text
			w.View().RestoreDraft(dialogs.Draft{Replies: draft.Replies, Images: draft.Images})
		}
		h.Shown()
	})
}

// Withdraw implements Presenter.
func (u *windows) Withdraw(id string) {
	u.do(func() {
		if w, ok := u.open[id]; ok {
			delete(u.open, id)
			w.Close()
		}
	})
}

// Focus implements Presenter.
func (u *windows) Focus(id string) {
	u.do(func() {
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
