package launch

import (
	"fmt"
	"os"
	"path/filepath"

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
