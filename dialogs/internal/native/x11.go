//go:build (linux || freebsd || netbsd || openbsd) && cgo && !ci && !wayland

// Placement and focus on X11 (dialogs/place.go says what for), through
// the EWMH and ICCCM properties the window manager reads, over a
// connection of our own (github.com/jezek/xgb): Fyne's driver.NativeWindow
// gives the X window's id, nothing more.

package native

import (
	"encoding/binary"
	"errors"
	"image"
	"os"
	"slices"
	"sync"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver"
	"github.com/jezek/xgb"
	"github.com/jezek/xgb/randr"
	"github.com/jezek/xgb/res"
	"github.com/jezek/xgb/screensaver"
	"github.com/jezek/xgb/xproto"

	"feedback/internal/hotkey"
	"feedback/internal/hotkey/xgrab"
)

// X11 talks to the X server named by $DISPLAY. The connection is made on
// first use, in the background (xgb's dial has no timeout): until it is
// up, and when it fails, every method does nothing and reports nothing
// (Activate asks Fyne). Its methods run on the Fyne goroutine (the one
// that may call GLFW), except OwnsSelection, which may run anywhere.
type X11 struct {
	once sync.Once
	mu   sync.Mutex // guards x, decor, actives and the shortcut
	x    *x11Conn
	// decor is what the window manager's frame adds to a client window,
	// as last read from one of ours (Decor); zero: none read yet.
	decor image.Point
	// actives are the last windows the window manager made active, the
	// latest last (ActiveBefore).
	actives []uint32
	// The shortcut held for the whole desktop (HoldShortcut).
	grab       xgrab.Grab
	grabbed    bool
	onShortcut func(xtime uint32)
}

// x11Conn is a live connection and the atoms it uses.
type x11Conn struct {
	c     *xgb.Conn
	root  xproto.Window
	res   bool // the X-Resource extension answers (ownsSelection, owner)
	saver bool // the MIT-SCREEN-SAVER extension answers (idle)
	mons  bool // RandR 1.5 answers: monitors (monitors)
	atom  map[string]xproto.Atom
}

// x11DialTimeout bounds the background dial.
const x11DialTimeout = 2 * time.Second

var x11Atoms = []string{"_NET_ACTIVE_WINDOW", "_NET_SUPPORTING_WM_CHECK", "_NET_WORKAREA", "_NET_WM_USER_TIME", "_NET_WM_STATE",
	"_NET_WM_STATE_DEMANDS_ATTENTION", "_NET_FRAME_EXTENTS", "_NET_RESTACK_WINDOW", "CLIPBOARD"}

// NewX11 returns the X11 side, not connected yet (Start).
func NewX11() *X11 { return &X11{} }

// conn returns the connection, starting the dial on the first call; nil
// while it is not up.
func (d *X11) conn() *x11Conn {
	d.once.Do(func() { go d.dial() })
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.x
}

func (d *X11) dial() {
	if os.Getenv("DISPLAY") == "" {
		return
	}
	done := make(chan *xgb.Conn, 1)
	go func() {
		c, err := xgb.NewConn()
		if err != nil {
			c = nil
		}
		done <- c
	}()
	var c *xgb.Conn
	select {
	case c = <-done:
	case <-time.After(x11DialTimeout):
		go func() {
			if c := <-done; c != nil {
				c.Close()
			}
		}()
	}
	if c == nil {
		return
	}
	x := &x11Conn{c: c, root: xproto.Setup(c).DefaultScreen(c).Root, res: res.Init(c) == nil, saver: screensaver.Init(c) == nil, atom: map[string]xproto.Atom{}}
	for _, name := range x11Atoms {
		r, err := xproto.InternAtom(c, false, uint16(len(name)), name).Reply()
		if err != nil {
			c.Close()
			return
		}
		x.atom[name] = r.Atom
	}
	if randr.Init(c) == nil {
		v, err := randr.QueryVersion(c, 1, 5).Reply()
		x.mons = err == nil && (v.MajorVersion > 1 || v.MajorVersion == 1 && v.MinorVersion >= 5)
	}
	// The window manager's _NET_ACTIVE_WINDOW changes are seen as they
	// happen (ActiveBefore), on a root event mask of this connection's own.
	xproto.ChangeWindowAttributes(c, x.root, xproto.CwEventMask, []uint32{xproto.EventMaskPropertyChange})
	go d.events(x) // also drains the errors of unchecked requests, which arrive as events
	d.mu.Lock()
	d.x = x
	d.mu.Unlock()
	d.noteActive(x)
}

