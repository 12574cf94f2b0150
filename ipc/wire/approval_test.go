package wire

import (
	"errors"
	"strings"
	"testing"
)

// approvalQ is an approval as package approval asks it, with its options
// in other words than approval's English (the verdict never reads them).
func approvalQ(always bool) Question {
	opts := []Option{{Label: "Erlauben", Description: "nur diesmal", Allows: true}}
	if always {
		opts = append(opts, Option{Label: "Immer erlauben", Description: "in diesem Projekt", Allows: true, Rule: "Bash(npm test)"},
			Option{Label: "Bash(npm:*)", Description: "Vorschlag", Allows: true})
	}
	opts = append(opts, Option{Label: "Ablehnen"})
	return Question{ID: "a", Source: SourceApproval, Prompts: []Prompt{{Markdown: "npm test", Options: opts, Single: true}}}
}

func TestVerdict(t *testing.T) {
	chose := func(text string, labels ...string) Answer {
		return Answer{Status: StatusAnswered, Replies: []Reply{{Selected: labels, Text: text}}}
	}
	for _, tc := range []struct {
		name   string
		q      Question
		a      Answer
		want   Verdict
		wantOK bool
	}{
		{"allow", approvalQ(true), chose("", "Erlauben"), Verdict{Kind: VerdictAllowed}, true},
		{"always", approvalQ(true), chose("", "Immer erlauben"), Verdict{Kind: VerdictAlways, Rule: "Bash(npm test)"}, true},
		{"deny with a reason", approvalQ(true), chose("  use npm ci instead \n", "Ablehnen"), Verdict{Kind: VerdictDenied, Reason: "use npm ci instead"}, true},
		{"deny, no reason", approvalQ(false), chose("", "Ablehnen"), Verdict{Kind: VerdictDenied}, true},
		{"nothing chosen", approvalQ(false), chose("why not"), Verdict{Kind: VerdictDenied, Reason: "why not"}, true},
		{"a suggestion without its rule", approvalQ(true), chose("", "Bash(npm:*)"), Verdict{Kind: VerdictAlways}, true},
		{"two chosen never allow", approvalQ(true), chose("", "Erlauben", "Immer erlauben"), Verdict{Kind: VerdictDenied}, true},
		{"an unknown label", approvalQ(true), chose("", "Allow"), Verdict{Kind: VerdictDenied}, true},
		{"no replies", approvalQ(true), Answer{Status: StatusAnswered}, Verdict{Kind: VerdictDenied}, true},
		{"closed", approvalQ(true), Answer{Status: StatusDismissed}, Verdict{Kind: VerdictDenied, Closed: true}, true},
		{"quit", approvalQ(true), Answer{Status: StatusDismissed, Reason: ReasonQuit}, Verdict{Kind: VerdictDenied, Closed: true}, true},
		{"timeout", approvalQ(true), Answer{Status: StatusTimeout}, Verdict{Kind: VerdictTimedOut}, true},
		{"away", approvalQ(true), Answer{Status: StatusAway}, Verdict{Kind: VerdictAway}, true},
		{"pending", approvalQ(true), Answer{Status: "pending"}, Verdict{}, false},
		{"not an approval", Question{ID: "q", Source: "ask", Prompts: approvalQ(true).Prompts}, chose("", "Erlauben"), Verdict{}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := tc.q.Verdict(tc.a)
			if got != tc.want || ok != tc.wantOK {
				t.Errorf("Verdict = %+v, %v; want %+v, %v", got, ok, tc.want, tc.wantOK)
			}
			if got.Allowed() != (tc.want.Kind == VerdictAllowed || tc.want.Kind == VerdictAlways) {
				t.Errorf("Allowed() = %v for %s", got.Allowed(), got.Kind)
			}
		})
	}
}

func TestToolCallBrief(t *testing.T) {
	for _, tc := range []struct {
		name string
		c    ToolCall
		max  int
		want string
	}{
		{"command", ToolCall{Tool: "Bash", Subject: "rm -rf build"}, 60, "Bash `rm -rf build`"},
		{"no subject", ToolCall{Tool: "mcp__github__create_issue"}, 60, "mcp__github__create_issue"},
		{"cut inside the quotes", ToolCall{Tool: "Bash", Subject: "rsync -av --delete ./dist/ deploy@example.com:/srv/www/site/"}, 40, "Bash `rsync -av --delete ./dist/ deplo…`"},
		{"several lines", ToolCall{Tool: "Bash", Subject: "set -e\nmake\nmake install"}, 60, "Bash `set -e …`"},
		{"backtick", ToolCall{Tool: "Bash", Subject: "echo `date`"}, 60, "Bash `` echo `date` ``"},
		{"control characters and tabs", ToolCall{Tool: "Bash", Subject: "echo\x1b]0;pwned\x07\tdone\u202e"}, 60, "Bash `echo]0;pwned done`"},
		{"path", ToolCall{Tool: "Edit", Subject: "src/main.go"}, 60, "Edit `src/main.go`"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tc.c.Brief(tc.max)
			if got != tc.want {
				t.Errorf("Brief(%d) = %q, want %q", tc.max, got, tc.want)
			}
			if n := len([]rune(got)); n > tc.max {
				t.Errorf("Brief(%d) is %d runes", tc.max, n)
			}
		})
	}
}

func TestQuestionCallIsValidated(t *testing.T) {
	q := approvalQ(false)
	q.Call = &ToolCall{Tool: "Bash", Subject: "ls"}
	if err := q.Validate(); err != nil {
		t.Fatal(err)
	}
	for _, c := range []ToolCall{{Tool: " "}, {Tool: strings.Repeat("x", MaxCallToolBytes+1)},
		{Tool: "Bash", Subject: strings.Repeat("x", MaxCallSubjectBytes+1)}, {Tool: "Bash", Subject: "\xff"}} {
		q.Call = &c
		if err := q.Validate(); !errors.Is(err, &Error{Code: CodeInvalid}) || !strings.Contains(err.Error(), "call") {
			t.Errorf("call %.40q: err = %v, want CodeInvalid naming the call", c, err)
		}
	}
}
