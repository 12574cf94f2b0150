package dialogs

import (
	"errors"
	"time"

	"fyne.io/fyne/v2"

	"feedback/internal/hotkey"
)

// The global shortcut (Settings' focus_shortcut, hotkey.Default unless the
// user changed it) brings the keyboard to a waiting question from any
// application: the act of the user that a question window waits for
// (place.go). It is held for the whole desktop only while a question is
// open, so that the rest of the time the chord is the other applications'
// (and a paused UI process swallows no key). Where the desktop gives an
// application no such shortcut (Wayland, another program holds the
// chord), the windows say "Click to answer" instead, and `feedback doctor`
// says why.

// shortcutHold is the pool's global shortcut and whether it is held.
type shortcutHold struct {
	sc      hotkey.Shortcut
	set     bool      // sc is one: the user did not turn it off
	release func()    // non-nil while held
	failed  error     // why the desktop refused the last hold; nil when it did not
	retryAt time.Time // the next try while the connection comes up
}

// SetShortcut sets the global shortcut that brings a waiting question,
// written as hotkey.Parse reads it ("" turns it off). It is held at once
// while a question is open. An error for a shortcut that cannot be read;
// the one in use is kept then.
func (p *Pool) SetShortcut(s string) error {
	sc, ok, err := hotkey.Parse(s)
	if err != nil {
		return err
	}
	h := &p.bringKeys
	if h.set == ok && h.sc == sc {
		return nil
	}
	if h.release != nil {
		h.release()
		h.release = nil
	}
	h.sc, h.set, h.failed = sc, ok, nil
	p.holdShortcut()
	for _, s := range p.open {
		if w := s.live(); w != nil {
			w.view.SetWaiting(w.view.Waiting(), p.bringHint())
		}
	}
	return nil
}

// errNotYet: the window system's connection is not up yet; the hold is
// tried again on the windows' heartbeat.
var errNotYet = errors.New("not ready yet")

// retryHoldEvery spaces the tries to hold the shortcut while the window
// system's connection comes up.
const retryHoldEvery = 200 * time.Millisecond

// holdShortcut holds the shortcut while a question is open and lets it go
// when none is. A hold the desktop refused is not tried again until the
// shortcut changes; one tried before the connection was up is tried again
// (the windows' heartbeat calls this). Once held, the waiting windows
// name it.
func (p *Pool) holdShortcut() {
	h := &p.bringKeys
	switch open := len(p.open) > 0; {
	case open && h.set && h.release == nil && h.failed == nil:
		now := time.Now()
		if now.Before(h.retryAt) {
			return
		}
		release, err := desk.holdShortcut(h.sc, func(at uint32) {
			fyne.Do(func() { p.bring(at) })
		})
		if errors.Is(err, errNotYet) {
			h.retryAt = now.Add(retryHoldEvery)
			return
		}
		if err != nil {
			h.failed = err
			p.log().Warn("the shortcut that brings a question is not available: click the window, or use the tray or the notification",
				"shortcut", h.sc.String(), "err", err)
			return
		}
		h.release = release
		for _, s := range p.open {
			if w := s.live(); w != nil && w.view.Waiting() {
				w.view.SetWaiting(true, p.bringHint())
			}
		}
	case !open && h.release != nil:
		h.release()
		h.release = nil
	}
}

// bringHint is the shortcut as a window names it while it is held, or ""
// (the windows say a click brings them).
func (p *Pool) bringHint() string {
	if h := &p.bringKeys; h.release != nil {
		return h.sc.String()
	}
	return ""
}

// bring gives the keyboard to a question at the user's press of the
// global shortcut at the window system's time at: from a question window,
// to the next open one (as Ctrl+PageDown); from elsewhere, to the one that
// has waited longest for the user (opened without the keyboard, not come
// to yet), else to the first open.
func (p *Pool) bring(at uint32) {
	if len(p.open) == 0 {
		return
	}
	var to *Window
	if s := p.typing(); s != nil {
		i := 0
		for j, o := range p.open {
			if o == s {
				i = j
			}
		}
		to = p.open[(i+1)%len(p.open)].live()
	} else {
		for _, s := range p.open {
			if w := s.live(); w != nil && w.unfocused {
				to = w
				break
			}
		}
		if to == nil {
			to = p.open[0].live()
		}
	}
	if to != nil {
		to.focusAt(at)
	}
}

// heldKeys are the scancodes of the keys held down now, as the window
// system tells them; nil when it cannot.
func heldKeys() []int {
	codes, ok := desk.keysDown()
	if !ok {
		return nil
	}
	held := make([]int, len(codes))
	for i, c := range codes {
		held[i] = int(c)
	}
	return held
}
