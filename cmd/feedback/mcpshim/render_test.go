package mcpshim

import (
	"encoding/json"
	"testing"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

func TestRenderInteractiveFeedback(t *testing.T) {
	meta := feedbackMeta{questionID: "q1"}
	clamped := feedbackMeta{questionID: "q1", placeholderLength: 250}
	answered := func(r ...wire.Reply) wire.Answer {
		return wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, Replies: r, ElapsedMS: 1500}
	}
	for _, tc := range []struct {
		name       string
		answer     wire.Answer
		meta       feedbackMeta
		isError    bool
		text       string
		structured string // JSON; "" for an error result
	}{
		{
			name:       "options and reply",
			answer:     answered(wire.Reply{Selected: []string{"Apply", "Run tests"}, Text: "Also update the docs.\nThanks"}),
			meta:       meta,
			text:       "Selected options:\n- Apply\n- Run tests\n\nUser reply:\nAlso update the docs.\nThanks",
			structured: `{"status":"answered","selected_options":["Apply","Run tests"],"user_reply":"Also update the docs.\nThanks","images":0,"question_id":"q1","elapsed_ms":1500}`,
		},
		{
			name:       "options only",
			answer:     answered(wire.Reply{Selected: []string{"Apply"}}),
			meta:       meta,
			text:       "Selected options:\n- Apply",
			structured: `{"status":"answered","selected_options":["Apply"],"user_reply":"","images":0,"question_id":"q1","elapsed_ms":1500}`,
		},
		{
			name:       "reply only",
			answer:     answered(wire.Reply{Text: "go ahead"}),
			meta:       meta,
			text:       "User reply:\ngo ahead",
			structured: `{"status":"answered","selected_options":[],"user_reply":"go ahead","images":0,"question_id":"q1","elapsed_ms":1500}`,
		},
		{
			name:       "yes",
			answer:     answered(wire.Reply{Text: "yes"}),
			meta:       meta,
			text:       "User reply:\nyes",
			structured: `{"status":"answered","selected_options":[],"user_reply":"yes","images":0,"question_id":"q1","elapsed_ms":1500}`,
		},
		{
			name:       "empty submission",
			answer:     answered(wire.Reply{}),
			meta:       meta,
			text:       textNothing,
			structured: `{"status":"answered","selected_options":[],"user_reply":"","images":0,"question_id":"q1","elapsed_ms":1500,"message":"` + textNothing + `"}`,
		},
		{
			name:       "answered without replies",
			answer:     answered(),
			meta:       meta,
			text:       "The user submitted without selecting an option or typing a reply.",
			structured: `{"status":"answered","selected_options":[],"user_reply":"","images":0,"question_id":"q1","elapsed_ms":1500,"message":"` + textNothing + `"}`,
		},
		{
			name:       "dismissed",
			answer:     wire.Answer{QuestionID: "q1", Status: wire.StatusDismissed, ElapsedMS: 20},
			meta:       meta,
			text:       "The user dismissed the question without answering. Do not assume approval; ask again later or continue without it.",
			structured: `{"status":"dismissed","selected_options":[],"user_reply":"","images":0,"question_id":"q1","elapsed_ms":20}`,
		},
		{
			name:       "dismissed never carries a reply",
			answer:     wire.Answer{QuestionID: "q1", Status: wire.StatusDismissed, Replies: []wire.Reply{{Selected: []string{"A"}, Text: "t"}}},
			meta:       meta,
			text:       textDismissed,
			structured: `{"status":"dismissed","selected_options":[],"user_reply":"","images":0,"question_id":"q1","elapsed_ms":0}`,
		},
		{
			name:       "timeout",
			answer:     wire.Answer{QuestionID: "q1", Status: wire.StatusTimeout, ElapsedMS: 600000},
			meta:       meta,
			text:       textTimeout(),
			structured: `{"status":"timeout","selected_options":[],"user_reply":"","images":0,"question_id":"q1","elapsed_ms":600000}`,
		},
		{
			name:       "placeholder clamped",
			answer:     answered(wire.Reply{Text: "ok"}),
			meta:       clamped,
			text:       "User reply:\nok\n\nNote: feedback_placeholder was truncated from 250 to 200 characters.",
			structured: `{"status":"answered","selected_options":[],"user_reply":"ok","images":0,"question_id":"q1","elapsed_ms":1500,"placeholder_truncated":true,"placeholder_original_length":250,"placeholder_max_length":200}`,
		},
		{
			name:       "placeholder clamped on timeout",
			answer:     wire.Answer{QuestionID: "q1", Status: wire.StatusTimeout},
			meta:       clamped,
			text:       textTimeout() + "\n\nNote: feedback_placeholder was truncated from 250 to 200 characters.",
			structured: `{"status":"timeout","selected_options":[],"user_reply":"","images":0,"question_id":"q1","elapsed_ms":0,"placeholder_truncated":true,"placeholder_original_length":250,"placeholder_max_length":200}`,
		},
		{
			name:       "question id from the call when the answer has none",
			answer:     wire.Answer{Status: wire.StatusDismissed},
			meta:       feedbackMeta{questionID: "mine"},
			text:       textDismissed,
			structured: `{"status":"dismissed","selected_options":[],"user_reply":"","images":0,"question_id":"mine","elapsed_ms":0}`,
		},
		{
			name:    "unknown status",
			answer:  wire.Answer{QuestionID: "q1", Status: "snoozed", Replies: []wire.Reply{{Text: "t"}}},
			meta:    meta,
			isError: true,
			text:    `The feedback app ended question q1 with an unknown status "snoozed"; the user's answer is unknown. Update the feedback app and this MCP server to the same version, then call interactive_feedback again.`,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			res := renderInteractiveFeedback(tc.answer, tc.meta)
			if res.IsError != tc.isError {
				t.Errorf("IsError = %v, want %v", res.IsError, tc.isError)
			}
			if got := resultText(t, res); got != tc.text {
				t.Errorf("text:\n got: %q\nwant: %q", got, tc.text)
			}
			if tc.structured == "" {
				if res.StructuredContent != nil {
					t.Errorf("structuredContent = %#v, want none", res.StructuredContent)
				}
				return
			}
			got, err := json.Marshal(res.StructuredContent)
			if err != nil {
				t.Fatal(err)
			}
			// Every outcome but answered carries the text's words as its
			// message: Claude Code gives the model structuredContent alone.
			var m map[string]any
			json.Unmarshal(got, &m)
			if m["status"] != "answered" {
				if m["message"] != tc.text {
					t.Errorf("structured message %q, want the text %q", m["message"], tc.text)
				}
				delete(m, "message")
				got, _ = json.Marshal(m)
				var w map[string]any
				json.Unmarshal([]byte(tc.structured), &w)
				want, _ := json.Marshal(w)
				tc.structured = string(want)
			}
			if string(got) != tc.structured {
				t.Errorf("structuredContent:\n got: %s\nwant: %s", got, tc.structured)
			}
		})
	}
}

