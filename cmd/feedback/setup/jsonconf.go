package setup

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/tailscale/hujson"
)

// maxConfigSize bounds a configuration file setup reads (Claude Code's
// ~/.claude.json holds project histories and grows to megabytes).
const maxConfigSize = 64 << 20

// mergeJSON sets the feedback entry (container.name = fields) in a JSON
// document that may hold comments and trailing commas, and returns the new
// document and a line per change; no changes means the entry is already
// as wanted. Empty data is an empty document.
func mergeJSON(data []byte, container, name string, fields []field) ([]byte, []string, error) {
	data, v, root, err := parseJSONC(data)
	if err != nil {
		return nil, nil, err
	}
	standard := v.IsStandard()
	e := jsonEditor{indent: detectIndent(root)}
	servers, err := e.object(root, []string{container}, 1)
	if err != nil {
		return nil, nil, err
	}
	entry, err := e.object(servers, []string{container, name}, 2)
	if err != nil {
		return nil, nil, err
	}
	path := []string{container, name}
	for _, f := range fields {
		if m, ok := f.value.(map[string]string); ok {
			sub, err := e.object(entry, append(slices.Clone(path), f.key), 3)
			if err != nil {
				return nil, nil, err
			}
			keys := make([]string, 0, len(m))
			for k := range m {
				keys = append(keys, k)
			}
			slices.Sort(keys)
			for _, k := range keys {
				if err := e.set(sub, append(slices.Clone(path), f.key, k), m[k], 4); err != nil {
					return nil, nil, err
				}
			}
			continue
		}
		if err := e.set(entry, append(slices.Clone(path), f.key), f.value, 3); err != nil {
			return nil, nil, err
		}
	}
	if len(e.changes) == 0 {
		return data, nil, nil
	}
	if standard && !v.IsStandard() {
		v.Standardize() // a plain JSON file stays plain JSON
	}
	out := v.Pack()
	if err := checkJSONOnly(data, out, container, name, fields); err != nil {
		return nil, nil, err
	}
	return out, e.changes, nil
}

// jsonEditor adds and changes members, indenting new ones like the file.
type jsonEditor struct {
	indent  string
	changes []string
}

// detectIndent returns the indentation of the top level's first member,
// else two spaces.
func detectIndent(root *hujson.Object) string {
	if len(root.Members) > 0 {
		before := string(root.Members[0].Name.BeforeExtra)
		if i := strings.LastIndexByte(before, '\n'); i >= 0 {
			if ind := before[i+1:]; ind != "" && strings.Trim(ind, " \t") == "" {
				return ind
			}
		}
	}
	return "  "
}

func memberName(m hujson.ObjectMember) string {
	if lit, ok := m.Name.Value.(hujson.Literal); ok {
		return lit.String()
	}
	return ""
}

// find returns the member of obj named path's last key, nil when there is
// none; a key that appears more than once is an error naming it: setup
// would edit one while the client (JSON.parse keeps the last) reads another.
func find(obj *hujson.Object, path []string) (*hujson.ObjectMember, error) {
	key := path[len(path)-1]
	var found *hujson.ObjectMember
	n := 0
	for i := range obj.Members {
		if memberName(obj.Members[i]) == key {
			found = &obj.Members[i]
			n++
		}
	}
	if n > 1 {
		return nil, fmt.Errorf("%s appears %d times (a client reads only the last one); remove all but one by hand, then run feedback setup again", strings.Join(path, "."), n)
	}
	return found, nil
}

// object returns the object obj[path's last key], adding an empty one if
// there is none. depth is the new member's nesting level.
func (e *jsonEditor) object(obj *hujson.Object, path []string, depth int) (*hujson.Object, error) {
	key := path[len(path)-1]
	m, err := find(obj, path)
	if err != nil {
		return nil, err
	}
	if m != nil {
		o, ok := m.Value.Value.(*hujson.Object)
		if !ok {
			return nil, fmt.Errorf("%s is not a JSON object; fix or remove it by hand", strings.Join(path, "."))
		}
		return o, nil
	}
	o := &hujson.Object{}
	e.add(obj, key, hujson.Value{Value: o}, depth)
	e.changes = append(e.changes, "added "+strings.Join(path, "."))
	return o, nil
}

