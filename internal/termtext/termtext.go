// Package termtext makes text that others wrote inert for a terminal or a
// text file read in one: no byte of it can act as a control sequence. It
// has no dependencies beyond the standard library and does no I/O.
package termtext

import (
	"fmt"
	"strings"
	"unicode/utf8"
)

// Inert returns s with every character a terminal could act on replaced by
// a visible stand-in, and everything else unchanged:
//   - C0 controls other than newline and tab (ESC, BEL, CR, backspace…) by
//     their Unicode control pictures (ESC is "␛", BEL "␇", CR "␍");
//   - DEL by "␡";
//   - C1 controls (U+0080–U+009F, CSI and OSC included) and the bidi
//     controls that reorder text (U+202A–U+202E, U+2066–U+2069, U+200E,
//     U+200F, U+061C) by "\u009b"-style text;
//   - invalid UTF-8 by U+FFFD.
//
// So OSC 0 (window title), CSI 2J (clear screen), OSC 52 (clipboard) and
// OSC 8 (links) are printed as text, never run. Newlines and tabs stay:
// the layout needs them.
func Inert(s string) string {
	if !needsWork(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s) + 16)
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size <= 1:
			b.WriteRune(utf8.RuneError)
		case r == '\n' || r == '\t':
			b.WriteRune(r)
		case r < 0x20:
			b.WriteRune(0x2400 + r)
		case r == 0x7f:
			b.WriteRune(0x2421)
		case (r >= 0x80 && r <= 0x9f) || IsBidiControl(r):
			fmt.Fprintf(&b, `\u%04x`, r)
		default:
			b.WriteString(s[i : i+size])
		}
		i += size
	}
	return b.String()
}

// needsWork reports whether s holds anything Inert replaces.
func needsWork(s string) bool {
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\n' && c != '\t') || c == 0x7f {
				return true
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		if (r == utf8.RuneError && size <= 1) || (r >= 0x80 && r <= 0x9f) || IsBidiControl(r) {
			return true
		}
		i += size
	}
	return false
}

// IsBidiControl reports the explicit directional formatting characters
// (U+202A–U+202E, U+2066–U+2069) and the marks U+200E, U+200F, U+061C,
// which let a text reorder what a reader sees after it.
func IsBidiControl(r rune) bool {
	return (r >= 0x202A && r <= 0x202E) || (r >= 0x2066 && r <= 0x2069) ||
		r == 0x200E || r == 0x200F || r == 0x061C
}
