package main

import (
	"os"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	"feedback/ipc/launch"
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

// The shim that feedback setup writes in MCP clients' configs
// (launch.ShimName, found beside the app) is the headless build above:
// make builds it under that name, and the packages ship it from there.
func TestSetupShimIsTheHeadlessBuild(t *testing.T) {
	mk, err := os.ReadFile("../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	re := regexp.MustCompile(`(?m)^\t.*-tags headless .*-o bin/(\S+) \./cmd/feedback$`)
	m := re.FindSubmatch(mk)
	if m == nil || string(m[1]) != launch.ShimName {
		t.Errorf("the Makefile's headless build is %q, want bin/%s (launch.ShimName)", m, launch.ShimName)
	}
	pkg, err := os.ReadFile("../../scripts/package.sh")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(pkg), "shimname="+launch.ShimName+"\n") {
		t.Errorf("scripts/package.sh does not ship %s", launch.ShimName)
	}
}
