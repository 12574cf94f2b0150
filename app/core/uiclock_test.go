package core

import (
	"sync"
	"testing"
	"time"
)

// fakeClock is a uiClock that moves only when the test says (Advance). It
// starts at the wall clock's time, so deadlines the test computes from its
// Now compare with those a UI process reports.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	timers []*fakeTimer
}

// fakeTimer is an AfterFunc timer (f set) or a ticker (every set) of a
// fakeClock.
type fakeTimer struct {
	c       *fakeClock
	at      time.Time
	f       func()
	every   time.Duration
	ch      chan time.Time
	stopped bool // stopped, or an AfterFunc timer that fired
}

func newFakeClock() *fakeClock { return &fakeClock{now: time.Now()} }

// useFakeClock gives u a fake clock; before u's first call.
func useFakeClock(u *UIProcess) *fakeClock {
	c := newFakeClock()
	u.clock = c
	return c
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

// AfterFunc arms f to run once the clock has moved d on: by the next
// Advance, Advance(0) for d <= 0 (time.AfterFunc would run that at once;
// here nothing runs behind the test's back, so that "nothing started" can
// be checked).
func (c *fakeClock) AfterFunc(d time.Duration, f func()) uiTimer {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(max(d, 0)), f: f}
	c.timers = append(c.timers, t)
	return t
}

func (c *fakeClock) NewTicker(d time.Duration) uiTicker {
	c.mu.Lock()
	defer c.mu.Unlock()
	t := &fakeTimer{c: c, at: c.now.Add(d), every: d, ch: make(chan time.Time, 1)}
	c.timers = append(c.timers, t)
	return fakeTicker{t}
}

// fakeTicker is a ticker's face of a fakeTimer.
type fakeTicker struct{ t *fakeTimer }

func (k fakeTicker) C() <-chan time.Time { return k.t.ch }
func (k fakeTicker) Stop()               { k.t.Stop() }

func (t *fakeTimer) Stop() bool {
	t.c.mu.Lock()
	defer t.c.mu.Unlock()
	was := !t.stopped
	t.stopped = true
	return was
}

// Advance moves the clock d on, firing what falls due in time order: an
// AfterFunc's f runs before Advance returns (on the caller's goroutine: the
// test holds none of u's locks), a ticker ticks (dropped while its last
// tick is unread, as time.Ticker's).
func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	end := c.now.Add(d)
	for {
		var next *fakeTimer
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

// armed reports whether a timer or ticker is armed to fire at at.
func (c *fakeClock) armed(at time.Time) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, t := range c.timers {
		if !t.stopped && t.at.Equal(at) {
			return true
		}
	}
	return false
}

// tickers counts the running tickers.
func (c *fakeClock) tickers() int {
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

// waitArmed waits until a timer is armed to fire at at: the supervisor has
// taken in what the UI process reported (on its own goroutine).
func (c *fakeClock) waitArmed(t *testing.T, at time.Time, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !c.armed(at); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no timer armed for %s (%v)", what, at)
		}
	}
}

// The fake clock fires what falls due, in order, and nothing early.
func TestFakeClock(t *testing.T) {
	c := newFakeClock()
	var got []string
	c.AfterFunc(2*time.Second, func() { got = append(got, "2s") })
	c.AfterFunc(time.Second, func() { got = append(got, "1s") })
	stopped := c.AfterFunc(time.Second, func() { got = append(got, "stopped") })
	stopped.Stop()
	tk := c.NewTicker(500 * time.Millisecond)
	c.Advance(999 * time.Millisecond)
	if len(got) != 0 {
		t.Fatalf("fired early: %v", got)
	}
	if len(tk.C()) != 1 {
		t.Fatal("the ticker did not tick")
	}
	<-tk.C()
	c.Advance(2 * time.Second)
	if len(got) != 2 || got[0] != "1s" || got[1] != "2s" {
		t.Errorf("fired %v, want [1s 2s]", got)
	}
}
