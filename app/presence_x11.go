//go:build (linux || freebsd || netbsd || openbsd) && !wayland

package app

import (
	"log/slog"
	"os"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/screensaver"
	"github.com/jezek/xgb/xproto"
)

// xIdle reads the X server's idle time and screen saver state
// (MIT-SCREEN-SAVER).
type xIdle struct {
	c    *xgb.Conn
	root xproto.Window
}

// openIdle connects to $DISPLAY's MIT-SCREEN-SAVER, or returns nil (logged
// once at debug level) where it cannot.
func openIdle(log *slog.Logger) idleSource {
	c, err := xgb.NewConnDisplay(os.Getenv("DISPLAY"))
	if err != nil {
		log.Debug("presence: no X display", "err", err)
		return nil
	}
	if err := screensaver.Init(c); err != nil {
		log.Debug("presence: no MIT-SCREEN-SAVER", "err", err)
		c.Close()
		return nil
	}
	return &xIdle{c: c, root: xproto.Setup(c).DefaultScreen(c).Root}
}

func (x *xIdle) Idle() (time.Duration, bool, bool) {
	info, err := screensaver.QueryInfo(x.c, xproto.Drawable(x.root)).Reply()
	if err != nil {
		return 0, false, false
	}
	return time.Duration(info.MsSinceUserInput) * time.Millisecond, info.State == screensaver.StateOn, true
}

func (x *xIdle) Close() { x.c.Close() }
