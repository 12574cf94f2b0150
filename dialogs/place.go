package dialogs

import (
	"errors"
	"image"
	"os"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"

	"feedback/internal/hotkey"
)

// Many questions at once: where a window opens, how the keyboard comes to
// it and goes back, and how the user moves between open questions.
//
//   - A question window never takes the keyboard by itself: not from
//     another application, not from another question window, however long
//     the user has been idle (people pause to think, then go on typing
//     where they were). It is mapped asking the window manager not to
//     focus it, on top of the other windows (under the question window the
//     user is in, if any, so as not to cover their reply), and asks for
//     attention: the urgency hint, and the notification the app sends
//     (Window.Unfocused). Its hint line says how to come to it.
//   - The keyboard comes to it only by the user's act aimed at it: a
//     click, the notification's Open, the tray, the cycle shortcut, or the
//     global shortcut (bring.go). Window.Focus is that act.
//   - When a window that has the keyboard closes (answered, or withdrawn by
//     its agent), the keyboard goes back to where the user came from: the
//     window of another program that had it last (handBack). It never goes
//     on to the next question by itself: a question window the window
//     manager focuses in its place gives it back too.
//   - Ctrl+PageDown and Ctrl+PageUp (CycleNext, CyclePrevious) move the
//     keyboard to the next or previous open question, in the order they
//     opened; the context bar of each window says "n of m open" while more
//     than one is.
//   - A window opens on the monitor the user works on: the one under the
//     pointer (within its work area: less the panels). Each new window's
//     frame is offset by CascadeStep, right and down, from the last one
//     shown that is still open on that monitor, within its work area; an
//     axis that would leave the work area starts again at its edge
//     (cascade). The first window on a monitor is centred on it.
//
// The native part (the X window's id, its frame, the focus, the hints, the
// monitors, the keys held, the global shortcut) is desk: X11 in
// internal/native (x11.go, wired in native_x11.go), nothing elsewhere
// (Fyne has no API to place a window or to map it without the focus;
// where desk does nothing a window opens centred, and "without the focus"
// is only not asking for it).

// CascadeStep is the offset, in screen pixels, of each new window's frame
// from the last one's (about a title bar's height).
const CascadeStep = 32

// The shortcuts that move the keyboard between open questions. Ctrl+Page
// Down/Up, as between tabs of a browser or terminal: neither the reply box
// (a Fyne Entry) nor openbox's default key bindings use them.
var (
	CycleNext     = &desktop.CustomShortcut{KeyName: fyne.KeyPageDown, Modifier: fyne.KeyModifierControl}
	CyclePrevious = &desktop.CustomShortcut{KeyName: fyne.KeyPageUp, Modifier: fyne.KeyModifierControl}
)

// CycleHint names the cycle shortcut in the context bar (short: it shares
// a line with the client and the project; the README names both keys).
const CycleHint = "Ctrl+PgDn"

// cycleDir reports +1 for CycleNext, -1 for CyclePrevious, 0 for any other
// shortcut.
func cycleDir(s fyne.Shortcut) int {
	cs, ok := s.(*desktop.CustomShortcut)
	if !ok || cs.Modifier != fyne.KeyModifierControl {
		return 0
	}
	switch cs.KeyName {
	case fyne.KeyPageDown:
		return 1
	case fyne.KeyPageUp:
		return -1
	}
	return 0
}

// userArea is the work area of the monitor the user works on: the one
// under the pointer, else the nearest to it; the primary monitor's where
// the desk cannot tell.
func (p *Pool) userArea() (image.Rectangle, bool) {
	if mons, at, ok := desk.monitors(); ok {
		return monitorAt(mons, at), true
	}
	return monitorArea(p.app)
}

