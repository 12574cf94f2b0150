//go:build !unix

package markdown

import "errors"

// mkfifo: this system has no FIFOs in the file system.
func mkfifo(string) error { return errors.ErrUnsupported }
