package e2e

import (
	"os"
	"os/exec"
	"strings"
	"testing"
)

// feedback doctor inside the test session (Xvfb, a private bus with a tray
// host, the running app): nothing fails, and the lines that matter say OK.
func TestDoctorInSession(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	cmd := exec.Command(bin, "doctor")
	cmd.Env = append(os.Environ(), env...)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("feedback doctor: %v\n%s", err, out)
	}
	t.Logf("feedback doctor:\n%s", out)
	for _, want := range []string{"OK    display", "OK    session bus", "OK    tray", "OK    app           feedback ", "answers at " + socket} {
		if !strings.Contains(string(out), want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
}