// monitorAt returns the monitor of mons (not empty) that holds at, else
// the one nearest to it (a pointer on a gap between monitors of
// different sizes).
func monitorAt(mons []image.Rectangle, at image.Point) image.Rectangle {
	best, bestD := mons[0], -1
	for _, m := range mons {
		if at.In(m) {
			return m
		}
		c := image.Pt(min(max(at.X, m.Min.X), m.Max.X-1), min(max(at.Y, m.Min.Y), m.Max.Y-1))
		if d := (c.X-at.X)*(c.X-at.X) + (c.Y-at.Y)*(c.Y-at.Y); bestD < 0 || d < bestD {
			best, bestD = m, d
		}
	}
	return best
}

// cascade returns the top-left corner, in screen pixels, of a frame of
// the given size: centred in area when there is no last frame, else offset
// by step right and down from last's corner (from its bottom-right corner
// for a frame smaller than last, which would sit inside it); on an axis where the frame
// would leave area the corner goes back to area's edge. A frame larger
// than area sits at area's top-left corner.
func cascade(area, last image.Rectangle, hasLast bool, size image.Point, step int) image.Point {
	if area.Empty() {
		return image.Point{}
	}
	if !hasLast {
		p := area.Min.Add(area.Size().Sub(size).Div(2))
		return image.Pt(max(p.X, area.Min.X), max(p.Y, area.Min.Y))
	}
	p := last.Min.Add(image.Pt(step, step))
	if size.X+step <= last.Dx() || size.Y+step <= last.Dy() {
		// A frame smaller than the last, a step off its corner, would
		// sit inside it, hidden when it stays under it (not over a reply
		// being typed): a step beyond its right and bottom edges instead,
		// where it shows.
		p = last.Max.Add(image.Pt(step, step)).Sub(size)
	}
	if p.X < area.Min.X || p.X+size.X > area.Max.X {
		p.X = area.Min.X
	}
	if p.Y < area.Min.Y || p.Y+size.Y > area.Max.Y {
		p.Y = area.Min.Y
	}
	return p
}

// nativeDesk is the window system's side of placement and focus. Every
// method runs on the Fyne goroutine, does nothing where it cannot (a
// window not mapped yet, another window system) and never blocks for long.
type nativeDesk interface {
	// start gets ready in the background (an X connection), so that the
	// first windows are placed too.
	start()
	// ready reports whether w has a native window (Fyne creates it on the
	// first Show).
	ready(w fyne.Window) bool
	// active reports whether w is the window with the focus.
	active(w fyne.Window) bool
	// focused is the native id of the window with the focus, any
	// client's; 0 when none or unknown.
	focused() uint32
	// activateID gives the focus to the window focused returned.
	activateID(id uint32)
	// frame is w's frame (the window manager's decorations included) on
	// screen.
	frame(w fyne.Window) (image.Rectangle, bool)
	// move puts w's frame's top-left corner at p.
	move(w fyne.Window, p image.Point)
	// quiet asks that w, not mapped now, not take the focus when it is
	// next mapped (on is false: that it does, as a new window normally
	// does).
	quiet(w fyne.Window, on bool)
	// attention sets or clears w's urgency hint.
	attention(w fyne.Window, on bool)
	// activate asks the window manager to give w the focus, on the user's
	// behalf.
	activate(w fyne.Window)
	// stackBelow puts w, mapped, right under sibling.
	stackBelow(w, sibling fyne.Window)
	// holdKeys sends every key press to w, whichever window has the focus,
	// until release is called; nil when it cannot.
	holdKeys(w fyne.Window) (release func())
	// monitors are the monitors' work areas on the desktop, and the
	// pointer's position; ok is false when it cannot tell.
	monitors() (mons []image.Rectangle, pointer image.Point, ok bool)
	// ownsSelection reports whether this process owns a selection the
	// user copied (CLIPBOARD, PRIMARY); known is false when it cannot tell.
	ownsSelection() (owns, known bool)
	// idle is how long ago the user last typed or moved the pointer,
	// in any window; ok is false when it cannot tell.
	idle() (d time.Duration, ok bool)
	// owner is the process that made the native window id; known is
	// false when it cannot tell.
	owner(id uint32) (pid int, known bool)
	// activeBefore is the window that had the focus most recently of
	// those still on screen that skip does not skip; 0 when none.
	activeBefore(skip func(id uint32) bool) uint32
	// keysDown are the keys held down now, by scancode (as Fyne's
	// KeyEvent.Physical names them); known is false when it cannot tell.
	keysDown() (codes []uint32, known bool)
	// holdShortcut takes sc for the whole desktop and calls on, on a
	// goroutine of its own, with the window system's time of each press,
	// until release; an error when it cannot (another program holds it).
	holdShortcut(sc hotkey.Shortcut, on func(at uint32)) (release func(), err error)
	// activateAt is activate on behalf of a user action at the window
	// system's time at.
	activateAt(w fyne.Window, at uint32)
	// raise puts w, mapped, above the other windows without the focus.
	raise(w fyne.Window)
}

