//go:build unix

package safefile

import (
	"errors"
	"syscall"
)

// openFlags: never through a link at the path; never wait for a FIFO's writer.
const openFlags = syscall.O_NOFOLLOW | syscall.O_NONBLOCK

// readFlags: never wait for a FIFO's writer (the fstat that follows refuses it).
const readFlags = syscall.O_NONBLOCK

// isLoop reports O_NOFOLLOW's refusal of a link.
func isLoop(err error) bool { return errors.Is(err, syscall.ELOOP) }
