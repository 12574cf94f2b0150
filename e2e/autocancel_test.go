package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// With no display, a client that cancels the shim's form at once, as
// Claude Code's print mode does about 3 ms after it was sent, asked
// nobody: the result says that the user could not be asked and to ask in
// chat — in its text and in the structuredContent Claude Code gives the
// model — never "the user dismissed" (nor, for an approval, "the user
// closed the approval"). A form cancelled in a person's time is still the
// person's dismissal.
func TestNoGUIFormCancelledAtOnce(t *testing.T) {
	requireBinary(t)
	for _, version := range []string{"2026-07-28", "2025-11-25", "2025-06-18"} { // the form: an input-required result, elicitation/create
		t.Run(version, func(t *testing.T) { formCancelledAtOnce(t, version) })
	}
}

func formCancelledAtOnce(t *testing.T, version string) {
	var delay atomic.Int64 // how long the "user" takes to cancel, in ms
	var forms atomic.Int32
	h := formHandler(func(ctx context.Context, _ mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
		forms.Add(1)
		select {
		case <-time.After(time.Duration(delay.Load()) * time.Millisecond): // a person reading the form
		case <-ctx.Done():
			return nil, ctx.Err()
		}
		return elicitResult(mcp.ElicitationResponseActionCancel, nil), nil
	})
	c := newMCPClientAt(t, "claude-code", version, []client.ClientOption{client.WithElicitationHandler(h)}, noGUIEnv(t)...)
	feedback := map[string]any{"message": "Refactor the auth module?", "predefined_options": []any{"Refactor", "Leave it"}}
	auq := map[string]any{"questions": []any{map[string]any{"question": "Which database?", "header": "Database",
		"options": []any{map[string]any{"label": "Postgres"}, map[string]any{"label": "SQLite"}}}}}
	approval := map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "rm -rf build"}, "tool_use_id": "toolu_1"}

	notAsked := func(where, s string) {
		t.Helper()
		if !strings.Contains(s, "could not be asked") || !strings.Contains(s, "chat") {
			t.Errorf("cancelled at once: the %s does not say that the user could not be asked and to ask in chat:\n%s", where, s)
		}
		for _, dismissed := range []string{"dismissed", "closed the approval", "declined"} {
			if strings.Contains(s, dismissed) {
				t.Errorf("cancelled at once: the %s reads as the user's dismissal (%q):\n%s", where, dismissed, s)
			}
		}
	}
	for _, tool := range []struct {
		name string
		args map[string]any
	}{{"interactive_feedback", feedback}, {"ask_user_question", auq}} {
		r := callNow(t, c, tool.name, tool.args)
		sc, _ := json.Marshal(r.StructuredContent)
		t.Logf("%s, cancelled at once: structuredContent %s", tool.name, sc)
		notAsked(tool.name+" text", text(r))
		notAsked(tool.name+" structuredContent", string(sc))
	}
	var d map[string]any
	if err := json.Unmarshal([]byte(text(callNow(t, c, "permission_prompt", approval))), &d); err != nil || d["behavior"] != "deny" {
		t.Fatalf("permission_prompt: %v (%v)", d, err)
	}
	notAsked("permission_prompt's message", d["message"].(string))

	// A person who reads the form and closes it.
	delay.Store(1500)
	r := callNow(t, c, "interactive_feedback", feedback)
	if sc := structured(t, r); sc["status"] != "dismissed" || strings.Contains(text(r), "could not be asked") {
		t.Errorf("cancelled after 1.5 s: %v %q, want the user's dismissal", sc, text(r))
	}
	if err := json.Unmarshal([]byte(text(callNow(t, c, "permission_prompt", approval))), &d); err != nil || d["behavior"] != "deny" ||
		!strings.Contains(d["message"].(string), "closed the approval") {
		t.Errorf("permission_prompt cancelled after 1.5 s: %v (%v), want the user's closing of the approval", d, err)
	}
	if n := forms.Load(); n != 5 {
		t.Errorf("%d forms sent, want 5", n)
	}
}
