// Package historytest holds the kept history that the tests of `feedback
// history` (cmd/feedback/historycmd) and of the History window
// (dialogs/historywin) both read: questions of agents' loops, tool-call
// approvals, and databases filled with them through the store's own API
// (app/store), as the app keeps them. Only tests import it.
package historytest

import (
	"path/filepath"
	"testing"
	"time"

	"feedback/app/store"
	"feedback/ipc/wire"
)

// T0 is when the fixtures' history starts; the tests read it an hour later.
var T0 = time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)

// Q is a question of client with the options Merge and Rebase; in a loop
// (loop not ""), its Context names the loop, phase, objective ("Ship " +
// loop) and iteration (2/5), as a loop's prompt asks it.
func Q(id, client, loop, phase, text string) wire.Question {
	q := wire.Question{ID: id, Source: "interactive_feedback", Client: client,
		Prompts: []wire.Prompt{{Markdown: text, Options: []wire.Option{{Label: "Merge"}, {Label: "Rebase"}}}}}
	if loop != "" {
		q.Context = []wire.Field{{Label: "Loop", Value: loop}, {Label: "Phase", Value: phase},
			{Label: "Objective", Value: "Ship " + loop}, {Label: "Iteration", Value: "2/5"}}
	}
	return q
}

// Outcomes is a history of one question of each outcome, asked the given
// minutes after T0:
//
//	q1  claude-code, loop L1, plan:   First at 0, answered at 1 (FirstAnswer)
//	q2  claude-code, loop L1, review: "Deploy to staging?" at 2, dismissed at 3
//	q3  cursor, loop L1, review:      "Drop the old table?" at 4, timed out at 14, not delivered
//	q4  cursor, no loop:              "Which name?" at 20, withdrawn at 21
//	q5  claude-code, loop L2, build:  "Still there?" at 30, open
type Outcomes struct {
	Question    func(id, client, loop, phase, text string) wire.Question // makes each question; nil: Q
	First       string                                                   // q1's text
	FirstAnswer wire.Answer                                              // q1's replies and images (Fill sets its question and status)
}

// Fill writes o through the store's own API into a new database in a
// directory of the test's, and returns the database's path.
func (o Outcomes) Fill(t testing.TB) string {
	t.Helper()
	ask := o.Question
	if ask == nil {
		ask = Q
	}
	path, s := create(t)
	defer s.Close()
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	at := func(m int) time.Time { return T0.Add(time.Duration(m) * time.Minute) }
	first := o.FirstAnswer
	first.QuestionID, first.Status = "q1", wire.StatusAnswered
	must(s.SaveQuestion(ask("q1", "claude-code", "L1", "plan", o.First), at(0)))
	must(s.SaveAnswer(first, at(1), true))
	must(s.SaveQuestion(ask("q2", "claude-code", "L1", "review", "Deploy to staging?"), at(2)))
	must(s.SaveAnswer(wire.Answer{QuestionID: "q2", Status: wire.StatusDismissed}, at(3), true))
	must(s.SaveQuestion(ask("q3", "cursor", "L1", "review", "Drop the old table?"), at(4)))
	must(s.SaveAnswer(wire.Answer{QuestionID: "q3", Status: wire.StatusTimeout}, at(14), false))
	must(s.SaveQuestion(ask("q4", "cursor", "", "", "Which name?"), at(20)))
	must(s.MarkWithdrawn("q4", at(21)))
	must(s.SaveQuestion(ask("q5", "claude-code", "L2", "build", "Still there?"), at(30)))
	return path
}

// ApprovalQ is a tool-call approval as package approval asks it: the whole
// call in the Markdown, its brief in Call, the options marked by flag.
func ApprovalQ(id, command string) wire.Question {
	rule := "Bash(" + command + ")"
	return wire.Question{ID: id, Source: wire.SourceApproval, Client: "claude-code", Project: "shop", Title: "Run a command?",
		Call: &wire.ToolCall{Tool: "Bash", Subject: command},
		Prompts: []wire.Prompt{{Markdown: "**claude-code** asks to run a command:\n\n```sh\n" + command + "\n```\n", Single: true,
			Options: []wire.Option{{Label: "Allow", Description: "this call only", Allows: true},
				{Label: "Always allow in this project", Description: rule, Allows: true, Rule: rule},
				{Label: "Deny", Description: "the agent is told your reason"}}}}}
}

// Approval is one kept approval (ApprovalQ): its id, its command, and
// the user's answer (FillApprovals sets its question).
type Approval struct {
	ID, Command string
	Answer      wire.Answer
}

// Approvals are one approval of each decision, oldest first: allowed,
// always allowed, denied with the reason "use make clean instead", timed
// out, denied while away.
func Approvals() []Approval {
	chose := func(label, text string) []wire.Reply { return []wire.Reply{{Selected: []string{label}, Text: text}} }
	return []Approval{
		{"allowed", "go test ./...", wire.Answer{Status: wire.StatusAnswered, Replies: chose("Allow", "")}},
		{"always", "npm test", wire.Answer{Status: wire.StatusAnswered, Replies: chose("Always allow in this project", "")}},
		{"denied", "rm -rf build", wire.Answer{Status: wire.StatusAnswered, Replies: chose("Deny", "use make clean instead")}},
		{"timeout", "git push --force", wire.Answer{Status: wire.StatusTimeout}},
		{"away", "make deploy", wire.Answer{Status: wire.StatusAway}},
	}
}

// FillApprovals keeps approvals through the store's own API in a new
// database in a directory of the test's, the first at T0 and each a
// minute after the one before, each answered 30 s after it was asked; it
// returns the database's path.
func FillApprovals(t testing.TB, approvals []Approval) string {
	t.Helper()
	path, s := create(t)
	defer s.Close()
	for i, c := range approvals {
		at := T0.Add(time.Duration(i) * time.Minute)
		if err := s.SaveQuestion(ApprovalQ(c.ID, c.Command), at); err != nil {
			t.Fatal(err)
		}
		c.Answer.QuestionID = c.ID
		if err := s.SaveAnswer(c.Answer, at.Add(30*time.Second), true); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// create opens a new database in a directory of the test's.
func create(t testing.TB) (string, *store.Store) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	return path, s
}
