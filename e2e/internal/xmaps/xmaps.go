// Package xmaps reports the top-level windows mapped on the X display, for
// the end-to-end tests and the benchmark.
package xmaps

import (
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// Watch reports the time of every MapNotify of a top-level window (one the
// window manager manages: not override-redirect) on the default screen,
// from now until stop is called. The channel holds 256; past that, maps
// are dropped rather than stalling the X connection.
func Watch() (mapped <-chan time.Time, stop func(), err error) {
	x, err := xgb.NewConn()
	if err != nil {
		return nil, nil, err
	}
	root := xproto.Setup(x).DefaultScreen(x).Root
	if err := xproto.ChangeWindowAttributesChecked(x, root, xproto.CwEventMask,
		[]uint32{xproto.EventMaskSubstructureNotify}).Check(); err != nil {
		x.Close()
		return nil, nil, err
	}
	ch := make(chan time.Time, 256)
	go func() {
		for {
			ev, err := x.WaitForEvent()
			if ev == nil && err == nil {
				return
			}
			if m, ok := ev.(xproto.MapNotifyEvent); ok && !m.OverrideRedirect {
				select {
				case ch <- time.Now():
				default:
				}
			}
		}
	}()
	return ch, x.Close, nil
}
