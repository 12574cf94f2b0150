package uiprocess

import (
	"io"
	"os"
)

// InheritedChannel is the UI protocol's channel that the resident app
// handed this process: its standard input and output (app.StartUIProcess).
func InheritedChannel() (io.ReadWriteCloser, error) {
	return stdio{}, nil
}

type stdio struct{}

func (stdio) Read(p []byte) (int, error)  { return os.Stdin.Read(p) }
func (stdio) Write(p []byte) (int, error) { return os.Stdout.Write(p) }
func (stdio) Close() error {
	os.Stdout.Close()
	return os.Stdin.Close()
}
