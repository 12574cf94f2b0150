//go:build (linux && !android) || freebsd || openbsd || netbsd || dragonfly

package clipimage

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// connectTimeout bounds connecting to the X server.
const connectTimeout = 5 * time.Second

// propertyChunk is how much of a property one GetProperty asks for, in the
// protocol's 4-byte units (1 MiB).
const propertyChunk = 1 << 18

// x11Result is what readX11 found; incr tells tests that the owner used the
// INCR protocol.
type x11Result struct {
	data []byte
	mime string
	incr bool
}

// readX11 reads an image from the CLIPBOARD selection of the X display in
// $DISPLAY, as an ICCCM requestor: ask for TARGETS, pick an image type, ask
// for it, and read the reply property (incrementally when the owner uses
// INCR).
func readX11(ctx context.Context) (x11Result, error) {
	display := os.Getenv("DISPLAY")
	if display == "" {
		if os.Getenv("WAYLAND_DISPLAY") != "" {
			return x11Result{}, errors.New("clipimage: pasting images on Wayland needs wl-paste (install wl-clipboard) or XWayland")
		}
		return x11Result{}, errors.New("clipimage: no display: neither DISPLAY nor WAYLAND_DISPLAY is set")
	}
	conn, err := dialX(ctx, display)
	if err != nil {
		return x11Result{}, err
	}
	defer conn.Close()
	s, err := newXSession(conn)
	if err != nil {
		return x11Result{}, err
	}
	defer s.close()
	return s.readImage(ctx)
}

// dialX connects to the X server, giving up when ctx ends or after
// connectTimeout (xgb's dial has no timeout of its own).
func dialX(ctx context.Context, display string) (*xgb.Conn, error) {
	type result struct {
		conn *xgb.Conn
		err  error
	}
	done := make(chan result, 1)
	go func() {
		c, err := xgb.NewConnDisplay(display)
		done <- result{c, err}
	}()
	abandon := func() {
		go func() {
			if r := <-done; r.conn != nil {
				r.conn.Close()
			}
		}()
	}
	timer := time.NewTimer(connectTimeout)
	defer timer.Stop()
	select {
	case r := <-done:
		if r.err != nil {
			return nil, fmt.Errorf("clipimage: connect to X display %q: %w", display, r.err)
		}
		return r.conn, nil
	case <-ctx.Done():
		abandon()
		return nil, context.Cause(ctx)
	case <-timer.C:
		abandon()
		return nil, fmt.Errorf("clipimage: connect to X display %q: timed out", display)
	}
}

// xSession is one requestor: an unmapped window that receives the selection,
// the atoms it needs and a pump that forwards the connection's events.
type xSession struct {
	conn   *xgb.Conn
	win    xproto.Window
	events chan xEvent
	done   chan struct{} // closed by close; stops the pump

	clipboard, targets, incr, prop xproto.Atom
}

func newXSession(conn *xgb.Conn) (*xSession, error) {
	s := &xSession{conn: conn, events: make(chan xEvent, 64), done: make(chan struct{})}
	// Ask for all atoms at once, then collect the replies.
	names := []string{"CLIPBOARD", "TARGETS", "INCR", "FEEDBACK_CLIPIMAGE"}
	dest := []*xproto.Atom{&s.clipboard, &s.targets, &s.incr, &s.prop}
	cookies := make([]xproto.InternAtomCookie, len(names))
	for i, n := range names {
		cookies[i] = xproto.InternAtom(conn, false, uint16(len(n)), n)
	}
	for i, c := range cookies {
		r, err := c.Reply()
		if err != nil {
			return nil, fmt.Errorf("clipimage: intern atom %s: %w", names[i], err)
		}
		*dest[i] = r.Atom
	}

	win, err := xproto.NewWindowId(conn)
	if err != nil {
		return nil, fmt.Errorf("clipimage: allocate window id: %w", err)
	}
	root := xproto.Setup(conn).DefaultScreen(conn).Root
	// An input-only 1×1 window, never mapped: it only holds the property the
	// owner writes to, and PropertyChange events drive INCR transfers.
	err = xproto.CreateWindowChecked(conn, 0, win, root, 0, 0, 1, 1, 0,
		xproto.WindowClassInputOnly, 0, xproto.CwEventMask,
		[]uint32{xproto.EventMaskPropertyChange}).Check()
	if err != nil {
		return nil, fmt.Errorf("clipimage: create window: %w", err)
	}
	s.win = win
	go s.pump()
	return s, nil
}

// pump forwards events until the connection closes (WaitForEvent returns
// nil, nil) or the session is closed.
func (s *xSession) pump() {
	defer close(s.events)
	for {
		ev, xerr := s.conn.WaitForEvent()
		if ev == nil && xerr == nil {
			return
		}
		select {
		case s.events <- xEvent{ev, xerr}:
		case <-s.done:
			return
		}
	}
}

// close destroys the window and stops the pump; the caller closes the
// connection.
func (s *xSession) close() {
	xproto.DestroyWindow(s.conn, s.win)
	close(s.done)
}

