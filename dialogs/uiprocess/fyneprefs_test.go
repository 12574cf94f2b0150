package uiprocess

import (
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// An empty preferences file (a UI process killed while Fyne rewrote it)
// or a cut-short one is replaced by an empty object Fyne reads; a good one
// is left alone; a symlink is removed without touching its target.
func TestRepairPreferences(t *testing.T) {
	for _, tc := range []struct {
		name, content, want string
		changed             bool
	}{
		{"empty", "", "{}\n", true},
		{"cut short", `{"a":`, "{}\n", true},
		{"not an object", `[1]`, "{}\n", true},
		{"good", `{"a":1}` + "\n", `{"a":1}` + "\n", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "preferences.json")
			if err := os.WriteFile(path, []byte(tc.content), 0o600); err != nil {
				t.Fatal(err)
			}
			did, err := repairPreferences(path)
			if err != nil || (did != "") != tc.changed {
				t.Fatalf("repair = %q, %v; want changed %v", did, err, tc.changed)
			}
			got, _ := os.ReadFile(path)
			if string(got) != tc.want {
				t.Errorf("file = %q, want %q", got, tc.want)
			}
			var v map[string]any
			if err := json.Unmarshal(got, &v); err != nil {
				t.Errorf("Fyne could not read it: %v", err)
			}
		})
	}
	t.Run("symlink", func(t *testing.T) {
		dir := t.TempDir()
		target := filepath.Join(dir, "target")
		os.WriteFile(target, nil, 0o644)
		path := filepath.Join(dir, "preferences.json")
		if err := os.Symlink(target, path); err != nil {
			t.Skip(err)
		}
		if did, err := repairPreferences(path); err != nil || did == "" {
			t.Fatalf("repair = %q, %v", did, err)
		}
		if _, err := os.Lstat(path); !os.IsNotExist(err) {
			t.Errorf("the link is still there: %v", err)
		}
		if fi, err := os.Stat(target); err != nil || fi.Mode().Perm() != 0o644 || fi.Size() != 0 {
			t.Errorf("the target changed: %v, %v", fi, err)
		}
	})
	t.Run("absent", func(t *testing.T) {
		if did, err := repairPreferences(filepath.Join(t.TempDir(), "none.json")); did != "" || err != nil {
			t.Errorf("repair = %q, %v", did, err)
		}
	})
}

// The path is Fyne's: under XDG_CONFIG_HOME/fyne/<id> on Linux.
func TestFynePreferencesPath(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("XDG on Linux")
	}
	t.Setenv("XDG_CONFIG_HOME", "/cfg")
	if p, err := fynePreferencesPath(ID); err != nil || p != "/cfg/fyne/io.feedback.app/preferences.json" {
		t.Errorf("path = %q, %v", p, err)
	}
}
