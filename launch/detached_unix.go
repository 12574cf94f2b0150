//go:build unix

package launch

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"syscall"

	"feedback/safefile"
)

// StartDetached starts exe with args in a session of its own, so that it
// outlives the caller: stdin is /dev/null, stdout and stderr are appended to
// logPath (its directory is created 0700; a link or a FIFO there is refused,
// never followed), and the environment is inherited.
// It returns once the process has started; a background goroutine reaps it if
// it exits while the caller still runs.
func StartDetached(exe string, args []string, logPath string) error {
	if err := os.MkdirAll(filepath.Dir(logPath), 0o700); err != nil {
		return fmt.Errorf("launch: create log directory: %w", err)
	}
	// Never through a link at the log's path, never a FIFO there.
	logf, err := safefile.OpenFile(logPath, os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return fmt.Errorf("launch: open log: %w", err)
	}
	defer logf.Close() // the child has its own copy
	null, err := os.Open(os.DevNull)
	if err != nil {
		return fmt.Errorf("launch: %w", err)
	}
	defer null.Close()

	cmd := exec.Command(exe, args...)
	cmd.Stdin = null
	cmd.Stdout = logf
	cmd.Stderr = logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("launch: start %s: %w", exe, err)
	}
	go cmd.Wait() // no zombie if it exits before we do; *os.File stdio means Wait copies nothing
	return nil
}
