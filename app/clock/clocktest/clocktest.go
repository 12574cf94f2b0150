// Package clocktest is a clock.Clock that moves only when a test says so
// (Advance): timers fire in time order, nothing early and nothing behind
// the test's back.
package clocktest

import (
	"sync"
	"testing"
	"time"

	"feedback/app/clock"
)

// Clock is a clock.Clock that moves only when the test says (Advance). It
// starts at the wall clock's time, so deadlines the test computes from its
// Now compare with those a UI process reports.
type Clock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*timer
}

// timer is an AfterFunc timer (f set) or a ticker (every set) of a Clock.
type timer struct {
	c       *Clock
	at      time.Time
	f       func()
	every   time.Duration
	ch      chan time.Time
	stopped bool // stopped, or an AfterFunc timer that fired
}

var _ clock.Clock = (*Clock)(nil)

// New returns a Clock that reads the wall clock's time now.
func New() *Clock { return &Clock{now: time.Now()} }

// Now implements clock.Clock.
func (c *Clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc arms f to run once the clock has moved d on: by the next
// Advance, Advance(0) for d <= 0 (time.AfterFunc would run that at once;
// here nothing runs behind the test's back, so that "nothing started" can
// be checked).
func (c *Clock) AfterFunc(d time.Duration, f func()) clock.Timer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, at: c.now.Add(max(d, 0)), f: f}
	c.timers = append(c.timers, t)
	return t
}

// NewTicker implements clock.Clock.
func (c *Clock) NewTicker(d time.Duration) clock.Ticker {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &timer{c: c, at: c.now.Add(d), every: d, ch: make(chan time.Time, 1)}
	c.timers = append(c.timers, t)
	return ticker{t}
}

// ticker is a ticker's face of a timer.
type ticker struct{ t *timer }

func (k ticker) C() <-chan time.Time { return k.t.ch }
func (k ticker) Stop()               { k.t.Stop() }

func (t *timer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	return was
}

// Advance moves the clock d on, firing what falls due in time order: an
// AfterFunc's f runs before Advance returns (on the caller's goroutine: the
// test holds none of the code's locks), a ticker ticks (dropped while its
// last tick is unread, as time.Ticker's).
func (c *Clock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	for {
		var next *timer
		for _, t := range c.timers {
			if !t.stopped && !t.at.After(end) && (next == nil || t.at.Before(next.at)) {
				next = t
			}
		}
		if next == nil {
			break
		}
		c.now = next.at
		if next.every > 0 {
			next.at = next.at.Add(next.every)
			select {
			case next.ch <- c.now:
			default:
			}
			continue
		}
		next.stopped = true
		c.mu.Unlock()
		next.f()
		c.mu.Lock()
	}
	c.now = end
	c.mu.Unlock()
}

// Armed reports whether a timer or ticker is armed to fire at at.
func (c *Clock) Armed(at time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.timers {
		if !t.stopped && t.at.Equal(at) {
			return true
		}
	}
	return false
}

// Tickers counts the running tickers.
func (c *Clock) Tickers() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	n := 0
	for _, t := range c.timers {
		if !t.stopped && t.every > 0 {
			n++
		}
	}
	return n
}

// WaitArmed waits until a timer is armed to fire at at: the code under test
// has taken in what it was told (on a goroutine of its own).
func (c *Clock) WaitArmed(t testing.TB, at time.Time, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !c.Armed(at); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no timer armed for %s (%v)", what, at)
		}
	}
}