// events reads x's events until the connection closes: the active
// window's changes and the presses of the held shortcut.
func (d *X11) events(x *x11Conn) {
	for {
		ev, err := x.c.WaitForEvent()
		if ev == nil && err == nil {
			return
		}
		switch e := ev.(type) {
		case xproto.PropertyNotifyEvent:
			if e.Window == x.root && e.Atom == x.atom["_NET_ACTIVE_WINDOW"] {
				d.noteActive(x)
			}
		case xproto.KeyPressEvent:
			d.mu.Lock()
			on, g, held := d.onShortcut, d.grab, d.grabbed
			d.mu.Unlock()
			if held && g.Matches(e) && on != nil {
				on(uint32(e.Time))
			}
		}
	}
}

// activeKept is how many of the last active windows ActiveBefore keeps.
const activeKept = 16

// noteActive records the window manager's active window, as it is now.
func (d *X11) noteActive(x *x11Conn) {
	v := x.cardinals(x.root, "_NET_ACTIVE_WINDOW", xproto.AtomWindow, 1)
	if len(v) != 1 || v[0] == 0 {
		return
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	d.actives = slices.DeleteFunc(d.actives, func(id uint32) bool { return id == v[0] })
	d.actives = append(d.actives, v[0])
	if len(d.actives) > activeKept {
		d.actives = d.actives[len(d.actives)-activeKept:]
	}
}

// ActiveBefore is the window that had the focus most recently, of those
// that are still on screen and for which skip is false (say the app's own
// windows); 0 when none. It is what the user came from.
func (d *X11) ActiveBefore(skip func(id uint32) bool) uint32 {
	x := d.conn()
	if x == nil {
		return 0
	}
	d.mu.Lock()
	ids := slices.Clone(d.actives)
	d.mu.Unlock()
	for i := len(ids) - 1; i >= 0; i-- {
		id := ids[i]
		if skip(id) {
			continue
		}
		if a, err := xproto.GetWindowAttributes(x.c, xproto.Window(id)).Reply(); err == nil && a.MapState == xproto.MapStateViewable {
			return id
		}
	}
	return 0
}

// KeysDown are the keys held down now (the X server's keymap), as X key
// codes: what GLFW reports as a key's scancode on X11.
func (d *X11) KeysDown() []uint32 {
	x := d.conn()
	if x == nil {
		return nil
	}
	r, err := xproto.QueryKeymap(x.c).Reply()
	if err != nil {
		return nil
	}
	down := []uint32{}
	for i, b := range r.Keys {
		for bit := range 8 {
			if b&(1<<bit) != 0 {
				down = append(down, uint32(i*8+bit))
			}
		}
	}
	return down
}

// ErrNotReady: the X connection is not up yet (it is made in the
// background); try again a moment later.
var ErrNotReady = errors.New("the X connection is not up yet")

// HoldShortcut takes the chord sc for the whole desktop (hotkey.Take)
// and calls on, on the connection's own goroutine, with the X time of
// each press, until release. Another chord held before is let go first.
func (d *X11) HoldShortcut(sc hotkey.Shortcut, on func(xtime uint32)) (release func(), err error) {
	x := d.conn()
	if x == nil {
		return nil, ErrNotReady
	}
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.grabbed {
		d.grab.Release(x.c, x.root)
		d.grabbed = false
	}
	g, err := xgrab.Take(x.c, x.root, sc)
	if err != nil {
		return nil, err
	}
	d.grab, d.grabbed, d.onShortcut = g, true, on
	return func() {
		d.mu.Lock()
		defer d.mu.Unlock()
		if d.grabbed && d.grab == g {
			d.grab.Release(x.c, x.root)
			d.grabbed, d.onShortcut = false, nil
		}
	}, nil
}

// ActivateAt is ActivateID with the X time of the user's action (a key
// press of the shortcut), which window managers that guard the focus
// weigh against the active window's last input.
func (d *X11) ActivateAt(w fyne.Window, xtime uint32) {
	x, id := d.conn(), xid(w)
	if x == nil || id == 0 {
		w.RequestFocus()
		return
	}
	x.clientMessage(id, "_NET_ACTIVE_WINDOW", ewmhSourcePager, xtime)
	x.c.Sync()
}

// Raise puts w, mapped, above the other windows, leaving the focus where
// it is.
func (d *X11) Raise(w fyne.Window) {
	x, id := d.conn(), xid(w)
	if x == nil || id == 0 {
		return
	}
	x.clientMessage(id, "_NET_RESTACK_WINDOW", ewmhSourcePager, 0, xproto.StackModeAbove)
	x.c.Sync()
}

// WindowID is w's X window, or 0 before Fyne has created it.
func WindowID(w fyne.Window) uint32 { return uint32(xid(w)) }

// xid is w's X window, or 0 before Fyne has created it.
func xid(w fyne.Window) xproto.Window {
	nw, ok := w.(driver.NativeWindow)
	if !ok {
		return 0
	}
	var id uintptr
	nw.RunNative(func(ctx any) {
		if c, ok := ctx.(driver.X11WindowContext); ok {
			id = c.WindowHandle
		}
	})
	return xproto.Window(id)
}

// Start dials the X server in the background, so that the first windows
// are placed too.
func (d *X11) Start() { d.conn() }

// OwnsSelection reports whether this process owns the CLIPBOARD or
// PRIMARY selection (through GLFW's connection, whose hidden helper window
// takes what Fyne copies): the X server names the owner's process
// (X-Resource's client ids). known is false when it cannot tell.
func (d *X11) OwnsSelection() (owns, known bool) {
	x := d.conn()
	if x == nil || !x.res {
		return false, false
	}
	for _, sel := range []xproto.Atom{x.atom["CLIPBOARD"], xproto.AtomPrimary} {
		r, err := xproto.GetSelectionOwner(x.c, sel).Reply()
		if err != nil {
			return false, false
		}
		if r.Owner == 0 {
			continue
		}
		pid, ok := d.Owner(uint32(r.Owner))
		if !ok {
			return false, false
		}
		if pid == os.Getpid() {
			return true, true
		}
	}
	return false, true
}

// Owner is the process of the X client that made window id (X-Resource's
// client ids); known is false when the server cannot tell.
func (d *X11) Owner(id uint32) (pid int, known bool) {
	x := d.conn()
	if x == nil || !x.res || id == 0 {
		return 0, false
	}
	ids, err := res.QueryClientIds(x.c, 1, []res.ClientIdSpec{{Client: id, Mask: res.ClientIdMaskLocalClientPID}}).Reply()
	if err != nil || len(ids.Ids) != 1 || len(ids.Ids[0].Value) != 1 {
		return 0, false
	}
	return int(ids.Ids[0].Value[0]), true
}

// Idle is the X server's idle time (MIT-SCREEN-SAVER): how long since
// the user's last key or pointer input, in any window.
func (d *X11) Idle() (time.Duration, bool) {
	x := d.conn()
	if x == nil || !x.saver {
		return 0, false
	}
	info, err := screensaver.QueryInfo(x.c, xproto.Drawable(x.root)).Reply()
	if err != nil {
		return 0, false
	}
	return time.Duration(info.MsSinceUserInput) * time.Millisecond, true
}

// Monitors are RandR 1.5's monitors (what xrandr --listmonitors shows:
// one per output, or as the user defined them), each less what the
// window manager's panels take (_NET_WORKAREA of the first desktop), and
// the pointer's position.
func (d *X11) Monitors() (mons []image.Rectangle, pointer image.Point, ok bool) {
	x := d.conn()
	if x == nil || !x.mons {
		return nil, image.Point{}, false
	}
	r, err := randr.GetMonitors(x.c, x.root, true).Reply()
	if err != nil {
		return nil, image.Point{}, false
	}
	var work image.Rectangle
	if v := x.cardinals(x.root, "_NET_WORKAREA", xproto.AtomCardinal, 4); len(v) == 4 {
		work = image.Rect(int(int32(v[0])), int(int32(v[1])), int(int32(v[0]))+int(v[2]), int(int32(v[1]))+int(v[3]))
	}
	for _, m := range r.Monitors {
		mon := image.Rect(int(m.X), int(m.Y), int(m.X)+int(m.Width), int(m.Y)+int(m.Height))
		if in := mon.Intersect(work); !in.Empty() {
			mon = in
		}
		if !mon.Empty() {
			mons = append(mons, mon)
		}
	}
	p, err := xproto.QueryPointer(x.c, x.root).Reply()
	if err != nil || len(mons) == 0 {
		return nil, image.Point{}, false
	}
	return mons, image.Pt(int(p.RootX), int(p.RootY)), true
}

// Ready reports whether w has an X window (Fyne creates it on the first
// Show, or Warm) and the connection is up.
func (d *X11) Ready(w fyne.Window) bool { return d.conn() != nil && xid(w) != 0 }

// cardinals reads a 32-bit property of win.
func (x *x11Conn) cardinals(win xproto.Window, prop string, typ xproto.Atom, n uint32) []uint32 {
	r, err := xproto.GetProperty(x.c, false, win, x.atom[prop], typ, 0, n).Reply()
	if err != nil || r.Format != 32 {
		return nil
	}
	out := make([]uint32, r.ValueLen)
	for i := range out {
		out[i] = binary.LittleEndian.Uint32(r.Value[4*i:])
	}
	return out
}

// Active reports whether w is the window with the focus.
func (d *X11) Active(w fyne.Window) bool {
	id := xid(w)
	return id != 0 && d.Focused() == uint32(id)
}

// Focused is the window with the focus, any client's: the window
// manager's _NET_ACTIVE_WINDOW, else the X focus; 0 when none, or when
// that window is not on screen (unmapped or destroyed: a window manager
// can leave the property naming a window that went, such as a question
// window of a UI process that ended).
func (d *X11) Focused() uint32 {
	x := d.conn()
	if x == nil {
		return 0
	}
	v := x.cardinals(x.root, "_NET_ACTIVE_WINDOW", xproto.AtomWindow, 1)
	if len(v) == 1 {
		if v[0] == 0 {
			return 0
		}
		if a, err := xproto.GetWindowAttributes(x.c, xproto.Window(v[0])).Reply(); err != nil || a.MapState != xproto.MapStateViewable {
			return 0
		}
		return v[0]
	}
	if len(x.cardinals(x.root, "_NET_SUPPORTING_WM_CHECK", xproto.AtomWindow, 1)) == 1 {
		// An EWMH window manager that has focused no window yet: the X
		// focus is on a window of its own (openbox's), no client's.
		return 0
	}
	// No EWMH window manager: the X focus itself.
	f, err := xproto.GetInputFocus(x.c).Reply()
	if err != nil || f.Focus == xproto.InputFocusPointerRoot {
		return 0
	}
	return uint32(f.Focus)
}

// ActivateID asks the window manager to give window id the focus, on the
// user's behalf.
func (d *X11) ActivateID(id uint32) {
	x := d.conn()
	if x == nil || id == 0 {
		return
	}
	x.clientMessage(xproto.Window(id), "_NET_ACTIVE_WINDOW", ewmhSourcePager, xproto.TimeCurrentTime)
	x.c.Sync()
}

// Frame is w's frame on screen, the window manager's decorations
// included (_NET_FRAME_EXTENTS).
func (d *X11) Frame(w fyne.Window) (image.Rectangle, bool) {
	x, id := d.conn(), xid(w)
	if x == nil || id == 0 {
		return image.Rectangle{}, false
	}
	g, err := xproto.GetGeometry(x.c, xproto.Drawable(id)).Reply()
	if err != nil {
		return image.Rectangle{}, false
	}
	t, err := xproto.TranslateCoordinates(x.c, id, x.root, 0, 0).Reply()
	if err != nil {
		return image.Rectangle{}, false
	}
	r := image.Rect(int(t.DstX), int(t.DstY), int(t.DstX)+int(g.Width), int(t.DstY)+int(g.Height))
	if e := x.cardinals(id, "_NET_FRAME_EXTENTS", xproto.AtomCardinal, 4); len(e) == 4 { // left, right, top, bottom
		r.Min = r.Min.Sub(image.Pt(int(e[0]), int(e[2])))
		r.Max = r.Max.Add(image.Pt(int(e[1]), int(e[3])))
		d.mu.Lock()
		d.decor = image.Pt(int(e[0]+e[1]), int(e[2]+e[3]))
		d.mu.Unlock()
	}
	return r, true
}

// Decor is what the window manager's frame adds to a client window, in
// screen pixels: its left and right extents (X) and its top and bottom
// ones (Y), as Frame last read them on one of this process's windows
// (_NET_FRAME_EXTENTS; one window manager frames them all alike). ok is
// false until a frame with extents was read.
func (d *X11) Decor() (image.Point, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.decor, d.decor != image.Point{}
}

// Source indication of EWMH requests: a pager, that is the user's own
// action (a window manager honours it where it may refuse an application).
const ewmhSourcePager = 2

func (x *x11Conn) clientMessage(win xproto.Window, typ string, data ...uint32) {
	for len(data) < 5 {
		data = append(data, 0)
	}
	ev := xproto.ClientMessageEvent{Format: 32, Window: win, Type: x.atom[typ],
		Data: xproto.ClientMessageDataUnionData32New(data)}
	xproto.SendEvent(x.c, false, x.root,
		xproto.EventMaskSubstructureRedirect|xproto.EventMaskSubstructureNotify, string(ev.Bytes()))
}

// Move puts w's frame's top-left corner at p.
func (d *X11) Move(w fyne.Window, p image.Point) {
	x, id := d.conn(), xid(w)
	if x == nil || id == 0 {
		return
	}
	// A configure request for the client window, as GLFW's SetPos makes:
	// GLFW gives its windows static gravity (WM_NORMAL_HINTS), so x, y
	// are where the client window goes, and the frame's corner is that
	// less the frame's left and top extents.
	if e := x.cardinals(id, "_NET_FRAME_EXTENTS", xproto.AtomCardinal, 4); len(e) == 4 {
		p = p.Add(image.Pt(int(e[0]), int(e[2])))
	}
	xproto.ConfigureWindow(x.c, id, xproto.ConfigWindowX|xproto.ConfigWindowY, []uint32{uint32(int32(p.X)), uint32(int32(p.Y))})
	x.c.Sync()
}

// Quiet asks that w, not mapped now, not take the focus when it is next
// mapped (_NET_WM_USER_TIME 0), or (on false) that it does.
func (d *X11) Quiet(w fyne.Window, on bool) {
	x, id := d.conn(), xid(w)
	if x == nil || id == 0 {
		return
	}
	if on {
		// EWMH: a _NET_WM_USER_TIME of 0 on a window being mapped asks
		// that it not be focused.
		xproto.ChangeProperty(x.c, xproto.PropModeReplace, id, x.atom["_NET_WM_USER_TIME"],
			xproto.AtomCardinal, 32, 1, make([]byte, 4))
	} else {
		xproto.DeleteProperty(x.c, id, x.atom["_NET_WM_USER_TIME"])
	}
	x.c.Sync()
}

// setState puts state into an unmapped window's _NET_WM_STATE, which the
// window manager reads when it maps it, or takes it out.
func (x *x11Conn) setState(win xproto.Window, state string, on bool) {
	atom := uint32(x.atom[state])
	have := x.cardinals(win, "_NET_WM_STATE", xproto.AtomAtom, 32)
	if slices.Contains(have, atom) == on {
		return // as it should be
	}
	keep := slices.DeleteFunc(slices.Clone(have), func(a uint32) bool { return a == atom })
	if on {
		keep = append(keep, atom)
	}
	buf := make([]byte, 4*len(keep))
	for i, a := range keep {
		binary.LittleEndian.PutUint32(buf[4*i:], a)
	}
	xproto.ChangeProperty(x.c, xproto.PropModeReplace, win, x.atom["_NET_WM_STATE"],
		xproto.AtomAtom, 32, uint32(len(keep)), buf)
}

// ICCCM WM_HINTS: nine 32-bit fields, the first the flags.
const (
	wmHintsLen  = 9
	urgencyHint = 1 << 8
)

// Attention sets or clears w's urgency hint (WM_HINTS) and
// _NET_WM_STATE_DEMANDS_ATTENTION.
func (d *X11) Attention(w fyne.Window, on bool) {
	x, id := d.conn(), xid(w)
	if x == nil || id == 0 {
		return
	}
	defer x.c.Sync()
	if r, err := xproto.GetProperty(x.c, false, id, xproto.AtomWmHints, xproto.AtomWmHints, 0, wmHintsLen).Reply(); err == nil {
		hints := make([]byte, 4*wmHintsLen)
		if r.Format == 32 {
			copy(hints, r.Value)
		}
		flags := binary.LittleEndian.Uint32(hints)
		if on != (flags&urgencyHint != 0) {
			binary.LittleEndian.PutUint32(hints, flags^urgencyHint)
			xproto.ChangeProperty(x.c, xproto.PropModeReplace, id, xproto.AtomWmHints, xproto.AtomWmHints, 32, wmHintsLen, hints)
		}
	}
	attr, err := xproto.GetWindowAttributes(x.c, id).Reply()
	if err != nil {
		return
	}
	if attr.MapState == xproto.MapStateUnmapped {
		x.setState(id, "_NET_WM_STATE_DEMANDS_ATTENTION", on)
		return
	}
	// Mapped: the window manager owns _NET_WM_STATE; ask it.
	action := uint32(0) // remove
	if on {
		action = 1 // add
	}
	x.clientMessage(id, "_NET_WM_STATE", action, uint32(x.atom["_NET_WM_STATE_DEMANDS_ATTENTION"]), 0, ewmhSourcePager)
}

// StackBelow puts w, mapped, right under sibling.
func (d *X11) StackBelow(w, sibling fyne.Window) {
	x, id, sib := d.conn(), xid(w), xid(sibling)
	if x == nil || id == 0 || sib == 0 {
		return
	}
	x.clientMessage(id, "_NET_RESTACK_WINDOW", ewmhSourcePager, uint32(sib), xproto.StackModeBelow)
	x.c.Sync()
}

// HoldKeys sends every key press to w, whichever window has the focus,
// until release is called; nil when it cannot.
func (d *X11) HoldKeys(w fyne.Window) func() { return grabKeys(uint32(xid(w))) }

// Activate asks the window manager to give w the focus, on the user's
// behalf (Fyne's RequestFocus while the connection is not up).
func (d *X11) Activate(w fyne.Window) {
	x, id := d.conn(), xid(w)
	if x == nil || id == 0 {
		w.RequestFocus()
		return
	}
	x.clientMessage(id, "_NET_ACTIVE_WINDOW", ewmhSourcePager, xproto.TimeCurrentTime)
	x.c.Sync()
}
