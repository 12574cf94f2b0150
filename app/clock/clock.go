// Package clock is the time of the resident app's core: the wall clock in
// the app, a test's where a test needs one. Every timer and every reading
// of the time in the inbox, its features and the UI process's supervisor
// go through one Clock, so that one test double, or testing/synctest's
// bubble around the wall clock, moves them all.
package clock

import "time"

// Clock tells the time and runs timers.
type Clock interface {
	Now() time.Time
	// AfterFunc runs f in its own goroutine once d has passed.
	AfterFunc(d time.Duration, f func()) Timer
	// NewTicker ticks every d until stopped.
	NewTicker(d time.Duration) Ticker
}

// Timer is a timer of a Clock.
type Timer interface {
	// Stop prevents the timer from firing; it reports whether it did.
	Stop() bool
}

// Ticker is a ticker of a Clock.
type Ticker interface {
	C() <-chan time.Time
	Stop()
}

// Wall is the wall clock (package time).
var Wall Clock = wall{}

type wall struct{}

func (wall) Now() time.Time                            { return time.Now() }
func (wall) AfterFunc(d time.Duration, f func()) Timer { return time.AfterFunc(d, f) }
func (wall) NewTicker(d time.Duration) Ticker          { return wallTicker{time.NewTicker(d)} }

type wallTicker struct{ t *time.Ticker }

func (w wallTicker) C() <-chan time.Time { return w.t.C }
func (w wallTicker) Stop()               { w.t.Stop() }

// Or is c, or Wall when c is nil: the default of an option.
func Or(c Clock) Clock {
	if c == nil {
		return Wall
	}
	return c
}

// After returns a channel closed once d has passed on c, and the function
// that stops it (release the timer when the wait ends early). It is
// time.NewTimer for a select.
func After(c Clock, d time.Duration) (<-chan struct{}, func()) {
	ch := make(chan struct{})
	t := c.AfterFunc(d, func() { close(ch) })
	return ch, func() { t.Stop() }
}

// Since is the time passed on c since t.
func Since(c Clock, t time.Time) time.Duration { return c.Now().Sub(t) }
