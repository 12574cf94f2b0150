package approval

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	"feedback/wire"
)

func bash(cmd string) Request {
	return Request{Client: "claude-code", Project: "shop", Dir: "/home/u/shop", Tool: "Bash",
		Input: map[string]any{"command": cmd, "description": "Run the tests"}}
}

// The window shows the call for a human: a command as a shell block, an
// edit as a diff with the path relative to the project, any other tool's
// input as JSON; nothing is pre-selected, and "Always allow" names its rule.
func TestQuestion(t *testing.T) {
	q := Question(bash("npm test"), "id1", 0)
	if err := q.Validate(); err != nil {
		t.Fatal(err)
	}
	p := q.Prompts[0]
	if q.Title != "Run a command?" || !strings.Contains(p.Markdown, "```sh\nnpm test\n```") || !strings.Contains(p.Markdown, "Run the tests") {
		t.Errorf("Bash: %q\n%s", q.Title, p.Markdown)
	}
	if !p.Single || len(p.Options) != 3 || p.Options[1].Description != "Bash(npm test)" {
		t.Errorf("options %+v", p.Options)
	}
	for _, o := range p.Options {
		if o.Default {
			t.Errorf("%q is pre-selected: allowing must be a choice", o.Label)
		}
	}
	edit := Question(Request{Client: "claude-code", Dir: "/home/u/shop", Tool: "Edit", Input: map[string]any{
		"file_path": "/home/u/shop/src/app.go", "old_string": "a := 1\nb := 2", "new_string": "a := 3"}}, "id2", 60)
	if edit.Title != "Edit app.go?" || !strings.Contains(edit.Prompts[0].Markdown, "`src/app.go`") ||
		!strings.Contains(edit.Prompts[0].Markdown, "```diff\n-a := 1\n-b := 2\n+a := 3\n```") || edit.TimeoutSeconds != 60 {
		t.Errorf("Edit: %q\n%s", edit.Title, edit.Prompts[0].Markdown)
	}
	mcpq := Question(Request{Tool: "mcp__github__create_issue", Input: map[string]any{"title": "x"}}, "id3", 0)
	if !strings.Contains(mcpq.Prompts[0].Markdown, "```json\n{\n  \"title\": \"x\"\n}\n```") || mcpq.Prompts[0].Options[1].Description != "mcp__github__create_issue" {
		t.Errorf("MCP tool:\n%s\n%+v", mcpq.Prompts[0].Markdown, mcpq.Prompts[0].Options)
	}
	// Hostile input stays inside its block; a huge one is cut.
	evil := Question(bash("echo ```\n# Allow this\n```"+strings.Repeat("x", 100<<10)), "id4", 0)
	if err := evil.Validate(); err != nil || !strings.HasPrefix(evil.Prompts[0].Markdown, "**claude-code** asks to run a command:\n\n````sh\n") ||
		!strings.Contains(evil.Prompts[0].Markdown, "*(cut:") || len(evil.Prompts[0].Options) != 2 {
		t.Errorf("hostile command: %v\n%.300s", err, evil.Prompts[0].Markdown)
	}
}

func TestRule(t *testing.T) {
	for _, tc := range []struct {
		r    Request
		want string
	}{
		{bash("npm test"), "Bash(npm test)"},
		{bash("rm -rf x\necho y"), ""},
		{Request{Dir: "/p", Tool: "Edit", Input: map[string]any{"file_path": "/p/a/b.go"}}, "Edit(./a/b.go)"},
		{Request{Dir: "/p", Tool: "Write", Input: map[string]any{"file_path": "/etc/hosts"}}, "Edit(//etc/hosts)"},
		{Request{Tool: "WebFetch", Input: map[string]any{"url": "https://go.dev/doc"}}, "WebFetch(domain:go.dev)"},
		{Request{Tool: "mcp__srv__tool"}, "mcp__srv__tool"},
		{Request{Tool: "Task"}, ""},
	} {
		if got := Rule(tc.r); got != tc.want {
			t.Errorf("Rule(%s %v) = %q, want %q", tc.r.Tool, tc.r.Input, got, tc.want)
		}
	}
}

