package uiprocess

import (
	"os/exec"
	"slices"
	"strings"
	"testing"
)

// The UI process knows the app only through the protocol (uiproto): ui
// imports neither the app's core nor the store, and does not link the MCP
// server (the shim's tool names come from wire).
func TestUIImportsNeitherCoreNorStoreNorMCP(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the go tool")
	}
	out, err := exec.Command("go", "list", "-f", "{{join .Imports \" \"}}", "feedback/dialogs/uiprocess").CombinedOutput()
	if err != nil {
		t.Fatalf("go list: %v\n%s", err, out)
	}
	imports := strings.Fields(string(out))
	for _, banned := range []string{"feedback/app/core", "feedback/app/store", "feedback/cmd/feedback/mcpshim", "feedback/app"} {
		if slices.Contains(imports, banned) {
			t.Errorf("ui imports %s", banned)
		}
	}
	out, err = exec.Command("go", "list", "-deps", "feedback/dialogs/uiprocess").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, dep := range strings.Fields(string(out)) {
		if dep == "feedback/app/core" || dep == "feedback/cmd/feedback/mcpshim" || strings.HasPrefix(dep, "github.com/mark3labs/mcp-go") {
			t.Errorf("the UI process links %s", dep)
		}
	}
}
