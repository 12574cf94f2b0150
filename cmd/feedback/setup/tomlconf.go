package setup

import (
	"bytes"
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/pelletier/go-toml/v2/unstable"
)

// tomlTable is one [table] of a document as the parser saw it.
type tomlTable struct {
	path      []string
	headerEnd int      // offset just past the header's line (its newline excluded)
	kvs       []tomlKV // its key/value lines, in order
	lastEnd   int      // end of the line of its last key/value, or headerEnd
}

// tomlKV is one key = value expression.
type tomlKV struct {
	key        []string
	start, end int // the expression's bytes, "key = value" without a trailing comment
}

// scanTOML lists the tables of data with the byte ranges of their lines.
func scanTOML(data []byte) (root *tomlTable, tables []*tomlTable, err error) {
	var p unstable.Parser
	p.Reset(data)
	root = &tomlTable{}
	cur := root
	lineEnd := func(off int) int {
		if i := bytes.IndexByte(data[off:], '\n'); i >= 0 {
			return off + i
		}
		return len(data)
	}
	for p.NextExpression() {
		e := p.Expression()
		switch e.Kind {
		case unstable.Table, unstable.ArrayTable:
			var path []string
			end := 0
			for it := e.Key(); it.Next(); {
				k := it.Node()
				path = append(path, string(k.Data))
				end = int(k.Raw.Offset + k.Raw.Length)
			}
			t := &tomlTable{path: path, headerEnd: lineEnd(end)}
			t.lastEnd = t.headerEnd
			if e.Kind == unstable.ArrayTable {
				t.path = nil // never ours
			}
			tables = append(tables, t)
			cur = t
		case unstable.KeyValue:
			var key []string
			for it := e.Key(); it.Next(); {
				key = append(key, string(it.Node().Data))
			}
			kv := tomlKV{key: key, start: int(e.Raw.Offset), end: int(e.Raw.Offset + e.Raw.Length)}
			cur.kvs = append(cur.kvs, kv)
			cur.lastEnd = lineEnd(kv.end)
		}
	}
	if err := p.Error(); err != nil {
		return nil, nil, fmt.Errorf("not valid TOML: %w", err)
	}
	return root, tables, nil
}

// tomlEdit replaces data[start:end] with text.
type tomlEdit struct {
	start, end int
	text       string
}

// encodeKV returns "key = value" encoded by go-toml (maps as inline tables).
func encodeKV(key string, value any) (string, error) {
	var b bytes.Buffer
	enc := toml.NewEncoder(&b)
	if m, ok := value.(map[string]string); ok {
		// An inline table: { A = "b" }.
		var parts []string
		keys := make([]string, 0, len(m))
		for k := range m {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			kv, err := encodeKV(k, m[k])
			if err != nil {
				return "", err
			}
			parts = append(parts, kv)
		}
		return key + " = { " + strings.Join(parts, ", ") + " }", nil // key: a fixed bare key (env)
	}
	if err := enc.Encode(map[string]any{key: value}); err != nil {
		return "", err
	}
	return strings.TrimRight(b.String(), "\n"), nil
}

