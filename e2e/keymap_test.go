package e2e

import (
	"os"
	"testing"
	"unicode"

	"github.com/jezek/xgb"
	"github.com/jezek/xgb/xproto"
)

// keysymOf is the X keysym of r: Latin-1 as itself, the rest of Unicode
// at 0x01000000 + r.
func keysymOf(r rune) xproto.Keysym {
	if r < 0x100 {
		return xproto.Keysym(r)
	}
	return xproto.Keysym(0x01000000 + r)
}

// mapRunes puts each character of s that is not on the keyboard (CJK,
// accents) on a spare keycode of its own, for good. Left to itself,
// xdotool type remaps one scratch keycode per such character, and an app
// that reads a key press after the next remap (a loaded machine) reads the
// next character: TestChinese got "兼。。" for "兼容。" in a CI run. With
// every character mapped before typing starts, the map never changes
// under a key press.
func mapRunes(t *testing.T, s string) {
	t.Helper()
	var need []rune
	seen := map[rune]bool{}
	for _, r := range s {
		if r > unicode.MaxASCII && !seen[r] {
			seen[r] = true
			need = append(need, r)
		}
	}
	if len(need) == 0 {
		return
	}
	c, err := xgb.NewConnDisplay(os.Getenv("DISPLAY"))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	setup := xproto.Setup(c)
	lo, hi := setup.MinKeycode, setup.MaxKeycode
	km, err := xproto.GetKeyboardMapping(c, lo, byte(hi-lo+1)).Reply()
	if err != nil {
		t.Fatal(err)
	}
	per := int(km.KeysymsPerKeycode)
	mapped := map[xproto.Keysym]bool{}
	var free []xproto.Keycode
	for i := 0; i < int(hi-lo+1); i++ {
		empty := true
		for _, ks := range km.Keysyms[i*per : (i+1)*per] {
			if ks != 0 {
				mapped[ks], empty = true, false
			}
		}
		if empty {
			free = append(free, lo+xproto.Keycode(i))
		}
	}
	for _, r := range need {
		ks := keysymOf(r)
		if mapped[ks] {
			continue
		}
		if len(free) == 0 {
			t.Fatalf("no spare keycode left for %q", r)
		}
		kc := free[len(free)-1]
		free = free[:len(free)-1]
		syms := make([]xproto.Keysym, per)
		for i := range syms {
			syms[i] = ks
		}
		if err := xproto.ChangeKeyboardMappingChecked(c, 1, kc, byte(per), syms).Check(); err != nil {
			t.Fatalf("map %q on keycode %d: %v", r, kc, err)
		}
	}
}
