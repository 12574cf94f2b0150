package e2e

import (
	"context"
	"feedback/ipc/wire"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// Every protocol revision against the built binary: 2026-07-28 without
// initialize (each request carries its _meta), the older ones with it.
// mcpshim's conformance matrix covers every tool; these check the same
// rows end to end, through the real stdio of the real process.

// revisionForms are the rows: a revision and whether its client is asked
// through a form when no window can be shown (2024-11-05 has no
// elicitation: the question is handed back for the chat).
var revisionForms = []struct {
	version string
	form    bool
}{
	{"2026-07-28", true}, // an input-required result, the call retried with the answer
	{"2025-11-25", true}, // elicitation/create
	{"2025-06-18", true},
	{"2024-11-05", false},
}

// headlessBinary points bin at headlessAlone for the test, or skips.
func headlessBinary(t *testing.T) {
	alone := headlessAlone(t)
	saved := bin
	bin = alone
	t.Cleanup(func() { bin = saved })
}

// headlessAlone is a copy of FEEDBACK_HEADLESS_BIN alone in a directory
// (it has no window app inside, starts fast, and with no feedback beside it
// starts none: what a server or a container holds), or skips.
func headlessAlone(t *testing.T) string {
	t.Helper()
	headless := os.Getenv("FEEDBACK_HEADLESS_BIN")
	if headless == "" {
		t.Skip("needs FEEDBACK_HEADLESS_BIN (see `make e2e`)")
	}
	data, err := os.ReadFile(headless)
	if err != nil {
		t.Fatal(err)
	}
	alone := filepath.Join(t.TempDir(), filepath.Base(headless))
	if err := os.WriteFile(alone, data, 0o755); err != nil {
		t.Fatal(err)
	}
	return alone
}

// Without a display, each revision's client lists the tools, gets a clear
// error for bad input, and is asked in the form its revision understands;
// the answer reaches the agent. 2026-07-28 is the case: before,
// the shim sent elicitation/create, mcp-go refused it, and the question
// went to the chat.
func TestRevisionsWithoutDisplay(t *testing.T) {
	headlessBinary(t)
	for _, row := range revisionForms {
		t.Run(row.version, func(t *testing.T) {
			forms := 0
			h := formHandler(func(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
				forms++
				return elicitResult(mcp.ElicitationResponseActionAccept, map[string]any{"answer": "SQLite"}), nil
			})
			sock := filepath.Join(t.TempDir(), "none.sock")
			c := newMCPClientAt(t, "rev-"+row.version, row.version, []client.ClientOption{client.WithElicitationHandler(h)},
				"DISPLAY=", "WAYLAND_DISPLAY=", "FEEDBACK_SOCKET="+sock)
			ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
			defer cancel()
			list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
			if err != nil || len(list.Tools) != len(wire.ToolNames()) {
				t.Fatalf("tools/list: %v, %v", err, list)
			}
			if r := callNow(t, c, "ask_choice", map[string]any{"question": "Which database?"}); !r.IsError || !strings.Contains(text(r), "options") {
				t.Errorf("bad input: isError %v, %q", r.IsError, text(r))
			}
			sc := structured(t, callNow(t, c, "ask_choice", map[string]any{"question": "Which database?", "options": []any{"Postgres", "SQLite"}}))
			switch {
			case row.form && (sc["status"] != "answered" || sc["answer"] != "SQLite" || sc["via"] != "elicitation" || forms != 1):
				t.Errorf("asked through the form: %d forms, %v", forms, sc)
			case !row.form && (sc["status"] != "needs_user_input" || forms != 0):
				t.Errorf("handed to the chat: %d forms, %v", forms, sc)
			}
		})
	}
}

// A 2026-07-28 client, which never sends initialize, is answered in a real
// window; the window names it ("From …", read from the request's _meta).
func TestStatelessClientAnsweredInWindow(t *testing.T) {
	requireSession(t)
	c := newMCPClientAt(t, "stateless-agent", "2026-07-28", nil)
	res := call(c, "interactive_feedback", map[string]any{"message": "Answer a stateless client?", "header_label": "Stateless"})
	win := findWindow(t, "Stateless — feedback")
	activate(t, win)
	typeText(t, "yes, from the window")
	windowShot(t, win, "stateless-client") // shows "From stateless-agent"
	key(t, "ctrl+Return")
	wantText(t, await(t, res), "User reply:\nyes, from the window")
}
