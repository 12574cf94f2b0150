package dialogs

import (
	"encoding/json"
	"reflect"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// The countdown on its own, with the time given by the test: no toolkit,
// no clock.

// t0 is when every test's clock starts (here, so that the state types'
// tests build without the rest of the package: TestStateIsToolkitFree).
var t0 = time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)

func TestCountdownRunsToItsDeadline(t *testing.T) {
	c := NewCountdown(t0, 90*time.Second)
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
	if got := NewCountdown(t0, 3*time.Hour).Text(t0); got != "3:00:00 left" {
		t.Errorf("three hours: %q", got)
	}
}

func TestCountdownNone(t *testing.T) {
	var c Countdown
	if c.On() || c.Running() || c.Expired(t0.Add(1000*time.Hour)) || c.Warning(t0) {
		t.Error("the zero countdown counts")
	}
	if c.Extend(time.Minute) || c.Hold() || c.CanPin() || c.TogglePin(t0) {
		t.Error("the zero countdown was extended, held or pinned")
	}
	if got := c.Text(t0); got != "No time limit" {
		t.Errorf("text %q", got)
	}
	if c.State() != (wire.Countdown{}) || NewCountdown(t0, 0).On() {
		t.Error("no countdown is not the zero state")
	}
}

func TestCountdownExtend(t *testing.T) {
	c := NewCountdown(t0, 30*time.Second)
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
	c := NewCountdown(t0, 10*time.Second)
	if !c.Hold() || c.Hold() {
		t.Fatal("Hold reports no change the first time, or a change the second")
	}
	if c.Running() || c.Expired(t0.Add(time.Hour)) || c.Warning(t0.Add(9*time.Second)) {
		t.Error("a held countdown runs, expires or warns")
	}
	if c.Extend(time.Minute) || c.CanPin() || c.TogglePin(t0) {
		t.Error("a held countdown was extended or pinned")
	}
	if got := c.Text(t0); got != "Countdown held" {
		t.Errorf("text %q", got)
	}
}

// Pinning removes the deadline; unpinning gives back what was left.
func TestCountdownPin(t *testing.T) {
	c := NewCountdown(t0, 60*time.Second)
	if !c.TogglePin(t0.Add(20*time.Second)) || !c.Pinned() || c.Running() {
		t.Fatal("not pinned")
	}
	if c.Expired(t0.Add(1000*time.Hour)) || c.Extend(time.Minute) {
		t.Error("a pinned countdown expired or was extended")
	}
	if got := c.Text(t0); got != "Pinned · no time limit" {
		t.Errorf("text %q", got)
	}
	later := t0.Add(2 * time.Hour)
	if !c.TogglePin(later) || c.Pinned() || !c.Running() {
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
	running := NewCountdown(t0, time.Minute)
	held := NewCountdown(t0, time.Minute)
	held.Hold()
	pinned := NewCountdown(t0, time.Minute)
	pinned.TogglePin(t0.Add(15 * time.Second))
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
			r := RestoreCountdown(s, time.Minute)
			if !reflect.DeepEqual(r, tc.c) {
				t.Errorf("restored %+v, want %+v", r, tc.c)
			}
		})
	}
	// A pinned state saved without what was left gives back the whole
	// time limit on unpin, never an instant timeout.
	c := RestoreCountdown(wire.Countdown{Pinned: true}, 10*time.Minute)
	if !c.On() || !c.Pinned() {
		t.Fatal("a pinned state without a deadline is no countdown")
	}
	c.TogglePin(t0)
	if got := c.Left(t0); got != 10*time.Minute {
		t.Errorf("left after unpinning = %v, want the whole 10m0s", got)
	}
	// A held state without a deadline is a held countdown.
	if h := RestoreCountdown(wire.Countdown{Held: true}, time.Minute); !h.On() || h.Text(t0) != "Countdown held" {
		t.Errorf("held state restored as %+v", h)
	}
}

