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
	tainted map[string]bool // seen down during the guard, or held from before: refused until seen up
	held    map[int]bool    // the scancodes down when the guard was armed, not seen up since
	cueTill time.Time       // the hint shows the cue until then; zero: not shown
	typed   func()          // a key went down in the window (place.go); nil: nothing to tell
}

// enable turns the guard on at now, with delay the time that the keys that
// act are ignored after each arm, and arms it.
func (g *keyGuard) enable(delay time.Duration, now time.Time) {
	g.on = true
	g.delay = max(delay, 0)
	g.arm(now, nil)
}

// arm starts the guard at now: the window has just taken the focus.
// Nothing counts as down; held are the scancodes of the keys the window
// system says are down now (nil: unknown), which never act until they
// are seen going up. Off, it does nothing.
func (g *keyGuard) arm(now time.Time, held []int) {
	if !g.on {
		return
	}
	g.until = now.Add(g.delay)
	g.down = map[string]bool{}
	g.tainted = map[string]bool{}
	g.held = map[int]bool{}
	for _, c := range held {
		g.held[c] = true
	}
}

// keyDown records that k (scancode code; 0: unknown) went down in the
// window at now. A key held since before the guard was armed (the window
// system said so), pressed during the guard, or held from before (the
// first repeat of a held key arrives as a press: GLFW forgets the keys
// held when a window loses the focus) is tainted until it goes up.
func (g *keyGuard) keyDown(k string, code int, now time.Time) {
	if !g.on {
		return
	}
	if g.typed != nil {
		g.typed()
	}
	if g.down == nil {
		g.arm(time.Time{}, nil)
	}
	if code != 0 && g.held[code] || now.Before(g.until) || g.tainted[k] {
		g.tainted[k] = true
		return
	}
	g.down[k] = true
}

// wrote records that the user's typing put text into the window at now:
// they are at work in it, and the time rule ends there. Its clock is the
// toolkit's, which reads the keys late when the window was busy (a heavy
// question drawn as the user came to it): the text typed after a click and
// the Ctrl+Enter after it were read in one burst, all "within" the guard,
// and the Ctrl+Enter was refused.
func (g *keyGuard) wrote(now time.Time) {
	if g.on && now.Before(g.until) {
		g.until = now
	}
}

// holdsFromBefore reports whether keys the window system said were held
// as the guard was armed have not been seen going up.
func (g *keyGuard) holdsFromBefore() bool { return len(g.held) > 0 }

// stillHeld narrows the keys held from before to those of down, the keys
// the window system says are down now: a key let go unseen by the window
// (its release went to the window that had the keyboard a moment before)
// is no longer held from before, and its next press is the user's.
func (g *keyGuard) stillHeld(down []int) {
	now := make(map[int]bool, len(down))
	for _, c := range down {
		now[c] = true
	}
	for c := range g.held {
		if !now[c] {
			delete(g.held, c)
		}
	}
}

// keyUp records that k (scancode code) went up.
func (g *keyGuard) keyUp(k string, code int) {
	if !g.on {
		return
	}
	delete(g.down, k)
	delete(g.tainted, k)
	delete(g.held, code)
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