// mergeTOML sets the table [container.name] to hold fields in a TOML
// document, keeping every other byte, and returns the new document and a
// line per change; no changes means it was already as wanted.
func mergeTOML(data []byte, container, name string, fields []field) ([]byte, []string, error) {
	var before map[string]any
	if err := toml.Unmarshal(data, &before); err != nil {
		return nil, nil, fmt.Errorf("not valid TOML: %w", err)
	}
	if v, ok := before[container]; ok {
		if _, table := v.(map[string]any); !table {
			return nil, nil, fmt.Errorf("%s is not a table (it is a %T); fix it by hand", container, v)
		}
		if v, ok := v.(map[string]any)[name]; ok {
			if _, table := v.(map[string]any); !table {
				return nil, nil, fmt.Errorf("%s.%s is not a table (it is a %T); fix it by hand", container, name, v)
			}
		}
	}
	_, tables, err := scanTOML(data)
	if err != nil {
		return nil, nil, err
	}
	want := []string{container, name}
	var ours *tomlTable
	for _, t := range tables {
		if slices.Equal(t.path, want) {
			ours = t
		}
	}
	display := container + "." + name
	var edits []tomlEdit
	var changes []string
	if ours == nil {
		if s, ok := before[container].(map[string]any); ok && s[name] != nil {
			return nil, nil, fmt.Errorf("%s is written in a form setup does not edit (an inline table, dotted keys, or only sub-tables); write it as a [%s] table with its keys by hand", display, display)
		}
		var b strings.Builder
		if len(data) > 0 && !bytes.HasSuffix(data, []byte("\n")) {
			b.WriteString("\n")
		}
		if len(bytes.TrimSpace(data)) > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(&b, "[%s]\n", display)
		for _, f := range fields {
			kv, err := encodeKV(f.key, f.value)
			if err != nil {
				return nil, nil, err
			}
			b.WriteString(kv + "\n")
		}
		edits = append(edits, tomlEdit{len(data), len(data), b.String()})
		changes = append(changes, "added ["+display+"]")
	} else {
		current := subTable(before, container, name)
		for _, f := range fields {
			if m, ok := f.value.(map[string]string); ok {
				e, c, err := mergeTOMLMap(tables, ours, current, want, f.key, m)
				if err != nil {
					return nil, nil, err
				}
				edits, changes = append(edits, e...), append(changes, c...)
				continue
			}
			if tomlEqual(current[f.key], f.value) {
				continue
			}
			kv, err := encodeKV(f.key, f.value)
			if err != nil {
				return nil, nil, err
			}
			if i := slices.IndexFunc(ours.kvs, func(kv tomlKV) bool { return slices.Equal(kv.key, []string{f.key}) }); i >= 0 {
				edits = append(edits, tomlEdit{ours.kvs[i].start, ours.kvs[i].end, kv})
				changes = append(changes, fmt.Sprintf("set %s.%s (was %s)", display, kv, strings.Join(strings.Fields(string(data[ours.kvs[i].start:ours.kvs[i].end])), " ")))
			} else {
				edits = append(edits, tomlEdit{ours.lastEnd, ours.lastEnd, "\n" + kv})
				changes = append(changes, fmt.Sprintf("set %s.%s", display, kv))
			}
		}
	}
	if len(edits) == 0 {
		return data, nil, nil
	}
	out := applyEdits(data, edits)
	if err := checkTOMLOnly(before, out, container, name, fields); err != nil {
		return nil, nil, err
	}
	return out, changes, nil
}

// mergeTOMLMap merges m into the table key of our table: a
// [container.name.key] table when there is one, else an inline table.
func mergeTOMLMap(tables []*tomlTable, ours *tomlTable, current map[string]any, path []string, key string, m map[string]string) ([]tomlEdit, []string, error) {
	have, _ := current[key].(map[string]any)
	merged := map[string]string{}
	for k, v := range have {
		s, ok := v.(string)
		if !ok {
			return nil, nil, fmt.Errorf("%s.%s.%s is not a string; fix it by hand", strings.Join(path, "."), key, k)
		}
		merged[k] = s
	}
	changed := false
	for k, v := range m {
		if merged[k] != v {
			merged[k] = v
			changed = true
		}
	}
	if !changed {
		return nil, nil, nil
	}
	display := strings.Join(append(slices.Clone(path), key), ".")
	for _, t := range tables {
		if !slices.Equal(t.path, append(slices.Clone(path), key)) {
			continue
		}
		var edits []tomlEdit
		var changes []string
		for k, v := range m {
			kv, err := encodeKV(k, v)
			if err != nil {
				return nil, nil, err
			}
			if i := slices.IndexFunc(t.kvs, func(x tomlKV) bool { return slices.Equal(x.key, []string{k}) }); i >= 0 {
				edits = append(edits, tomlEdit{t.kvs[i].start, t.kvs[i].end, kv})
			} else {
				edits = append(edits, tomlEdit{t.lastEnd, t.lastEnd, "\n" + kv})
			}
			changes = append(changes, fmt.Sprintf("set %s.%s", display, kv))
		}
		return edits, changes, nil
	}
	kv, err := encodeKV(key, merged)
	if err != nil {
		return nil, nil, err
	}
	change := fmt.Sprintf("set %s.%s", strings.Join(path, "."), kv)
	if i := slices.IndexFunc(ours.kvs, func(x tomlKV) bool { return slices.Equal(x.key, []string{key}) }); i >= 0 {
		return []tomlEdit{{ours.kvs[i].start, ours.kvs[i].end, kv}}, []string{change}, nil
	}
	if slices.ContainsFunc(ours.kvs, func(x tomlKV) bool { return len(x.key) > 1 && x.key[0] == key }) {
		return nil, nil, fmt.Errorf("%s is written with dotted keys; setup does not edit those: add FEEDBACK_SOCKET there by hand", display)
	}
	return []tomlEdit{{ours.lastEnd, ours.lastEnd, "\n" + kv}}, []string{change}, nil
}

