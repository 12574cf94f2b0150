//go:build windows

package launch

import (
	"errors"
	"fmt"
	"os/exec"
	"syscall"

	"golang.org/x/sys/windows"
)

// StartDetached starts exe with args so that it outlives the caller and shows
// no console: DETACHED_PROCESS (a console program started this way gets no
// console window; the GUI build has none anyway), a new process group (a
// Ctrl+C in the caller's console does not reach it) and, when the caller's
// job allows it, outside the caller's job object, so an MCP client that kills
// its servers' job on exit does not take the app down with it. stdin is NUL,
// stdout and stderr are appended to logPath (its directory is created), and
// the environment is inherited. It returns once the process has started.
func StartDetached(exe string, args []string, logPath string) error {
	null, logf, err := detachedStdio(logPath)
	if err != nil {
		return err
	}
	defer logf.Close() // the child has its own copy
	defer null.Close()

	start := func(flags uint32) (*exec.Cmd, error) {
		cmd := exec.Command(exe, args...)
		cmd.Stdin = null
		cmd.Stdout = logf
		cmd.Stderr = logf
		cmd.SysProcAttr = &syscall.SysProcAttr{HideWindow: true, CreationFlags: flags}
		return cmd, cmd.Start()
	}
	flags := uint32(windows.DETACHED_PROCESS | windows.CREATE_NEW_PROCESS_GROUP)
	cmd, err := start(flags | windows.CREATE_BREAKAWAY_FROM_JOB)
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		// The caller's job forbids breaking away: start inside it.
		cmd, err = start(flags)
	}
	if err != nil {
		return fmt.Errorf("launch: start %s: %w", exe, err)
	}
	// Wait releases the process handle if it exits before we do and
	// tells connectAny it is gone.
	exited := make(chan error, 1)
	started(exited)
	go func() { exited <- cmd.Wait() }()
	return nil
}
