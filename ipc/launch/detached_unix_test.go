//go:build unix

package launch

import (
	"errors"
	"os"
	"path/filepath"
	"testing"

	"feedback/internal/safefile"
)

// The log is never appended to through a link planted at its path.
func TestStartDetachedRefusesALinkedLog(t *testing.T) {
	dir := t.TempDir()
	victim := filepath.Join(dir, "victim")
	os.WriteFile(victim, []byte("keep"), 0o644)
	log := filepath.Join(dir, "app.log")
	os.Symlink(victim, log)
	err := StartDetached("/bin/true", nil, log)
	if !errors.Is(err, safefile.ErrSymlink) {
		t.Fatalf("err = %v, want safefile.ErrSymlink", err)
	}
	if fi, _ := os.Stat(victim); fi.Mode().Perm() != 0o644 {
		t.Errorf("victim mode %v", fi.Mode().Perm())
	}
}
