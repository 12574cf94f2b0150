package uiprocess

import (
	"os/exec"
	"strings"
	"testing"
)

// The UI process knows the app only through the protocol (uiproto): its
// whole dependency closure, not only its own imports, holds neither the
// app (its core, its store and SQLite), the settings file's code (the app
// alone reads and writes settings.json), the transport between the app
// and the commands (ipc, launch), nor the MCP server (the shim's tool
// names come from wire). History's rows and the settings reach it as
// uiproto messages.
func TestUIProcessLinksNoAppState(t *testing.T) {
	out, err := exec.Command("go", "list", "-deps", "feedback/dialogs/uiprocess").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	banned := []struct{ prefix, why string }{
		{"feedback/app", "the app (its core, store, notifier)"},
		{"modernc.org/sqlite", "SQLite (the app's database)"},
		{"database/sql", "a database"},
		{"feedback/internal/settings/settingsfile", "the settings file's code"},
		// The app's files are found (userdirs) and read safely (safefile)
		// by the app: the UI process opens none of them.
		{"feedback/internal/userdirs", "the paths of the app's files"},
		{"feedback/internal/safefile", "the reading of the app's files"},
		{"feedback/ipc/launch", "the commands' way to the app"},
		{"feedback/cmd/", "a command"},
		{"github.com/mark3labs/mcp-go", "the MCP server"},
	}
	deps := strings.Fields(string(out))
	for _, dep := range deps {
		for _, b := range banned {
			if dep == b.prefix || strings.HasPrefix(dep, b.prefix+"/") || (strings.HasSuffix(b.prefix, "/") && strings.HasPrefix(dep, b.prefix)) {
				t.Errorf("the UI process links %s: %s", dep, b.why)
			}
		}
		// Of ipc, only the protocol's types: not the socket transport.
		if (dep == "feedback/ipc" || strings.HasPrefix(dep, "feedback/ipc/")) && dep != "feedback/ipc/uiproto" && dep != "feedback/ipc/wire" {
			t.Errorf("the UI process links %s: of ipc only uiproto and wire", dep)
		}
	}
}
