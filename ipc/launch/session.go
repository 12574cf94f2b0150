package launch

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"feedback/internal/display"
)

// A client may start the shim with a filtered environment: the TypeScript
// SDK's stdio transport passes only HOME, LOGNAME, PATH, SHELL, TERM and
// USER (plus the config's env), so the shim sees no XDG_RUNTIME_DIR, where
// the app listens, and no DISPLAY, where it shows its windows. The app
// therefore records both in a file under the user's home (RecordSession),
// and Connect reads it back (a trusted file only: see readSession) when its
// own environment names no socket place.

// Session is what the app records when it starts listening: its socket and
// the variables of the graphical session it shows its windows on.
type Session struct {
	Socket string            `json:"socket"`
	Env    map[string]string `json:"env,omitempty"`
}

// sessionVars are the variables a started app needs from the session it
// shows its windows on: the display, the runtime directory (where it
// listens), the session bus (notifications, the tray) and the language.
var sessionVars = []string{
	"DISPLAY", "WAYLAND_DISPLAY", "XAUTHORITY", "XDG_RUNTIME_DIR", "DBUS_SESSION_BUS_ADDRESS",
	"XDG_SESSION_TYPE", "XDG_CURRENT_DESKTOP", "LANG", "LANGUAGE", "LC_ALL", "LC_MESSAGES",
	"XDG_STATE_HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_CACHE_HOME",
	"FYNE_SCALE", "FYNE_THEME",
}

// maxSessionBytes bounds the record read back: it holds a path and a few
// variables.
const maxSessionBytes = 16 << 10

// sessionName is the record's file name, in sessionDir.
const sessionName = "session.json"

// SessionPath is where RecordSession writes: under the home directory alone
// (~/.cache/feedback/run/session.json), so that a process with nothing
// but HOME finds it; "" where this system needs no record (Windows: the
// named pipe is found by the user's SID) or the home is unknown.
func SessionPath() string { return sessionPath(os.Getenv) }

// RecordSession records that the app listens at socket, with the session
// variables of its environment, for callers whose environment lacks them.
// The file is private (0600, in a 0700 directory owned by the user).
func RecordSession(socket string) error {
	path := SessionPath()
	if path == "" {
		return nil
	}
	s := Session{Socket: socket, Env: map[string]string{}}
	for _, k := range sessionVars {
		if v, ok := os.LookupEnv(k); ok && v != "" {
			s.Env[k] = v
		}
	}
	data, err := json.Marshal(s)
	if err != nil {
		return err
	}
	return writeSession(path, data)
}

// SocketCandidates are the sockets Connect tries, in order: the socket of
// this environment (ipc.SocketPath), then — only when the environment names
// no place for it (neither FEEDBACK_SOCKET nor XDG_RUNTIME_DIR, as under a
// client that filters the environment) — the socket the app recorded
// (RecordSession), the one of the recorded session's runtime directory
// and the one in the system's usual runtime directory (/run/user/UID),
// where they exist and belong to the user.
func SocketCandidates(primary string) []string {
	paths := []string{primary}
	if namesSocketPlace() {
		return paths
	}
	if s, err := readSession(SessionPath()); err == nil {
		if filepath.IsAbs(s.Socket) {
			paths = append(paths, s.Socket)
		}
		// The socket of the recorded session's runtime directory, where
		// an app started on that session listens: the recorded socket
		// may be stale (a record left by another run) while the app runs
		// there, and a start would only find that instance and exit.
		if d := s.Env["XDG_RUNTIME_DIR"]; filepath.IsAbs(d) {
			paths = append(paths, filepath.Join(d, "feedback", "feedback.sock"))
		}
	}
	if d := systemRuntimeDir(); d != "" {
		paths = append(paths, filepath.Join(d, "feedback", "feedback.sock"))
	}
	return slices.Compact(paths)
}

// SessionGetenv looks variables up in the session the app recorded (a
// trusted record only), or is nil when there is none: a shim started with
// a filtered environment (no LANG) takes the language of the desktop it
// shows its windows on.
func SessionGetenv() func(string) string {
	s, err := readSession(SessionPath())
	if err != nil {
		return nil
	}
	return func(k string) string { return s.Env[k] }
}

// sessionEnv is the environment to start the app with when this process's
// own cannot show windows (why): the recorded session's variables over
// ours, when that session's display still answers; else an error that says
// why there is none, wrapping why.
func sessionEnv(why error) ([]string, error) {
	path := SessionPath()
	s, err := readSession(path)
	if err != nil {
		return nil, fmt.Errorf("%w (and no graphical session was recorded where a filtered environment finds it: %v)", why, err)
	}
	if err := sessionDisplayAlive(s.Env); err != nil {
		return nil, fmt.Errorf("%w (the session recorded in %s is gone: %v)", why, path, err)
	}
	env := os.Environ()
	for _, k := range sessionVars {
		if v, ok := s.Env[k]; ok {
			env = append(env, k+"="+v)
		}
	}
	if _, ok := s.Env["XDG_RUNTIME_DIR"]; !ok {
		if d := systemRuntimeDir(); d != "" {
			env = append(env, "XDG_RUNTIME_DIR="+d)
		}
	}
	return env, nil
}

// sessionDisplayAlive reports whether the display of a recorded session
// still answers: the X server of its DISPLAY for the X11 build, the
// compositor's socket for the Wayland build.
func sessionDisplayAlive(env map[string]string) error {
	if display.NativeWayland {
		w := env["WAYLAND_DISPLAY"]
		if w == "" {
			return display.ErrNone
		}
		if !filepath.IsAbs(w) {
			w = filepath.Join(env["XDG_RUNTIME_DIR"], w)
		}
		if _, err := os.Stat(w); err != nil {
			return fmt.Errorf("no Wayland compositor at %s", w)
		}
		return nil
	}
	d := env["DISPLAY"]
	if d == "" {
		return display.ErrNone
	}
	return display.Probe(d)
}