// noFocusOnShow stops the toolkit from focusing the windows it shows from
// now on; native.go sets it (a no-op but where Fyne runs on GLFW).
var noFocusOnShow = func(fyne.App) {}

// monitorArea is the work area of the primary monitor, in screen pixels,
// where the desk cannot tell the monitors apart (userArea); native.go sets
// it where Fyne runs on GLFW. Without either, windows are not placed.
var monitorArea = func(fyne.App) (image.Rectangle, bool) { return image.Rectangle{}, false }

// desk is the native side in use; native_x11.go sets it.
var desk nativeDesk = noDesk{}

// noDesk is the native side where there is none.
type noDesk struct{}

func (noDesk) start()                                    {}
func (noDesk) ready(fyne.Window) bool                    { return false }
func (noDesk) active(fyne.Window) bool                   { return false }
func (noDesk) focused() uint32                           { return 0 }
func (noDesk) activateID(uint32)                         {}
func (noDesk) frame(fyne.Window) (image.Rectangle, bool) { return image.Rectangle{}, false }
func (noDesk) move(fyne.Window, image.Point)             {}
func (noDesk) quiet(fyne.Window, bool)                   {}
func (noDesk) attention(fyne.Window, bool)               {}
func (noDesk) activate(w fyne.Window)                    { w.RequestFocus() }
func (noDesk) stackBelow(fyne.Window, fyne.Window)       {}
func (noDesk) holdKeys(fyne.Window) func()               { return nil }
func (noDesk) ownsSelection() (bool, bool)               { return false, false }
func (noDesk) idle() (time.Duration, bool)               { return 0, false }
func (noDesk) monitors() ([]image.Rectangle, image.Point, bool) {
	return nil, image.Point{}, false
}
func (noDesk) owner(uint32) (int, bool)              { return 0, false }
func (noDesk) activeBefore(func(uint32) bool) uint32 { return 0 }
func (noDesk) keysDown() ([]uint32, bool)            { return nil, false }
func (noDesk) activateAt(w fyne.Window, _ uint32)    { w.RequestFocus() }
func (noDesk) raise(fyne.Window)                     {}
func (noDesk) holdShortcut(hotkey.Shortcut, func(uint32)) (func(), error) {
	return nil, errNoShortcuts
}

// errNoShortcuts: the window system gives applications no global shortcut
// (or feedback does not take one there).
var errNoShortcuts = errors.New("this desktop gives applications no global shortcuts")

// typed records that a key went down in s's window.
func (p *Pool) typed(s *slot) {
	if w := s.live(); w != nil {
		w.found()
	}
}

// found records that the user came to w: they typed in it, edited it
// (View.edited), moved to it themselves (Focus), or it has the keyboard
// (cameTo: a click, the window manager's keys). It stops asking for
// attention and its hint stops saying how to come to it.
// Options.OnFound hears it once.
func (w *Window) found() {
	if w.unfocused {
		w.unfocused = false
		desk.attention(w.win, false)
	}
	w.view.SetWaiting(false, w.pool.bringHint())
	if w.seen {
		return
	}
	w.seen = true
	if found := w.view.opts.OnFound; found != nil {
		found()
	}
}

