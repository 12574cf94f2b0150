//go:build unix

package store

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/internal/safefile"
	"feedback/internal/safefile/safefiletest"
)

// A link at the database path is refused: its target keeps its mode and
// content, and the link stays where it is (not moved aside as corrupt).
func TestOpenRefusesALinkAndLeavesItsTarget(t *testing.T) {
	dir := t.TempDir()
	target := filepath.Join(dir, "someone-elses-file")
	if err := os.WriteFile(target, []byte("not a database"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "feedback.db")
	if err := os.Symlink(target, path); err != nil {
		t.Fatal(err)
	}
	s, err := Open(path, nil)
	if err == nil {
		s.Close()
		t.Fatal("Open through a link worked")
	}
	if !errors.Is(err, safefile.ErrSymlink) || !strings.Contains(err.Error(), path) {
		t.Fatalf("err = %v, want safefile.ErrSymlink naming %s", err, path)
	}
	fi, _ := os.Stat(target)
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("the link's target is now %v", fi.Mode().Perm())
	}
	if data, _ := os.ReadFile(target); string(data) != "not a database" {
		t.Errorf("the link's target now holds %q", data)
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was moved or replaced: %v %v", fi, err)
	}
	matches, _ := filepath.Glob(path + ".corrupt-*")
	if len(matches) > 0 {
		t.Errorf("moved aside: %v", matches)
	}
}

// A FIFO at the database path fails Open, OpenReadOnly (feedback history)
// and Check (feedback doctor) at once.
func TestFIFODatabaseIsRefusedAtOnce(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	safefiletest.Mkfifo(t, path)
	for name, fn := range map[string]func() error{
		"Open":         func() error { s, err := Open(path, nil); s.Close(); return err },
		"OpenReadOnly": func() error { s, err := OpenReadOnly(path); s.Close(); return err },
		"Check":        func() error { _, err := Check(context.Background(), path); return err },
	} {
		if err := safefiletest.Returns(t, 5*time.Second, fn); !errors.Is(err, safefile.ErrNotRegular) {
			t.Errorf("%s: err = %v, want safefile.ErrNotRegular", name, err)
		}
	}
}
