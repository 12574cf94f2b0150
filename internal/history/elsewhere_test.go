package history

import (
	"strings"
	"testing"
	"time"

	"feedback/internal/approval"
	"feedback/ipc/wire"
)

// An approval withdrawn by its callers (its client stopped waiting: the
// hook saw Claude Code go, the permission prompt tool's call was
// cancelled) was answered elsewhere: History and `feedback history` say
// so, never denied or timed out. Any other question withdrawn stays
// "withdrawn".
func TestWithdrawnApprovalAnsweredElsewhere(t *testing.T) {
	r := approval.Request{Client: "claude-code", Dir: "/home/u/shop", Tool: "Bash", Input: map[string]any{"command": "make"}}
	asked := time.Date(2026, 12, 7, 20, 0, 0, 0, time.UTC)
	entries := []Entry{
		{Question: approval.Question(r, "a", 0), AskedAt: asked, State: "withdrawn"},
		{Question: wire.Question{ID: "q", Client: "claude-code", Prompts: []wire.Prompt{{Markdown: "Ship it?"}}}, AskedAt: asked, State: "withdrawn"},
	}
	var got []Question
	for _, l := range ByLoop(entries) {
		for _, g := range l.Groups {
			got = append(got, g.Questions...)
		}
	}
	for _, q := range got {
		switch q.ID {
		case "a":
			if q.Decision == nil || q.Decision.Kind != wire.VerdictElsewhere {
				t.Errorf("withdrawn approval: decision %+v, want answered elsewhere", q.Decision)
			}
		case "q":
			if q.Decision != nil || q.Outcome != "withdrawn" {
				t.Errorf("withdrawn question: %s, %+v", q.Outcome, q.Decision)
			}
		}
	}
	md := Markdown(ByLoop(entries))
	for _, want := range []string{"— answered elsewhere\n", "Decision: none here: answered elsewhere", "— withdrawn\n"} {
		if !strings.Contains(md, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md)
		}
	}
}
