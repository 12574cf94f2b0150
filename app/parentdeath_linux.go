package app

import (
	"os/exec"
	"syscall"
)

// dieWithParent has the kernel kill the process cmd starts (SIGKILL, which
// ends a stopped process too) when this one ends, however it ends: a UI
// process stopped while it sleeps (supervisor.Options.Sleep) cannot
// see its channel close, and would otherwise stay behind a killed app.
// Linux sends it when the thread that started the child exits; Go ends a
// thread only when a goroutine locked to it exits, which the app's
// goroutines never are (only clipimage on Windows locks one). It reports
// true: the process may be stopped.
func dieWithParent(cmd *exec.Cmd) bool {
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	return true
}
