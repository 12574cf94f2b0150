// Package launch finds the running feedback app and starts it when it is
// not running: it starts the app's process detached (StartDetached, per
// OS), polls the socket until the app answers (Connect: connect-or-start,
// connect.go), and asks again after the app went away mid-question
// (AskRestarting). Starting the app at login is not this package's: that is
// feedback setup's autostart. ipc only carries
// the protocol. It is shared by `feedback mcp` and `feedback ask` and, like
// ipc, uses no GUI code.
package launch

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"time"

	"feedback/internal/display"
	"feedback/internal/userdirs"
	"feedback/ipc"
)

// StartWait bounds how long Connect waits for a freshly started app.
const StartWait = 15 * time.Second

// helloWait bounds the first look at the socket: an app that accepts the
// connection but never answers must not hold Connect beyond StartWait plus
// this.
const helloWait = 5 * time.Second

// LogPath is the app's log file, app.log in the state directory of
// userdirs: $XDG_STATE_HOME/feedback (~/.local/state/feedback) on Linux,
// ~/Library/Logs/feedback on macOS, %LOCALAPPDATA%\feedback on Windows;
// in the temporary directory when none is known.
func LogPath() string {
	d, err := userdirs.Current()
	if err != nil {
		return filepath.Join(os.TempDir(), "feedback", "app.log")
	}
	return filepath.Join(d.State, "app.log")
}

// Start starts the app (this same executable, without arguments) detached,
// so that it outlives the caller. Its output goes to LogPath.
func Start() error {
	exe, err := os.Executable()
	if err != nil {
		return fmt.Errorf("finding the feedback executable: %w", err)
	}
	return StartExe(exe)
}

// StartExe starts the app at exe, without arguments, detached, so that it
// outlives the caller. Its output goes to LogPath. When this process's
// environment names no place for the socket (no FEEDBACK_SOCKET or
// XDG_RUNTIME_DIR: a client filtered it) or names no display, the app
// starts on the graphical session it last
// recorded (RecordSession) when that session's display still answers, so
// that it listens where every client looks; else, given a display, in the
// system's runtime directory (/run/user/UID) when there is one.
func StartExe(exe string) error {
	shows := display.Check()
	if shows != nil && (!errors.Is(shows, display.ErrNone) || errors.Is(shows, display.ErrWaylandOnly) || errors.Is(shows, display.ErrX11Only)) {
		return shows // a session of the protocol this build does not speak
	}
	if errors.Is(shows, display.ErrDead) {
		// The environment names a display, and it is gone: the recorded
		// session stands in for a display the environment does not name,
		// never for one it names (a test's dead display, an SSH login's
		// stale one would open windows on another screen).
		return shows
	}
	if shows == nil && namesSocketPlace() {
		return StartDetached(exe, nil, LogPath())
	}
	why := shows
	if why == nil {
		why = errors.New("this environment names no runtime directory")
	}
	env, err := sessionEnv(why)
	switch {
	case err == nil:
	case shows != nil:
		return err
	default:
		env = nil
		if d := systemRuntimeDir(); d != "" {
			env = append(os.Environ(), "XDG_RUNTIME_DIR="+d)
		}
	}
	return startDetachedEnv(exe, nil, LogPath(), env)
}

// namesSocketPlace reports whether this environment says where the app's
// socket is (see ipc.SocketPath), as a desktop session's does.
func namesSocketPlace() bool {
	return os.Getenv(ipc.EnvSocket) != "" || filepath.IsAbs(os.Getenv("XDG_RUNTIME_DIR")) || runtime.GOOS == "windows"
}

// AppName and ShimName are the file names of the window app and of the
// shim installed beside it (the headless build: no window toolkit, so
// `feedback-headless mcp` starts in half the time of `feedback mcp`), with
// ".exe" on Windows.
var (
	AppName  = exeName("feedback")
	ShimName = exeName("feedback-headless")
)

func exeName(base string) string {
	if runtime.GOOS == "windows" {
		return base + ".exe"
	}
	return base
}

