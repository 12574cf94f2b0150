package approval

import (
	"strings"
	"unicode/utf8"

	"feedback/ipc/wire"
)

// subjectKeys are the input fields that name what a tool acts on, for the
// tools that have one: the first present names it.
var subjectKeys = map[string][]string{
	"Bash":         {"command"},
	"Edit":         {"file_path"},
	"MultiEdit":    {"file_path"},
	"Write":        {"file_path"},
	"Read":         {"file_path"},
	"NotebookEdit": {"notebook_path"},
	"WebFetch":     {"url"},
	"WebSearch":    {"query"},
	"Glob":         {"pattern"},
	"Grep":         {"pattern"},
}

// toolCall names r in brief (wire.Question.Call): the tool and what it acts
// on, a path relative to the project as the window shows it, cut to
// wire.MaxCallSubjectBytes.
// It is nil for a call without a tool's name.
func toolCall(r Request) *wire.ToolCall {
	if strings.TrimSpace(r.Tool) == "" {
		return nil
	}
	c := &wire.ToolCall{Tool: r.Tool}
	c.Tool = cutValid(c.Tool, wire.MaxCallToolBytes)
	for _, k := range subjectKeys[r.Tool] {
		s, _ := r.Input[k].(string)
		if s == "" {
			continue
		}
		if strings.HasSuffix(k, "_path") {
			s = r.rel(s)
		}
		c.Subject = cutValid(s, wire.MaxCallSubjectBytes)
		break
	}
	return c
}

// cutValid is s as valid UTF-8 (an invalid byte becomes U+FFFD) in at most
// max bytes, cut at a character's boundary.
func cutValid(s string, max int) string {
	s = strings.ToValidUTF8(s, "\uFFFD")
	if len(s) <= max {
		return s
	}
	s = s[:max]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
