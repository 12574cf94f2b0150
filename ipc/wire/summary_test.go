package wire

import "testing"

// Window titles and tray labels are plain text: no Markdown marks.
func TestSummaryIsPlainText(t *testing.T) {
	for _, tc := range []struct{ title, md, want string }{
		{"", "## Deploy **now** to `staging`?", "Deploy now to staging?"},
		{"**Plan** `v2`", "x", "Plan v2"},
		{"", "# Read [the spec](https://x.test/spec) ~~today~~", "Read the spec today"},
		{"", "Rename *old_name* to snake_case_name, 2*3", "Rename old_name to snake_case_name, 2*3"},
		{"", "### 部署到**生产**?", "部署到生产?"},
		// An MCP tool's name keeps its double underscores (a window titled
		// "Use mcpfeedbackask_choice?" named no tool there is).
		{"Use mcp__feedback__ask_choice?", "x", "Use mcp__feedback__ask_choice?"},
		{"", "Call __init__ or __strong__ text", "Call init or strong text"},
	} {
		q := Question{Title: tc.title, Prompts: []Prompt{{Markdown: tc.md}}}
		if got := q.Summary(60); got != tc.want {
			t.Errorf("Summary(%q, %q) = %q, want %q", tc.title, tc.md, got, tc.want)
		}
	}
}
