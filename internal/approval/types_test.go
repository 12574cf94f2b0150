package approval

import (
	"strings"
	"testing"
)

// A field whose type is not the one Claude Code documents for its tool
// (a command as an array, replace_all as a string) is shown as it came,
// as JSON, the field named, and only Deny is offered: Allow would send
// back a call the window could not show as it is.
func TestWrongTypes(t *testing.T) {
	for _, tc := range []struct {
		name  string
		r     Request
		field string
		want  string // in the JSON shown
	}{
		{"command as an array", Request{Tool: "Bash", Input: map[string]any{"command": []any{"rm", "-rf", "/"}}}, "command", `"command": [`},
		{"replace_all as a string", Request{Dir: "/p", Tool: "Edit", Input: map[string]any{"file_path": "/p/a.go", "old_string": "a", "new_string": "b", "replace_all": "true"}}, "replace_all", `"replace_all": "true"`},
		{"a number for a path", Request{Tool: "Write", Input: map[string]any{"file_path": 7.0, "content": "x"}}, "file_path", `"file_path": 7`},
		{"an edit's replace_all", Request{Tool: "MultiEdit", Input: map[string]any{"file_path": "/p/a.go", "edits": []any{map[string]any{"old_string": "a", "new_string": "b", "replace_all": 1.0}}}}, "edits[0].replace_all", `"replace_all": 1`},
		{"edits not a list", Request{Tool: "MultiEdit", Input: map[string]any{"file_path": "/p/a.go", "edits": "all"}}, "edits", `"edits": "all"`},
		{"a url as an object", Request{Tool: "WebFetch", Input: map[string]any{"url": map[string]any{"href": "https://x"}, "prompt": "p"}}, "url", `"href": "https://x"`},
		{"timeout as a string", Request{Tool: "Bash", Input: map[string]any{"command": "ls", "timeout": "600000"}}, "timeout", `"timeout": "600000"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := Question(tc.r, "id", 0)
			md := q.Prompts[0].Markdown
			if !strings.Contains(md, "```json\n") || !strings.Contains(md, tc.want) {
				t.Errorf("not shown as it came (want %q in JSON):\n%s", tc.want, md)
			}
			if !strings.Contains(md, "`"+tc.field+"`") || !strings.Contains(md, "not of the type Claude Code documents**") {
				t.Errorf("the field %s is not named:\n%s", tc.field, md)
			}
			ls, allows := labels(q)
			if len(ls) != 1 || allows[0] {
				t.Errorf("options %v %v: only Deny", ls, allows)
			}
			if d := Decide(choose("Allow"), tc.r); d.Allow {
				t.Errorf("Allow allowed: %+v", d)
			}
			if Rule(tc.r) != "" {
				t.Errorf("Rule = %q", Rule(tc.r))
			}
		})
	}
	// The documented types pass: numbers, booleans, strings.
	for _, r := range []Request{
		{Tool: "Bash", Input: map[string]any{"command": "ls", "timeout": 1000.0, "run_in_background": true, "description": "d"}},
		{Dir: "/p", Tool: "Edit", Input: map[string]any{"file_path": "/p/a.go", "old_string": "a", "new_string": "b", "replace_all": false}},
		{Tool: "MultiEdit", Input: map[string]any{"file_path": "/p/a.go", "edits": []any{map[string]any{"old_string": "a", "new_string": "b"}}}},
	} {
		if ls, _ := labels(Question(r, "id", 0)); len(ls) < 2 {
			t.Errorf("%s %v: %v", r.Tool, r.Input, ls)
		}
	}
}
