// Package settingsfile is where the user's settings live on disk:
// settings.json in the user's config directory (Path), read over the
// defaults and the environment (Load), saved atomically with unknown keys
// kept (Save) and watched for changes (Watch). The app, `feedback mcp`,
// doctor and the other commands link it; the UI process does not: its
// Settings window gets the file's values from the app and sends its edits
// back (package uiproto), and the app alone writes the file. The schema,
// its defaults and its checks are package settings.
package settingsfile

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"feedback/internal/safefile"
	"feedback/internal/settings"
	"feedback/internal/userdirs"
)

// MaxFileBytes bounds the settings file Load and Save read; a bigger one
// is not a settings file anybody wrote by hand.
const MaxFileBytes = 1 << 20

// Path is where the settings live: settings.json in the config directory of
// userdirs: $XDG_CONFIG_HOME/feedback (~/.config/feedback) on Linux,
// ~/Library/Application Support/feedback on macOS, %APPDATA%\feedback on
// Windows.
func Path() (string, error) {
	d, err := userdirs.Current()
	if err != nil {
		return "", err
	}
	return filepath.Join(d.Config, "settings.json"), nil
}

// Load reads the settings file at path over the defaults, then
// applies the environment (getenv, usually os.Getenv). A missing file is not
// an error; a malformed one or a bad value is, and names what to fix. The
// check is total (settings.Settings.Resolve): every bad value is reported
// (errors joined), each naming its field and where it came from (the file
// or an environment variable). On any error the defaults are returned.
func Load(path string, getenv func(string) string) (settings.Settings, error) {
	s, err := ReadFile(path)
	if err != nil {
		return settings.Default(), err
	}
	return s.Resolve(path, getenv)
}

// ReadFile reads the settings file at path over the defaults, without the
// environment and without checking the values (Validate does): what the
// Settings window shows and edits (the app sends them: uiproto.SettingsFile). A missing file gives the defaults; an
// unreadable or malformed one is an error naming the file, and so is one
// that is not a regular file (a FIFO, /dev/zero: refused without blocking)
// or holds more than MaxFileBytes.
func ReadFile(path string) (settings.Settings, error) {
	data, err := safefile.ReadFile(path, MaxFileBytes)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return settings.Default(), nil
	case err != nil:
		return settings.Default(), fmt.Errorf("reading settings: %w", err)
	}
	return settings.Decode(data, path)
}

// SaveEdits saves the Settings window's edits (uiproto.SaveSettings):
// changes (settings.Changes of the values the window read) laid over the
// file at path as it is now, so that an edit made by hand meanwhile is
// kept; or values whole when changes is nil or the file cannot be read.
// Save checks them first. It returns the settings written and where a
// malformed file was kept (Save's movedAside).
func SaveEdits(path string, values settings.Settings, changes map[string]json.RawMessage) (saved settings.Settings, movedAside string, err error) {
	saved = values
	if changes != nil {
		if cur, err := ReadFile(path); err == nil {
			if merged, err := settings.Overlay(cur, changes); err == nil {
				saved = merged
			}
		}
	}
	movedAside, err = Save(path, saved)
	return saved, movedAside, err
}
