//go:build !headless

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// Under a C locale (LANG=C.UTF-8, LC_ALL=C.utf8, LANG=C) the app starts
// without a word on stderr: Fyne's lang package, which reads the locale
// in its init, logged "Fyne error: Error parsing user locale C" for them
// until Fyne 2.8 (in the shim that line landed in every MCP client's log).
// It fails if Fyne logs it again.
func TestFyneInitIsQuiet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the app")
	}
	exe := filepath.Join(t.TempDir(), "feedback")
	if out, err := exec.Command("go", "build", "-o", exe, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	for _, locale := range []string{"LANG=C.UTF-8", "LC_ALL=C.utf8", "LANG=C", "LANG=en_US.UTF-8"} {
		cmd := exec.Command(exe, "version")
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), locale}
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("feedback version with %s: %v", locale, err)
		}
		if stderr.Len() != 0 {
			t.Errorf("feedback version with %s wrote to stderr: %q", locale, stderr.String())
		}
	}
}
