package app

import (
	"errors"
	"fmt"
	"log/slog"
	"os"
	"runtime"
	"sync"
	"sync/atomic"
	"time"

	"github.com/godbus/dbus/v5"
)

// ErrSessionEnded is the cause of the app's end when the desktop session
// it started in ended: its display's connection was lost or its session
// D-Bus disconnected. Nothing can be shown any more; a shim starts the app
// again in the next session.
var ErrSessionEnded = errors.New("the desktop session ended")

// watchSession calls end, once, with an error wrapping ErrSessionEnded when
// the session the app runs in ends: the connection it holds to its display
// is lost (watchDisplay, per platform) or the session bus it had at start
// disconnects. It holds two idle connections and two blocked goroutines,
// nothing that wakes up. stop lets both go without calling end.
func watchSession(log *slog.Logger, end func(error)) (stop func()) {
	var (
		stopped atomic.Bool // set before our own closes: they are no end
		once    sync.Once
	)
	gone := func(why error) {
		if !stopped.Load() {
			once.Do(func() { end(fmt.Errorf("%w: %w", ErrSessionEnded, why)) })
		}
	}
	stopDisplay := watchDisplay(log, gone)
	stopBus := watchBus(log, gone)
	return func() {
		if !stopped.Swap(true) {
			stopDisplay()
			stopBus()
		}
	}
}

// busRetry and busRetryMax bound watchBus's attempts to connect: waits of
// 100 ms doubling up to 1.6 s, about 3 s in all.
const (
	busRetry    = 100 * time.Millisecond
	busRetryMax = 1600 * time.Millisecond
)

// watchBus calls gone when the session bus named by
// DBUS_SESSION_BUS_ADDRESS (set by the session, or by trayHostReachable
// from the per-user bus) disconnects. Without one, and on Windows and
// macOS (a bus address there is a Linux session's, passed on, say, by
// wine), it watches nothing. It connects in the background: the app serves
// its socket without waiting for the bus (under wine a connection to a
// Unix socket path can take many seconds).
func watchBus(log *slog.Logger, gone func(error)) (stop func()) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" || os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		return func() {}
	}
	var (
		mu      sync.Mutex // guards conn and stopped
		conn    *dbus.Conn
		stopped bool
	)
	go func() {
		// A bus busy as the session starts may drop a connection in its
		// handshake ("connection reset by peer"): try again a few times
		// before giving up on watching it.
		var (
			c   *dbus.Conn
			err error
		)
		for wait := busRetry; ; wait *= 2 {
			if c, err = dbus.ConnectSessionBus(); err == nil {
				break
			}
			mu.Lock()
			done := stopped
			mu.Unlock()
			if done || wait > busRetryMax {
				log.Info("not watching the session bus", "err", err)
				return
			}
			time.Sleep(wait)
		}
		mu.Lock()
		if stopped {
			mu.Unlock()
			c.Close()
			return
		}
		conn = c
		mu.Unlock()
		<-c.Context().Done()
		gone(errors.New("the session D-Bus disconnected"))
	}()
	return func() {
		mu.Lock()
		defer mu.Unlock()
		stopped = true
		if conn != nil {
			conn.Close()
		}
	}
}
