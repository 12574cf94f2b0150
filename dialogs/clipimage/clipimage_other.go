//go:build !((linux && !android) || freebsd || openbsd || netbsd || dragonfly || windows || darwin)

package clipimage

import (
	"context"
	"errors"
	"fmt"
	"runtime"
)

// read is not implemented on this system (Android, iOS, Plan 9, …).
func read(context.Context) ([]byte, string, error) {
	return nil, "", fmt.Errorf("clipimage: pasting images is not supported on %s yet: %w", runtime.GOOS, errors.ErrUnsupported)
}
