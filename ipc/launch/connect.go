package launch

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"feedback/ipc"
)

// ErrNotRunning is returned (wrapped) by Connect when nothing answers on the
// socket: the app is not running, or was started and did not come up in time.
var ErrNotRunning = errors.New("launch: the feedback app is not running")

// startMu serialises connectAt's starts of the app.
var startMu sync.Mutex

// pollInterval is how often connectAt retries while the app starts.
const pollInterval = 20 * time.Millisecond

// connectAt is connectAny at one path.
func connectAt(ctx context.Context, path string, start func() error, wait time.Duration) (*ipc.Client, error) {
	return connectAny(ctx, []string{path}, start, wait)
}

// exitStatus says how a started app ended: its exit status, or "status 0".
func exitStatus(err error) string {
	if err == nil {
		return "status 0"
	}
	return err.Error()
}

// connectAny returns a Client for the app listening at the first of paths
// that answers, starting the app if none does. If nothing listens at any
// of them (no socket, or a stale one: ipc.NotListening), connectAny calls
// start once (nil means do not start: it fails with ErrNotRunning), then
// retries Hello at each path every 20 ms until one answers, wait has
// elapsed, the process it started (StartDetached) exits, or ctx ends. Any other failure of a first Hello, such as
// ipc.ErrProtocolMismatch or an endpoint refused as untrusted
// (ipc.ErrUntrustedEndpoint), is returned as is, without starting
// anything; either one while polling ends the wait at once. Starts are one
// at a time in the process (startMu). Errors name every path tried.
func connectAny(ctx context.Context, paths []string, start func() error, wait time.Duration) (*ipc.Client, error) {
	hello := func(ctx context.Context) (*ipc.Client, error) {
		var first error
		for _, p := range paths {
			c := &ipc.Client{Path: p}
			_, err := c.Hello(ctx)
			if err == nil || !ipc.NotListening(err) {
				return c, err
			}
			if first == nil {
				first = err
			}
		}
		return nil, first
	}
	where := strings.Join(paths, ", ")
	c, err := hello(ctx)
	if err == nil {
		return c, nil
	}
	if !ipc.NotListening(err) {
		return nil, err
	}
	if start == nil {
		return nil, fmt.Errorf("%w: nothing answers at %s (%v); start the feedback app first", ErrNotRunning, where, ipc.Reason(err))
	}
	// One start at a time in this process: a shim's greeting (Greet) and
	// its first call may both find no app; the one that waited finds the
	// app the other started. Calls to a running app never get here.
	startMu.Lock()
	defer startMu.Unlock()
	if c, herr := hello(ctx); herr == nil {
		return c, nil
	}
	takeStarted() // a start of before is not this one
	if err := start(); err != nil {
		return nil, fmt.Errorf("launch: start the feedback app: %w", err)
	}
	exited := takeStarted()

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
				ErrNotRunning, where, wait, ipc.Reason(err))
		case <-tick.C:
		case status := <-exited:
			// Gone without answering: one last look, in case it left
			// because another instance came up meanwhile.
			if c, herr := hello(pctx); herr == nil {
				return c, nil
			}
			return nil, fmt.Errorf("%w: started it, but it exited (%v) without answering at %s; check the app's log",
				ErrNotRunning, exitStatus(status), where)
		}
		c, herr := hello(pctx)
		switch {
		case herr == nil:
			return c, nil
		case errors.Is(herr, ipc.ErrProtocolMismatch), errors.Is(herr, ipc.ErrUntrustedEndpoint):
			return nil, herr // waiting cannot help
		case pctx.Err() == nil:
			err = herr // a half-started app may fail in other ways: keep trying
		}
	}
}
