//go:build unix

package safefiletest

import (
	"os"
	"syscall"
	"testing"
	"time"
)

// Returns runs fn on its own goroutine and returns its error, or fails the
// test at once when fn has not returned within d (a FIFO opened or read
// blocks for ever; the goroutine is left behind).
func Returns(t testing.TB, d time.Duration, fn func() error) error {
	t.Helper()
	done := make(chan error, 1)
	go func() { done <- fn() }()
	select {
	case err := <-done:
		return err
	case <-time.After(d):
		t.Fatalf("blocked for %v (on a FIFO or a device?)", d)
		return nil
	}
}

// Mkfifo makes a FIFO at path, failing the test if it cannot.
func Mkfifo(t testing.TB, path string) {
	t.Helper()
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Fatal(err)
	}
}

// LinkDevZero makes path a symbolic link to /dev/zero, an endless file.
func LinkDevZero(t testing.TB, path string) {
	t.Helper()
	if err := os.Symlink("/dev/zero", path); err != nil {
		t.Fatal(err)
	}
}
