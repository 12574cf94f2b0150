package app

import (
	"context"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/godbus/dbus/v5"

	"feedback/app/core/away"
	"feedback/internal/settings"
)

// presenceEvery is how often the presence watcher looks, while the away
// setting is on or a question is snoozed until the user is back (one X
// request and at most two D-Bus calls: nothing measurable).
const presenceEvery = 5 * time.Second

// presence decides whether the user is away for the away setting: the
// session locked or the screen saver on (org.freedesktop.ScreenSaver or
// org.gnome.ScreenSaver on the session bus, or the X server's screen
// saver), or no input for settings.AwayAfterMinutes (the X server's idle
// time). Where none of them answers, the user counts as present: away
// never starts on a guess.
type presence struct {
	awayC   *away.Control
	snoozes interface{ UntilBack() bool } // snoozed until the user is back: looked for
	log     *slog.Logger
	mode    atomic.Pointer[string]
	after   atomic.Int64 // time.Duration without input that makes the user away
	idle    idleSource   // the X server's idle time and screen saver (presence_x11.go)
}

// idleSource reads the display's idle time and screen saver; ok is false
// where it cannot (no X server).
type idleSource interface {
	Idle() (idle time.Duration, saverOn bool, ok bool)
	Close()
}

func newPresence(a *away.Control, snoozes interface{ UntilBack() bool }, log *slog.Logger) *presence {
	return &presence{awayC: a, snoozes: snoozes, log: log}
}

// setAway takes the away settings: away and away_after_minutes.
func (p *presence) setAway(mode string, after time.Duration) {
	p.mode.Store(&mode)
	p.after.Store(int64(after))
	p.awayC.SetMode(mode)
}

// run watches until ctx ends.
func (p *presence) run(ctx context.Context) {
	t := time.NewTicker(presenceEvery)
	defer t.Stop()
	var bus *dbus.Conn
	defer func() {
		if bus != nil {
			bus.Close()
		}
		if p.idle != nil {
			p.idle.Close()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
		// Looked for while the away setting is on, or a question is snoozed
		// until the user is back.
		if m := p.mode.Load(); (m == nil || *m == settings.AwayOff || *m == "") && !p.snoozes.UntilBack() {
			p.awayC.SetAway(false)
			continue
		}
		if p.idle == nil {
			p.idle = openIdle(p.log)
		}
		if bus == nil {
			if c, err := dbus.ConnectSessionBus(); err == nil {
				bus = c
			}
		}
		p.awayC.SetAway(p.away(ctx, bus))
	}
}

// away reports whether the user is away now.
func (p *presence) away(ctx context.Context, bus *dbus.Conn) bool {
	if p.idle != nil {
		if idle, saver, ok := p.idle.Idle(); ok && (saver || idle >= time.Duration(p.after.Load())) {
			return true
		}
	}
	return bus != nil && screenLocked(ctx, bus)
}

// screenLocked asks the desktop's screen saver services whether the
// screen is locked (or the saver active); each call is bounded.
func screenLocked(ctx context.Context, bus *dbus.Conn) bool {
	for _, s := range []struct{ name, path string }{
		{"org.freedesktop.ScreenSaver", "/org/freedesktop/ScreenSaver"},
		{"org.gnome.ScreenSaver", "/org/gnome/ScreenSaver"},
	} {
		cctx, cancel := context.WithTimeout(ctx, time.Second)
		var active bool
		err := bus.Object(s.name, dbus.ObjectPath(s.path)).CallWithContext(cctx, s.name+".GetActive", dbus.FlagNoAutoStart).Store(&active)
		cancel()
		if err == nil && active {
			return true
		}
	}
	return false
}
