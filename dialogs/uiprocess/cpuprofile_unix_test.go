//go:build unix

package uiprocess

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// With FEEDBACK_UI_CPUPROFILE set, SIGUSR1 writes a CPU profile and the
// goroutines' stacks; without it the signal is not taken.
func TestProfileOnSignal(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ui.prof")
	t.Setenv("FEEDBACK_UI_CPUPROFILE", path)
	was := profileFor
	profileFor = 50 * time.Millisecond
	t.Cleanup(func() { profileFor = was })
	stop := profileOnSignal(nil)
	defer stop()
	if err := syscall.Kill(os.Getpid(), syscall.SIGUSR1); err != nil {
		t.Fatal(err)
	}
	var stacks []byte
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if b, err := os.ReadFile(path + ".1.goroutines"); err == nil && len(b) > 0 {
			stacks = b
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no goroutines' stacks written within 10 s of SIGUSR1")
		}
	}
	if fi, err := os.Stat(path + ".1"); err != nil || fi.Size() == 0 {
		t.Errorf("no CPU profile: %v", err)
	}
	if !strings.Contains(string(stacks), "goroutine profile") {
		t.Errorf("the stacks file is not a goroutine profile: %.80q", stacks)
	}
}
