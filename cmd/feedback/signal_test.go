//go:build unix

package main

import (
	"bufio"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// The first SIGTERM cancels the command's context; a second one ends a
// command that is stuck in something that does not watch it.
func TestSecondSignalEndsAStuckCommand(t *testing.T) {
	if os.Getenv("FEEDBACK_SIGNAL_CHILD") == "1" {
		ctx, stop := signalContext()
		defer stop()
		fmt.Println("ready")
		<-ctx.Done()
		fmt.Println("cancelled")
		time.Sleep(time.Hour) // stuck, as a read of a FIFO would be
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSecondSignalEndsAStuckCommand$")
	cmd.Env = append(os.Environ(), "FEEDBACK_SIGNAL_CHILD=1")
	out, _ := cmd.StdoutPipe()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(out)
	expectLine := func(want string) {
		t.Helper()
		if !lines.Scan() || lines.Text() != want {
			t.Fatalf("child said %q, want %q", lines.Text(), want)
		}
	}
	expectLine("ready")
	cmd.Process.Signal(syscall.SIGTERM)
	expectLine("cancelled")
	cmd.Process.Signal(syscall.SIGTERM)
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		var exit *exec.ExitError
		if !errors.As(err, &exit) || exit.Sys().(syscall.WaitStatus).Signal() != syscall.SIGTERM {
			t.Fatalf("the child ended with %v, want killed by SIGTERM", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a second SIGTERM did not end the child")
	}
}
