package app

import (
	"fmt"
	"io"
	"os"
	"os/exec"

	"feedback/app/supervisor"
)

// StartUIProcess starts this binary's `feedback ui` with its standard input
// and output as the UI protocol's channel (package core): pipes only this
// process holds, closed for the UI process when this one exits.
func StartUIProcess() (supervisor.Child, error) {
	exe, err := os.Executable()
	if err != nil {
		return supervisor.Child{}, fmt.Errorf("finding this binary to start its UI process: %w", err)
	}
	cmd := exec.Command(exe, "ui")
	cmd.Stderr = os.Stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		return supervisor.Child{}, err
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return supervisor.Child{}, err
	}
	if err := cmd.Start(); err != nil {
		return supervisor.Child{}, fmt.Errorf("starting %s ui: %w", exe, err)
	}
	return supervisor.Child{Channel: pipes{r, w}, Wait: cmd.Wait, Kill: cmd.Process.Kill}, nil
}

// pipes is a channel made of a read and a write pipe.
type pipes struct {
	io.ReadCloser
	io.WriteCloser
}

func (p pipes) Close() error {
	werr := p.WriteCloser.Close()
	if err := p.ReadCloser.Close(); err != nil {
		return err
	}
	return werr
}
