package store

import (
	"path/filepath"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// History's search finds an approval by its decision and by its call: the
// approval is kept whole (its Call and options' flags come back), and
// "denied" finds the denied one, not the allowed one.
func TestFindApprovalsByDecisionAndCall(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	for i, c := range []struct{ id, subject, chose string }{{"a1", "go test ./...", "Allow"}, {"a2", "rm -rf build", "Deny"}} {
		q := wire.Question{ID: c.id, Source: wire.SourceApproval, Title: "Run a command?", Call: &wire.ToolCall{Tool: "Bash", Subject: c.subject},
			Prompts: []wire.Prompt{{Markdown: "a call", Options: []wire.Option{{Label: "Allow", Allows: true}, {Label: "Deny"}}}}}
		if err := s.SaveQuestion(q, at.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
		if err := s.SaveAnswer(wire.Answer{QuestionID: c.id, Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{c.chose}}}}, at, true); err != nil {
			t.Fatal(err)
		}
	}
	for search, want := range map[string]string{"DENIED": "a2", "allowed": "a1", "rm -rf": "a2", "bash": "a2,a1"} {
		got, err := s.Find(Filter{Search: search})
		if err != nil {
			t.Fatal(err)
		}
		var ids string
		for i, e := range got {
			if i > 0 {
				ids += ","
			}
			ids += e.Record
		}
		if ids != want {
			t.Errorf("search %q finds %q, want %q", search, ids, want)
		}
		if len(got) > 0 && (got[0].Question.Call == nil || !got[0].Question.Prompts[0].Options[0].Allows) {
			t.Errorf("search %q: the approval came back without its call or flags: %+v", search, got[0].Question)
		}
	}
}
