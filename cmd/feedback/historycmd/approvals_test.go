package historycmd

import (
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/app/store"
	"feedback/internal/history"
	"feedback/ipc/wire"
)

// approvalQ is a tool-call approval as package approval asks it: the whole
// call in the Markdown, its brief in Call, the options marked by flag.
func approvalQ(id, command string) wire.Question {
	return wire.Question{ID: id, Source: wire.SourceApproval, Client: "claude-code", Project: "shop", Title: "Run a command?",
		Call: &wire.ToolCall{Tool: "Bash", Subject: command},
		Prompts: []wire.Prompt{{Markdown: "**claude-code** asks to run a command:\n\n```sh\n" + command + "\n```\n", Single: true,
			Options: []wire.Option{{Label: "Allow", Description: "this call only", Allows: true},
				{Label: "Always allow in this project", Description: "Bash(" + command + ")", Allows: true, Rule: "Bash(" + command + ")"},
				{Label: "Deny", Description: "the agent is told your reason"}}}}}
}

// fillApprovals keeps one approval of each decision through the store's API.
func fillApprovals(t *testing.T) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	chose := func(label, text string) []wire.Reply { return []wire.Reply{{Selected: []string{label}, Text: text}} }
	for i, c := range []struct {
		id, command string
		a           wire.Answer
	}{
		{"allowed", "go test ./...", wire.Answer{Status: wire.StatusAnswered, Replies: chose("Allow", "")}},
		{"always", "npm test", wire.Answer{Status: wire.StatusAnswered, Replies: chose("Always allow in this project", "")}},
		{"denied", "rm -rf build", wire.Answer{Status: wire.StatusAnswered, Replies: chose("Deny", "use make clean instead")}},
		{"timeout", "git push --force", wire.Answer{Status: wire.StatusTimeout}},
		{"away", "make deploy", wire.Answer{Status: wire.StatusAway}},
	} {
		at := t0.Add(time.Duration(i) * time.Minute)
		if err := s.SaveQuestion(approvalQ(c.id, c.command), at); err != nil {
			t.Fatal(err)
		}
		c.a.QuestionID = c.id
		if err := s.SaveAnswer(c.a, at.Add(30*time.Second), true); err != nil {
			t.Fatal(err)
		}
	}
	return path
}

// feedback history says what each approval decided and which call it was:
// a denied one is not "answered" with its reply lost among the options.
func TestApprovalDecisionsInMarkdown(t *testing.T) {
	out, errs, code := run(t, fillApprovals(t))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"### Run a command? — allowed\n",
		"Call: Bash `go test ./...`\n",
		"Decision: allowed (this call only).\n",
		"### Run a command? — always allowed\n",
		"Decision: always allowed in this project, rule `Bash(npm test)`.\n",
		"### Run a command? — denied\n",
		"Call: Bash `rm -rf build`\n",
		"> ```sh\n> rm -rf build\n> ```\n",
		"Decision: denied. The reason the agent was given:\n\n> use make clean instead\n",
		"### Run a command? — timed out\n",
		"Decision: not allowed: nobody answered in time.\n",
		"### Run a command? — denied while away\n",
		"Decision: denied while you were away (no window was shown).\n",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	if strings.Contains(out, "— answered") {
		t.Errorf("an approval is listed as merely answered:\n%s", out)
	}
}

func TestApprovalDecisionsInJSON(t *testing.T) {
	out, errs, code := run(t, fillApprovals(t), "--json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var got struct{ Loops []history.Loop }
	if err := json.Unmarshal([]byte(out), &got); err != nil {
		t.Fatalf("%v in %s", err, out)
	}
	if len(got.Loops) != 1 || len(got.Loops[0].Groups) != 1 {
		t.Fatalf("loops = %+v", got.Loops)
	}
	want := map[string]wire.Verdict{
		"allowed": {Kind: wire.VerdictAllowed},
		"always":  {Kind: wire.VerdictAlways, Rule: "Bash(npm test)"},
		"denied":  {Kind: wire.VerdictDenied, Reason: "use make clean instead"},
		"timeout": {Kind: wire.VerdictTimedOut},
		"away":    {Kind: wire.VerdictAway},
	}
	for _, q := range got.Loops[0].Groups[0].Questions {
		if q.Decision == nil || *q.Decision != want[q.ID] {
			t.Errorf("%s: decision %+v, want %+v", q.ID, q.Decision, want[q.ID])
		}
		if q.Call == nil || q.Call.Tool != "Bash" || q.Call.Subject == "" {
			t.Errorf("%s: call %+v", q.ID, q.Call)
		}
		delete(want, q.ID)
	}
	if len(want) != 0 {
		t.Errorf("not listed: %v", want)
	}
	if !strings.Contains(out, `"decision": {`) || !strings.Contains(out, `"verdict": "denied"`) || !strings.Contains(out, `"reason": "use make clean instead"`) {
		t.Errorf("the JSON names the decision otherwise:\n%s", out)
	}
}
