package ipc

import (
	"errors"
	"os"
	"path/filepath"
	"strconv"
)

// ErrAlreadyRunning is returned (wrapped) by Listen when another process
// answers on the socket: the app is already running.
var ErrAlreadyRunning = errors.New("ipc: the feedback app is already running")

// EnvSocket names the environment variable that overrides SocketPath.
const EnvSocket = "FEEDBACK_SOCKET"

// SocketPath returns where the app listens and its callers dial, in this order:
// $FEEDBACK_SOCKET if set; $XDG_RUNTIME_DIR/feedback/feedback.sock if
// XDG_RUNTIME_DIR is set to an absolute path; else
// os.TempDir()/feedback-<uid>/feedback.sock. The directory is not created:
// Listen does that.
func SocketPath() (string, error) {
	if p := os.Getenv(EnvSocket); p != "" {
		return filepath.Abs(p)
	}
	if d := os.Getenv("XDG_RUNTIME_DIR"); filepath.IsAbs(d) {
		return filepath.Join(d, "feedback", "feedback.sock"), nil
	}
	return filepath.Join(os.TempDir(), "feedback-"+strconv.Itoa(os.Getuid()), "feedback.sock"), nil
}