// resultText returns the text of a result that must hold exactly one text block.
func resultText(t testing.TB, res *mcp.CallToolResult) string {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("content has %d blocks, want 1: %#v", len(res.Content), res.Content)
	}
	tc, ok := mcp.AsTextContent(res.Content[0])
	if !ok {
		t.Fatalf("content[0] is %T, want text", res.Content[0])
	}
	return tc.Text
}

// Claude Code gives the model structuredContent alone: a "call again"
// carries its words there, and an answer the user's standing instruction
// (prompt_suffix) as next_step, which the text blocks end with.
func TestStructuredResultSaysWhatTheTextSays(t *testing.T) {
	pending := feedbackStatusResult(statusPending, "Not answered yet: call interactive_feedback again.", feedbackMeta{questionID: "q"})
	if got := pending.StructuredContent.(feedbackResult).Message; got != "Not answered yet: call interactive_feedback again." {
		t.Errorf("pending message %q", got)
	}
	res := renderInteractiveFeedback(wire.Answer{QuestionID: "q", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "ok"}}},
		feedbackMeta{questionID: "q", suffix: "Always run the tests first."})
	r := res.StructuredContent.(feedbackResult)
	if r.NextStep != "Always run the tests first." || r.Message != "" {
		t.Errorf("answered: next_step %q, message %q", r.NextStep, r.Message)
	}
	if last := res.Content[len(res.Content)-1].(mcp.TextContent).Text; last != r.NextStep {
		t.Errorf("the text ends with %q, the structured next_step is %q", last, r.NextStep)
	}
}

// The Gemini CLI's MCP connection calls itself gemini-cli-mcp-client and
// its hooks gemini-cli: both are gemini-cli, so a note for an agent sent
// to one reaches the other; other names stay as they are.
func TestOneClientOneName(t *testing.T) {
	for in, want := range map[string]string{"gemini-cli-mcp-client": "gemini-cli", "claude-code": "claude-code", "": ""} {
		if got := canonicalClient(in); got != want {
			t.Errorf("canonicalClient(%q) = %q, want %q", in, got, want)
		}
	}
}