// Beside returns the path of the regular file name in the directory of
// exe (symbolic links resolved), or "" when there is none.
func Beside(exe, name string) string {
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	p := filepath.Join(filepath.Dir(exe), name)
	if fi, err := os.Stat(p); err != nil || !fi.Mode().IsRegular() {
		return ""
	}
	return p
}

// Starter starts the app when none answers; Start by default. A binary
// without the window app (the headless build) sets it to nil, and Connect
// then only finds an app that already runs (say, behind a forwarded socket).
var Starter = Start

// Connect returns a client of the running app, starting the app first when
// none answers on the socket (see Starter). It waits at most StartWait for a started app,
// and at most StartWait plus 5 s in all. An endpoint that another user could
// control is refused at once, before anything is sent or started, with an
// error matching ipc.ErrUntrustedEndpoint that names the path and its owner.
func Connect(ctx context.Context) (*ipc.Client, error) {
	path, err := ipc.SocketPath()
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, StartWait+helloWait)
	defer cancel()
	paths := SocketCandidates(path)
	where := strings.Join(paths, ", ")
	c, err := connectAny(cctx, paths, Starter, StartWait)
	if err != nil && ctx.Err() == nil && cctx.Err() != nil {
		err = fmt.Errorf("%w: the app at %s did not answer within %v", ErrNotRunning, where, StartWait+helloWait)
	}
	if err != nil {
		if errors.Is(err, ipc.ErrUntrustedEndpoint) {
			return nil, err // says what to do; the app's log has nothing to add
		}
		if Starter == nil && errors.Is(err, ErrNotRunning) {
			// connectAt's "start the feedback app first" is not for this machine.
			return nil, fmt.Errorf("%w: nothing answers at %s; %s", ErrNotRunning, where, remoteHint(path))
		}
		if Starter == nil || (errors.Is(err, display.ErrNone) && os.Getenv(ipc.EnvSocket) != "") {
			// The app, if any, runs on another machine: its log is there.
			return nil, fmt.Errorf("%w; %s", err, remoteHint(path))
		}
		if errors.Is(err, display.ErrNone) {
			return nil, fmt.Errorf("no feedback app answers at %s, and none can be started from here: %w", where, err)
		}
		return nil, withLog(err, LogPath())
	}
	return c, nil
}

// Find returns a client of the app that runs, without starting one: it
// fails with ErrNotRunning naming every socket tried when none answers.
func Find(ctx context.Context) (*ipc.Client, error) {
	path, err := ipc.SocketPath()
	if err != nil {
		return nil, err
	}
	cctx, cancel := context.WithTimeout(ctx, helloWait)
	defer cancel()
	return connectAny(cctx, SocketCandidates(path), nil, 0)
}

// withLog adds the app's log at path to err when there is one: an app that
// was never started from here (another one holds the endpoint, or the app
// ran from a console) has written nothing there.
func withLog(err error, path string) error {
	if _, serr := os.Stat(path); serr != nil {
		return err
	}
	return fmt.Errorf("%w (the app's log: %s)", err, path)
}

// remoteHint says where to look when this machine cannot run the app and
// questions must go to a desktop's app through the socket at path.
func remoteHint(path string) string {
	return fmt.Sprintf("this machine cannot start the feedback app, so it must run on your desktop with its socket "+
		"forwarded to %s (ssh RemoteForward; run `feedback setup ssh HOST` on the desktop): "+
		"check that the SSH connection is up and the app is running on the desktop", path)
}

// Greet says hello to the app: the shim does it once its client has
// initialized (mcpshim.Options.Greet), so an app with ui_prewarm prepares
// its first window ahead of the first question. With start (the shim's
// ui_prewarm setting) it starts the app first when none runs, as a
// question would (Connect); else it only greets an app that runs. Errors
// are not reported: there is nothing to warm, and the first call says why.
func Greet(start bool) {
	if start && Starter != nil {
		ctx, cancel := context.WithTimeout(context.Background(), StartWait+helloWait)
		defer cancel()
		if c, err := Connect(ctx); err == nil {
			c.Greet(ctx)
		}
		return
	}
	path, err := ipc.SocketPath()
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Second)
	defer cancel()
	(&ipc.Client{Path: path}).Greet(ctx) // checks the endpoint like every call; errors: nothing to warm
}