// typing returns the open question window the user is engaged with: the
// one that has the focus now. Keys are not the only sign (a click, a
// scroll, a look while deciding are not seen), so having the focus is
// enough: a question never takes the keyboard from another question.
// Nil when none has it or the window system cannot tell.
func (p *Pool) typing() *slot {
	for _, s := range p.open {
		if s.live() != nil && desk.active(s.win) {
			return s
		}
	}
	return nil
}

// show maps w's window without the keyboard (see the top of this file),
// cascaded from the last open window's frame. A Quiet window (shown again
// after the UI process restarted) asks for no attention: it was asked for
// before.
func (p *Pool) show(w *Window) {
	quiet := w.view.opts.Quiet
	typing := p.typing()
	w.unfocused = !quiet
	had := p.focusKeeper()      // the window that has the focus, any program's: it keeps it
	mapped := desk.ready(w.win) // the native window exists: its properties can be set before it is mapped
	if !mapped && warmNative(p.app, w.win) {
		// Made now, hidden (warm.go): mapped next asking not to be focused,
		// so no key the user types elsewhere lands in it.
		mapped = desk.ready(w.win)
	}
	if mapped {
		desk.quiet(w.win, true)
		desk.attention(w.win, w.unfocused)
	}
	area, placeable := p.userArea()
	lastFrame, hasLast := p.lastOn(area)
	if !hasLast {
		w.win.CenterOnScreen()
	}
	var release func()
	if typing != nil && !mapped {
		// Fyne creates the native window as it maps it, too late to ask
		// that it not take the focus: the keys go on to the window the user
		// types in while the window manager gives the focus to the new one
		// and back.
		release = desk.holdKeys(typing.win)
	}
	w.win.Show()
	p.open = append(p.open, w.slot)
	switch {
	case typing != nil && !mapped:
		desk.activate(typing.win) // raises it too
		p.giveBack(typing, w, release)
	case typing != nil:
		desk.stackBelow(w.win, typing.win) // not over the reply being typed
	default:
		// On top of the application the user works in, without its
		// keyboard. A new native window is created as it is mapped, too
		// late to ask that it not take the focus: the window that had it
		// gets it back, now and if the window manager focuses this one a
		// moment later.
		if !mapped && had != 0 {
			desk.activateID(had)
		}
		desk.raise(w.win)
		p.leaveFocus(w, had, mapped)
	}
	// The first window is centred again here: a window shown again from
	// the pool goes back where it was hidden, whatever CenterOnScreen said.
	w.slot.placed = image.Rectangle{}
	if placeable {
		if fr, ok := desk.frame(w.win); ok {
			at := cascade(area, lastFrame, hasLast, fr.Size(), CascadeStep)
			desk.move(w.win, at)
			w.slot.placed = image.Rectangle{Min: at, Max: at.Add(fr.Size())}
			p.settle(w, at)
		}
	}
	p.holdShortcut() // bring.go
	if desk.ready(w.win) {
		// Known to be mapped without the focus: the hint says how to come.
		// (Where the window system cannot be asked, its own rules decide,
		// and the window may well have the keyboard.)
		w.view.SetWaiting(true, p.bringHint())
	}
	w.focusContent() // the reply box has the window's focus for when the user comes
	p.places()
}

// lastOn is the frame of the last open window on the monitor whose work
// area is area (its centre within), where the Pool put it: the window
// manager may not have moved it there yet. With no area (the monitors
// unknown), the last open window's.
func (p *Pool) lastOn(area image.Rectangle) (image.Rectangle, bool) {
	for i := len(p.open) - 1; i >= 0; i-- {
		fr := p.open[i].placed
		if fr.Empty() {
			continue
		}
		if area.Empty() || fr.Min.Add(fr.Max).Div(2).In(area) {
			return fr, true
		}
	}
	return image.Rectangle{}, false
}

// keysHeldFor bounds how long the keys are held for the window the user
// types in while the focus comes back to it.
const keysHeldFor = 750 * time.Millisecond

