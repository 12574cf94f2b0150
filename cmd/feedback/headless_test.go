package main

import (
	"os/exec"
	"strings"
	"testing"
)

// The headless build carries the shim and feedback ask without the GUI
// toolkit, so it builds and runs where no display libraries exist.
func TestHeadlessBuildHasNoGUI(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "-tags", "headless", ".").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if strings.HasPrefix(dep, "fyne.io/") || strings.Contains(dep, "go-gl") || dep == "feedback/app" || dep == "feedback/dialogs" {
			t.Errorf("the headless build depends on %s", dep)
		}
	}
}
