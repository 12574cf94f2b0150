package dialogs

import (
	"fmt"
	"image"
	"image/color"
	"log/slog"
	"slices"
	"sync"

	"fyne.io/fyne/v2/canvas"
)

// A native window lost: another X client may destroy any window
// (XDestroyWindow), ours included. Xlib then reports an error on it to the
// next request that names it (Mesa's next frame), and its default handler
// ends the process. internal/native (x11errors.go) installs a handler
// that reports such errors here instead, and reports the DestroyNotify of
// our windows as Xlib reads it (before the frame that would draw into the
// window gone);
// the Pool gives the question that window showed a new native window, the
// same View in it (its draft, countdown and attachments kept), shown
// quietly.

// xFault is an X protocol error that was not fatal (a request on a
// resource — a window, a drawable… — that no longer exists), or, with
// Code 0, the news that a window of ours was destroyed.
type xFault struct {
	Resource uint32 // the resource id the error names, or the window destroyed
	Code     uint8  // the error code (BadWindow 3, BadDrawable 9…); 0: destroyed
	Request  uint8  // the major opcode of the failed request
	Minor    uint8  // its minor opcode (extension requests)
}

func (e xFault) String() string {
	if e.Code == 0 {
		return fmt.Sprintf("window 0x%x destroyed", e.Resource)
	}
	return fmt.Sprintf("X error %d on resource 0x%x (request %d.%d)", e.Code, e.Resource, e.Request, e.Minor)
}

// maxPending bounds the errors kept between two turns of Fyne's loop, and
// maxLogged the resources whose error is logged: Mesa repeats its error on
// every frame.
const (
	maxPending = 64
	maxLogged  = 256
)

// lostQueue holds the errors the handler reported until the Fyne goroutine
// takes them. Its methods are safe from any thread: report runs inside
// Xlib's error handler.
type lostQueue struct {
	mu      sync.Mutex // guards pending
	pending []xFault
}

var lost lostQueue

// report records e, once per resource until taken.
func (q *lostQueue) report(e xFault) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if len(q.pending) >= maxPending || slices.ContainsFunc(q.pending, func(p xFault) bool { return p.Resource == e.Resource }) {
		return
	}
	q.pending = append(q.pending, e)
}

// take returns the errors reported since the last take.
func (q *lostQueue) take() []xFault {
	q.mu.Lock()
	defer q.mu.Unlock()
	p := q.pending
	q.pending = nil
	return p
}

// watchXErrors installs the X error handler, once GLFW has its display;
// native.go sets it. It runs on the Fyne goroutine.
var watchXErrors = func() {}

// nativeID is w's native window id, or 0; native.go sets it.
var nativeID = func(*slot) uint32 { return 0 }

// logged are the resources whose error was logged; on the Fyne goroutine.
var logged = map[uint32]bool{}

// renewLost gives every window of the pool whose native window an X error
// names, or that was destroyed, a new one (see lostQueue). On the Fyne goroutine, inside its loop.
func (p *Pool) renewLost() {
	for _, e := range lost.take() {
		s := p.slotOf(e.Resource)
		if e.Code != 0 && !logged[e.Resource] && len(logged) < maxLogged {
			logged[e.Resource] = true
			p.log().Warn("an X error on a resource gone, ignored", "error", e.String(), "question_window", s != nil)
		}
		if s != nil {
			p.renew(s)
		}
	}
}

// slotOf is the slot whose native window is id, or nil.
func (p *Pool) slotOf(id uint32) *slot {
	if id == 0 {
		return nil
	}
	for _, s := range slices.Concat(p.open, p.idle) {
		if nativeID(s) == id {
			return s
		}
	}
	return nil
}

// renew replaces s's lost native window: a hidden one is dropped; the
// question of an open one moves, with its View, into a new window, shown
// quietly (the focus stays where the window manager put it).
func (p *Pool) renew(s *slot) {
	old := s.win
	if i := slices.Index(p.idle, s); i >= 0 {
		p.idle = slices.Delete(p.idle, i, i+1)
		old.Close()
		p.destroyed++
		return
	}
	w := s.live()
	if w == nil {
		return
	}
	p.log().Warn("a question's window was destroyed by another X client: showing it again", "title", old.Title(), "window", nativeID(s))
	if i := slices.Index(p.open, s); i >= 0 {
		p.open = slices.Delete(p.open, i, i+1)
	}
	size := old.Canvas().Size()
	old.SetContent(canvas.NewRectangle(color.Transparent)) // the view's widgets go to the new window
	p.all++
	s.win = p.app.NewWindow(old.Title())
	noFocusOnShow(p.app)
	s.install()
	s.placed = image.Rectangle{}
	w.win = s.win
	w.view.hooks.focusOn = w.win.Canvas().Focus
	w.view.hooks.focused = w.win.Canvas().Focused
	w.view.opts.Quiet = true
	w.win.SetContent(w.view.Content())
	w.win.Resize(size)
	old.Close() // its X window is gone: no event can come for it (see Pool)
	p.destroyed++
	p.show(w)
}

// log is p.Log or the default logger.
func (p *Pool) log() *slog.Logger {
	if p.Log != nil {
		return p.Log
	}
	return slog.Default()
}
