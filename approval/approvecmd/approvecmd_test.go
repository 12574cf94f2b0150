package approvecmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"feedback/approval"
	"feedback/ipc"
	"feedback/wire"
)

type askFunc func(wire.Ask) (wire.Answer, error)

func (f askFunc) Ask(_ context.Context, a wire.Ask, _ func(ipc.Event)) (wire.Answer, error) {
	return f(a)
}

// The PermissionRequest event, as Claude Code's documentation shows it.
const permissionRequest = `{"session_id":"abc123","transcript_path":"/t.jsonl","cwd":"/home/u/shop","permission_mode":"default","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf node_modules","description":"Remove node_modules directory"},"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"rm -rf node_modules"}],"behavior":"allow","destination":"localSettings"}]}`

func run(t *testing.T, event string, asker ipc.Asker, connectErr error) (string, *wire.Question) {
	t.Helper()
	var out, errb bytes.Buffer
	var asked *wire.Question
	env := Env{Stdin: strings.NewReader(event), Stdout: &out, Stderr: &errb, NewID: func() string { return "q1" },
		Connect: func(context.Context) (ipc.Asker, error) {
			if connectErr != nil {
				return nil, connectErr
			}
			return askFunc(func(a wire.Ask) (wire.Answer, error) {
				asked = &a.Question
				return asker.Ask(context.Background(), a, nil)
			}), nil
		}}
	if code := Run(context.Background(), []string{"--from", "claude-code"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	return out.String(), asked
}

func decision(t *testing.T, out string) map[string]any {
	t.Helper()
	var v struct {
		H struct {
			Event    string         `json:"hookEventName"`
			Decision map[string]any `json:"decision"`
		} `json:"hookSpecificOutput"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil || v.H.Event != "PermissionRequest" {
		t.Fatalf("output %q: %v", out, err)
	}
	return v.H.Decision
}

func TestApproveHook(t *testing.T) {
	answer := func(a wire.Answer) ipc.Asker {
		return askFunc(func(wire.Ask) (wire.Answer, error) { return a, nil })
	}
	chose := func(label string) wire.Answer {
		return wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{label}}}}
	}
	out, q := run(t, permissionRequest, answer(chose(approval.OptionAllow)), nil)
	if d := decision(t, out); d["behavior"] != "allow" || d["updatedInput"].(map[string]any)["command"] != "rm -rf node_modules" {
		t.Errorf("allow: %v", d)
	}
	if q == nil || q.Project != "shop" || q.Client != "claude-code" || q.TimeoutSeconds != countdown || !strings.Contains(q.Prompts[0].Markdown, "rm -rf node_modules") {
		t.Errorf("asked %+v", q)
	}
	out, _ = run(t, permissionRequest, answer(chose(approval.OptionAlways)), nil)
	if d := decision(t, out); d["behavior"] != "allow" || d["updatedPermissions"] == nil {
		t.Errorf("always: %v", d)
	}
	out, _ = run(t, permissionRequest, answer(wire.Answer{Status: wire.StatusTimeout}), nil)
	if d := decision(t, out); d["behavior"] != "deny" || !strings.Contains(d["message"].(string), "did not answer in time") {
		t.Errorf("timeout: %v", d)
	}
	// No window: no decision, so Claude Code asks itself; never an allow.
	if out, _ := run(t, permissionRequest, nil, errors.New("no display")); out != "" {
		t.Errorf("without a window: %q", out)
	}
	for _, ev := range []string{`{"hook_event_name":"PreToolUse","tool_name":"Bash"}`, `not json`, ``} {
		if out, q := run(t, ev, answer(chose(approval.OptionAllow)), nil); out != "" || q != nil {
			t.Errorf("%q: printed %q, asked %v", ev, out, q != nil)
		}
	}
}
