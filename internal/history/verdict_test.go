package history

import (
	"encoding/json"
	"testing"

	"feedback/internal/approval"
	"feedback/ipc/wire"
)

// What History, feedback history and the away summary say an approval
// decided (wire.Question.Verdict, read from the stored question and
// answer) is what the hook and the permission prompt tool told the agent
// (approval.Decide), for every option of the window, no choice, a closed
// window, a timeout and the away outcome.
func TestVerdictAgreesWithDecide(t *testing.T) {
	suggestion := json.RawMessage(`{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"npm run lint:*"}],"behavior":"allow","destination":"localSettings"}`)
	for _, r := range []approval.Request{
		{Client: "claude-code", Dir: "/home/u/shop", Tool: "Bash", Input: map[string]any{"command": "npm run lint"}},
		{Client: "claude-code", Dir: "/home/u/shop", Tool: "Bash", Input: map[string]any{"command": "npm run lint"}, Suggestions: []json.RawMessage{suggestion}},
		{Client: "claude-code", Tool: "Bash", Input: map[string]any{"command": "make\nmake install"}},
		{Client: "claude-code", Dir: "/home/u/shop", Tool: "Edit", Input: map[string]any{"file_path": "/home/u/shop/a.go", "old_string": "a", "new_string": "b"}},
		{Client: "claude-code", Tool: "mcp__github__create_issue", Input: map[string]any{"title": "x"}},
	} {
		q := approval.Question(r, "q", 0)
		var answers []wire.Answer
		for _, o := range q.Prompts[0].Options {
			answers = append(answers, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{o.Label}, Text: "a reason"}}})
		}
		answers = append(answers, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "no choice"}}},
			wire.Answer{Status: wire.StatusDismissed}, wire.Answer{Status: wire.StatusTimeout}, wire.Answer{Status: wire.StatusAway})
		for _, a := range answers {
			d := approval.Decide(a, r)
			v, ok := q.Verdict(a)
			if !ok {
				t.Errorf("%s %v: no verdict", r.Tool, a)
				continue
			}
			always := d.Always != "" || d.Update != nil
			if v.Allowed() != d.Allow || (v.Kind == wire.VerdictAlways) != always {
				t.Errorf("%s %q, %s %v: verdict %+v, Decide %+v", r.Tool, r.Input, a.Status, a.Replies, v, d)
			}
			if d.Always != "" && v.Rule != d.Always {
				t.Errorf("%s %v: verdict's rule %q, Decide's %q", r.Tool, a.Replies, v.Rule, d.Always)
			}
		}
	}
}
