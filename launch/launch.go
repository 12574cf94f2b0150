// Package launch finds the running feedback app and starts it when it is
// not running. It is shared by `feedback mcp` and `feedback ask` and, like
// ipc, uses no GUI code.
package launch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"feedback/ipc"
)

// StartWait bounds how long Connect waits for a freshly started app.
const StartWait = 15 * time.Second

// helloWait bounds the first look at the socket: an app that accepts the
// connection but never answers must not hold Connect beyond StartWait plus
// this.
const helloWait = 5 * time.Second

// ErrNoDisplay means the app cannot show windows here.
var ErrNoDisplay = errors.New("no graphical display: neither DISPLAY nor WAYLAND_DISPLAY is set")

// HasDisplay reports whether windows can be shown: on Linux and the BSDs a
// DISPLAY or WAYLAND_DISPLAY must be set; elsewhere there always is one.
func HasDisplay() bool {
	switch runtime.GOOS {
	case "linux", "freebsd", "openbsd", "netbsd":
		return os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != ""
	}
	return true
}

// LogPath is the app's log file: $XDG_STATE_HOME/feedback/app.log, else
// ~/.local/state/feedback/app.log, else in the temporary directory.
func LogPath() string {
	dir := os.Getenv("XDG_STATE_HOME")
	if dir == "" {
		if home, err := os.UserHomeDir(); err == nil {
			dir = filepath.Join(home, ".local", "state")
		} else {
			dir = os.TempDir()
		}
	}
	return filepath.Join(dir, "feedback", "app.log")
}

// Start starts the app (this same executable, without arguments) detached,
// so that it outlives the caller. Its output goes to LogPath.
func Start() error {
	if !HasDisplay() {
		return ErrNoDisplay
	}
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the feedback executable: %w", err)
	}
	return ipc.StartDetached(exe, nil, LogPath())
}

// Starter starts the app when none answers; Start by default. A binary
// without the window app (the headless build) sets it to nil, and Connect
// then only finds an app that already runs (say, behind a forwarded socket).
var Starter = Start

// Connect returns a client of the running app, starting the app first when
// none answers on the socket (see Starter). It waits at most StartWait for a started app,
// and at most StartWait plus 5 s in all.
func Connect(ctx context.Context) (*ipc.Client, error) {
	path, err := ipc.SocketPath()
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, StartWait+helloWait)
	defer cancel()
	c, err := ipc.Connect(cctx, path, Starter, StartWait)
	if err != nil && ctx.Err() == nil && cctx.Err() != nil {
		err = fmt.Errorf("%w: the app at %s did not answer within %v", ipc.ErrNotRunning, path, StartWait+helloWait)
	}
	if err != nil {
		if errors.Is(err, ErrNoDisplay) {
			return nil, err
		}
		return nil, fmt.Errorf("%w (the app's log: %s)", err, LogPath())
	}
	return c, nil
}
