package dialogs

import (
	"io"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"

	"feedback/imagepipe"
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
	w.win.Canvas().AddShortcut(&fyne.ShortcutPaste{}, func(s fyne.Shortcut) { w.view.pasteInto(nil, s) })
	w.view.onAttach = w.pickImages
	w.view.focusOn = w.win.Canvas().Focus
	w.win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) {
		for _, u := range uris {
			w.attachURI(u)
		}
	})
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
// countdown ticker: once a second on the real clock; with Options.Now set
// the caller owns the clock and drives View.Tick itself.
func (w *Window) Show() {
	reapHidden()
	w.win.CenterOnScreen()
	w.win.Show()
	w.Focus()
	if w.view.opts.Now == nil {
		go w.tick()
	}
}

// Focus raises the window and focuses the reply box.
func (w *Window) Focus() {
	w.win.RequestFocus()
	if w.view.focus != nil {
		w.win.Canvas().Focus(w.view.focus)
	}
}

// Close closes the window. Without an answer (the caller went away) the
// view first reports its draft if an edit is unreported.
func (w *Window) Close() {
	if w.closed {
		return
	}
	w.view.FlushDraft()
	w.closed = true
	close(w.stop)
	// Hide now, destroy later. GLFW can still deliver a pointer event for a
	// window in the same loop turn as its Close, and Fyne 2.7 then
	// dereferences the destroyed native window while updating the cursor (a
	// nil-pointer panic that took the whole app down once in CI, when a
	// question was withdrawn just after its window appeared under the
	// pointer). An unmapped window gets no new pointer events; it is
	// destroyed at the next Show or Close, a later turn of the loop, or by
	// Fyne when the app quits. No timer: a fyne.Do after the loop has ended
	// would be an error of its own.
	reapHidden()
	w.win.Hide()
	hidden = append(hidden, w.win)
}

// hidden are closed question windows waiting to be destroyed (see Close).
// Touched on the Fyne goroutine only.
var hidden []fyne.Window

// reapHidden destroys the windows hidden by earlier Close calls.
func reapHidden() {
	for _, w := range hidden {
		w.Close()
	}
	hidden = nil
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

// imageExtensions are offered by the Attach… picker.
var imageExtensions = []string{".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp"}

// pickImages opens a file picker for an image to attach.
func (w *Window) pickImages() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil {
			w.view.AttachError("The chosen file", err)
			return
		}
		if r == nil { // cancelled
			return
		}
		r.Close()
		w.attachURI(r.URI())
	}, w.win)
	d.SetFilter(storage.NewExtensionFileFilter(imageExtensions))
	d.Resize(fyne.NewSize(w.win.Canvas().Size().Width*0.95, w.win.Canvas().Size().Height*0.9))
	d.Show()
}

// attachURI reads a dropped or picked file off the Fyne goroutine and
// attaches it. Reading stops one byte past the input limit, so a huge file
// is refused with a clear message instead of being loaded.
func (w *Window) attachURI(u fyne.URI) {
	limit := w.view.opts.Images.MaxInputBytes
	go func() {
		data, err := readLimited(u, limit)
		fyne.Do(func() {
			if err != nil {
				w.view.AttachError(u.Name(), err)
				return
			}
			w.view.AttachImage(u.Name(), data)
		})
	}()
}

func readLimited(u fyne.URI, limit int) ([]byte, error) {
	r, err := storage.Reader(u)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	if limit <= 0 {
		limit = imagepipe.Default().MaxInputBytes
	}
	return io.ReadAll(io.LimitReader(r, int64(limit)+1))
}
