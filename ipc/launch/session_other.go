//go:build !unix

package launch

import (
	"errors"
	"fmt"
)

// Windows finds the app's named pipe by the user's SID: no record needed.

func sessionPath(func(string) string) string { return "" }

func systemRuntimeDir() string { return "" }

func readSession(string) (Session, error) {
	return Session{}, errors.New("no session record on this system")
}

func writeSession(string, []byte) error { return nil }

func startDetachedEnv(exe string, _ []string, _ string, _ []string) error {
	return fmt.Errorf("launch: start %s: %w", exe, errors.ErrUnsupported)
}
