package ipc

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"syscall"
	"time"
)

// ErrNotRunning is returned (wrapped) by Connect when nothing answers on the
// socket: the app is not running, or was started and did not come up in time.
var ErrNotRunning = errors.New("ipc: the feedback app is not running")

// pollInterval is how often Connect retries while the app starts.
const pollInterval = 20 * time.Millisecond

// Connect returns a Client for the app listening at path, starting it if
// needed. If nothing listens there (no socket, or a stale one), Connect calls
// start once (nil means do not start: Connect fails with ErrNotRunning), then
// retries Hello every 20 ms until it answers, wait has elapsed, or ctx ends.
// Any other failure of the first Hello, such as ErrProtocolMismatch or an
// endpoint refused as untrusted (ErrUntrustedEndpoint), is returned as is,
// without starting anything; either one while polling ends the wait at once.
func Connect(ctx context.Context, path string, start func() error, wait time.Duration) (*Client, error) {
	c := &Client{Path: path}
	_, err := c.Hello(ctx)
	if err == nil {
		return c, nil
	}
	if !notListening(err) {
		return nil, err
	}
	if start == nil {
		return nil, fmt.Errorf("%w: nothing answers at %s (%v); start the feedback app first", ErrNotRunning, path, reason(err))
	}
	if err := start(); err != nil {
		return nil, fmt.Errorf("ipc: start the feedback app: %w", err)
	}

	pctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	tick := time.NewTicker(pollInterval)
	defer tick.Stop()
	for {
		select {
		case <-pctx.Done():
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("%w: started it, but nothing answered at %s within %v (last error: %v); check the app's log",
				ErrNotRunning, path, wait, reason(err))
		case <-tick.C:
		}
		_, herr := c.Hello(pctx)
		switch {
		case herr == nil:
			return c, nil
		case errors.Is(herr, ErrProtocolMismatch), errors.Is(herr, ErrUntrustedEndpoint):
			return nil, herr // waiting cannot help
		case pctx.Err() == nil:
			err = herr // a half-started app may fail in other ways: keep trying
		}
	}
}

// notListening reports whether err means that nothing listens on the socket
// (on Windows: no pipe of that name, ERROR_FILE_NOT_FOUND, which matches
// fs.ErrNotExist).
func notListening(err error) bool {
	return errors.Is(err, syscall.ENOENT) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ECONNREFUSED)
}

// reason returns the system error at the root of err, or else err, for a
// message that already names the socket.
func reason(err error) error {
	var errno syscall.Errno
	if errors.As(err, &errno) {
		return errno
	}
	return err
}
