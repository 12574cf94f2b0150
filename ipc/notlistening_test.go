package ipc

import (
	"fmt"
	"io/fs"
	"os"
	"testing"
)

// On Windows a missing pipe is ERROR_FILE_NOT_FOUND, which is not
// syscall.ENOENT but matches fs.ErrNotExist: launch must still start the app.
func TestNotListeningOnAMissingEndpoint(t *testing.T) {
	missing := &os.PathError{Op: "open", Path: `\\.\pipe\feedback-x`, Err: fs.ErrNotExist}
	if !NotListening(fmt.Errorf("ipc: cannot reach the feedback app: %w", missing)) {
		t.Error("NotListening(a missing pipe) = false, want true")
	}
	if NotListening(fs.ErrPermission) {
		t.Error("NotListening(permission denied) = true, want false")
	}
}
