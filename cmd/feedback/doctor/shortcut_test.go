package doctor

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"feedback/internal/display"
	"feedback/internal/hotkey"
	"feedback/internal/hotkey/xgrab"
)

// The shortcut check: held or not on X11, none on Wayland, off when the
// settings say so; the fix names what to do instead.
func TestShortcutCheck(t *testing.T) {
	h := home(t)
	for _, tc := range []struct {
		name     string
		display  string
		wayland  string
		settings string
		probe    error
		level    Level
		words    []string
	}{
		{"held on X11", ":9", "", "", nil, OK, []string{"Ctrl+Alt+F brings the waiting question"}},
		{"taken by another application", ":9", "", "", xgrab.ErrTaken, Warn, []string{"held by another application", "pick another in Settings (focus_shortcut)"}},
		{"the user's own", ":9", "", `{"focus_shortcut": "super+shift+q"}`, nil, OK, []string{"Shift+Super+Q brings"}},
		{"turned off", ":9", "", `{"focus_shortcut": ""}`, nil, OK, []string{"none (focus_shortcut is empty)", "clicking its window"}},
		{"Wayland", "", "wayland-0", "", nil, OK, []string{"Wayland gives applications no global shortcuts", "notification's Open"}},
		{"no display", "", "", "", nil, -1, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if display.NativeWayland && tc.display != "" && tc.settings != `{"focus_shortcut": ""}` {
				// The Wayland build: no X11 to hold it on, whatever DISPLAY says.
				tc.level, tc.words = OK, []string{"Wayland gives applications no global shortcuts"}
			}
			path := filepath.Join(h, ".config", "feedback", "settings.json")
			os.Remove(path)
			if tc.settings != "" {
				os.MkdirAll(filepath.Dir(path), 0o700)
				os.WriteFile(path, []byte(tc.settings), 0o600)
			}
			e, _ := env(t, h)
			vars := map[string]string{"DISPLAY": tc.display, "WAYLAND_DISPLAY": tc.wayland}
			e.Getenv = func(k string) string {
				if v, ok := vars[k]; ok {
					return v
				}
				return os.Getenv(k)
			}
			probed := 0
			e.ProbeShortcut = func(hotkey.Shortcut) error { probed++; return tc.probe }
			rs := checkShortcut(context.Background(), e)
			if tc.level < 0 {
				if len(rs) != 0 {
					t.Errorf("with no display: %+v, want no line (the display check says it)", rs)
				}
				return
			}
			if len(rs) != 1 || rs[0].Level != tc.level {
				t.Fatalf("results %+v, want one at %v", rs, tc.level)
			}
			all := rs[0].Msg + " " + rs[0].Fix
			for _, w := range tc.words {
				if !strings.Contains(all, w) {
					t.Errorf("%q lacks %q", all, w)
				}
			}
			if tc.wayland != "" && probed != 0 {
				t.Error("probed X11 on Wayland")
			}
		})
	}
}
