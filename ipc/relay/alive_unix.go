//go:build unix

package relay

import (
	"errors"
	"syscall"
)

// alive reports whether the process pid runs.
func alive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
