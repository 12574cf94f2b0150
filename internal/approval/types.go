package approval

import (
	"fmt"
	"sort"
	"strings"
)

// The types Claude Code documents for the fields of the tools the window
// describes. A call with a field of another type is shown as it came
// (JSON) and can only be denied: the window's description of it would
// show something else than what runs (a command sent as an array was an
// empty shell block, and Allow sent the array back), and a rule would
// name a call nobody saw.
var fieldTypes = map[string]map[string]string{
	"Bash":         {"command": "string", "description": "string", "timeout": "number", "run_in_background": "boolean"},
	"Edit":         {"file_path": "string", "old_string": "string", "new_string": "string", "replace_all": "boolean"},
	"MultiEdit":    {"file_path": "string", "edits": "edits"},
	"Write":        {"file_path": "string", "content": "string"},
	"WebFetch":     {"url": "string", "prompt": "string"},
	"Read":         {"file_path": "string", "offset": "number", "limit": "number"},
	"NotebookEdit": {"notebook_path": "string", "new_source": "string", "cell_id": "string", "cell_type": "string", "edit_mode": "string"},
}

// editTypes are the types of each edit of MultiEdit.
var editTypes = map[string]string{"old_string": "string", "new_string": "string", "replace_all": "boolean"}

// wrongType is a field of a type other than the documented one.
type wrongType struct {
	field string // "command", "edits[0].replace_all"
	want  string // "string", "number", "boolean", "list of edits"
	got   string // the JSON type it came as
}

// jsonType is the JSON type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case string:
		return "string"
	case bool:
		return "boolean"
	case float64, int, int64:
		return "number"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return fmt.Sprintf("%T", v)
}

// wrongTypes are the fields of r's input whose type is not the one
// documented for r's tool, in the order of their names.
func wrongTypes(r Request) []wrongType {
	types, ok := fieldTypes[r.Tool]
	if !ok {
		return nil
	}
	var out []wrongType
	check := func(prefix string, in map[string]any, types map[string]string) {
		keys := make([]string, 0, len(in))
		for k := range in {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			want, ok := types[k]
			if !ok {
				continue // shown among the other fields
			}
			v := in[k]
			if want == "edits" {
				list, ok := v.([]any)
				if !ok {
					out = append(out, wrongType{prefix + k, "array", jsonType(v)})
				}
				for i, e := range list {
					if _, ok := e.(map[string]any); !ok {
						out = append(out, wrongType{fmt.Sprintf("%s%s[%d]", prefix, k, i), "object", jsonType(e)})
					}
				}
				continue
			}
			if got := jsonType(v); got != want {
				out = append(out, wrongType{prefix + k, want, got})
			}
		}
	}
	check("", r.Input, types)
	if r.Tool == "MultiEdit" {
		list, _ := r.Input["edits"].([]any)
		for i, e := range list {
			if m, ok := e.(map[string]any); ok {
				check(fmt.Sprintf("edits[%d].", i), m, editTypes)
			}
		}
	}
	return out
}

// describeWrongTypes writes the call of r, whose fields bad are not of
// their documented types, as it came: what the tool is, each such field
// named, and the whole input as JSON.
func describeWrongTypes(b *strings.Builder, s *shower, r Request, bad []wrongType) {
	l := s.l
	var items []string
	for _, w := range bad[:min(len(bad), 12)] {
		items = append(items, l.T("approval.wrong_type.field", map[string]any{"Field": "`" + w.field + "`", "Want": w.want, "Got": w.got}))
	}
	b.WriteString(l.T("approval.wrong_type", map[string]any{"Tool": "`" + oneLine(r.Tool) + "`", "Fields": strings.Join(items, l.T("approval.lookalike.sep"))}) + "\n\n")
	s.fence(b, "json", jsonText(r.Input))
}

// hasWrongType reports whether r has a field of an undocumented type.
func hasWrongType(r Request) bool { return len(wrongTypes(r)) > 0 }
