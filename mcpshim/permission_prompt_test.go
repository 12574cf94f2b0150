package mcpshim

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"feedback/approval"
	"feedback/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// The permission prompt tool asks in the approval window and answers in
// exactly Claude Code's shape: one text block with the JSON; Allow returns
// the input unchanged, Always allow also saves the rule in the project's
// settings.local.json, anything else denies with a message.
func TestPermissionPrompt(t *testing.T) {
	app := newFakeInbox()
	dir := t.TempDir()
	var reply wire.Answer
	app.auto = func(q wire.Question) wire.Answer { return reply }
	c, _ := startShimAt(t, Options{Connect: connectTo(app), Dir: dir}, testProtocolVersion, "claude-code")
	args := map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "npm test", "description": "Run the tests"}, "tool_use_id": "toolu_01"}
	decide := func(a wire.Answer) map[string]any {
		t.Helper()
		reply = a
		res, err := callCtx(context.Background(), c, "permission_prompt", args)
		if err != nil || res.IsError || len(res.Content) != 1 {
			t.Fatalf("result %+v, %v", res, err)
		}
		var v map[string]any
		if err := json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	chose := func(label string) wire.Answer {
		return wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{label}}}}
	}
	if v := decide(chose(approval.OptionAllow)); !reflect.DeepEqual(v, map[string]any{"behavior": "allow", "updatedInput": args["input"]}) {
		t.Errorf("allow: %v", v)
	}
	q := <-app.asked
	if q.Source != approval.Source || q.Client != "claude-code" || !strings.Contains(q.Prompts[0].Markdown, "npm test") || q.Project != filepath.Base(dir) {
		t.Errorf("asked %+v", q)
	}
	if v := decide(chose(approval.OptionAlways)); v["behavior"] != "allow" {
		t.Errorf("always: %v", v)
	}
	saved, err := os.ReadFile(filepath.Join(dir, ".claude", "settings.local.json"))
	if err != nil || !strings.Contains(string(saved), `"Bash(npm test)"`) {
		t.Errorf("the rule was not saved: %s %v", saved, err)
	}
	for _, a := range []wire.Answer{chose(approval.OptionDeny), {Status: wire.StatusTimeout}, {Status: wire.StatusDismissed}} {
		if v := decide(a); v["behavior"] != "deny" || v["message"] == "" {
			t.Errorf("%+v: %v", a, v)
		}
	}
	res, err := callCtx(context.Background(), c, "permission_prompt", map[string]any{"input": map[string]any{}})
	if err != nil || !res.IsError {
		t.Errorf("no tool_name: %+v %v", res, err)
	}
}
