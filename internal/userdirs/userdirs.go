// Package userdirs says where feedback keeps its files on each operating
// system: the settings, the database and the app's log.
//
// The choice per system is one pure function, For, so that the Windows and
// macOS rules are unit-tested on any machine; Current applies it to this
// process. Each directory already ends in "feedback"; nothing is created.
//
//	          Linux and the BSDs (XDG)          macOS                                  Windows
//	Config    $XDG_CONFIG_HOME  ~/.config       ~/Library/Application Support/feedback %APPDATA%\feedback
//	Data      $XDG_DATA_HOME    ~/.local/share  ~/Library/Application Support/feedback %LOCALAPPDATA%\feedback
//	State     $XDG_STATE_HOME   ~/.local/state  ~/Library/Logs/feedback                %LOCALAPPDATA%\feedback
//
// On Linux a relative XDG variable is ignored, as the XDG Base Directory
// specification requires. On Windows the settings roam with the profile
// (%APPDATA%) while the database and the log stay on the machine
// (%LOCALAPPDATA%); when a variable is unset, the usual place under the
// profile directory (AppData\Roaming, AppData\Local) is used. macOS follows
// Apple's layout and ignores XDG variables, like os.UserConfigDir.
package userdirs

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
)

// Dirs are feedback's own directories, each ending in "feedback".
type Dirs struct {
	Config string // settings.json
	Data   string // feedback.db
	State  string // app.log
}

// name is the last element of every directory.
const name = "feedback"

// Current returns the directories of this user on this system.
func Current() (Dirs, error) {
	home, herr := os.UserHomeDir()
	d, err := For(runtime.GOOS, os.Getenv, home)
	if err != nil && herr != nil {
		return Dirs{}, fmt.Errorf("%w (%v)", err, herr)
	}
	return d, err
}

// For returns the directories on the system goos (a runtime.GOOS value),
// reading the environment through getenv; home is the user's home directory
// ("" if unknown). It fails, naming what to set, when a directory cannot be
// determined.
func For(goos string, getenv func(string) string, home string) (Dirs, error) {
	switch goos {
	case "windows":
		roaming, err := winDir(getenv, "APPDATA", home, "Roaming")
		if err != nil {
			return Dirs{}, err
		}
		local, err := winDir(getenv, "LOCALAPPDATA", home, "Local")
		if err != nil {
			return Dirs{}, err
		}
		return Dirs{Config: join(goos, roaming, name), Data: join(goos, local, name), State: join(goos, local, name)}, nil
	case "darwin", "ios":
		if home == "" {
			return Dirs{}, errors.New("userdirs: the home directory is unknown; set HOME")
		}
		support := join(goos, home, "Library", "Application Support", name)
		return Dirs{Config: support, Data: support, State: join(goos, home, "Library", "Logs", name)}, nil
	default:
		var d Dirs
		for _, x := range []struct {
			dst *string
			env string
			def []string
		}{
			{&d.Config, "XDG_CONFIG_HOME", []string{".config"}},
			{&d.Data, "XDG_DATA_HOME", []string{".local", "share"}},
			{&d.State, "XDG_STATE_HOME", []string{".local", "state"}},
		} {
			dir := getenv(x.env)
			if !filepath.IsAbs(dir) {
				if home == "" {
					return Dirs{}, fmt.Errorf("userdirs: neither $%s nor the home directory is known; set one of them", x.env)
				}
				dir = join(goos, append([]string{home}, x.def...)...)
			}
			*x.dst = join(goos, dir, name)
		}
		return d, nil
	}
}

// winDir is %env%, else home\fallback.
func winDir(getenv func(string) string, env, home, fallback string) (string, error) {
	if d := getenv(env); d != "" {
		return d, nil
	}
	if home == "" {
		return "", fmt.Errorf("userdirs: neither %%%s%% nor the user profile directory is known; set %s", env, env)
	}
	return join("windows", home, "AppData", fallback), nil
}

// join is filepath.Join with the separator of goos, so that For gives the
// same answer on every machine it runs on (the tests check Windows paths on
// Linux).
func join(goos string, elem ...string) string {
	if (goos == "windows") == (runtime.GOOS == "windows") {
		return filepath.Join(elem...)
	}
	sep := "/"
	if goos == "windows" {
		sep = `\`
	}
	return strings.Join(elem, sep)
}
