package dialogs

import (
	"testing"
	"time"
)

// The input guard's rules on their own: keys by name, the time given by
// the test, no toolkit, no view.

func TestKeyGuardRules(t *testing.T) {
	const ms = time.Millisecond
	ctrl := [2]string{"LeftControl", "RightControl"}
	type step struct {
		at        time.Duration // since t0
		do        string        // "arm", "down", "up", "key", "chord" (key with mods), "tap"
		key       string
		mods      [][2]string
		untracked bool // the focused widget reports no key presses
		want      bool // what "key", "chord" and "tap" report
	}
	repeat := []step{{0, "arm", "", nil, false, false}} // a key held from before, repeated by the X server
	for at := time.Duration(0); at <= 2*time.Second; at += 40 * ms {
		repeat = append(repeat, step{at: at, do: "down", key: "Return"}, step{at: at, do: "chord", key: "Return", mods: [][2]string{ctrl}})
	}
	repeat = append(repeat,
		step{at: 2100 * ms, do: "up", key: "Return"},
		step{at: 2200 * ms, do: "down", key: "LeftControl"},
		step{at: 2200 * ms, do: "down", key: "Return"},
		step{at: 2200 * ms, do: "chord", key: "Return", mods: [][2]string{ctrl}, want: true})
	for _, tc := range []struct {
		name  string
		delay time.Duration
		off   bool
		steps []step
	}{
		{name: "off, it allows everything", off: true, steps: []step{
			{0, "down", "Return", nil, false, false},
			{0, "key", "Escape", nil, false, true},
			{0, "chord", "Return", [][2]string{ctrl}, false, true},
			{0, "tap", "", nil, false, true},
		}},
		{name: "a key pressed during the guard counts only once released", delay: 600 * ms, steps: []step{
			{100 * ms, "down", "Return", nil, false, false},
			{100 * ms, "key", "Return", nil, false, false},
			{700 * ms, "key", "Return", nil, false, false},
			{700 * ms, "down", "Return", nil, false, false}, // still held: still refused
			{700 * ms, "key", "Return", nil, false, false},
			{800 * ms, "up", "Return", nil, false, false},
			{900 * ms, "down", "Return", nil, false, false},
			{900 * ms, "key", "Return", nil, false, true},
		}},
		{name: "a key held from before never acts", delay: 600 * ms, steps: repeat},
		{name: "a chord needs its modifier pressed in the window", delay: 600 * ms, steps: []step{
			{time.Second, "down", "Return", nil, false, false},
			{time.Second, "chord", "Return", [][2]string{ctrl}, false, false},
			{time.Second, "key", "Return", nil, false, true},
			{1100 * ms, "down", "RightControl", nil, false, false}, // either side's key
			{1100 * ms, "chord", "Return", [][2]string{ctrl}, false, true},
			{1200 * ms, "up", "RightControl", nil, false, false},
			{1200 * ms, "chord", "Return", [][2]string{ctrl}, false, false},
		}},
		{name: "untracked, time alone counts", delay: 600 * ms, steps: []step{
			{599 * ms, "key", "Return", nil, true, false},
			{599 * ms, "chord", "Return", [][2]string{ctrl}, true, false},
			{600 * ms, "key", "Return", nil, true, true},
			{600 * ms, "chord", "Return", [][2]string{ctrl}, true, true},
			{600 * ms, "key", "Return", nil, false, false}, // tracked: it never went down
		}},
		{name: "a click counts after the guard", delay: 600 * ms, steps: []step{
			{0, "tap", "", nil, false, false},
			{599 * ms, "tap", "", nil, false, false},
			{600 * ms, "tap", "", nil, false, true},
		}},
		{name: "taking the focus again forgets what went down", delay: 600 * ms, steps: []step{
			{time.Second, "down", "Escape", nil, false, false},
			{time.Second, "key", "Escape", nil, false, true},
			{2 * time.Second, "arm", "", nil, false, false},
			{2 * time.Second, "tap", "", nil, false, false},
			{3 * time.Second, "key", "Escape", nil, false, false},
			{3 * time.Second, "down", "Escape", nil, false, false},
			{3 * time.Second, "key", "Escape", nil, false, true},
		}},
		{name: "no delay, the key rule stays", delay: 0, steps: []step{
			{0, "tap", "", nil, false, true},
			{0, "key", "Escape", nil, false, false},
			{0, "down", "Escape", nil, false, false},
			{0, "key", "Escape", nil, false, true},
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var g keyGuard
			if !tc.off {
				g.enable(tc.delay, t0)
			}
			for i, s := range tc.steps {
				now := t0.Add(s.at)
				var got bool
				switch s.do {
				case "arm":
					g.arm(now, nil)
					continue
				case "down":
					g.keyDown(s.key, 0, now)
					continue
				case "up":
					g.keyUp(s.key, 0)
					continue
				case "key":
					got = g.allowsKey(s.key, now, !s.untracked)
				case "chord":
					got = g.allowsChord(s.key, s.mods, now, !s.untracked)
				case "tap":
					got = g.settled(now)
				default:
					t.Fatalf("step %d: no event %q", i, s.do)
				}
				if got != s.want {
					t.Fatalf("step %d (%s %s at %v): %v, want %v", i, s.do, s.key, s.at, got, s.want)
				}
			}
		})
	}
}

// A key going down tells the window (it was found) while the guard is on.
func TestKeyGuardTellsOfKeys(t *testing.T) {
	typed := 0
	g := keyGuard{typed: func() { typed++ }}
	g.keyDown("a", 0, t0)
	if typed != 0 {
		t.Fatal("the guard told of a key while off")
	}
	g.enable(600*time.Millisecond, t0)
	g.keyDown("a", 0, t0)
	g.keyDown("b", 0, t0.Add(time.Second))
	if typed != 2 {
		t.Errorf("told of %d keys, want 2", typed)
	}
}

// The cue that a key was ignored shows for guardCueFor, and says once that
// it is over.
func TestKeyGuardCue(t *testing.T) {
	var g keyGuard
	if g.cueOver(t0) {
		t.Fatal("a cue never shown is over")
	}
	g.cue(t0)
	if g.cueOver(t0.Add(guardCueFor - time.Millisecond)) {
		t.Fatal("the cue is over early")
	}
	if !g.cueOver(t0.Add(guardCueFor)) || g.cueOver(t0.Add(2*guardCueFor)) {
		t.Error("the cue is not over once, at guardCueFor")
	}
}