func (s *xSession) readImage(ctx context.Context) (x11Result, error) {
	owner, err := xproto.GetSelectionOwner(s.conn, s.clipboard).Reply()
	if err != nil {
		return x11Result{}, fmt.Errorf("clipimage: get clipboard owner: %w", err)
	}
	if owner.Owner == xproto.WindowNone {
		return x11Result{}, fmt.Errorf("%w (the clipboard has no owner)", ErrNoImage)
	}

	target, mime, err := s.chooseImageTarget(ctx)
	if err != nil {
		return x11Result{}, err
	}
	atom, err := s.internAtom(target)
	if err != nil {
		return x11Result{}, err
	}
	data, incr, err := s.convert(ctx, atom)
	if err != nil {
		return x11Result{}, fmt.Errorf("clipimage: read %s from the clipboard: %w", target, err)
	}
	if len(data) == 0 {
		return x11Result{}, fmt.Errorf("clipimage: the clipboard owner sent no data for %s", target)
	}
	return x11Result{data: data, mime: mime, incr: incr}, nil
}

// chooseImageTarget asks the owner for TARGETS and picks the best image type.
// An owner that does not answer TARGETS (very old clients) is asked for
// image/png directly.
func (s *xSession) chooseImageTarget(ctx context.Context) (target, mime string, err error) {
	data, _, err := s.convert(ctx, s.targets)
	if errors.Is(err, errRefused) {
		return "image/png", "image/png", nil
	}
	if err != nil {
		return "", "", fmt.Errorf("clipimage: ask the clipboard owner for TARGETS: %w", err)
	}
	names, err := s.atomNames(atomList(32, data))
	if err != nil {
		return "", "", err
	}
	target, mime, ok := chooseTarget(names)
	if !ok {
		return "", "", fmt.Errorf("%w (offered: %v)", ErrNoImage, names)
	}
	return target, mime, nil
}

// errRefused reports a SelectionNotify with property None: the owner cannot
// convert to the target (or there is no owner).
var errRefused = fmt.Errorf("%w: the owner refused the conversion", ErrNoImage)

// convert asks the owner to convert CLIPBOARD to target into s.prop and
// returns the data, reassembling an INCR transfer when the owner uses one.
func (s *xSession) convert(ctx context.Context, target xproto.Atom) (data []byte, incr bool, err error) {
	xproto.ConvertSelection(s.conn, s.win, s.clipboard, target, s.prop, xproto.TimeCurrentTime)
	// One request is outstanding at a time, so the target is not matched:
	// ICCCM says it is echoed, but not every owner is careful about that.
	ev, err := waitFor(ctx, s.events, idleTimeout, func(ev xgb.Event) bool {
		sn, ok := ev.(xproto.SelectionNotifyEvent)
		return ok && sn.Requestor == s.win && sn.Selection == s.clipboard
	})
	if err != nil {
		return nil, false, err
	}
	if ev.(xproto.SelectionNotifyEvent).Property == xproto.AtomNone {
		return nil, false, errRefused
	}
	typ, format, data, err := s.readProperty(s.prop)
	if err != nil {
		return nil, false, err
	}
	if typ == xproto.AtomNone {
		return nil, false, errors.New("the owner reported success but set no property")
	}
	if typ != s.incr {
		return data, false, nil
	}
	// The INCR property holds a lower bound of the size. Reading it with
	// delete=true deleted it, which tells the owner to send the first chunk.
	var hint uint32
	if format == 32 && len(data) >= 4 {
		hint = xgb.Get32(data)
	}
	data, err = receiveIncr(ctx, s, s.events, s.win, s.prop, hint, idleTimeout, maxImageBytes)
	return data, true, err
}

// takeProperty implements propertyTaker for receiveIncr.
func (s *xSession) takeProperty(prop xproto.Atom) (xproto.Atom, []byte, error) {
	typ, _, data, err := s.readProperty(prop)
	return typ, data, err
}

// readProperty reads prop on the session window in propertyChunk pieces and
// deletes it (the server deletes it with the last piece). typ is AtomNone when
// the property does not exist.
func (s *xSession) readProperty(prop xproto.Atom) (typ xproto.Atom, format byte, data []byte, err error) {
	var offset uint32 // in 4-byte units
	for {
		r, err := xproto.GetProperty(s.conn, true, s.win, prop, xproto.GetPropertyTypeAny, offset, propertyChunk).Reply()
		if err != nil {
			return 0, 0, nil, fmt.Errorf("get property: %w", err)
		}
		if r == nil {
			return 0, 0, nil, errors.New("get property: the X connection closed")
		}
		typ, format = r.Type, r.Format
		if len(data)+len(r.Value) > maxImageBytes {
			return 0, 0, nil, fmt.Errorf("the clipboard image is larger than %d bytes", maxImageBytes)
		}
		data = append(data, r.Value...)
		if r.BytesAfter == 0 || len(r.Value) == 0 {
			return typ, format, data, nil
		}
		offset += uint32(len(r.Value) / 4)
	}
}

// atomNames resolves atoms to their names with pipelined requests.
func (s *xSession) atomNames(atoms []xproto.Atom) ([]string, error) {
	cookies := make([]xproto.GetAtomNameCookie, len(atoms))
	for i, a := range atoms {
		cookies[i] = xproto.GetAtomName(s.conn, a)
	}
	names := make([]string, 0, len(atoms))
	for i, c := range cookies {
		r, err := c.Reply()
		if err != nil {
			// An owner may list an atom that does not exist; skip it.
			var bad xproto.AtomError
			if errors.As(err, &bad) {
				continue
			}
			return nil, fmt.Errorf("clipimage: name of target atom %d: %w", atoms[i], err)
		}
		names = append(names, r.Name)
	}
	return names, nil
}

func (s *xSession) internAtom(name string) (xproto.Atom, error) {
	r, err := xproto.InternAtom(s.conn, false, uint16(len(name)), name).Reply()
	if err != nil {
		return 0, fmt.Errorf("clipimage: intern atom %s: %w", name, err)
	}
	return r.Atom, nil
}
