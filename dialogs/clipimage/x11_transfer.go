//go:build (linux && !android) || freebsd || openbsd || netbsd || dragonfly

package clipimage

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// This file holds the parts of the X11 selection transfer that need no X
// server: waiting for events and reassembling an INCR transfer. They work on
// a channel of events and a small propertyTaker interface, so tests drive
// them with fakes.

// idleTimeout bounds every wait for the clipboard owner: if the owner sends
// nothing useful for this long, Read gives up. Tests shorten it.
var idleTimeout = 2 * time.Second

// errOwnerTimeout reports an owner that stopped answering.
var errOwnerTimeout = errors.New("clipimage: the clipboard owner did not answer in time")

// xEvent is what the event pump delivers: an X event or an X error (the error
// of a request sent without a reply, such as ConvertSelection).
type xEvent struct {
	ev  xgb.Event
	err xgb.Error
}

// waitFor returns the first event for which match is true, skipping the rest.
// It fails on an X error, when the event channel closes (connection lost),
// when ctx ends, or after idle without a matching event.
func waitFor(ctx context.Context, events <-chan xEvent, idle time.Duration, match func(xgb.Event) bool) (xgb.Event, error) {
	timer := time.NewTimer(idle)
	defer timer.Stop()
	for {
		select {
		case e, ok := <-events:
			if !ok {
				return nil, errors.New("clipimage: the X connection closed")
			}
			if e.err != nil {
				return nil, fmt.Errorf("clipimage: X error: %v", e.err)
			}
			if match(e.ev) {
				return e.ev, nil
			}
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		case <-timer.C:
			return nil, errOwnerTimeout
		}
	}
}

// propertyTaker reads a property of the requestor window in full and deletes
// it (the deletion is what tells an INCR owner to send the next chunk).
type propertyTaker interface {
	takeProperty(prop xproto.Atom) (typ xproto.Atom, data []byte, err error)
}

// receiveIncr reassembles an INCR transfer (ICCCM 2.7.2) once the requestor
// has deleted the property of type INCR: for each PropertyNotify(NewValue) of
// prop on win, take the property and append it; a zero-length chunk ends the
// transfer. sizeHint is the owner's lower bound on the total size (from the
// INCR property); limit caps the total. idle bounds the wait for each chunk.
func receiveIncr(ctx context.Context, p propertyTaker, events <-chan xEvent, win xproto.Window, prop xproto.Atom, sizeHint uint32, idle time.Duration, limit int) ([]byte, error) {
	if int64(sizeHint) > int64(limit) {
		return nil, fmt.Errorf("clipimage: the clipboard image is larger than %d bytes (owner announced %d)", limit, sizeHint)
	}
	data := make([]byte, 0, sizeHint)
	newValue := func(ev xgb.Event) bool {
		pn, ok := ev.(xproto.PropertyNotifyEvent)
		return ok && pn.Window == win && pn.Atom == prop && pn.State == xproto.PropertyNewValue
	}
	for {
		if _, err := waitFor(ctx, events, idle, newValue); err != nil {
			return nil, fmt.Errorf("incremental transfer after %d bytes: %w", len(data), err)
		}
		_, chunk, err := p.takeProperty(prop)
		if err != nil {
			return nil, err
		}
		if len(chunk) == 0 {
			return data, nil
		}
		if len(data)+len(chunk) > limit {
			return nil, fmt.Errorf("clipimage: the clipboard image is larger than %d bytes", limit)
		}
		data = append(data, chunk...)
	}
}

// atomList decodes a property of 32-bit items (such as the reply to TARGETS).
func atomList(format byte, data []byte) []xproto.Atom {
	if format != 32 {
		return nil
	}
	atoms := make([]xproto.Atom, 0, len(data)/4)
	for i := 0; i+4 <= len(data); i += 4 {
		atoms = append(atoms, xproto.Atom(xgb.Get32(data[i:])))
	}
	return atoms
}
