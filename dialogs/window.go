package dialogs

import (
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"log/slog"
	"os"
	"runtime/debug"
	"sync"
	"syscall"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"

	"feedback/dialogs/imagepipe"
	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// Pool hands out the top-level windows that show questions, and takes them
// back when a question ends: a window is hidden and kept for the next
// question instead of being closed.
//
// Why: Fyne marks a closed window as closing before GLFW destroys it on a
// later turn of its loop, and in 2.7 a pointer event GLFW delivered in
// between made processMouseMoved call SetInputMode on the nil native
// window: a SIGSEGV that took the app down (seen in 3 of 5 runs of 100
// quick open/close cycles with the pointer over the window; hiding first
// and destroying a turn later only narrows the gap). Fyne 2.8 checks that
// path; a click's (processMouseClicked's GetCursorPos) still is not. A hidden window gets no
// pointer events, so a window is only closed once it has been hidden for
// trimAfter turns of Fyne's event loop (each turn polls GLFW's events
// first), when no event for it can still be pending, and only beyond
// keepIdle hidden windows: a burst of questions does not keep its windows'
// memory (~14 MB each with Mesa's llvmpipe) for good. Once no question has
// been open for quietTurns, all but quietKeep go too (a hidden window keeps
// what its last questions drew: Fyne frees a canvas's textures and widget
// renderers only as it paints or closes it) and the heap they used is
// returned to the system. Fyne destroys the rest when the app quits. See docs/upstream/fyne-close-segv.md.
//
// A Pool and its windows are used on the Fyne goroutine only.
type Pool struct {
	app       fyne.App
	idle      []*slot      // hidden windows, the longest hidden first
	open      []*slot      // windows showing a question, in the order they were shown (place.go)
	quietFrom uint32       // the other program's window that Quiet windows leave the focus with (place.go)
	bringKeys shortcutHold // the global shortcut that brings a waiting question (bring.go)
	backing   *handingBack // the keyboard going back after the last window that had it closed (place.go)
	all       int          // windows created
	destroyed int          // windows trimmed
	turns     int          // event loop turns counted by the trimmer
	lastPut   int          // turns when the last window was hidden
	trimmer   *fyne.Animation
	// release runs once the pool closed its hidden windows after a quiet
	// time, when their memory can go back to the system (releaseMemory).
	release func()
	// Log is where the Pool says it replaced a window another X client
	// destroyed (lost.go); nil: slog.Default(). Set it before the first
	// window.
	Log *slog.Logger
}

// Trimming the hidden windows.
const (
	keepIdle   = 4    // hidden windows kept for the next questions
	trimAfter  = 300  // loop turns (5 s at Fyne's 60 Hz) a window stays hidden before it may go
	quietTurns = 1800 // loop turns (30 s) with no question open after which only quietKeep hidden windows are kept
	quietKeep  = 1    // hidden windows kept once quiet: the next question's window is ready, its GL context made
)

// slot is one native window and the question it shows now, if any. Its
// handlers (shortcuts, keys, drops, close) are installed once and talk to
// whichever Window holds the slot.
type slot struct {
	win        fyne.Window
	cur        *Window
	hiddenTurn int             // Pool.turns when it was hidden
	placed     image.Rectangle // where the Pool put its frame last (place.go); empty: not placed
}

// NewPool returns an empty pool of windows of a.
func NewPool(a fyne.App) *Pool {
	desk.start() // place.go
	p := &Pool{app: a, release: releaseMemory}
	p.armOnFocusIn() // keyguard.go
	return p
}

// releaseMemory returns the heap the closed windows' questions used to the
// system, a moment after their windows were destroyed (on a later turn of
// Fyne's loop). Go's scavenger would keep most of it: no collection runs
// while nothing is shown, so the heap goal stays that of the burst.
func releaseMemory() {
	go func() {
		time.Sleep(2 * time.Second)
		ReleaseMemory()
	}()
}

// ReleaseMemory returns what the Go heap and the C heap do not use to the
// system: Go's scavenger would keep most of a burst's heap, and malloc the
// GL driver's allocations for closed windows (glibc's malloc_trim,
// trim_linux.go: ~9 MiB of 28 after three 30 KB questions here).
func ReleaseMemory() {
	debug.FreeOSMemory()
	trimCHeap()
}

// trimCHeap returns the C heap's free pages to the system, where it can.
var trimCHeap = func() {}

// Windows reports how many native windows the pool has made, how many of
// them are hidden, waiting for a question, and how many it destroyed.
func (p *Pool) Windows() (made, idle, destroyed int) { return p.all, len(p.idle), p.destroyed }

func (p *Pool) take(title string) *slot {
	p.renewLost() // lost.go: never a lost window for the next question
	//
	if n := len(p.idle); n > 0 { // the most recently hidden: the longest hidden are first to go
		s := p.idle[n-1]
		p.idle = p.idle[:n-1]
		s.win.SetTitle(title)
		return s
	}
	p.all++
	s := &slot{win: p.app.NewWindow(title)}
	noFocusOnShow(p.app) // place.go: the native window is created on the first Show
	s.install()
	return s
}

// install sets the window's handlers; each passes the event to the
// question the slot holds, if any.
func (s *slot) install() {
	c := s.win.Canvas()
	for _, sc := range (&View{}).Shortcuts() {
		c.AddShortcut(sc, func(sc fyne.Shortcut) {
			if w := s.live(); w != nil {
				w.view.shortcut(sc)
			}
		})
	}
	for _, sc := range pageShortcuts() { // approve.go
		c.AddShortcut(sc, func(sc fyne.Shortcut) {
			if w := s.live(); w != nil {
				w.view.shortcut(sc)
			}
		})
	}
	c.AddShortcut(&fyne.ShortcutPaste{}, func(sc fyne.Shortcut) {
		if w := s.live(); w != nil {
			w.view.pasteInto(nil, sc)
		}
	})
	c.SetOnTypedKey(func(k *fyne.KeyEvent) {
		w := s.live()
		switch {
		case w == nil:
		case k.Name == fyne.KeyEscape:
			w.view.escape()
		case k.Name == HelpKey:
			w.view.showKeys()
		case k.Name == fyne.KeyReturn || k.Name == fyne.KeyEnter:
			w.view.enter(k.Name)
		}
	})
	if dc, ok := c.(desktop.Canvas); ok { // nothing focused: the canvas sees the keys
		dc.SetOnKeyDown(func(k *fyne.KeyEvent) {
			if w := s.live(); w != nil {
				w.view.keyDown(k)
			}
		})
		dc.SetOnKeyUp(func(k *fyne.KeyEvent) {
			if w := s.live(); w != nil {
				w.view.keyUp(k)
			}
		})
	}
	s.win.SetCloseIntercept(func() { // never let Fyne close it: see Pool
		if w := s.live(); w != nil {
			w.view.RequestDismiss()
		}
	})
	for _, sc := range []fyne.Shortcut{CycleNext, CyclePrevious} { // nothing focused, or a widget that passes it on
		c.AddShortcut(sc, func(sc fyne.Shortcut) {
			if w := s.live(); w != nil {
				w.view.shortcut(sc)
			}
		})
	}
	s.win.SetOnDropped(func(_ fyne.Position, uris []fyne.URI) {
		if w := s.live(); w != nil {
			for _, u := range uris {
				w.attachURI(u)
			}
		}
	})
}

// live is the open question the slot shows, or nil.
func (s *slot) live() *Window {
	if s.cur == nil || s.cur.closed {
		return nil
	}
	return s.cur
}

// put hides the window, empties it and keeps it for the next question.
func (p *Pool) put(s *slot) {
	s.cur = nil
	hadKeys := desk.active(s.win)
	p.closed(s)
	s.win.Hide()
	if hadKeys {
		p.handBack() // place.go
	}
	// Each overlay (a confirmation or the file picker) has a focus of its
	// own, and the content's is under them: all are let go. A reply box
	// left focused under a confirmation kept its blinking cursor's
	// animation running in the hidden window for the life of the process.
	c := s.win.Canvas()
	c.Unfocus()
	for o := c.Overlays().Top(); o != nil; o = c.Overlays().Top() {
		c.Overlays().Remove(o)
		c.Unfocus()
	}
	s.win.SetContent(canvas.NewRectangle(color.Transparent)) // let the question's widgets go
	s.hiddenTurn = p.turns
	p.lastPut = p.turns
	p.idle = append(p.idle, s)
	if (len(p.idle) > keepIdle || len(p.open) == 0) && p.trimmer == nil {
		p.trimmer = &fyne.Animation{Duration: time.Second, RepeatCount: fyne.AnimationRepeatForever,
			Curve: fyne.AnimationLinear, Tick: func(float32) { p.turns++; p.trim() }}
		p.trimmer.Start()
	}
}

// trim closes the hidden windows beyond keepIdle that have been hidden for
// trimAfter loop turns and, once no question has been open for quietTurns,
// those beyond quietKeep, then lets their memory go (release) and stops.
// It runs on an animation, that is inside Fyne's loop, once per turn after
// GLFW's events were polled, and never after the loop has ended.
func (p *Pool) trim() {
	quiet := len(p.open) == 0 && p.turns-p.lastPut >= quietTurns
	keep := keepIdle
	if quiet {
		keep = quietKeep
	}
	for len(p.idle) > keep && p.turns-p.idle[0].hiddenTurn >= trimAfter {
		s := p.idle[0]
		p.idle = p.idle[1:]
		s.win.Close()
		p.destroyed++
	}
	done := len(p.idle) <= keep && (quiet || len(p.open) > 0)
	if done && p.trimmer != nil {
		p.trimmer.Stop()
		p.trimmer = nil
		if quiet && p.release != nil {
			p.release()
		}
	}
}

// Window is a question shown in a top-level window of a Pool.
// All methods run on the Fyne goroutine.
type Window struct {
	pool   *Pool
	slot   *slot
	win    fyne.Window
	view   *View
	closed bool
	// unfocused: Show opened it without the keyboard, the user typing in
	// another question's window or another application (place.go).
	unfocused bool
	// seen: the user typed in it, edited it or came to it (found).
	seen bool
	// fitGuessed: sized before any window manager's frame was seen, with
	// frameGuess for it (layout.go); once placed, it grows to what the
	// real frame leaves (Pool.settle).
	fitGuessed bool
	// asked is the size last asked of the window, and askedFrom the
	// canvas's size then (see size).
	asked, askedFrom fyne.Size
	// quietUntil is when leaveFocus stops undoing the window manager's
	// focusing it, and lookedAt when the heartbeat last asked whether the
	// user came to it (cameTo).
	quietUntil, lookedAt time.Time
	// broughtAt is when the user's act last brought the window the
	// keyboard (focusAt): leaveFocus and handBack leave that be.
	broughtAt time.Time
	// fellBack: the window manager gave it the keyboard as another
	// question's window closed, with nowhere else to go (handBack); that
	// is not the user coming to it (cameTo).
	fellBack bool

	beat     *fyne.Animation // the heartbeat: see beat
	leaving  *fyne.Animation // leaveFocus's watch (place.go); nil when none
	lastTick time.Time       // the countdown's last Tick
	timers   []*timer        // View.after's timers, fired by the heartbeat
	mu       sync.Mutex      // guards posted
	posted   []func()        // results of goroutines, run by the heartbeat
}

// timer is one View.after call.
type timer struct {
	due     time.Time
	f       func()
	stopped bool
}

// WindowSize is the initial size of a question window.
var WindowSize = fyne.NewSize(680, 640)

// NewWindow creates (but does not show) the window for q in a pool of its
// own. An app shows many questions through one Pool.
func NewWindow(a fyne.App, q wire.Question, opts Options, onDone func(wire.Answer)) *Window {
	return NewPool(a).NewWindow(q, opts, onDone)
}

// NewWindow creates (but does not show) the window for q, reusing a hidden
// window of the pool when there is one. onDone gets the one Answer; the
// window closes itself after it.
func (p *Pool) NewWindow(q wire.Question, opts Options, onDone func(wire.Answer)) *Window {
	s := p.take(WindowTitle(q))
	w := &Window{pool: p, slot: s, win: s.win}
	w.view = NewView(q, opts, func(ans wire.Answer) {
		w.Close()
		onDone(ans)
	})
	v := w.view
	v.hooks.confirm = func(title, message string, ok func()) { askDiscard(w.win, title, message, ok) } // discard.go
	v.hooks.onAttach = w.pickImages
	v.hooks.focusOn = w.win.Canvas().Focus
	v.hooks.focused = w.win.Canvas().Focused
	v.hooks.keysDown = heldKeys
	v.hooks.after = w.after
	v.hooks.post = w.post
	v.hooks.onCycle = func(dir int) { p.cycle(s, dir) }
	v.guard.typed = func() { p.typed(s) }
	v.hooks.engaged = w.found   // place.go
	v.hooks.refit = w.refit     // budget.go
	v.hooks.onHelp = w.showKeys // keyhelp.go
	v.hooks.onUrgent = w.urge   // view_countdown.go
	v.enableGuard()
	s.cur = w
	w.win.SetContent(v.Content())
	w.resize(v.FitSize(p.app)) // layout.go: the content's size, within the screen
	_, known := frameDecor()
	w.fitGuessed = !known
	return w
}

// size is the window's size: the canvas's, or the size last asked for
// while the canvas still has the size it had then. Fyne's driver resizes
// the canvas once the window manager has configured the window, so a
// refit right after a resize measured the old size and asked for it again:
// a pooled window reused at the screen's limit was narrowed back to its
// former width a moment after it mapped (TestWindowFitsTheScreen at
// 1024x768 and scale 1.5: 926, then 912 px).
func (w *Window) size() fyne.Size {
	cur := w.win.Canvas().Size()
	if w.asked != (fyne.Size{}) && cur == w.askedFrom {
		return w.asked
	}
	return cur
}

// resize asks for size (see size).
func (w *Window) resize(size fyne.Size) {
	w.asked, w.askedFrom = size, w.win.Canvas().Size()
	w.win.Resize(size)
}

// View is the window's content.
func (w *Window) View() *View { return w.view }

// Fyne is the underlying window.
func (w *Window) Fyne() fyne.Window { return w.win }

// Show shows the window, gives the reply box keyboard focus, arms the input
// guard and starts the heartbeat, which ticks the countdown once a second
// on the real clock (with Options.Now set the caller owns the clock and
// drives View.Tick itself). While the user types in another question's
// window or another application the window opens without the focus and
// asks for attention instead; Unfocused reports it. Its frame cascades from the last open
// window's (place.go). Call it once.
func (w *Window) Show() {
	if w.closed {
		return
	}
	w.pool.show(w)
	watchXErrors() // lost.go: GLFW has its display now
	if w.beat == nil {
		w.lastTick = time.Now()
		w.beat = &fyne.Animation{Duration: time.Second, RepeatCount: fyne.AnimationRepeatForever,
			Curve: fyne.AnimationLinear, Tick: func(float32) { w.heartbeat() }}
		w.beat.Start()
	}
}

// Unfocused reports whether Show opened the window without the keyboard
// (the user was typing in another question's window or application) and the user has not
// come to it since (typed in it, or moved there: Focus).
func (w *Window) Unfocused() bool { return w.unfocused }

// Focus raises the window, focuses the reply box and arms the input guard:
// the user's own action (the tray, the notification's Open, the cycle
// shortcut). Nothing else should call it: a question the user is not
// looking at never takes the keyboard.
func (w *Window) Focus() { w.focusAt(0) }

// focusAt is Focus for a user action at the window system's time at (0:
// unknown, now).
func (w *Window) focusAt(at uint32) {
	if w.closed {
		return
	}
	w.found() // place.go
	w.broughtAt = time.Now()
	if at != 0 {
		desk.activateAt(w.win, at)
	} else {
		desk.activate(w.win)
	}
	w.view.Flash()
	w.focusContent()
}

// focusContent gives the reply box the window's keyboard focus and arms
// the input guard.
func (w *Window) focusContent() {
	if w.view.focus.initial != nil {
		w.win.Canvas().Focus(w.view.focus.initial)
	}
	w.view.ArmGuard()
}

// Close ends the window: it is hidden and goes back to the pool. Without an
// answer (the caller went away) the view first reports its draft if an
// edit is unreported. Nothing of the window runs after Close: the heartbeat
// stops, and with it the countdown, the draft timers and the results of
// attachments still being read.
func (w *Window) Close() {
	if w.closed {
		return
	}
	w.view.FlushDraft()
	w.view.StopFlash()
	w.closed = true
	if w.beat != nil {
		w.beat.Stop()
	}
	if w.leaving != nil {
		w.leaving.Stop()
	}
	w.timers = nil
	w.pool.put(w.slot)
}

// heartbeat runs on the Fyne goroutine at the driver's frame rate while
// the window is open: it runs the results goroutines posted, fires the
// view's timers and ticks the countdown once a second. It replaces
// goroutines calling fyne.Do, which Fyne runs on the calling goroutine once
// its loop has ended ("Error in Fyne call thread" at quit): an animation
// runs only inside the loop.
func (w *Window) heartbeat() {
	if w.closed {
		return
	}
	w.pool.renewLost() // lost.go
	w.mu.Lock()
	posted := w.posted
	w.posted = nil
	w.mu.Unlock()
	for _, f := range posted {
		if w.closed {
			return
		}
		f()
	}
	now := time.Now()
	if len(w.timers) > 0 {
		due := w.timers[:0:0]
		rest := w.timers[:0]
		for _, t := range w.timers {
			switch {
			case t.stopped:
			case !now.Before(t.due):
				due = append(due, t)
			default:
				rest = append(rest, t)
			}
		}
		w.timers = rest
		for _, t := range due {
			if !w.closed && !t.stopped {
				t.stopped = true
				t.f()
			}
		}
	}
	if !w.closed && w.view.opts.Now == nil && now.Sub(w.lastTick) >= time.Second {
		w.lastTick = now
		w.view.Tick(now)
	}
	if !w.closed {
		w.view.followFocus()  // layout.go
		w.view.lookHeld(now)  // keyguard.go
		w.cameTo(now)         // place.go
		w.pool.holdShortcut() // bring.go: once the connection is up
	}
}

// after implements View.after on the heartbeat.
func (w *Window) after(d time.Duration, f func()) func() bool {
	t := &timer{due: time.Now().Add(d), f: f}
	w.timers = append(w.timers, t)
	return func() bool {
		was := !t.stopped
		t.stopped = true
		return was
	}
}

// post implements View.post: f runs on the Fyne goroutine at the next
// heartbeat, unless the window has closed by then. Safe from any goroutine.
func (w *Window) post(f func()) {
	w.mu.Lock()
	w.posted = append(w.posted, f)
	w.mu.Unlock()
}

// imageExtensions are offered by the Attach… picker.
var imageExtensions = []string{".png", ".jpg", ".jpeg", ".gif", ".bmp", ".tif", ".tiff", ".webp"}

// pickImages opens a file picker for an image to attach.
func (w *Window) pickImages() {
	d := dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if w.closed {
			return
		}
		if err != nil {
			w.view.AttachError(i18n.T("attach.chosen_file"), err)
			return
		}
		if r == nil { // cancelled
			return
		}
		r.Close()
		w.attachURI(r.URI())
	}, w.win)
	d.SetFilter(storage.NewExtensionFileFilter(imageExtensions))
	d.Show()
	// After Show: Fyne 2.8.1's FileDialog.Resize before it dereferences nil
	// (docs/upstream/fyne-filedialog-resize.md).
	d.Resize(fyne.NewSize(w.win.Canvas().Size().Width*0.95, w.win.Canvas().Size().Height*0.9))
}

