package uiproto

import (
	"os/exec"
	"strings"
	"testing"
)

// The protocol is all the app and the UI process share: it imports only
// wire and the standard library.
func TestImportsOnlyWire(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{if not .Standard}}{{.ImportPath}}{{end}}", "feedback/ipc/uiproto").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep != "feedback/ipc/uiproto" && dep != "feedback/ipc/wire" {
			t.Errorf("uiproto depends on %s", dep)
		}
	}
}
