//go:build !unix

package dialogs

import "errors"

// mkfifo: this system has no FIFOs in the file system.
func mkfifo(string) error { return errors.ErrUnsupported }
