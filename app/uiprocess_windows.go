package app

import (
	"fmt"
	"io"
	"os"
	"os/exec"
)

// StartUIProcess starts this binary's `feedback ui` with its standard input
// and output as the UI protocol's channel (package core): pipes only this
// process holds, closed for the UI process when this one exits.
func StartUIProcess() (io.ReadWriteCloser, func() error, error) {
	exe, err := os.Executable()
	if err != nil {
		return nil, nil, fmt.Errorf("finding this binary to start its UI process: %w", err)
	}
	cmd := exec.Command(exe, "ui")
	cmd.Stderr = os.Stderr
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, nil, err
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("starting %s ui: %w", exe, err)
	}
	return pipes{r, w}, cmd.Wait, nil
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