// applyEdits applies non-overlapping edits.
func applyEdits(data []byte, edits []tomlEdit) []byte {
	sort.SliceStable(edits, func(i, j int) bool { return edits[i].start > edits[j].start })
	out := slices.Clone(data)
	for _, e := range edits {
		out = slices.Concat(out[:e.start], []byte(e.text), out[e.end:])
	}
	return out
}

// tomlEqual compares a decoded TOML value with a value setup writes.
func tomlEqual(decoded, want any) bool {
	switch w := want.(type) {
	case []string:
		d, ok := decoded.([]any)
		if !ok || len(d) != len(w) {
			return false
		}
		for i := range w {
			if d[i] != w[i] {
				return false
			}
		}
		return true
	default:
		return reflect.DeepEqual(decoded, want)
	}
}

// checkTOMLOnly parses the edited document and makes sure our table holds
// fields and nothing else changed.
func checkTOMLOnly(before map[string]any, out []byte, container, name string, fields []field) error {
	var after map[string]any
	if err := toml.Unmarshal(out, &after); err != nil {
		return fmt.Errorf("internal error: the edited file does not parse (%v); nothing written", err)
	}
	entry := subTable(after, container, name)
	for _, f := range fields {
		if m, ok := f.value.(map[string]string); ok {
			sub, _ := entry[f.key].(map[string]any)
			for k, v := range m {
				if sub[k] != v {
					return fmt.Errorf("internal error: %s.%s.%s.%s did not take; nothing written", container, name, f.key, k)
				}
			}
			continue
		}
		if !tomlEqual(entry[f.key], f.value) {
			return fmt.Errorf("internal error: %s.%s.%s did not take; nothing written", container, name, f.key)
		}
	}
	b := cloneTOML(before)
	withoutFields(b, container, name, fields)
	withoutFields(after, container, name, fields)
	if !reflect.DeepEqual(b, after) {
		return fmt.Errorf("internal error: the edit would change more than [%s.%s]; nothing written", container, name)
	}
	return nil
}

func cloneTOML(m map[string]any) map[string]any {
	c := make(map[string]any, len(m))
	for k, v := range m {
		if sub, ok := v.(map[string]any); ok {
			v = cloneTOML(sub)
		}
		c[k] = v
	}
	return c
}

// withoutFields removes from a decoded document what setup writes
// (container.name's fields), and the objects left empty by that, so that
// what remains must be the same before and after an edit.
func withoutFields(doc map[string]any, container, name string, fields []field) {
	servers, ok := doc[container].(map[string]any)
	if !ok {
		return
	}
	if entry, ok := servers[name].(map[string]any); ok {
		for _, f := range fields {
			if m, ok := f.value.(map[string]string); ok {
				if sub, ok := entry[f.key].(map[string]any); ok {
					for k := range m {
						delete(sub, k)
					}
					if len(sub) == 0 {
						delete(entry, f.key)
					}
				}
				continue
			}
			delete(entry, f.key)
		}
		if len(entry) == 0 {
			delete(servers, name)
		}
	}
	if len(servers) == 0 {
		delete(doc, container)
	}
}

// subTable returns doc[container][name] when both are tables, else nil.
func subTable(doc map[string]any, container, name string) map[string]any {
	c, _ := doc[container].(map[string]any)
	t, _ := c[name].(map[string]any)
	return t
}
