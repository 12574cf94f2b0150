package core

import "time"

// uiClock is the time of the UI process's supervisor (the heartbeat, the
// linger time, restart delays) and of the windows' deadlines the inbox
// keeps: the wall clock (realClock), or a test's that it moves by hand, so
// that they are tested without waiting for them.
type uiClock interface {
	Now() time.Time
	// AfterFunc runs f in its own goroutine once d has passed.
	AfterFunc(d time.Duration, f func()) uiTimer
	// NewTicker ticks every d until stopped.
	NewTicker(d time.Duration) uiTicker
}

// uiTimer is a timer of a uiClock.
type uiTimer interface{ Stop() bool }

// uiTicker is a ticker of a uiClock.
type uiTicker interface {
	C() <-chan time.Time
	Stop()
}

// realClock is the wall clock (package time).
type realClock struct{}

func (realClock) Now() time.Time                              { return time.Now() }
func (realClock) AfterFunc(d time.Duration, f func()) uiTimer { return time.AfterFunc(d, f) }
func (realClock) NewTicker(d time.Duration) uiTicker          { return realTicker{time.NewTicker(d)} }

type realTicker struct{ t *time.Ticker }

func (r realTicker) C() <-chan time.Time { return r.t.C }
func (r realTicker) Stop()               { r.t.Stop() }