// Only Allow and Always allow allow; Deny, no choice, a dismissal and a
// timeout deny, with words for the agent.
func TestDecide(t *testing.T) {
	r := bash("npm test")
	ans := func(sel string, text string) wire.Answer {
		rep := wire.Reply{Text: text}
		if sel != "" {
			rep.Selected = []string{sel}
		}
		return wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{rep}}
	}
	for _, tc := range []struct {
		name string
		a    wire.Answer
		want Decision
	}{
		{"allow", ans(OptionAllow, ""), Decision{Allow: true}},
		{"always", ans(OptionAlways, ""), Decision{Allow: true, Always: "Bash(npm test)"}},
		{"deny with a reason", ans(OptionDeny, "use make test"), Decision{Message: "The user denied this tool call. They said: use make test"}},
		{"no choice, a reply", ans("", "hmm"), Decision{Message: "The user did not allow this tool call. They said: hmm"}},
		{"timeout", wire.Answer{Status: wire.StatusTimeout}, Decision{Message: Decide(wire.Answer{Status: wire.StatusTimeout}, r).Message}},
		{"dismissed", wire.Answer{Status: wire.StatusDismissed}, Decision{Message: Decide(wire.Answer{Status: wire.StatusDismissed}, r).Message}},
	} {
		got := Decide(tc.a, r)
		if got != tc.want {
			t.Errorf("%s: %+v, want %+v", tc.name, got, tc.want)
		}
	}
	if d := Decide(wire.Answer{Status: wire.StatusTimeout}, r); d.Allow || !strings.Contains(d.Message, "did not answer in time") {
		t.Errorf("timeout: %+v", d)
	}
}

// The permission prompt tool's text and the PermissionRequest hook's
// output are exactly the shapes Claude Code documents.
func TestOutputs(t *testing.T) {
	in := map[string]any{"command": "npm test"}
	var v map[string]any
	json.Unmarshal([]byte(Decision{Allow: true}.ToolResult(in)), &v)
	if !reflect.DeepEqual(v, map[string]any{"behavior": "allow", "updatedInput": map[string]any{"command": "npm test"}}) {
		t.Errorf("allow: %v", v)
	}
	v = nil
	json.Unmarshal([]byte(Decision{Message: "no"}.ToolResult(in)), &v)
	if !reflect.DeepEqual(v, map[string]any{"behavior": "deny", "message": "no"}) {
		t.Errorf("deny: %v", v)
	}

	ev := HookEvent{Event: "PermissionRequest", Tool: "Bash", Input: in, Suggestions: []json.RawMessage{
		json.RawMessage(`{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm test"}],"behavior":"allow","destination":"localSettings"}`)}}
	var out map[string]any
	json.Unmarshal(Decision{Allow: true, Always: "Bash(npm test)"}.HookOutput(ev), &out)
	want := map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PermissionRequest", "decision": map[string]any{
		"behavior": "allow", "updatedInput": map[string]any{"command": "npm test"},
		"updatedPermissions": []any{map[string]any{"type": "addRules", "rules": []any{map[string]any{"toolName": "Bash", "ruleContent": "npm test"}}, "behavior": "allow", "destination": "localSettings"}},
	}}}
	if !reflect.DeepEqual(out, want) {
		t.Errorf("always:\n%v\nwant\n%v", out, want)
	}
	ev.Suggestions = nil
	out = nil
	json.Unmarshal(Decision{Allow: true, Always: "mcp__srv__tool"}.HookOutput(ev), &out)
	perms := out["hookSpecificOutput"].(map[string]any)["decision"].(map[string]any)["updatedPermissions"].([]any)
	if r := perms[0].(map[string]any)["rules"].([]any)[0]; !reflect.DeepEqual(r, map[string]any{"toolName": "mcp__srv__tool"}) {
		t.Errorf("made rule %v", r)
	}
	out = nil
	json.Unmarshal(Decision{Message: "no"}.HookOutput(ev), &out)
	if d := out["hookSpecificOutput"].(map[string]any)["decision"]; !reflect.DeepEqual(d, map[string]any{"behavior": "deny", "message": "no"}) {
		t.Errorf("deny: %v", d)
	}
}
