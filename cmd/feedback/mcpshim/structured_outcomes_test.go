package mcpshim

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"feedback/ipc/wire"
)

// structuredWords are the string values of a result's structuredContent,
// one a line: what Claude Code gives the model of a result that has one
// (it drops the text blocks).
func structuredWords(res *mcp.CallToolResult) string {
	raw, _ := json.Marshal(res.StructuredContent)
	var v any
	json.Unmarshal(raw, &v)
	var b strings.Builder
	var walk func(any)
	walk = func(v any) {
		switch v := v.(type) {
		case string:
			b.WriteString(v + "\n")
		case map[string]any:
			for _, e := range v {
				walk(e)
			}
		case []any:
			for _, e := range v {
				walk(e)
			}
		}
	}
	walk(v)
	return b.String()
}

// Claude Code gives the model a result's structuredContent alone when it
// has one. For every tool that returns one, on every outcome that is not
// an answer, each thing its text blocks tell the agent (what happened,
// what to do next) is in the structured content too, word for word: a
// bare {"status":"pending",…} tells the model nothing.
func TestStructuredContentSaysWhatTheTextSays(t *testing.T) {
	tools := []struct {
		tool string
		args map[string]any
	}{
		{"interactive_feedback", map[string]any{"message": "Ship?"}},
		{"ask_user_question", map[string]any{"questions": []any{map[string]any{"question": "Ship?", "header": "Ship", "options": []any{map[string]any{"label": "Yes", "description": "y"}, map[string]any{"label": "No", "description": "n"}}, "multiSelect": false}}}},
		{"user_interact", map[string]any{"question": "Ship?"}},
		{"ask_choice", map[string]any{"question": "Ship?", "options": []any{"Yes", "No"}}},
		{"ask_confirm", map[string]any{"question": "Ship?"}},
		{"ask_text", map[string]any{"question": "Which branch?"}},
		{"ask_multi_select", map[string]any{"question": "Which?", "options": []any{"A", "B"}}},
		{"ask_human", humanArgs(t, nil)},
	}
	until := time.Now().Add(10 * time.Minute)
	outcomes := []struct {
		name   string
		answer wire.Answer
		err    error
	}{
		{"timeout", wire.Answer{Status: wire.StatusTimeout}, nil},
		{"dismissed", wire.Answer{Status: wire.StatusDismissed}, nil},
		{"quit", wire.Answer{Status: wire.StatusDismissed, Reason: wire.ReasonQuit}, nil},
		{"away", wire.Answer{Status: wire.StatusAway}, nil},
		{"call again", wire.Answer{}, wire.ErrPending},
		{"snoozed", wire.Answer{Snooze: &wire.Snooze{Until: until}}, wire.ErrPending},
		{"snoozed until back", wire.Answer{Snooze: &wire.Snooze{UntilBack: true}}, wire.ErrPending},
		{"submitted empty", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{}}}, nil},
	}
	for _, tc := range tools {
		for _, o := range outcomes {
			t.Run(tc.tool+"/"+o.name, func(t *testing.T) {
				app := askFunc(func(ctx context.Context, q wire.Question, _ func(wire.Event)) (wire.Answer, error) {
					a := o.answer
					a.QuestionID = q.ID
					if a.Status == wire.StatusAnswered && len(q.Prompts) > 1 {
						a.Replies = make([]wire.Reply, len(q.Prompts))
					}
					return a, o.err
				})
				c := startShim(t, Options{Connect: connectTo(app)})
				res, err := callCtx(context.Background(), c, tc.tool, tc.args)
				if err != nil {
					t.Fatal(err)
				}
				if res.StructuredContent == nil {
					t.Skip("no structuredContent: the client gives the model the text")
				}
				words := structuredWords(res)
				for _, c := range res.Content {
					tc, ok := mcp.AsTextContent(c)
					if !ok {
						continue
					}
					text := strings.TrimSpace(tc.Text)
					if strings.HasPrefix(text, "{") && json.Valid([]byte(text)) {
						continue // the structured content mirrored as text
					}
					for _, line := range strings.Split(text, "\n") {
						if line = strings.TrimSpace(line); line != "" && !strings.Contains(words, line) {
							t.Errorf("the text says %q; the structured content does not:\n%s", line, words)
						}
					}
				}
			})
		}
	}
}
