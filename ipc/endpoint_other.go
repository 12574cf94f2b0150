//go:build !(linux || darwin || freebsd || netbsd || openbsd || dragonfly)

package ipc

import (
	"errors"
	"fmt"
	"net"
)

// Listen is not supported on this system.
func Listen(path string) (net.Listener, error) {
	return nil, fmt.Errorf("ipc: listen on %s: %w", path, errors.ErrUnsupported)
}
