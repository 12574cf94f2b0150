// Package hotkey is the global shortcut that brings the keyboard to a
// waiting question: its written form ("Ctrl+Alt+F"), parsed and checked,
// with no toolkit and no I/O (the settings check it; package xgrab holds
// it on X11).
package hotkey

import (
	"errors"
	"fmt"
	"strings"
)

// Default is the shortcut of a fresh install: rarely bound by desktops and
// terminals (Ctrl+Alt+F1…F12 switch consoles; F alone is a letter).
const Default = "Ctrl+Alt+F"

// Mod is a set of modifiers.
type Mod uint8

// The modifiers a shortcut may hold.
const (
	Ctrl Mod = 1 << iota
	Alt
	Shift
	Super
)

// Shortcut is a parsed chord: modifiers and one key.
type Shortcut struct {
	Mods Mod
	// Key is the key's canonical name: "A"…"Z", "0"…"9", "F1"…"F12",
	// "Space".
	Key string
}

// ErrNoModifier: a shortcut that every application sees must not be a
// plain key the user types.
var ErrNoModifier = errors.New("needs Ctrl, Alt or Super with the key, so that typing never triggers it")

// Parse reads a shortcut written as modifiers and a key joined by "+",
// in any case ("ctrl+alt+f", "Super+Shift+Space"). "" is no shortcut (ok
// false, no error). A modifier alone, an unknown key, a repeated modifier
// or a chord with Shift alone are refused with what to write instead.
func Parse(s string) (sc Shortcut, ok bool, err error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return Shortcut{}, false, nil
	}
	parts := strings.Split(s, "+")
	for i, p := range parts {
		p = strings.TrimSpace(p)
		if p == "" {
			return Shortcut{}, false, fmt.Errorf("%q: an empty part; write it as %q", s, Default)
		}
		if i < len(parts)-1 {
			m, known := modNames[strings.ToLower(p)]
			if !known {
				return Shortcut{}, false, fmt.Errorf("%q: %q is not a modifier (Ctrl, Alt, Shift, Super)", s, p)
			}
			if sc.Mods&m != 0 {
				return Shortcut{}, false, fmt.Errorf("%q: %s twice", s, p)
			}
			sc.Mods |= m
			continue
		}
		key, known := keyName(p)
		if !known {
			return Shortcut{}, false, fmt.Errorf("%q: %q is not a key a shortcut can use (A–Z, 0–9, F1–F12, Space)", s, p)
		}
		sc.Key = key
	}
	if sc.Mods&(Ctrl|Alt|Super) == 0 {
		return Shortcut{}, false, fmt.Errorf("%q %w", s, ErrNoModifier)
	}
	return sc, true, nil
}

var modNames = map[string]Mod{
	"ctrl": Ctrl, "control": Ctrl, "alt": Alt, "shift": Shift, "super": Super, "win": Super, "meta": Super,
}

// keyName is the canonical name of a key written p.
func keyName(p string) (string, bool) {
	u := strings.ToUpper(p)
	switch {
	case len(u) == 1 && (u[0] >= 'A' && u[0] <= 'Z' || u[0] >= '0' && u[0] <= '9'):
		return u, true
	case u == "SPACE":
		return "Space", true
	case len(u) >= 2 && u[0] == 'F':
		var n int
		if _, err := fmt.Sscanf(u[1:], "%d", &n); err == nil && n >= 1 && n <= 12 && fmt.Sprint(n) == u[1:] {
			return u, true
		}
	}
	return "", false
}

// String writes sc as Parse reads it, the modifiers in a fixed order.
func (sc Shortcut) String() string {
	var b strings.Builder
	for _, m := range []struct {
		m    Mod
		name string
	}{{Ctrl, "Ctrl"}, {Alt, "Alt"}, {Shift, "Shift"}, {Super, "Super"}} {
		if sc.Mods&m.m != 0 {
			b.WriteString(m.name + "+")
		}
	}
	return b.String() + sc.Key
}

// Keysym is the X keysym of sc's key (the lowercase letter's for a
// letter: what an unshifted key produces).
func (sc Shortcut) Keysym() uint32 {
	switch k := sc.Key; {
	case k == "Space":
		return 0x20
	case len(k) == 1 && k[0] >= 'A' && k[0] <= 'Z':
		return uint32(k[0] - 'A' + 'a')
	case len(k) == 1:
		return uint32(k[0])
	default: // F1…F12
		var n uint32
		fmt.Sscanf(k[1:], "%d", &n)
		return 0xffbe + n - 1
	}
}