// giveBack waits, a frame at a time, until the window the user types in
// has the focus again (or keysHeldFor has passed), then lets the keys go
// and has the new window w ask for attention (it lost that state when the
// window manager focused it).
func (p *Pool) giveBack(typing *slot, w *Window, release func()) {
	h := &handOver{typing: typing, w: w.slot, start: time.Now()}
	var anim *fyne.Animation
	anim = &fyne.Animation{Duration: time.Second, RepeatCount: fyne.AnimationRepeatForever, Curve: fyne.AnimationLinear,
		Tick: func(float32) {
			if h.step(time.Now()) {
				return
			}
			anim.Stop()
			if release != nil {
				release()
			}
			if !w.closed && w.unfocused {
				desk.attention(w.win, true)
			}
		}}
	anim.Start()
}

// handOver is the focus coming back to the window the user types in
// after a new window w opened.
type handOver struct {
	typing, w    *slot
	start, asked time.Time // asked: when typing was last activated again
}

// askAgainEvery spaces the activations of the typing window while the
// window manager keeps the focus on the new one.
const askAgainEvery = 100 * time.Millisecond

// step reports whether the keys stay held at now (holding). While they
// are and the new window has the focus, the typing window is activated
// again: the window manager can focus a new window after the activation
// that followed its mapping, and the user would be left in it, their
// next keys held for the other window and then not (an Escape meant for
// the window they saw went to the one they had been in: e2e
// TestTrayBadgeAndDoNotDisturb).
func (h *handOver) step(now time.Time) bool {
	if !holding(h.typing, h.w, now.Sub(h.start)) {
		return false
	}
	if desk.active(h.w.win) && now.Sub(h.asked) >= askAgainEvery {
		desk.activate(h.typing.win)
		h.asked = now
	}
	return true
}

// holding reports whether the keys stay held for the typing window since
// after a new window w opened: while the window manager hands the focus
// to w (or to none) and back, up to keysHeldFor. They go once typing has
// the focus again, or as soon as the user is in another window (say the
// tray's Quit confirmation, just opened): its keys are its own.
func holding(typing, w *slot, since time.Duration) bool {
	if since >= keysHeldFor || desk.active(typing.win) {
		return false
	}
	return desk.active(w.win) || desk.focused() == 0
}

// focusKeeper is the window that keeps the focus while Quiet windows
// come back: the one that has it, or, when that is one of ours (a window
// shown quietly a moment ago that the window manager focused), the one
// that had it before.
func (p *Pool) focusKeeper() uint32 {
	had := desk.focused()
	for _, s := range p.open {
		if desk.active(s.win) {
			return p.quietFrom
		}
	}
	p.quietFrom = had
	return had
}

// quietFor is how long a new window gives the focus back to the window
// that had it, should the window manager focus the new window late: one
// mapped before it could be asked not to take the focus. quietAsked is
// that time for a window that was asked (the window manager would focus
// it as it maps it, if it ignored the request): short, so that a user's
// quick click on it stands.
const (
	quietFor   = time.Second
	quietAsked = 250 * time.Millisecond
)

// leaveFocus gives the focus back to had whenever w takes it within
// quietFor (quietAsked when asked, before it was mapped, not to take it)
// of being shown (with no had, w is not taken for found: cameTo); then a
// window opened unfocused asks for attention again (a window manager that
// focused it cleared that).
func (p *Pool) leaveFocus(w *Window, had uint32, asked bool) {
	start := time.Now()
	watch := quietFor
	if asked {
		watch = quietAsked
	}
	w.quietUntil = start.Add(watch)
	var anim *fyne.Animation
	w.leaving = &fyne.Animation{Duration: time.Second, RepeatCount: fyne.AnimationRepeatForever, Curve: fyne.AnimationLinear,
		Tick: func(float32) {
			if w.closed || time.Since(start) >= watch {
				anim.Stop()
				if !w.closed && w.unfocused {
					desk.attention(w.win, true)
				}
				return
			}
			if desk.active(w.win) && w.broughtAt.IsZero() {
				if had != 0 {
					desk.activateID(had)
				} else {
					w.fellBack = true // nowhere to give it: the window manager's choice, not the user's
				}
			}
		}}
	anim = w.leaving
	anim.Start()
}

