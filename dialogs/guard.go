package dialogs

import "time"

// The input guard's state, free of any toolkit (the rules are told in
// keyguard.go, where the View feeds it Fyne's keys by their names).

// guardCueFor is how long the hint line says that a key was ignored.
const guardCueFor = 3 * time.Second

// keyGuard tracks which keys the window saw go down since it took the
// focus, and when, and answers whether a key, a shortcut or a click may
// act. Keys are named as the toolkit names them. Off (the zero value: a
// view without a window, as in tests), it allows everything and tracks
// nothing. Touched on one goroutine (the View's).
type keyGuard struct {
	on      bool // guarding
	delay   time.Duration
	until   time.Time       // keys that act are ignored before this
	down    map[string]bool // went down after the guard, not up since
	tainted map[string]bool // seen down during the guard: held from before
	cueTill time.Time       // the hint shows the cue until then; zero: not shown
	typed   func()          // a key went down in the window (place.go); nil: nothing to tell
}

// enable turns the guard on at now, with delay the time that the keys that
// act are ignored after each arm, and arms it.
func (g *keyGuard) enable(delay time.Duration, now time.Time) {
	g.on = true
	g.delay = max(delay, 0)
	g.arm(now)
}

// arm starts the guard at now: the window has just taken the focus. What
// was held before is unknown, so nothing counts as down. Off, it does
// nothing.
func (g *keyGuard) arm(now time.Time) {
	if !g.on {
		return
	}
	g.until = now.Add(g.delay)
	g.down = map[string]bool{}
	g.tainted = map[string]bool{}
}

// keyDown records that k went down in the window at now: during the guard
// (or while it was held from before) it is tainted until it goes up.
func (g *keyGuard) keyDown(k string, now time.Time) {
	if !g.on {
		return
	}
	if g.typed != nil {
		g.typed()
	}
	if g.down == nil {
		g.arm(time.Time{})
	}
	if now.Before(g.until) || g.tainted[k] {
		g.tainted[k] = true
		return
	}
	g.down[k] = true
}

// keyUp records that k went up.
func (g *keyGuard) keyUp(k string) {
	if !g.on {
		return
	}
	delete(g.down, k)
	delete(g.tainted, k)
}

// settled reports whether the time rule allows a key or click at now: the
// guard is off or its first moments have passed.
func (g *keyGuard) settled(now time.Time) bool { return !g.on || !now.Before(g.until) }

// allowsKey reports whether k, pressed now, may act. tracked is false while
// the focused widget does not report key presses: then only time counts.
func (g *keyGuard) allowsKey(k string, now time.Time, tracked bool) bool {
	if !g.on {
		return true
	}
	if now.Before(g.until) {
		return false
	}
	return !tracked || g.down[k]
}

// allowsChord reports whether the key k with its modifiers mods, typed now,
// may act: k and, for each modifier, one of its keys (left or right) went
// down in this window after the guard. tracked is as for allowsKey.
func (g *keyGuard) allowsChord(k string, mods [][2]string, now time.Time, tracked bool) bool {
	if !g.allowsKey(k, now, tracked) {
		return false
	}
	if !g.on || !tracked {
		return true
	}
	for _, m := range mods {
		if !g.down[m[0]] && !g.down[m[1]] {
			return false
		}
	}
	return true
}

// cue starts showing, at now, that a key was ignored.
func (g *keyGuard) cue(now time.Time) { g.cueTill = now.Add(guardCueFor) }

// cueOver reports, once, that the cue has been shown long enough at now.
func (g *keyGuard) cueOver(now time.Time) bool {
	if g.cueTill.IsZero() || now.Before(g.cueTill) {
		return false
	}
	g.cueTill = time.Time{}
	return true
}
