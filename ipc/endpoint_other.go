//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly || windows)

package ipc

import (
	"context"
	"errors"
	"fmt"
	"net"
)

// Listen is not supported on this system.
func Listen(path string) (net.Listener, error) {
	return nil, fmt.Errorf("ipc: listen on %s: %w", path, errors.ErrUnsupported)
}

// verifyEndpoint refuses every endpoint: nothing here can tell who owns it.
func verifyEndpoint(path string, uid int) error {
	return fmt.Errorf("ipc: cannot check who owns %s on this system: %w", path, errors.ErrUnsupported)
}

// dialEndpoint connects to the socket at path.
func dialEndpoint(ctx context.Context, path string) (net.Conn, error) {
	var d net.Dialer
	return d.DialContext(ctx, "unix", path)
}
