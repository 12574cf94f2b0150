//go:build unix

package app

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"syscall"

	"feedback/app/supervisor"
)

// StartUIProcess starts this binary's `feedback ui` with one end of a
// socketpair as its file descriptor 3, the UI protocol's channel (package
// uiproto): a private channel no other process can reach, closed for the UI
// process when this one exits however it exits. The UI process logs to
// this one's stderr. Kill is SIGKILL: it ends a stopped process too.
// Where it dies with the app whatever ends the app (dieWithParent), it
// can sleep: Stop and Continue are SIGSTOP and SIGCONT.
//
// It is this very build even after an upgrade replaced the binary's file
// under the running app, where the system allows (selfExecutable); where
// it does not, the UI process's Hello tells the app (supervisor.UIProcess).
func StartUIProcess() (supervisor.Child, error) {
	exe, err := os.Executable()
	if err != nil {
		return supervisor.Child{}, fmt.Errorf("finding this binary to start its UI process: %w", err)
	}
	syscall.ForkLock.RLock() // no other fork inherits the pair before close-on-exec is set
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return supervisor.Child{}, fmt.Errorf("making the UI process's channel: %w", err)
	}
	ours, theirs := os.NewFile(uintptr(fds[0]), "ui channel"), os.NewFile(uintptr(fds[1]), "ui channel (UI process)")
	defer theirs.Close()
	cmd := exec.Command(selfExecutable(exe), "ui")
	cmd.Args[0] = exe                   // its name in ps, whichever file it runs from
	cmd.ExtraFiles = []*os.File{theirs} // fd 3
	cmd.Stdout, cmd.Stderr = os.Stderr, os.Stderr
	sleeps := dieWithParent(cmd)
	if err := cmd.Start(); err != nil {
		ours.Close()
		return supervisor.Child{}, fmt.Errorf("starting %s ui: %w", exe, err)
	}
	conn, err := net.FileConn(ours)
	ours.Close()
	if err != nil {
		cmd.Process.Kill()
		cmd.Wait()
		return supervisor.Child{}, fmt.Errorf("the UI process's channel: %w", err)
	}
	c := supervisor.Child{Channel: conn, Wait: cmd.Wait, Kill: cmd.Process.Kill}
	if sleeps {
		c.Stop = func() error { return cmd.Process.Signal(syscall.SIGSTOP) }
		c.Continue = func() error { return cmd.Process.Signal(syscall.SIGCONT) }
	}
	return c, nil
}
