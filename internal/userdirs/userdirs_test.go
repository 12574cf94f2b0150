package userdirs

import (
	"os"
	"runtime"
	"strings"
	"testing"
)

func env(m map[string]string) func(string) string {
	return func(k string) string { return m[k] }
}

func TestFor(t *testing.T) {
	tests := []struct {
		name string
		goos string
		env  map[string]string
		home string
		want Dirs
	}{
		{"windows from the environment", "windows",
			map[string]string{"APPDATA": `C:\Users\ann\AppData\Roaming`, "LOCALAPPDATA": `C:\Users\ann\AppData\Local`,
				"XDG_CONFIG_HOME": "/ignored"},
			`C:\Users\ann`,
			Dirs{Config: `C:\Users\ann\AppData\Roaming\feedback`, Data: `C:\Users\ann\AppData\Local\feedback`,
				State: `C:\Users\ann\AppData\Local\feedback`}},
		{"windows without the variables", "windows", nil, `C:\Users\bob`,
			Dirs{Config: `C:\Users\bob\AppData\Roaming\feedback`, Data: `C:\Users\bob\AppData\Local\feedback`,
				State: `C:\Users\bob\AppData\Local\feedback`}},
		{"macOS ignores XDG", "darwin", map[string]string{"XDG_DATA_HOME": "/x", "XDG_STATE_HOME": "/y"}, "/Users/cy",
			Dirs{Config: "/Users/cy/Library/Application Support/feedback", Data: "/Users/cy/Library/Application Support/feedback",
				State: "/Users/cy/Library/Logs/feedback"}},
		{"linux defaults", "linux", nil, "/home/di",
			Dirs{Config: "/home/di/.config/feedback", Data: "/home/di/.local/share/feedback", State: "/home/di/.local/state/feedback"}},
		{"linux XDG", "linux",
			map[string]string{"XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "XDG_STATE_HOME": "/s"}, "/home/di",
			Dirs{Config: "/c/feedback", Data: "/d/feedback", State: "/s/feedback"}},
		{"linux relative XDG is ignored", "freebsd", map[string]string{"XDG_DATA_HOME": "rel"}, "/home/e",
			Dirs{Config: "/home/e/.config/feedback", Data: "/home/e/.local/share/feedback", State: "/home/e/.local/state/feedback"}},
		{"linux XDG without a home", "linux",
			map[string]string{"XDG_CONFIG_HOME": "/c", "XDG_DATA_HOME": "/d", "XDG_STATE_HOME": "/s"}, "",
			Dirs{Config: "/c/feedback", Data: "/d/feedback", State: "/s/feedback"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if runtime.GOOS == "windows" && tt.goos != "windows" {
				t.Skip("Unix paths are checked on Unix")
			}
			got, err := For(tt.goos, env(tt.env), tt.home)
			if err != nil {
				t.Fatal(err)
			}
			if got != tt.want {
				t.Errorf("For(%s) =\n%+v, want\n%+v", tt.goos, got, tt.want)
			}
		})
	}
}

func TestForErrorsNameWhatToSet(t *testing.T) {
	for goos, want := range map[string]string{
		"windows": "APPDATA",
		"darwin":  "HOME",
		"linux":   "XDG_CONFIG_HOME",
	} {
		_, err := For(goos, env(nil), "")
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("For(%s) without a home: err = %v, want one naming %s", goos, err, want)
		}
	}
}

func TestCurrentMatchesFor(t *testing.T) {
	t.Setenv("XDG_STATE_HOME", t.TempDir())
	got, err := Current()
	if err != nil {
		t.Fatal(err)
	}
	if runtime.GOOS == "linux" && !strings.HasPrefix(got.State, os.Getenv("XDG_STATE_HOME")) {
		t.Errorf("State = %s, want it under $XDG_STATE_HOME", got.State)
	}
}
