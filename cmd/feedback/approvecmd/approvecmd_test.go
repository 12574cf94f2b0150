package approvecmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"
)

type askFunc func(wire.Ask) (wire.Answer, error)

func (f askFunc) Ask(_ context.Context, a wire.Ask, _ func(wire.Event)) (wire.Answer, error) {
	return f(a)
}

// The PermissionRequest event, as Claude Code's documentation shows it.
const permissionRequest = `{"session_id":"abc123","transcript_path":"/t.jsonl","cwd":"/home/u/shop","permission_mode":"default","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf node_modules","description":"Remove node_modules directory"},"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"rm -rf node_modules"}],"behavior":"allow","destination":"localSettings"}]}`

func run(t *testing.T, event string, asker wire.Asker, connectErr error) (string, *wire.Question) {
	t.Helper()
	return runWaiting(t, event, asker, connectErr, 0)
}

// runWaiting is run with the hook's wait bounded by maxWait.
func runWaiting(t *testing.T, event string, asker wire.Asker, connectErr error, maxWait time.Duration) (string, *wire.Question) {
	t.Helper()
	var out, errb bytes.Buffer
	var asked *wire.Question
	env := Env{Stdin: strings.NewReader(event), Stdout: &out, Stderr: &errb, NewID: func() string { return "q1" }, MaxWait: maxWait,
		Connect: func(context.Context) (wire.Asker, error) {
			if connectErr != nil {
				return nil, connectErr
			}
			return ctxAskFunc(func(ctx context.Context, a wire.Ask) (wire.Answer, error) {
				asked = &a.Question
				return asker.Ask(ctx, a, nil)
			}), nil
		}}
	if code := Run(context.Background(), []string{"--from", "claude-code"}, env); code != 0 {
		t.Fatalf("exit %d: %s", code, errb.String())
	}
	return out.String(), asked
}

type ctxAskFunc func(context.Context, wire.Ask) (wire.Answer, error)

func (f ctxAskFunc) Ask(ctx context.Context, a wire.Ask, _ func(wire.Event)) (wire.Answer, error) {
	return f(ctx, a)
}

// One wait rule: the approval window counts down the countdown setting,
// as the permission prompt tool's and every question's do; if the hook's
// own time (the timeout setup gives it in Claude Code's settings) would
// end first, the question is withdrawn and the call denied as at the
// countdown's end — never allowed, never left to Claude Code's kill.
func TestApproveHookOneWaitRule(t *testing.T) {
	ended := make(chan struct{})
	blocks := ctxAskFunc(func(ctx context.Context, _ wire.Ask) (wire.Answer, error) {
		<-ctx.Done()
		close(ended)
		return wire.Answer{}, ctx.Err()
	})
	out, q := runWaiting(t, permissionRequest, blocks, nil, 50*time.Millisecond)
	if q == nil || q.TimeoutSeconds != 0 {
		t.Fatalf("asked %+v: want the app's countdown (TimeoutSeconds 0)", q)
	}
	if d := decision(t, out); d["behavior"] != "deny" || !strings.Contains(d["message"].(string), "did not answer in time") {
		t.Errorf("the hook's time ran out: %v", d)
	}
	select {
	case <-ended:
	case <-time.After(5 * time.Second):
		t.Error("the question was not withdrawn")
	}
	if maxHookWait != 870*time.Second {
		t.Errorf("maxHookWait %v: the hook's timeout in setup moved; the README's rule says 870 s", maxHookWait)
	}
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
	answer := func(a wire.Answer) wire.Asker {
		return askFunc(func(wire.Ask) (wire.Answer, error) { return a, nil })
	}
	// chose answers with the option the window showed at index i.
	chose := func(i int) wire.Asker {
		return askFunc(func(a wire.Ask) (wire.Answer, error) {
			label := a.Question.Prompts[0].Options[i].Label
			return wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{label}}}}, nil
		})
	}
	out, q := run(t, permissionRequest, chose(0), nil)
	if d := decision(t, out); d["behavior"] != "allow" || d["updatedInput"].(map[string]any)["command"] != "rm -rf node_modules" {
		t.Errorf("allow: %v", d)
	}
	if q == nil || q.Project != "shop" || q.Client != "claude-code" || q.TimeoutSeconds != countdown || !strings.Contains(q.Prompts[0].Markdown, "rm -rf node_modules") {
		t.Errorf("asked %+v", q)
	}
	out, _ = run(t, permissionRequest, chose(1), nil)
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
		if out, q := run(t, ev, chose(0), nil); out != "" || q != nil {
			t.Errorf("%q: printed %q, asked %v", ev, out, q != nil)
		}
	}
}

// Claude Code's own suggestion (npm run:* in the user's settings: every
// project) is never what "Always allow in this project" writes: the hook
// writes the exact rule the window showed, in the local settings. The
// suggestion is an option of its own, which writes it as shown.
func TestApproveHookWritesWhatTheWindowShowed(t *testing.T) {
	ev := `{"cwd":"/home/u/shop","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"npm run build"},` +
		`"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm run:*"}],"behavior":"allow","destination":"userSettings"}]}`
	pick := func(label string) wire.Asker {
		return askFunc(func(a wire.Ask) (wire.Answer, error) {
			for _, o := range a.Question.Prompts[0].Options {
				if o.Label == label && o.Allows {
					return wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{label}}}}, nil
				}
			}
			t.Fatalf("no option %q that allows in %+v", label, a.Question.Prompts[0].Options)
			return wire.Answer{}, nil
		})
	}
	perms := func(out string) string {
		data, _ := json.Marshal(decision(t, out)["updatedPermissions"])
		return string(data)
	}
	out, _ := run(t, ev, pick("Always allow in this project"), nil)
	if got := perms(out); got != `[{"behavior":"allow","destination":"localSettings","rules":[{"ruleContent":"npm run build","toolName":"Bash"}],"type":"addRules"}]` {
		t.Errorf("always in this project wrote %s", got)
	}
	out, _ = run(t, ev, pick("Always allow Bash(npm run:*) in every project (your user settings)"), nil)
	if got := perms(out); got != `[{"behavior":"allow","destination":"userSettings","rules":[{"ruleContent":"npm run:*","toolName":"Bash"}],"type":"addRules"}]` {
		t.Errorf("the suggestion wrote %s", got)
	}
}

// feedback's own tools are the questions to the user: the hook allows a
// call of one at once, with no approval window before the question (with
// --approvals, one came before each of the 11 tools until Always was
// chosen for it); another MCP server's tool is asked about as usual.
func TestApproveHookAllowsFeedbacksOwnTools(t *testing.T) {
	ev := `{"hook_event_name":"PermissionRequest","cwd":"/home/u/shop","tool_name":"mcp__feedback__ask_choice","tool_input":{"question":"Which?","options":["a","b"]}}`
	never := askFunc(func(wire.Ask) (wire.Answer, error) {
		t.Error("an approval window was asked for feedback's own tool")
		return wire.Answer{}, errors.New("no")
	})
	out, q := run(t, ev, never, nil)
	if d := decision(t, out); d["behavior"] != "allow" || d["updatedInput"].(map[string]any)["question"] != "Which?" || q != nil {
		t.Errorf("feedback's own tool: %v (asked %v)", d, q != nil)
	}
	other := strings.Replace(ev, "mcp__feedback__ask_choice", "mcp__feedbackish__run", 1)
	chose := askFunc(func(a wire.Ask) (wire.Answer, error) {
		return wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{a.Question.Prompts[0].Options[0].Label}}}}, nil
	})
	if _, q := run(t, other, chose, nil); q == nil {
		t.Error("another server's tool was not asked about")
	}
}