// set makes obj[path's last key] equal value, keeping the member's
// comments when it exists.
func (e *jsonEditor) set(obj *hujson.Object, path []string, value any, depth int) error {
	key := path[len(path)-1]
	raw, err := jsonText(value, "", "")
	if err != nil {
		return err
	}
	nv, err := hujson.Parse(raw)
	if err != nil {
		return err
	}
	m, err := find(obj, path)
	if err != nil {
		return err
	}
	if m != nil {
		old := m.Value.Clone()
		old.Standardize()
		var was any
		if json.Unmarshal(old.Pack(), &was) == nil && jsonEqual(was, value) {
			return nil
		}
		m.Value.Value = nv.Value
		e.changes = append(e.changes, fmt.Sprintf("set %s to %s (was %s)", strings.Join(path, "."), raw, bytes.TrimSpace(old.Pack())))
		return nil
	}
	e.add(obj, key, nv, depth)
	e.changes = append(e.changes, fmt.Sprintf("set %s to %s", strings.Join(path, "."), raw))
	return nil
}

// add appends the member key: value to obj, on its own line at depth.
func (e *jsonEditor) add(obj *hujson.Object, key string, value hujson.Value, depth int) {
	nl := "\n" + strings.Repeat(e.indent, depth)
	value.BeforeExtra = hujson.Extra(" ")
	value.AfterExtra = nil
	if n := len(obj.Members); n > 0 && obj.Members[n-1].Value.AfterExtra != nil {
		value.AfterExtra = hujson.Extra{} // the file ends members with a comma: so does this one
	}
	if len(obj.Members) == 0 && strings.Trim(string(obj.AfterExtra), " \t\r\n") == "" {
		obj.AfterExtra = hujson.Extra("\n" + strings.Repeat(e.indent, depth-1))
	}
	name := hujson.Value{BeforeExtra: hujson.Extra(nl), Value: hujson.String(key)}
	obj.Members = append(obj.Members, hujson.ObjectMember{Name: name, Value: value})
}

// jsonEqual compares a decoded JSON value with a Go value of the shapes
// setup writes.
func jsonEqual(decoded, want any) bool {
	raw, err := json.Marshal(want)
	if err != nil {
		return false
	}
	var w any
	if json.Unmarshal(raw, &w) != nil {
		return false
	}
	return reflect.DeepEqual(decoded, w)
}

// checkJSONOnly decodes both documents and makes sure they differ in
// container.name only.
func checkJSONOnly(before, after []byte, container, name string, fields []field) error {
	a, b, err := decodeBoth(before, after)
	if err != nil {
		return err
	}
	withoutFields(a, container, name, fields)
	withoutFields(b, container, name, fields)
	if !reflect.DeepEqual(a, b) {
		return fmt.Errorf("internal error: the edit would change more than %s.%s; nothing written", container, name)
	}
	return nil
}

// decodeJSONC decodes a JSON document that may hold comments and trailing
// commas.
func decodeJSONC(data []byte) (map[string]any, error) {
	std, err := hujson.Standardize(slices.Clone(data))
	if err != nil {
		return nil, err
	}
	var m map[string]any
	return m, json.Unmarshal(std, &m)
}

// decodeBoth decodes a document before and after setup's edit; an edit
// that does not decode is setup's own error.
func decodeBoth(before, after []byte) (a, b map[string]any, err error) {
	if a, err = decodeJSONC(before); err != nil {
		return nil, nil, err
	}
	if b, err = decodeJSONC(after); err != nil {
		return nil, nil, fmt.Errorf("internal error: the edited file does not parse (%v); nothing written", err)
	}
	return a, b, nil
}

// parseJSONC parses a configuration document (empty is {}), which must be
// an object; it returns the data parsed, the document and its top level.
func parseJSONC(data []byte) ([]byte, hujson.Value, *hujson.Object, error) {
	if len(bytes.TrimSpace(data)) == 0 {
		data = []byte("{}\n")
	}
	v, err := hujson.Parse(data)
	if err != nil {
		return nil, v, nil, fmt.Errorf("not valid JSON: %w", err)
	}
	root, ok := v.Value.(*hujson.Object)
	if !ok {
		return nil, v, nil, fmt.Errorf("the top level is not a JSON object")
	}
	return data, v, root, nil
}

// jsonText is v as JSON the way a person writes it in a settings file:
// <, > and & as they are (json.Marshal writes them \u003c, \u003e,
// \u0026: a rule "Bash(echo hi > proof.txt)" read as
// "Bash(echo hi \u003e proof.txt)"), indented with prefix and indent
// when indent is not "".
func jsonText(v any, prefix, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent(prefix, indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}
