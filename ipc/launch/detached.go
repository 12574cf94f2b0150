package launch

import (
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"feedback/internal/safefile"
)

// detachedStdio opens what a detached app gets as its standard files: the
// null device for stdin, and logPath, appended to, for stdout and stderr
// (its directory is created 0700; a link or a FIFO there is refused, never
// followed). The caller closes both once the child has started: it has its
// own copies.
func detachedStdio(logPath string) (null, logf *os.File, err error) {
	if err := os.MkdirAll(filepath.Dir(logPath), 0o700); err != nil {
		return nil, nil, fmt.Errorf("launch: create log directory: %w", err)
	}
	// Never through a link at the log's path, never a FIFO there.
	logf, err = safefile.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return nil, nil, fmt.Errorf("launch: open log: %w", err)
	}
	null, err = os.Open(os.DevNull)
	if err != nil {
		logf.Close()
		return nil, nil, fmt.Errorf("launch: %w", err)
	}
	return null, logf, nil
}

// A start reports its child's exit here, so that connectAny, waiting for
// the app it started, learns at once of an app that exited without ever
// answering (it found another instance, or could not listen where a stale
// session record sent it) instead of polling for the whole StartWait.
// Starts are one at a time (startMu): exitMu only orders the hand-over.
var (
	exitMu    sync.Mutex
	lastStart chan error // the exit of the latest detached child, nil before any
)

// started records exited as the latest start's exit.
func started(exited chan error) {
	exitMu.Lock()
	lastStart = exited
	exitMu.Unlock()
}

// takeStarted returns the latest start's exit and forgets it; nil when
// nothing was started through StartDetached (a test's start function).
func takeStarted() <-chan error {
	exitMu.Lock()
	defer exitMu.Unlock()
	c := lastStart
	lastStart = nil
	return c
}
