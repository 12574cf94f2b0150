//go:build !unix && !windows

package launch

import (
	"errors"
	"fmt"
)

// StartDetached is not supported on this system.
func StartDetached(exe string, args []string, logPath string) error {
	return fmt.Errorf("launch: start %s: %w", exe, errors.ErrUnsupported)
}