// The countdown's transitions, step by step: what each event does (ok) and
// what the countdown says after it.
func TestCountdownTransitions(t *testing.T) {
	type step struct {
		at   time.Duration // since t0
		do   string        // "pin", "hold", "extend" (a minute), "urge", "expire", "" (nothing)
		ok   bool          // what the event reports
		text string        // what the countdown says after it
	}
	events := map[string]func(c *Countdown, now time.Time) bool{
		"":       func(_ *Countdown, _ time.Time) bool { return false },
		"pin":    func(c *Countdown, now time.Time) bool { return c.TogglePin(now) },
		"hold":   func(c *Countdown, _ time.Time) bool { return c.Hold() },
		"extend": func(c *Countdown, _ time.Time) bool { return c.Extend(time.Minute) },
		"urge":   func(c *Countdown, now time.Time) bool { return c.Urge(now) },
		"expire": func(c *Countdown, now time.Time) bool { return c.Expire(now) },
	}
	for _, tc := range []struct {
		name  string
		limit time.Duration
		steps []step
	}{
		{"running, pinned, resumed, then zero", 2 * time.Minute, []step{
			{0, "", false, "2:00 left"},
			{0, "urge", false, "2:00 left"},
			{30 * time.Second, "pin", true, "Pinned · no time limit"},
			{time.Hour, "expire", false, "Pinned · no time limit"},
			{time.Hour, "urge", false, "Pinned · no time limit"},
			{time.Hour, "pin", true, "1:30 left"}, // what was left when pinned
			{time.Hour + 31*time.Second, "urge", true, "0:59 left · closes soon"},
			{time.Hour + 40*time.Second, "urge", false, "0:50 left · closes soon"}, // once
			{time.Hour + 89*time.Second, "expire", false, "0:01 left · closes soon"},
			{time.Hour + 90*time.Second, "expire", true, "Time is up — closing"},
			{time.Hour + 91*time.Second, "expire", false, "Time is up — closing"}, // once
			{time.Hour + 91*time.Second, "extend", false, "Time is up — closing"},
			{time.Hour + 91*time.Second, "pin", false, "Time is up — closing"},
			{time.Hour + 91*time.Second, "hold", false, "Time is up — closing"},
		}},
		{"held on edit, for good", time.Minute, []step{
			{10 * time.Second, "hold", true, "Countdown held"},
			{10 * time.Second, "hold", false, "Countdown held"},
			{20 * time.Second, "pin", false, "Countdown held"},
			{20 * time.Second, "extend", false, "Countdown held"},
			{50 * time.Second, "urge", false, "Countdown held"},
			{time.Hour, "expire", false, "Countdown held"},
		}},
		{"pinned, then held on edit", time.Minute, []step{
			{10 * time.Second, "pin", true, "Pinned · no time limit"},
			{20 * time.Second, "hold", true, "Countdown held"},
			{30 * time.Second, "pin", false, "Countdown held"},
			{time.Hour, "expire", false, "Countdown held"},
		}},
		{"extended in the last minute", 30 * time.Second, []step{
			{20 * time.Second, "urge", true, "0:10 left · closes soon"},
			{20 * time.Second, "extend", true, "1:10 left"},
			{30 * time.Second, "expire", false, "1:00 left"},
			{60 * time.Second, "urge", false, "0:30 left · closes soon"}, // asked once already
			{90 * time.Second, "expire", true, "Time is up — closing"},
		}},
		{"none", 0, []step{
			{0, "", false, "No time limit"},
			{0, "pin", false, "No time limit"},
			{0, "hold", false, "No time limit"},
			{0, "extend", false, "No time limit"},
			{time.Hour, "urge", false, "No time limit"},
			{time.Hour, "expire", false, "No time limit"},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := NewCountdown(t0, tc.limit)
			for i, s := range tc.steps {
				now := t0.Add(s.at)
				if got := events[s.do](&c, now); got != s.ok {
					t.Fatalf("step %d (%q at %v) reported %v, want %v", i, s.do, s.at, got, s.ok)
				}
				if got := c.Text(now); got != s.text {
					t.Fatalf("step %d (%q at %v): text %q, want %q", i, s.do, s.at, got, s.text)
				}
			}
		})
	}
}

func TestTimeLimit(t *testing.T) {
	for _, tc := range []struct {
		seconds int
		def     time.Duration
		want    time.Duration
	}{
		{90, time.Hour, 90 * time.Second},
		{0, time.Hour, time.Hour},
		{0, 0, 0},
		{0, -time.Second, 0},
		{-1, time.Hour, 0}, // the question asked for none
	} {
		if got := TimeLimit(tc.seconds, tc.def); got != tc.want {
			t.Errorf("TimeLimit(%d, %v) = %v, want %v", tc.seconds, tc.def, got, tc.want)
		}
	}
}
