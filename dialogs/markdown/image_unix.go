//go:build unix

package markdown

import (
	"os"
	"syscall"
)

// openNoFollow opens a file for reading without blocking (a FIFO or device
// swapped in after the checks does not hang the open) and without following
// a symbolic link in its last element.
func openNoFollow(path string) (*os.File, error) {
	return os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK|syscall.O_NOFOLLOW, 0)
}
