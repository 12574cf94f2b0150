//go:build !windows && !darwin && !js && !plan9

// Package xgrab holds a global shortcut (hotkey.Shortcut) on an X11
// server: a passive grab of the chord on the root window, over a
// connection of the caller's (package dialogs' native side holds it while
// a question is open; doctor probes whether the desktop lets an
// application have it). Pure Go (github.com/jezek/xgb).
package xgrab

import (
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"

	"feedback/internal/hotkey"
)

// Grab is a chord held on an X root window (Take).
type Grab struct {
	Keycode xproto.Keycode
	Mods    uint16 // the X modifier mask the chord is pressed with
}

// The X modifier masks of hotkey.Mod, and those that Take ignores: Caps Lock and
// Num Lock change nothing of a shortcut.
const (
	xShift = xproto.ModMaskShift
	xLock  = xproto.ModMaskLock
	xCtrl  = xproto.ModMaskControl
	xAlt   = xproto.ModMask1
	xNum   = xproto.ModMask2
	xSuper = xproto.ModMask4
)

func xmods(m hotkey.Mod) uint16 {
	var x uint16
	for _, p := range []struct {
		m hotkey.Mod
		x uint16
	}{{hotkey.Ctrl, xCtrl}, {hotkey.Alt, xAlt}, {hotkey.Shift, xShift}, {hotkey.Super, xSuper}} {
		if m&p.m != 0 {
			x |= p.x
		}
	}
	return x
}

// lockVariants are the lock states a grab is repeated for.
var lockVariants = []uint16{0, xLock, xNum, xLock | xNum}

// Take asks the X server, over c, to send every press of sc to c,
// whichever window has the focus (a passive grab on root, for each state
// of Caps Lock and Num Lock). The presses arrive on c as
// xproto.KeyPressEvent; Matches tells them. ErrTaken when another client
// holds the chord (nothing is held then).
func Take(c *xgb.Conn, root xproto.Window, sc hotkey.Shortcut) (Grab, error) {
	kc, err := keycodeOf(c, sc.Keysym())
	if err != nil {
		return Grab{}, err
	}
	g := Grab{Keycode: kc, Mods: xmods(sc.Mods)}
	for i, lock := range lockVariants {
		err := xproto.GrabKeyChecked(c, true, root, g.Mods|lock, kc, xproto.GrabModeAsync, xproto.GrabModeAsync).Check()
		if err == nil {
			continue
		}
		for _, l := range lockVariants[:i] {
			xproto.UngrabKey(c, kc, root, g.Mods|l)
		}
		if _, ok := err.(xproto.AccessError); ok {
			return Grab{}, ErrTaken
		}
		return Grab{}, err
	}
	return g, nil
}

// Release lets the chord go.
func (g Grab) Release(c *xgb.Conn, root xproto.Window) {
	for _, lock := range lockVariants {
		xproto.UngrabKey(c, g.Keycode, root, g.Mods|lock)
	}
	c.Sync()
}

// Matches reports whether ev is a press of the grabbed chord.
func (g Grab) Matches(ev xproto.KeyPressEvent) bool {
	return ev.Detail == g.Keycode && ev.State&^(xLock|xNum) == g.Mods
}

// keycodeOf is the first key of the layout whose unshifted or shifted
// symbol is sym.
func keycodeOf(c *xgb.Conn, sym uint32) (xproto.Keycode, error) {
	setup := xproto.Setup(c)
	n := byte(setup.MaxKeycode - setup.MinKeycode + 1)
	m, err := xproto.GetKeyboardMapping(c, setup.MinKeycode, n).Reply()
	if err != nil {
		return 0, err
	}
	per := int(m.KeysymsPerKeycode)
	for i := 0; i < int(n); i++ {
		for j := 0; j < min(per, 2); j++ {
			if uint32(m.Keysyms[i*per+j]) == sym {
				return setup.MinKeycode + xproto.Keycode(i), nil
			}
		}
	}
	return 0, ErrNoKey
}

// dialTimeout bounds Probe's connection (xgb's dial has none).
const dialTimeout = 2 * time.Second

// Probe reports whether the X server of $DISPLAY lets an application hold
// sc: it takes the chord on a connection of its own and lets it go.
// ErrTaken when another client holds it.
func Probe(sc hotkey.Shortcut) error {
	if os.Getenv("DISPLAY") == "" {
		return errors.New("no X11 display (DISPLAY is not set)")
	}
	type dialed struct {
		c   *xgb.Conn
		err error
	}
	done := make(chan dialed, 1)
	go func() {
		c, err := xgb.NewConn()
		done <- dialed{c, err}
	}()
	var d dialed
	select {
	case d = <-done:
	case <-time.After(dialTimeout):
		go func() {
			if d := <-done; d.c != nil {
				d.c.Close()
			}
		}()
		return fmt.Errorf("the X server of DISPLAY=%s does not answer", os.Getenv("DISPLAY"))
	}
	if d.err != nil {
		return d.err
	}
	defer d.c.Close()
	root := xproto.Setup(d.c).DefaultScreen(d.c).Root
	g, err := Take(d.c, root, sc)
	if err != nil {
		return err
	}
	g.Release(d.c, root)
	return nil
}
