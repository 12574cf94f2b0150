package e2e

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// The no-GUI tests run the shim without a display and with a socket no app
// listens on, so the app cannot be started: they need FEEDBACK_BIN only.

func requireBinary(t *testing.T) {
	t.Helper()
	if bin == "" {
		t.Skip("end-to-end tests need FEEDBACK_BIN (see `make e2e`)")
	}
}

// noGUIEnv is a shim environment without a display or a running app.
func noGUIEnv(t *testing.T) []string {
	dir, err := os.MkdirTemp("", "fbnogui")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return []string{"DISPLAY=", "WAYLAND_DISPLAY=", "FEEDBACK_SOCKET=" + filepath.Join(dir, "none.sock")}
}

// formHandler is a client's elicitation handler.
type formHandler func(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error)

func (f formHandler) Elicit(ctx context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
	return f(ctx, req)
}

func elicitResult(action mcp.ElicitationResponseAction, content map[string]any) *mcp.ElicitationResult {
	return &mcp.ElicitationResult{ElicitationResponse: mcp.ElicitationResponse{Action: action, Content: content}}
}

func callNow(t *testing.T, c *client.Client, tool string, args map[string]any) *mcp.CallToolResult {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	req := mcp.CallToolRequest{}
	req.Params.Name = tool
	req.Params.Arguments = args
	res, err := c.CallTool(ctx, req)
	if err != nil {
		t.Fatalf("tools/call %s: %v", tool, err)
	}
	return res
}

// A client that declared elicitation is asked through its own form, and
// what the user accepts there is the answer.
func TestNoGUIElicitationAccepts(t *testing.T) {
	requireBinary(t)
	var asked []mcp.ElicitationRequest
	h := formHandler(func(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
		asked = append(asked, req)
		if strings.Contains(req.Params.Message, "database") {
			return elicitResult(mcp.ElicitationResponseActionAccept, map[string]any{"answer": "SQLite"}), nil
		}
		return elicitResult(mcp.ElicitationResponseActionAccept, map[string]any{"answer": []any{"Refactor"}, "answer_text": "keep the API"}), nil
	})
	c := newMCPClient(t, "nogui-form", []client.ClientOption{client.WithElicitationHandler(h)}, noGUIEnv(t)...)

	r := callNow(t, c, "interactive_feedback", map[string]any{"message": "Refactor the auth module?", "predefined_options": []any{"Refactor", "Leave it"}})
	wantText(t, r, "Selected options:\n- Refactor\n\nUser reply:\nkeep the API")

	r = callNow(t, c, "ask_choice", map[string]any{"question": "Which database?", "options": []any{"Postgres", "SQLite"}})
	sc := structured(t, r)
	if sc["status"] != "answered" || sc["answer"] != "SQLite" || sc["via"] != "elicitation" {
		t.Errorf("ask_choice: %v", sc)
	}
	if len(asked) != 2 {
		t.Fatalf("%d forms, want 2", len(asked))
	}
	props, _ := asked[1].Params.RequestedSchema.(map[string]any)["properties"].(map[string]any)
	answer, _ := props["answer"].(map[string]any)
	if answer["type"] != "string" || len(answer["enum"].([]any)) != 2 {
		t.Errorf("ask_choice form: %v", asked[1].Params.RequestedSchema)
	}
}

// A form declined at once is flagged as probably not the user's: the agent
// is to ask in chat (needs_user_input), as the original does.
func TestNoGUIElicitationDeclined(t *testing.T) {
	requireBinary(t)
	h := formHandler(func(context.Context, mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
		return elicitResult(mcp.ElicitationResponseActionDecline, nil), nil
	})
	c := newMCPClient(t, "nogui-decline", []client.ClientOption{client.WithElicitationHandler(h)}, noGUIEnv(t)...)
	sc := structured(t, callNow(t, c, "ask_choice", map[string]any{"question": "Proceed how?", "options": []any{"Fast", "Safe"}}))
	if sc["status"] != "needs_user_input" || sc["auto_reject_suspected"] != true || sc["answer"] != "" {
		t.Errorf("ask_choice: %v", sc)
	}
}

// A client without elicitation gets needs_user_input with the question and
// the options, for the agent to ask in chat — within a couple of seconds.
func TestNoGUIAskInChat(t *testing.T) {
	requireBinary(t)
	c := newMCP(t, "nogui-chat", noGUIEnv(t)...)
	start := time.Now()
	sc := structured(t, callNow(t, c, "ask_choice", map[string]any{"question": "Which port?", "options": []any{"8080", "9090"}, "default": "9090"}))
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("took %v", d)
	}
	msg, _ := sc["message"].(string)
	if sc["status"] != "needs_user_input" || !strings.Contains(msg, "Which port?") || !strings.Contains(msg, "- 8080\n- 9090 (recommended)") || !strings.Contains(msg, "DISPLAY") {
		t.Errorf("ask_choice: %v", sc)
	}
	r := callNow(t, c, "interactive_feedback", map[string]any{"message": "Deploy now?", "predefined_options": []any{"Yes", "No"}})
	if r.IsError || !strings.Contains(text(r), "Ask the user this in chat") || !strings.Contains(text(r), "Deploy now?\nOptions (choose any number):\n- Yes\n- No") {
		t.Errorf("interactive_feedback: isError = %v, %q", r.IsError, text(r))
	}
	if sc := structured(t, r); sc["status"] != "needs_user_input" {
		t.Errorf("interactive_feedback: %v", sc)
	}
	if time.Since(start) > 4*time.Second {
		t.Errorf("both calls took %v", time.Since(start))
	}
}

// The headless build (no window app inside) finds no app to talk to and
// cannot start one: it asks in chat at once instead of waiting for an app.
func TestHeadlessShimWithoutApp(t *testing.T) {
	headlessBinary(t) // revisions_test.go
	dir := t.TempDir()
	c := newMCP(t, "headless", "FEEDBACK_SOCKET="+filepath.Join(dir, "none.sock"))
	start := time.Now()
	r := callNow(t, c, "interactive_feedback", map[string]any{"message": "Ship it?"})
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("took %v", d)
	}
	if sc := structured(t, r); sc["status"] != "needs_user_input" || !strings.Contains(text(r), "Ship it?") {
		t.Errorf("isError = %v, %v: %q", r.IsError, sc, text(r))
	}
}
