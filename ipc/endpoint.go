package ipc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
)

// ErrAlreadyRunning is returned (wrapped) by Listen when another process
// answers on the socket: the app is already running.
var ErrAlreadyRunning = errors.New("ipc: the feedback app is already running")

// ErrUntrustedEndpoint is matched (errors.Is) by every refusal to use an
// endpoint that someone other than the current user could control: an
// *EndpointError, from Listen and from every Client request.
var ErrUntrustedEndpoint = errors.New("ipc: untrusted endpoint")

// EndpointError is a refusal to listen or dial at a socket, or in a socket
// directory, that another user could control (see the package doc). It
// matches ErrUntrustedEndpoint.
type EndpointError struct {
	Path   string // the socket directory or socket refused
	Reason string // what is wrong with it, for a person to read
	Owner  int    // the uid that owns Path or listens on it; -1 when ownership is not the reason
}

func (e *EndpointError) Error() string {
	return fmt.Sprintf("ipc: refusing %s: %s", e.Path, e.Reason)
}

// Is makes errors.Is(err, ErrUntrustedEndpoint) true.
func (e *EndpointError) Is(target error) bool { return target == ErrUntrustedEndpoint }

// untrustedHint ends the reason of a refusal that looks like another user's
// doing.
const untrustedHint = "another user could read and answer the questions sent there. " +
	"Remove it, or set XDG_RUNTIME_DIR or " + EnvSocket + " to a private directory of your own"

// EnvSocket names the environment variable that overrides SocketPath.
const EnvSocket = "FEEDBACK_SOCKET"

// SocketPath returns where the app listens and its callers dial, in this order:
// $FEEDBACK_SOCKET if set; $XDG_RUNTIME_DIR/feedback/feedback.sock if
// XDG_RUNTIME_DIR is set to an absolute path; else
// <os.UserCacheDir()>/feedback/run/feedback.sock (~/.cache/… on Linux,
// ~/Library/Caches/… on macOS): a directory under the user's home that no
// other user can create first, unlike one in the shared /tmp. It fails when
// neither XDG_RUNTIME_DIR nor a cache directory (HOME) is known, and when the
// path is longer than a Unix socket address allows (sun_path: 107 bytes on
// Linux, 103 on macOS and the BSDs), saying which variable to set. The
// directory is not created: Listen does that.
func SocketPath() (string, error) {
	p, err := defaultSocketPath()
	if err != nil {
		return "", err
	}
	if err := checkPathLen(p); err != nil {
		return "", err
	}
	return p, nil
}

func defaultSocketPath() (string, error) {
	if p := os.Getenv(EnvSocket); p != "" {
		return filepath.Abs(p)
	}
	if p, ok, err := systemSocketPath(); ok { // Windows: the user's named pipe
		return p, err
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) {
		return filepath.Join(d, "feedback", "feedback.sock"), nil
	}
	cache, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("ipc: no place for the socket: XDG_RUNTIME_DIR is not set and %v; set XDG_RUNTIME_DIR (or %s) to a private directory", err, EnvSocket)
	}
	return filepath.Join(cache, "feedback", "run", "feedback.sock"), nil
}

// maxSocketPath is the longest socket path the system takes: sun_path holds
// 108 bytes on Linux (and Windows), 104 on macOS and the BSDs, with a
// terminating NUL.
func maxSocketPath() int {
	switch runtime.GOOS {
	case "linux", "android", "windows":
		return 107
	}
	return 103
}

// checkPathLen fails with a clear message when path cannot be a socket
// address: the system would only say "invalid argument".
func checkPathLen(path string) error {
	if n, limit := len(path), maxSocketPath(); n > limit {
		return fmt.Errorf("ipc: the socket path %s is %d bytes long, more than the %d a Unix socket address holds; set XDG_RUNTIME_DIR or %s to a shorter path",
			path, n, limit, EnvSocket)
	}
	return nil
}