// attachURI reads a dropped or picked file off the Fyne goroutine and
// attaches it. Reading stops one byte past the input limit, so a huge file
// is refused with a clear message instead of being loaded.
func (w *Window) attachURI(u fyne.URI) {
	limit := w.view.opts.Images.MaxInputBytes
	go func() {
		data, err := readLimited(u, limit)
		w.post(func() {
			if err != nil {
				w.view.AttachError(u.Name(), err)
				return
			}
			w.view.AttachImage(u.Name(), data)
		})
	}()
}

// errNotAFile is why a FIFO, a device or a directory is not attached.
var errNotAFile = errors.New("it is not a regular file (a pipe, a device or a folder?): attach an image file")

func readLimited(u fyne.URI, limit int) ([]byte, error) {
	if limit <= 0 {
		limit = imagepipe.Default().MaxInputBytes
	}
	var r io.ReadCloser
	if u.Scheme() == "file" {
		f, err := openRegular(u.Path())
		if err != nil {
			return nil, err
		}
		r = f
	} else {
		rc, err := storage.Reader(u)
		if err != nil {
			return nil, err
		}
		r = rc
	}
	defer r.Close()
	return io.ReadAll(io.LimitReader(r, int64(limit)+1))
}

// openRegular opens a regular file for reading and refuses anything else.
// It opens without blocking (a FIFO would wait for a writer forever) and
// checks the opened file, so a file swapped after a look cannot slip by.
func openRegular(path string) (*os.File, error) {
	if fi, err := os.Stat(path); err != nil {
		return nil, err
	} else if !fi.Mode().IsRegular() {
		return nil, errNotAFile
	}
	f, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("reading %s: %w", path, err)
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, errNotAFile
	}
	return f, nil
}
