package dialogs

import (
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"

	"feedback/ipc"
)

// Window is a question shown in its own top-level window.
// All methods run on the Fyne goroutine.
type Window struct {
	win    fyne.Window
	view   *View
	stop   chan struct{}
	closed bool
}

// WindowSize is the initial size of a question window.
var WindowSize = fyne.NewSize(680, 640)

// NewWindow creates (but does not show) the window for q in a. onDone gets
// the one Answer; the window closes itself after it.
func NewWindow(a fyne.App, q ipc.Question, opts Options, onDone func(ipc.Answer)) *Window {
	w := &Window{win: a.NewWindow(WindowTitle(q)), stop: make(chan struct{})}
	w.view = NewView(q, opts, func(ans ipc.Answer) {
		w.Close()
		onDone(ans)
	})
	w.view.confirm = func(title, message string, ok func()) {
		dialog.ShowConfirm(title, message, func(yes bool) {
			if yes {
				ok()
			}
		}, w.win)
	}
	w.win.SetContent(w.view.Content())
	w.win.SetCloseIntercept(w.view.RequestDismiss)
	for _, s := range w.view.Shortcuts() {
		w.win.Canvas().AddShortcut(s, func(s fyne.Shortcut) { w.view.shortcut(s) })
	}
	w.win.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			w.view.RequestDismiss()
		}
	})
	w.win.Resize(WindowSize)
	return w
}

// View is the window's content.
func (w *Window) View() *View { return w.view }

// Fyne is the underlying window.
func (w *Window) Fyne() fyne.Window { return w.win }

// Show shows the window, gives the reply box keyboard focus and starts the
// countdown ticker.
func (w *Window) Show() {
	w.win.CenterOnScreen()
	w.win.Show()
	w.Focus()
	go w.tick()
}

// Focus raises the window and focuses the reply box.
func (w *Window) Focus() {
	w.win.RequestFocus()
	if w.view.focus != nil {
		w.win.Canvas().Focus(w.view.focus)
	}
}

// Close closes the window without an answer (the caller went away).
func (w *Window) Close() {
	if w.closed {
		return
	}
	w.closed = true
	close(w.stop)
	w.win.Close()
}

func (w *Window) tick() {
	t := time.NewTicker(time.Second)
	defer t.Stop()
	for {
		select {
		case <-w.stop:
			return
		case now := <-t.C:
			fyne.Do(func() {
				if !w.closed {
					w.view.Tick(now)
				}
			})
		}
	}
}
