package uiprocess

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"

	"feedback/internal/atomicfile"
)

// Fyne keeps an app's preferences in <its config root>/<app ID>/preferences.json.
// The UI process stores none there, but Fyne reads the file when the app is
// made and rewrites it at every exit by truncating it first: a UI process
// killed in between (the core kills a hung one) leaves it empty, and every
// later start logged "Fyne error: Preferences load error: EOF". Before the
// app is made, repairPreferences puts a file Fyne cannot read out of its
// way.

// maxPreferencesBytes bounds what is read of the preferences file: ours
// holds "{}".
const maxPreferencesBytes = 1 << 20

// fynePreferencesPath is where Fyne keeps the preferences of app id
// (fyne.io/fyne/v2/internal/app's rootConfigDir, per OS).
func fynePreferencesPath(id string) (string, error) {
	var root string
	switch runtime.GOOS {
	case "darwin":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		root = filepath.Join(home, "Library", "Preferences", "fyne")
	case "windows":
		home, err := os.UserHomeDir()
		if err != nil {
			return "", err
		}
		root = filepath.Join(home, "AppData", "Roaming", "fyne")
	default:
		config, err := os.UserConfigDir()
		if err != nil {
			return "", err
		}
		root = filepath.Join(config, "fyne")
	}
	return filepath.Join(root, id, "preferences.json"), nil
}

// repairPreferences makes the preferences file at path one Fyne reads
// without an error, or absent: one that is empty or not a JSON object
// (cut short) is replaced by "{}" (written to a temporary file, then
// renamed over it), and anything but a regular file (a symlink, a FIFO that
// would hang the read) is removed — the link, never what it points to. It
// reports what it did ("" for nothing).
func repairPreferences(path string) (string, error) {
	fi, err := os.Lstat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", err
	case !fi.Mode().IsRegular():
		return "removed: not a regular file", os.Remove(path)
	}
	f, err := os.OpenFile(path, os.O_RDONLY|oNoFollow, 0)
	if err != nil {
		return "", err
	}
	var v map[string]any
	derr := json.NewDecoder(io.LimitReader(f, maxPreferencesBytes)).Decode(&v)
	f.Close()
	if derr == nil {
		return "", nil
	}
	if err := atomicfile.WriteFile(path, []byte("{}\n"), atomicfile.Options{Perm: 0o600}); err != nil {
		return "", err
	}
	return fmt.Sprintf("replaced by {}: %v", derr), nil
}
