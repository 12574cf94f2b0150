//go:build unix

package uiprocess

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
)

// InheritedChannel is the UI protocol's channel that the resident app
// handed this process as file descriptor 3 (app.StartUIProcess).
func InheritedChannel() (io.ReadWriteCloser, error) {
	f := os.NewFile(3, "ui channel")
	if f == nil {
		return nil, errors.New("no channel to the app: `feedback ui` is started by the feedback app, not by hand")
	}
	defer f.Close()
	c, err := net.FileConn(f)
	if err != nil {
		return nil, fmt.Errorf("no channel to the app on fd 3 (`feedback ui` is started by the feedback app, not by hand): %w", err)
	}
	return c, nil
}
