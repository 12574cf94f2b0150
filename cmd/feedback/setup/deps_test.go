package setup

import (
	"os/exec"
	"strings"
	"testing"
)

// setup edits files: where the app listens and which shim is installed
// beside the binary are passed in (Env.Socket, Env.Shim), so it depends
// on neither the transport nor the code that finds and starts the app.
func TestSetupImportsNeitherTransportNorLaunch(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	out, err := exec.Command("go", "list", "-deps", "feedback/cmd/feedback/setup").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "feedback/ipc" || dep == "feedback/ipc/launch" {
			t.Errorf("setup depends on %s", dep)
		}
	}
}
