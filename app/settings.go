package app

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"time"
)

// Settings are the user's preferences, read from SettingsPath at start.
// Every field has a default, so a missing file or field changes nothing.
type Settings struct {
	// TimeoutSeconds is the countdown of a question that does not set one.
	// 0 disables the countdown. Environment: FEEDBACK_TIMEOUT (seconds).
	TimeoutSeconds int `json:"timeout_seconds"`
}

// DefaultSettings are used where the settings file is silent.
func DefaultSettings() Settings {
	return Settings{TimeoutSeconds: 600}
}

// DefaultTimeout is the countdown as a duration (0: none).
func (s Settings) DefaultTimeout() time.Duration {
	return time.Duration(s.TimeoutSeconds) * time.Second
}

// SettingsPath is where the settings live: $XDG_CONFIG_HOME/feedback/settings.json
// (on Linux ~/.config/feedback/settings.json when XDG_CONFIG_HOME is unset).
func SettingsPath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", err
	}
	return filepath.Join(dir, "feedback", "settings.json"), nil
}

// LoadSettings reads the settings file at path over the defaults, then
// applies the environment (getenv, usually os.Getenv). A missing file is not
// an error; a malformed one or a bad value is, and names what to fix.
func LoadSettings(path string, getenv func(string) string) (Settings, error) {
	s := DefaultSettings()
	data, err := os.ReadFile(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
	case err != nil:
		return s, fmt.Errorf("reading settings: %w", err)
	default:
		if err := json.Unmarshal(data, &s); err != nil {
			return DefaultSettings(), fmt.Errorf("settings file %s: %w", path, err)
		}
	}
	if v := getenv("FEEDBACK_TIMEOUT"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil {
			return s, fmt.Errorf("FEEDBACK_TIMEOUT=%q: want a whole number of seconds (0 disables the countdown)", v)
		}
		s.TimeoutSeconds = n
	}
	if s.TimeoutSeconds < 0 {
		return DefaultSettings(), fmt.Errorf("timeout_seconds is %d: want 0 (no countdown) or more", s.TimeoutSeconds)
	}
	return s, nil
}