// lookEvery spaces the heartbeat's looks at whether the user came to a
// window that waits for them (cameTo).
const lookEvery = 250 * time.Millisecond

// cameTo records, on the heartbeat, that the user came to w, which waits
// for them: it has the keyboard (a click on it, the window manager's
// keys), once leaveFocus no longer undoes the window manager focusing it
// by itself.
func (w *Window) cameTo(now time.Time) {
	if !w.view.Waiting() || now.Before(w.quietUntil) || now.Sub(w.lookedAt) < lookEvery {
		return
	}
	w.lookedAt = now
	switch active := desk.active(w.win); {
	case active && !w.fellBack:
		w.found()
	case !active:
		w.fellBack = false // the next time it has the keyboard, the user gave it
	}
}

// handBackFor is how long after a window that had the keyboard closed a
// question window the window manager focuses in its place gives the
// keyboard back: the window manager's fallback comes as the window is
// unmapped; a click of the user's on another question a moment later
// stands.
const handBackFor = 300 * time.Millisecond

// handBack gives the keyboard back to where the user came from, as a
// window that had it closes: the window of another program that had it
// last (their terminal, their editor); never the next question. For
// handBackFor, a question window that the window manager focuses in the
// closed one's place (its focus falls back to the next window) gives it
// back too. With nowhere to go back to (only question windows on screen),
// the window manager's choice stands — a window manager falls back to a
// window whatever focus is set — but the window it chose is not taken for
// one the user came to (cameTo): it still waits for them.
func (p *Pool) handBack() {
	h := &handingBack{came: desk.activeBefore(p.ours), start: time.Now()}
	if h.came != 0 {
		desk.activateID(h.came)
	}
	p.backing = h
	var anim *fyne.Animation
	anim = &fyne.Animation{Duration: time.Second, RepeatCount: fyne.AnimationRepeatForever, Curve: fyne.AnimationLinear,
		Tick: func(float32) {
			if !p.stepBack(h, time.Now()) {
				anim.Stop()
			}
		}}
	anim.Start()
}

// handingBack is the keyboard going back after a window closed: to came
// (0: nowhere), since start.
type handingBack struct {
	came  uint32
	start time.Time
}

// stepBack is one look, at now, at the windows while the keyboard goes
// back (handBack); false once handBackFor has passed.
func (p *Pool) stepBack(h *handingBack, now time.Time) bool {
	if now.Sub(h.start) >= handBackFor {
		return false
	}
	for _, s := range p.open {
		w := s.live()
		if w == nil || !desk.active(s.win) || !w.broughtAt.Before(h.start) {
			continue
		}
		if h.came != 0 {
			desk.activateID(h.came)
			return true
		}
		w.fellBack = true
	}
	return true
}

// ours reports whether the native window id is one of this process's (its
// question windows, History, Settings…).
func (p *Pool) ours(id uint32) bool {
	if pid, known := desk.owner(id); known {
		return pid == os.Getpid()
	}
	for _, s := range p.open {
		if nativeID(s) == id {
			return true
		}
	}
	for _, s := range p.idle {
		if nativeID(s) == id {
			return true
		}
	}
	return false
}

// settleFor bounds how long a new window's frame is watched for a move
// the window manager dropped.
const settleFor = 500 * time.Millisecond

// settle moves w's frame to at again, a frame at a time, until it is there
// or settleFor has passed: a move that reaches the window manager while it
// is still taking the window on (GLFW waits at most 0.1 s for it to map
// the window) can be lost, or undone by the position Fyne restores. Then
// a window sized with frameGuess for its frame, now seen, grows to what
// the real frame leaves (refit: within the work area, moved up if need be).
func (p *Pool) settle(w *Window, at image.Point) {
	settleAt(w.win, at, func() bool { return w.closed }, func() {
		if _, known := frameDecor(); known && w.fitGuessed && !w.closed {
			w.fitGuessed = false
			w.refit()
		}
	})
}

