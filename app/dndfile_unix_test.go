//go:build unix

package app

import (
	"errors"
	"path/filepath"
	"testing"
	"time"

	"feedback/internal/safefile"
	"feedback/internal/safefile/safefiletest"
)

// dnd.json is read only when regular: a FIFO or /dev/zero there is an
// error at once (the state is off), not a hang or a read without end.
func TestDNDFileRefusesSpecialFiles(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "fifo.json")
	safefiletest.Mkfifo(t, fifo)
	zero := filepath.Join(dir, "zero.json")
	safefiletest.LinkDevZero(t, zero)
	for _, path := range []string{fifo, zero} {
		err := safefiletest.Returns(t, 2*time.Second, func() error { _, err := dndFile(path).Load(); return err })
		if !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("%s: err = %v, want safefile.ErrNotRegular", path, err)
		}
	}
}
