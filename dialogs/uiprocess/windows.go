package uiprocess

import (
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"

	"feedback/dialogs"
	"feedback/ipc/wire"
)

// windows shows the question windows: one dialogs.Window per open question,
// all from one dialogs.Pool (a closed question's window is hidden and
// reused, not destroyed at once: see Pool).
type windows struct {
	app     fyne.App
	optsMu  sync.Mutex      // guards opts: replaced when the settings change (livesettings.go)
	opts    dialogs.Options // of the windows opened from now on
	pool    *dialogs.Pool   // touched on the Fyne goroutine only
	ended   chan struct{}   // closed when the Fyne loop has returned: nothing to call into
	stopped atomic.Bool     // the app is quitting: no more work on the Fyne goroutine
	asked   atomic.Bool     // a question was asked to show: nothing to warm (warm)
}

// hooks are what a question window reports: when it is on screen, each
// draft, and its outcome.
type hooks struct {
	Shown func()
	Draft func(wire.Draft)
	Done  func(wire.Answer)
}

func newWindows(a fyne.App, opts dialogs.Options) *windows {
	return &windows{app: a, opts: opts, pool: dialogs.NewPool(a), ended: make(chan struct{})}
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
	u.pool.CloseAll()
}

// warm prepares the first question window without showing it (uiproto.Warm),
// unless a question was asked meanwhile: then the question is what a
// warmed window would be waiting for (the command that started this
// process and the first question arrive together, read one after the
// other, before Fyne runs what they queued).
func (u *windows) warm(log *slog.Logger) {
	opts := u.options()
	u.do(func() {
		if u.asked.Load() {
			return
		}
		start := time.Now()
		if u.pool.Warm(dialogs.SampleQuestion(), opts) {
			log.Info("the first window is ready", "took", time.Since(start).Round(time.Millisecond))
		}
	})
}

// loopEnded records that the Fyne loop has returned; call it once.
func (u *windows) loopEnded() {
	u.stopped.Store(true)
	close(u.ended)
}

// show opens a window for q with draft, if not nil, restored into it;
// adjust, if not nil, adjusts the window's options on the Fyne goroutine;
// unfocused, if not nil, is called before h.Shown when the window opened
// without the focus (the user was typing in another).
func (u *windows) show(q wire.Question, draft *wire.Draft, adjust func(*dialogs.Options), h hooks, unfocused func()) {
	u.asked.Store(true)
	opts := u.options()
	opts.OnDraft = h.Draft
	u.do(func() {
		if u.pool.Showing(q.ID) != nil { // shown already (a repeated command): nothing to do,
			return // and no raise: only the user's action raises a window
		}
		if adjust != nil {
			adjust(&opts)
		}
		w := u.pool.NewWindow(q, opts, h.Done)
		w.Show()
		if draft != nil { // once shown, so the cursor lands at the end of the laid-out text
			w.View().RestoreDraft(*draft)
		}
		if unfocused != nil && w.Unfocused() {
			unfocused()
		}
		h.Shown()
	})
}

// withdraw closes the window of question id without an answer (it reports
// its unreported draft first), then calls closed, if not nil, on the Fyne
// goroutine.
func (u *windows) withdraw(id string, closed func()) {
	u.do(func() {
		if w := u.pool.Showing(id); w != nil {
			w.Close()
		}
		if closed != nil {
			closed()
		}
	})
}

// Focus raises the window of question id.
func (u *windows) Focus(id string) {
	u.do(func() {
		if w := u.pool.Showing(id); w != nil {
			w.Focus()
		}
	})
}
