//go:build unix

package launch

import (
	"fmt"
	"os/exec"
	"syscall"
)

// StartDetached starts exe with args in a session of its own, so that it
// outlives the caller: stdin is /dev/null, stdout and stderr are appended to
// logPath (its directory is created 0700; a link or a FIFO there is refused,
// never followed), and the environment is inherited.
// It returns once the process has started; a background goroutine reaps it if
// it exits while the caller still runs.
func StartDetached(exe string, args []string, logPath string) error {
	return startDetachedEnv(exe, args, logPath, nil)
}

// startDetachedEnv is StartDetached with the environment env (nil: this
// process's).
func startDetachedEnv(exe string, args []string, logPath string, env []string) error {
	null, logf, err := detachedStdio(logPath)
	if err != nil {
		return err
	}
	defer logf.Close() // the child has its own copy
	defer null.Close()

	cmd := exec.Command(exe, args...)
	cmd.Env = env
	cmd.Stdin = null
	cmd.Stdout = logf
	cmd.Stderr = logf
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("launch: start %s: %w", exe, err)
	}
	// Wait reaps the child if it exits before we do (*os.File stdio: it
	// copies nothing) and tells connectAny it is gone.
	exited := make(chan error, 1)
	started(exited)
	go func() { exited <- cmd.Wait() }()
	return nil
}