// settleAt moves win's frame to at again, a frame at a time, until it is
// there, gone is true or settleFor has passed; then it calls then.
func settleAt(win fyne.Window, at image.Point, gone func() bool, then func()) {
	start := time.Now()
	var anim *fyne.Animation
	anim = &fyne.Animation{Duration: time.Second, RepeatCount: fyne.AnimationRepeatForever, Curve: fyne.AnimationLinear,
		Tick: func(float32) {
			fr, ok := desk.frame(win)
			if gone() || !ok || fr.Min == at || time.Since(start) >= settleFor {
				anim.Stop()
				then()
				return
			}
			desk.move(win, at)
		}}
	anim.Start()
}

// CentreOnUsersMonitor centres w, just shown, on the monitor the user
// works on — the one under the pointer, as a question opens — where the
// window system tells the monitors apart; elsewhere it stays where it is
// (CenterOnScreen: the primary monitor). For the app's own windows
// (History, Settings, a note for an agent). On the Fyne goroutine.
func CentreOnUsersMonitor(w fyne.Window) {
	mons, pointer, ok := desk.monitors()
	if !ok || len(mons) == 0 {
		return
	}
	fr, ok := desk.frame(w)
	if !ok {
		return
	}
	at := cascade(monitorAt(mons, pointer), image.Rectangle{}, false, fr.Size(), 0)
	desk.move(w, at)
	settleAt(w, at, func() bool { return false }, func() {})
}

// closed forgets s, whose question has ended.
func (p *Pool) closed(s *slot) {
	for i, o := range p.open {
		if o == s {
			p.open = append(p.open[:i], p.open[i+1:]...)
			break
		}
	}
	p.places()
	p.holdShortcut() // bring.go: let it go with the last question
}

// places tells each open window its place among them ("2 of 3 open"); a
// window whose context bar grew for it grows as much, within the screen.
func (p *Pool) places() {
	for i, s := range p.open {
		w := s.live()
		if w == nil {
			continue
		}
		if d := w.view.SetOpenPlace(i+1, len(p.open)); d > 0 {
			size := w.size()
			limit := maxWindowSize(p.app)
			if h := min(size.Height+d, limit.Height); h > size.Height {
				w.resize(fyne.NewSize(size.Width, h))
			}
		}
	}
}

// cycle moves the keyboard from s's window to the next (dir 1) or previous
// (dir -1) open one, in the order they were shown.
func (p *Pool) cycle(s *slot, dir int) {
	n := len(p.open)
	if n < 2 {
		return
	}
	i := 0
	for j, o := range p.open {
		if o == s {
			i = j
		}
	}
	if w := p.open[((i+dir)%n+n)%n].live(); w != nil {
		w.Focus()
	}
}

// HoldsSelection reports whether this process owns a selection the user
// copied from one of its windows (CLIPBOARD, PRIMARY): while it does,
// stopping it would hang every program that pastes. known is false when
// the window system cannot tell.
func HoldsSelection() (holds, known bool) { return desk.ownsSelection() }

// Open reports how many questions the pool shows now.
func (p *Pool) Open() int { return len(p.open) }

// Showing returns the open window showing the question id, or nil. The
// pool is the one record of the windows open in this process: the UI
// process finds a question's window here, keeping no map of its own.
func (p *Pool) Showing(id string) *Window {
	for _, s := range p.open {
		if w := s.live(); w != nil && w.view.q.ID == id {
			return w
		}
	}
	return nil
}

// CloseAll closes every open window (each reports its unreported draft
// first), the last shown first.
func (p *Pool) CloseAll() {
	for n := len(p.open); n > 0; n = len(p.open) {
		s := p.open[n-1]
		if w := s.live(); w != nil {
			w.Close() // Close → put → closed takes s out of open
		}
		if len(p.open) == n { // not taken out (a window closed already): do it here
			p.open = p.open[:n-1]
		}
	}
}
