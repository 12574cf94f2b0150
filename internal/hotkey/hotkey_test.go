package hotkey

import (
	"errors"
	"testing"
)

func TestParse(t *testing.T) {
	for _, c := range []struct {
		in, want string
		sym      uint32
	}{
		{"Ctrl+Alt+F", "Ctrl+Alt+F", 'f'},
		{" ctrl + alt + f ", "Ctrl+Alt+F", 'f'},
		{"super+shift+space", "Shift+Super+Space", 0x20},
		{"Alt+Shift+7", "Alt+Shift+7", '7'},
		{"Ctrl+F12", "Ctrl+F12", 0xffc9},
		{"Control+Win+a", "Ctrl+Super+A", 'a'},
	} {
		sc, ok, err := Parse(c.in)
		if err != nil || !ok {
			t.Errorf("Parse(%q) = %v, %v", c.in, ok, err)
			continue
		}
		if sc.String() != c.want || sc.Keysym() != c.sym {
			t.Errorf("Parse(%q) = %s (keysym %#x), want %s (%#x)", c.in, sc, sc.Keysym(), c.want, c.sym)
		}
	}
	if _, ok, err := Parse("  "); ok || err != nil {
		t.Errorf("Parse(blank) = %v, %v: want no shortcut and no error", ok, err)
	}
	for _, bad := range []string{"F", "Shift+F", "Ctrl+", "Ctrl+Ctrl+F", "Hyper+F", "Ctrl+Alt+Enter", "Ctrl+F13", "Ctrl+F01", "Ctrl"} {
		if _, _, err := Parse(bad); err == nil {
			t.Errorf("Parse(%q) took it", bad)
		}
	}
	if _, _, err := Parse("Shift+F"); !errors.Is(err, ErrNoModifier) {
		t.Errorf("Parse(Shift+F) = %v, want ErrNoModifier", err)
	}
}
