package dialogs

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"feedback/wire"
)

// The countdown on its own, with the time given by the test: no toolkit,
// no clock.

func TestCountdownRunsToItsDeadline(t *testing.T) {
	c := NewCountdown(t0.Add(90 * time.Second))
	if !c.On() || !c.Running() || c.Held() || c.Pinned() {
		t.Fatalf("fresh countdown: on %v running %v held %v pinned %v", c.On(), c.Running(), c.Held(), c.Pinned())
	}
	for _, tc := range []struct {
		at      time.Duration
		text    string
		warning bool
		expired bool
	}{
		{0, "1:30 left", false, false},
		{30 * time.Second, "1:00 left", false, false},
		{31 * time.Second, "0:59 left · closes soon", true, false},
		{30*time.Second + 400*time.Millisecond, "1:00 left", false, false}, // rounded: words and colour agree
		{89 * time.Second, "0:01 left · closes soon", true, false},
		{90 * time.Second, "Time is up — closing", true, true},
		{time.Hour, "Time is up — closing", true, true},
	} {
		now := t0.Add(tc.at)
		if got := c.Text(now); got != tc.text {
			t.Errorf("at %v: text %q, want %q", tc.at, got, tc.text)
		}
		if got := c.Warning(now); got != tc.warning {
			t.Errorf("at %v: warning %v, want %v", tc.at, got, tc.warning)
		}
		if got := c.Expired(now); got != tc.expired {
			t.Errorf("at %v: expired %v, want %v", tc.at, got, tc.expired)
		}
	}
	if got := c.Left(t0.Add(80 * time.Second)); got != 10*time.Second {
		t.Errorf("left at 80 s = %v, want 10s", got)
	}
	if got := c.Left(t0.Add(time.Hour)); got != 0 {
		t.Errorf("left past the deadline = %v, want 0", got)
	}
	if got := NewCountdown(t0.Add(3 * time.Hour)).Text(t0); got != "3:00:00 left" {
		t.Errorf("three hours: %q", got)
	}
}

func TestCountdownNone(t *testing.T) {
	var c Countdown
	if c.On() || c.Running() || c.Expired(t0.Add(1000*time.Hour)) || c.Warning(t0) {
		t.Error("the zero countdown counts")
	}
	if c.Extend(time.Minute) || c.Hold() || c.CanPin() || c.TogglePin(t0, time.Minute) {
		t.Error("the zero countdown was extended, held or pinned")
	}
	if got := c.Text(t0); got != "No time limit" {
		t.Errorf("text %q", got)
	}
	if c.State() != (wire.Countdown{}) || NewCountdown(time.Time{}).On() {
		t.Error("no countdown is not the zero state")
	}
}

func TestCountdownExtend(t *testing.T) {
	c := NewCountdown(t0.Add(30 * time.Second))
	now := t0.Add(20 * time.Second)
	if !c.Warning(now) {
		t.Fatal("10 s left does not warn")
	}
	if !c.Extend(5 * time.Minute) {
		t.Fatal("not extended")
	}
	if c.Warning(now) || c.Expired(t0.Add(time.Minute)) {
		t.Error("still warning, or expired at the old deadline")
	}
	if got := c.Text(now); got != "5:10 left" {
		t.Errorf("text %q, want 5:10 left", got)
	}
	if c.Extend(0) || c.Extend(-time.Second) {
		t.Error("extended by nothing")
	}
}

// An edit holds the countdown for good: it never expires, cannot be
// extended or pinned, and says so.
func TestCountdownHold(t *testing.T) {
	c := NewCountdown(t0.Add(10 * time.Second))
	if !c.Hold() || c.Hold() {
		t.Fatal("Hold reports no change the first time, or a change the second")
	}
	if c.Running() || c.Expired(t0.Add(time.Hour)) || c.Warning(t0.Add(9*time.Second)) {
		t.Error("a held countdown runs, expires or warns")
	}
	if c.Extend(time.Minute) || c.CanPin() || c.TogglePin(t0, time.Minute) {
		t.Error("a held countdown was extended or pinned")
	}
	if got := c.Text(t0); got != "Countdown held" {
		t.Errorf("text %q", got)
	}
}

// Pinning removes the deadline; unpinning gives back what was left.
func TestCountdownPin(t *testing.T) {
	c := NewCountdown(t0.Add(60 * time.Second))
	if !c.TogglePin(t0.Add(20*time.Second), time.Minute) || !c.Pinned() || c.Running() {
		t.Fatal("not pinned")
	}
	if c.Expired(t0.Add(1000*time.Hour)) || c.Extend(time.Minute) {
		t.Error("a pinned countdown expired or was extended")
	}
	if got := c.Text(t0); got != "Pinned · no time limit" {
		t.Errorf("text %q", got)
	}
	later := t0.Add(2 * time.Hour)
	if !c.TogglePin(later, time.Minute) || c.Pinned() || !c.Running() {
		t.Fatal("not unpinned")
	}
	if got := c.Left(later); got != 40*time.Second {
		t.Errorf("left after unpinning = %v, want the 40s that were left", got)
	}
	if !c.Expired(later.Add(40 * time.Second)) {
		t.Error("not expired 40 s after unpinning")
	}
}

// The state carries a countdown across a restart, each kind of it, and
// through JSON.
func TestCountdownState(t *testing.T) {
	running := NewCountdown(t0.Add(time.Minute))
	held := NewCountdown(t0.Add(time.Minute))
	held.Hold()
	pinned := NewCountdown(t0.Add(time.Minute))
	pinned.TogglePin(t0.Add(15*time.Second), time.Hour)
	for _, tc := range []struct {
		name string
		c    Countdown
		want wire.Countdown
	}{
		{"none", Countdown{}, wire.Countdown{}},
		{"running", running, wire.Countdown{Deadline: t0.Add(time.Minute)}},
		{"held", held, wire.Countdown{Deadline: t0.Add(time.Minute), Held: true}},
		{"pinned", pinned, wire.Countdown{Deadline: t0.Add(time.Minute), Pinned: true, Left: 45 * time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.c.State()
			if s != tc.want {
				t.Fatalf("state %+v, want %+v", s, tc.want)
			}
			data, err := json.Marshal(s)
			if err != nil {
				t.Fatal(err)
			}
			var back wire.Countdown
			if err := json.Unmarshal(data, &back); err != nil || !back.Deadline.Equal(s.Deadline) || back.Held != s.Held || back.Pinned != s.Pinned || back.Left != s.Left {
				t.Fatalf("through JSON %s: %+v, %v", data, back, err)
			}
			r := RestoreCountdown(s)
			if !reflect.DeepEqual(r, tc.c) {
				t.Errorf("restored %+v, want %+v", r, tc.c)
			}
		})
	}
	// A pinned state saved without what was left gives back the whole
	// time limit on unpin, never an instant timeout.
	c := RestoreCountdown(wire.Countdown{Pinned: true})
	if !c.On() || !c.Pinned() {
		t.Fatal("a pinned state without a deadline is no countdown")
	}
	c.TogglePin(t0, 10*time.Minute)
	if got := c.Left(t0); got != 10*time.Minute {
		t.Errorf("left after unpinning = %v, want the whole 10m0s", got)
	}
	// A held state without a deadline is a held countdown.
	if h := RestoreCountdown(wire.Countdown{Held: true}); !h.On() || h.Text(t0) != "Countdown held" {
		t.Errorf("held state restored as %+v", h)
	}
}
