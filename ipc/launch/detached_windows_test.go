//go:build windows

package launch

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func TestWindowsStartDetachedWritesTheLog(t *testing.T) {
	dir, err := os.MkdirTemp("", "detached")
	if err != nil {
		t.Fatal(err)
	}
	// Best effort, not t.TempDir: the child may still hold the log, and
	// wine 8.0 cannot remove a directory through Go 1.26's os.RemoveAll
	// ("Invalid function").
	t.Cleanup(func() { os.RemoveAll(dir) })
	log := filepath.Join(dir, "logs", "app.log")
	cmd := filepath.Join(os.Getenv("SystemRoot"), "System32", "cmd.exe")
	if err := StartDetached(cmd, []string{"/c", "echo detached-ok"}, log); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		b, _ := os.ReadFile(log)
		if strings.Contains(string(b), "detached-ok") {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the log %s has %q, want the child's output", log, b)
		}
		time.Sleep(20 * time.Millisecond) // polling the observable fact: the child's output
	}
}
