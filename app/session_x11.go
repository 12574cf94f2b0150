//go:build (linux || freebsd || netbsd || openbsd) && !wayland

package app

import (
	"errors"
	"io"
	stdlog "log"
	"log/slog"
	"os"
	"time"

	"github.com/jezek/xgb"
)

// displayDialWait bounds the connection to the display (display.Check
// found it answering moments before).
const displayDialWait = 5 * time.Second

// watchDisplay holds a connection to the X display named by $DISPLAY, the
// one the windows show on, and calls gone when the X server closes it (the
// session's X server ended). It selects no events: the connection wakes
// nothing until it closes.
func watchDisplay(log *slog.Logger, gone func(error)) (stop func()) {
	display := os.Getenv("DISPLAY")
	// The connection's end is expected: not a line of xgb's own on stderr
	// (this process's only xgb connection).
	xgb.Logger = stdlog.New(io.Discard, "", 0)
	dialed := make(chan *xgb.Conn, 1)
	go func() {
		c, err := xgb.NewConnDisplay(display)
		if err != nil {
			log.Warn("not watching the display", "display", display, "err", err)
			c = nil
		}
		dialed <- c
	}()
	var c *xgb.Conn
	select {
	case c = <-dialed:
	case <-time.After(displayDialWait):
		log.Warn("not watching the display: no connection in time", "display", display, "wait", displayDialWait)
		go func() {
			if c := <-dialed; c != nil {
				c.Close()
			}
		}()
	}
	if c == nil {
		return func() {}
	}
	go func() {
		for {
			// Both nil: the connection closed. Anything else (an X error
			// of a request we never made) is ignored.
			if ev, err := c.WaitForEvent(); ev == nil && err == nil {
				gone(errors.New("the X display " + display + " closed the connection"))
				return
			}
		}
	}()
	return c.Close
}
