package procsession

import (
	"fmt"
	"os"
	"os/exec"
	"testing"
)

// A session is ended once its process is gone, or its pid belongs to a
// process started at another time; a live one, or one it cannot tell
// about, is not.
func TestEnded(t *testing.T) {
	if StartTime(os.Getpid()) == "" {
		t.Skip("no /proc: no session can be told ended")
	}
	cmd := exec.Command("sleep", "60")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	child := fmt.Sprintf("%d@%s", cmd.Process.Pid, StartTime(cmd.Process.Pid))
	self := fmt.Sprintf("%d@%s", os.Getpid(), StartTime(os.Getpid()))
	if Ended(child) || Ended(self) || Ended(Parent()) {
		t.Fatalf("a live session is ended: child %v, self %v, parent %v", Ended(child), Ended(self), Ended(Parent()))
	}
	cmd.Process.Kill()
	cmd.Wait()
	if !Ended(child) {
		t.Errorf("the session of an exited process %s is not ended", child)
	}
	for _, s := range []string{
		fmt.Sprintf("%d@1", os.Getpid()), // the pid is reused by a process started at another time
	} {
		if !Ended(s) {
			t.Errorf("Ended(%q) = false", s)
		}
	}
	for _, s := range []string{"", fmt.Sprint(cmd.Process.Pid), "x@1", "-1@1", "0@5", fmt.Sprintf("%d@", cmd.Process.Pid)} {
		if Ended(s) {
			t.Errorf("Ended(%q) = true, want false: it cannot tell", s)
		}
	}
}
