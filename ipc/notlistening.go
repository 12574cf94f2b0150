package ipc

import (
	"errors"
	"io/fs"
	"syscall"
)

// NotListening reports whether err, from a Client, means that nothing
// listens on the endpoint: no socket, a stale one, or on Windows no pipe of
// that name (ERROR_FILE_NOT_FOUND, which matches fs.ErrNotExist). The app
// is not running there; a caller may start it (launch does).
func NotListening(err error) bool {
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED)
}

// Reason returns the system error at the root of err, or else err, for a
// message that already names the endpoint.
func Reason(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return err
}
