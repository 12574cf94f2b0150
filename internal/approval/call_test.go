package approval

import (
	"strings"
	"testing"

	"feedback/ipc/wire"
)

// The question names its call in brief: the tool and what it acts on, a
// path as the window shows it (relative to the project), a long command
// cut to the wire's bound.
func TestQuestionNamesItsCall(t *testing.T) {
	long := strings.Repeat("é", wire.MaxCallSubjectBytes) // 2 bytes each
	for _, tc := range []struct {
		name string
		r    Request
		want *wire.ToolCall
	}{
		{"command", Request{Tool: "Bash", Input: map[string]any{"command": "rm -rf build"}}, &wire.ToolCall{Tool: "Bash", Subject: "rm -rf build"}},
		{"path in the project", Request{Dir: "/home/u/shop", Tool: "Edit", Input: map[string]any{"file_path": "/home/u/shop/src/a.go", "old_string": "a", "new_string": "b"}},
			&wire.ToolCall{Tool: "Edit", Subject: "src/a.go"}},
		{"url", Request{Tool: "WebFetch", Input: map[string]any{"url": "https://example.com/x", "prompt": "p"}}, &wire.ToolCall{Tool: "WebFetch", Subject: "https://example.com/x"}},
		{"an MCP tool", Request{Tool: "mcp__github__create_issue", Input: map[string]any{"title": "t"}}, &wire.ToolCall{Tool: "mcp__github__create_issue"}},
		{"cut", Request{Tool: "Bash", Input: map[string]any{"command": long}}, &wire.ToolCall{Tool: "Bash", Subject: long[:wire.MaxCallSubjectBytes]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := Question(tc.r, "q1", 0)
			if q.Call == nil || *q.Call != *tc.want {
				t.Fatalf("Call = %+v, want %+v", q.Call, tc.want)
			}
			if err := q.Validate(); err != nil {
				t.Fatal(err)
			}
		})
	}
}
