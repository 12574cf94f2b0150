package mcpshim

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"feedback/internal/approval"
	"feedback/ipc"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// The permission prompt tool asks in the approval window and answers in
// exactly Claude Code's shape: one text block with the JSON; Allow returns
// the input unchanged, Always allow also saves the rule in the project's
// settings.local.json, anything else denies with a message.
func TestPermissionPrompt(t *testing.T) {
	app := newFakeInbox()
	dir := t.TempDir()
	var reply func(q wire.Question) wire.Answer
	app.auto = func(q wire.Question) wire.Answer { return reply(q) }
	c, _ := startShimAt(t, Options{Connect: connectTo(app), Dir: dir}, testProtocolVersion, "claude-code")
	args := map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "npm test", "description": "Run the tests"}, "tool_use_id": "toolu_01"}
	decide := func(a func(wire.Question) wire.Answer) map[string]any {
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
	// chose answers with the option the window showed at index i.
	chose := func(i int) func(wire.Question) wire.Answer {
		return func(q wire.Question) wire.Answer {
			return wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{q.Prompts[0].Options[i].Label}}}}
		}
	}
	status := func(a wire.Answer) func(wire.Question) wire.Answer {
		return func(wire.Question) wire.Answer { return a }
	}
	if v := decide(chose(0)); !reflect.DeepEqual(v, map[string]any{"behavior": "allow", "updatedInput": args["input"]}) {
		t.Errorf("allow: %v", v)
	}
	q := <-app.asked
	if q.Source != approval.Source || q.Client != "claude-code" || !strings.Contains(q.Prompts[0].Markdown, "npm test") || q.Project != filepath.Base(dir) {
		t.Errorf("asked %+v", q)
	}
	if v := decide(chose(1)); v["behavior"] != "allow" {
		t.Errorf("always: %v", v)
	}
	saved, err := os.ReadFile(filepath.Join(dir, ".claude", "settings.local.json"))
	if err != nil || !strings.Contains(string(saved), `"Bash(npm test)"`) {
		t.Errorf("the rule was not saved: %s %v", saved, err)
	}
	// Another call: npm test itself is allowed now while Always holds
	// (TestPermissionPromptAlwaysStands).
	args["input"] = map[string]any{"command": "npm run lint", "description": "Lint"}
	for i, a := range []func(wire.Question) wire.Answer{chose(2), status(wire.Answer{Status: wire.StatusTimeout}), status(wire.Answer{Status: wire.StatusDismissed})} {
		if v := decide(a); v["behavior"] != "deny" || v["message"] == "" {
			t.Errorf("%d: %v", i, v)
		}
	}
	res, err := callCtx(context.Background(), c, "permission_prompt", map[string]any{"input": map[string]any{}})
	if err != nil || !res.IsError {
		t.Errorf("no tool_name: %+v %v", res, err)
	}
}

// inboxMessenger is the fake app that also takes messages.
type inboxMessenger struct {
	*fakeInbox
	messages chan wire.Message
}

func (f inboxMessenger) Message(_ context.Context, m wire.Message) (ipc.Receipt, error) {
	f.messages <- m
	return ipc.Receipt{ID: "m1", Notified: true}, nil
}

// When Always allow cannot be saved (here .claude is a link out of the
// project), the call is still allowed — the user allowed it — nothing is
// written outside the project, and the user is told through the app that
// the rule was not saved.
func TestPermissionPromptTellsWhenTheRuleIsNotSaved(t *testing.T) {
	app := inboxMessenger{newFakeInbox(), make(chan wire.Message, 1)}
	app.auto = func(q wire.Question) wire.Answer {
		return wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{q.Prompts[0].Options[1].Label}}}}
	}
	dir, elsewhere := t.TempDir(), t.TempDir()
	if err := os.Symlink(elsewhere, filepath.Join(dir, ".claude")); err != nil {
		t.Fatal(err)
	}
	c, _ := startShimAt(t, Options{Connect: func(context.Context) (wire.Asker, error) { return app, nil }, Dir: dir}, testProtocolVersion, "claude-code")
	res, err := callCtx(context.Background(), c, "permission_prompt", map[string]any{"tool_name": "Bash", "input": map[string]any{"command": "npm test"}})
	if err != nil || res.IsError {
		t.Fatalf("%+v %v", res, err)
	}
	var v map[string]any
	json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &v)
	if v["behavior"] != "allow" {
		t.Errorf("the call the user allowed was denied: %v", v)
	}
	if q := <-app.asked; q.Prompts[0].Options[1].Label != "Always allow in this project" {
		t.Fatalf("chose %q", q.Prompts[0].Options[1].Label)
	}
	select {
	case m := <-app.messages:
		if m.Title != "Always allow not saved" || !strings.Contains(m.Text, "The rule Bash(npm test) could not be saved in "+filepath.Join(dir, ".claude", "settings.local.json")) ||
			!strings.Contains(m.Text, "is a symbolic link") || m.Client != "claude-code" {
			t.Errorf("message %+v", m)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("the user was not told that the rule was not saved")
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("written outside the project: %v", entries)
	}
}

// The permission prompt tool allows a call of one of feedback's own tools
// at once: it is a question to the user, and no approval comes before it.
func TestPermissionPromptAllowsFeedbacksOwnTools(t *testing.T) {
	app := newFakeInbox()
	app.auto = func(q wire.Question) wire.Answer {
		t.Errorf("an approval window was asked for feedback's own tool: %s", q.Title)
		return wire.Answer{Status: wire.StatusDismissed}
	}
	c, _ := startShimAt(t, Options{Connect: connectTo(app), Dir: t.TempDir()}, testProtocolVersion, "claude-code")
	input := map[string]any{"question": "Ship it?"}
	res, err := callCtx(context.Background(), c, "permission_prompt", map[string]any{"tool_name": "mcp__feedback__ask_confirm", "input": input, "tool_use_id": "toolu_02"})
	if err != nil || res.IsError || len(res.Content) != 1 {
		t.Fatalf("result %+v, %v", res, err)
	}
	var v map[string]any
	if err := json.Unmarshal([]byte(res.Content[0].(mcp.TextContent).Text), &v); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(v, map[string]any{"behavior": "allow", "updatedInput": input}) {
		t.Errorf("decision %v, want allow with the input unchanged", v)
	}
}
