package setup

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"reflect"
	"slices"
	"strings"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
)

// Hooks: `feedback setup CLIENT --hooks` wires the client's "needs
// attention" and "finished" events to `feedback notify --from CLIENT`, so a
// user in another window learns that an agent stopped. Each client's hook
// file and event names are its documented ones:
//   - Claude Code: settings.json "hooks": Notification and Stop, each a
//     list of {matcher, hooks: [{type: "command", command, timeout (s)}]};
//   - Gemini CLI: settings.json "hooks": Notification and AfterAgent, the
//     same shape with the timeout in milliseconds;
//   - Cursor: hooks.json {"version": 1, "hooks": {"stop": [{command}]}};
//   - Codex: config.toml's top-level notify = [program, args…], which
//     Codex runs with the event as its last argument after each turn.

// hookSpec is how one client runs hooks.
type hookSpec struct {
	userFile    func(Env) string
	projectFile string // relative to the project; "" when none
	toml        bool   // Codex's notify key; else a JSON "hooks" object
	events      []string
	// handler is the entry an event's list gets for command.
	handler func(command string) any
	// version, when set, is the file's "version" (Cursor's hooks.json).
	version int
}

var hookSpecs = map[string]hookSpec{
	"claude-code": {
		userFile:    func(e Env) string { return filepath.Join(e.Home, ".claude", "settings.json") },
		projectFile: filepath.Join(".claude", "settings.local.json"), // names this machine's binary: not for committing
		events:      []string{"Notification", "Stop"},
		handler: func(cmd string) any {
			return map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd, "timeout": 30}}}
		},
	},
	"gemini": {
		userFile:    func(e Env) string { return filepath.Join(e.Home, ".gemini", "settings.json") },
		projectFile: filepath.Join(".gemini", "settings.json"),
		events:      []string{"Notification", "AfterAgent"},
		handler: func(cmd string) any {
			return map[string]any{"hooks": []any{map[string]any{"name": "feedback", "type": "command", "command": cmd, "timeout": 30000}}}
		},
	},
	"cursor": {
		userFile:    func(e Env) string { return filepath.Join(e.Home, ".cursor", "hooks.json") },
		projectFile: filepath.Join(".cursor", "hooks.json"),
		events:      []string{"stop"},
		handler:     func(cmd string) any { return map[string]any{"command": cmd} },
		version:     1,
	},
	"codex": {
		userFile: func(e Env) string { return filepath.Join(e.Home, ".codex", "config.toml") },
		toml:     true,
	},
}

// ApprovalHookTimeout is the timeout of the PermissionRequest hook that
// --approvals adds, in seconds: the approval window's countdown ends a
// little before it (feedback approve).
const ApprovalHookTimeout = 900

// approvalSpec is Claude Code's PermissionRequest hook running feedback
// approve: its permission prompts are asked in feedback's window.
var approvalSpec = hookSpec{
	userFile:    hookSpecs["claude-code"].userFile,
	projectFile: hookSpecs["claude-code"].projectFile,
	events:      []string{"PermissionRequest"},
	handler: func(cmd string) any {
		return map[string]any{"hooks": []any{map[string]any{"type": "command", "command": cmd, "timeout": ApprovalHookTimeout}}}
	},
}

// ConfigureApprovals adds Claude Code's PermissionRequest hook running
// `feedback approve --from claude-code`, as ConfigureHooks does its hooks.
func ConfigureApprovals(e Env, c Client, scope Scope, write bool) (Result, error) {
	if c.Name != "claude-code" {
		return Result{}, fmt.Errorf("%s cannot hand its permission prompts to a hook; --approvals is for claude-code", c.Title)
	}
	return configureHookFile(e, c, approvalSpec, scope, []string{e.Command(), "approve", "--from", c.Name}, " approve --from "+c.Name, write)
}

// HookClients are the clients --hooks sets up.
func HookClients() []string {
	var names []string
	for _, c := range Clients {
		if _, ok := hookSpecs[c.Name]; ok {
			names = append(names, c.Name)
		}
	}
	return names
}

// hookArgs is the command line of the hook of client.
func hookArgs(exe, client string) []string { return []string{exe, "notify", "--from", client} }

// hookMarker is what identifies feedback's hook of client in a command.
func hookMarker(client string) string { return " notify --from " + client }

// ConfigureHooks adds feedback's hooks to c's hook file for scope, writing
// it when write is set; like Configure, it keeps a backup, changes nothing
// else in the file, and does nothing when the hooks are there already.
func ConfigureHooks(e Env, c Client, scope Scope, write bool) (Result, error) {
	spec, ok := hookSpecs[c.Name]
	if !ok {
		return Result{}, fmt.Errorf("%s has no hooks feedback can use; hooks are set up for %s", c.Title, strings.Join(HookClients(), ", "))
	}
	return configureHookFile(e, c, spec, scope, hookArgs(e.Command(), c.Name), hookMarker(c.Name), write)
}

// configureHookFile adds the hook running args (known by marker) to the
// file of spec for scope.
func configureHookFile(e Env, c Client, spec hookSpec, scope Scope, args []string, marker string, write bool) (Result, error) {
	path := spec.userFile(e)
	if scope == ScopeProject {
		if spec.projectFile == "" {
			return Result{}, fmt.Errorf("%s reads its notify program from your user's file only; leave out --scope project", c.Title)
		}
		path = filepath.Join(e.Dir, spec.projectFile)
	}
	res, err := editConfigFile(e, c, scope, path, write, func(data []byte) ([]byte, []string, error) {
		if spec.toml {
			return mergeNotifyTOML(data, args)
		}
		return mergeHooksJSON(data, spec, shellCommand(args), marker)
	})
	if errors.Is(err, ErrChangedMeanwhile) {
		err = fmt.Errorf("%w; close the program that writes it, then run feedback setup %s --hooks again", err, c.Name)
	}
	return res, err
}

// editConfigFile reads the client's file at path, has merge make its new
// content and say what changed (nothing: it is as it should be), and,
// with write, writes it with a backup — again from the start when another
// program changed the file meanwhile, configureAttempts times at most.
func editConfigFile(e Env, c Client, scope Scope, path string, write bool, merge func(data []byte) ([]byte, []string, error)) (Result, error) {
	res := Result{Client: c, File: path, Scope: scope}
	var err error
	for range configureAttempts {
		var data []byte
		if data, err = readConfig(path); err != nil {
			return res, err
		}
		var out []byte
		if out, res.Changes, err = merge(data); err != nil {
			return res, fmt.Errorf("%s: %w", path, err)
		}
		res.Doc = out
		if len(res.Changes) == 0 || !write {
			return res, nil
		}
		perm := fs.FileMode(0o600)
		if scope == ScopeProject {
			perm = 0o644
		}
		res.Backup, err = writeConfig(path, data, out, perm, e.Now())
		if errors.Is(err, ErrChangedMeanwhile) {
			continue
		}
		if err != nil {
			return res, fmt.Errorf("writing %s: %w", path, err)
		}
		res.Written = true
		return res, nil
	}
	return res, fmt.Errorf("%s %w %d times", path, err, configureAttempts)
}

// shellCommand is args as one shell command line, each argument quoted
// when it needs to be.
func shellCommand(args []string) string {
	quoted := make([]string, len(args))
	for i, a := range args {
		if a != "" && strings.Trim(a, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_./=:+@%") == "" {
			quoted[i] = a
			continue
		}
		quoted[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
	}
	return strings.Join(quoted, " ")
}

// mergeHooksJSON adds, for each of spec's events, a handler running
// command to the document's "hooks" object: an existing handler of ours
// (its command contains marker) is brought up to date instead, and every
// other hook is kept as it is.
func mergeHooksJSON(data []byte, spec hookSpec, command, marker string) ([]byte, []string, error) {
	data, v, root, err := parseJSONC(data)
	if err != nil {
		return nil, nil, err
	}
	standard := v.IsStandard()
	e := jsonEditor{indent: detectIndent(root)}
	if spec.version != 0 {
		if m, err := find(root, []string{"version"}); err != nil {
			return nil, nil, err
		} else if m == nil {
			if err := e.set(root, []string{"version"}, spec.version, 1); err != nil {
				return nil, nil, err
			}
		}
	}
	hooks, err := e.object(root, []string{"hooks"}, 1)
	if err != nil {
		return nil, nil, err
	}
	want := spec.handler(command)
	for _, ev := range spec.events {
		path := []string{"hooks", ev}
		m, err := find(hooks, path)
		if err != nil {
			return nil, nil, err
		}
		if m == nil {
			raw, err := jsonText([]any{want}, strings.Repeat(e.indent, 2), e.indent)
			if err != nil {
				return nil, nil, err
			}
			nv, err := hujson.Parse(raw)
			if err != nil {
				return nil, nil, err
			}
			e.add(hooks, ev, nv, 2)
			e.changes = append(e.changes, fmt.Sprintf("added feedback's hook to hooks.%s", ev))
			continue
		}
		arr, ok := m.Value.Value.(*hujson.Array)
		if !ok {
			return nil, nil, fmt.Errorf("hooks.%s is not a JSON array; fix or remove it by hand", ev)
		}
		if err := e.mergeHandler(arr, path, want, marker); err != nil {
			return nil, nil, err
		}
	}
	if len(e.changes) == 0 {
		return data, nil, nil
	}
	if standard && !v.IsStandard() {
		v.Standardize()
	}
	out := v.Pack()
	if err := checkHooksOnly(data, out, spec.events); err != nil {
		return nil, nil, err
	}
	return out, e.changes, nil
}

// mergeHandler makes arr (an event's list) hold want once: an element that
// is ours (it mentions marker) is replaced when it differs; without one,
// want is appended.
func (e *jsonEditor) mergeHandler(arr *hujson.Array, path []string, want any, marker string) error {
	// Written like the list: on one line when its entries are, else each
	// on lines of its own.
	n := len(arr.Elements)
	inline := n > 0 && !strings.Contains(string(arr.Elements[n-1].BeforeExtra), "\n")
	raw, err := jsonText(want, strings.Repeat(e.indent, 3), e.indent)
	if inline {
		raw, err = jsonText(want, "", "")
	}
	if err != nil {
		return err
	}
	nv, err := hujson.Parse(raw)
	if err != nil {
		return err
	}
	for i := range arr.Elements {
		el := arr.Elements[i].Clone()
		el.Standardize()
		var got any
		if json.Unmarshal(el.Pack(), &got) != nil || !mentions(got, marker) {
			continue
		}
		if jsonEqual(got, want) {
			return nil
		}
		if !ownedOnly(got, marker) {
			return fmt.Errorf("%s: feedback's hook shares an entry with other hooks; update its command by hand to %s", strings.Join(path, "."), raw)
		}
		nv.BeforeExtra, nv.AfterExtra = arr.Elements[i].BeforeExtra, arr.Elements[i].AfterExtra
		arr.Elements[i] = nv
		e.changes = append(e.changes, fmt.Sprintf("updated feedback's hook in %s", strings.Join(path, ".")))
		return nil
	}
	nv.BeforeExtra = hujson.Extra("\n" + strings.Repeat(e.indent, 3))
	switch {
	case inline:
		nv.BeforeExtra = hujson.Extra(" ")
	case n > 0:
		nv.BeforeExtra = arr.Elements[n-1].BeforeExtra
	case strings.Trim(string(arr.AfterExtra), " \t\r\n") == "":
		arr.AfterExtra = hujson.Extra("\n" + strings.Repeat(e.indent, 2))
	}
	if n > 0 && arr.Elements[n-1].AfterExtra != nil {
		nv.AfterExtra = hujson.Extra{} // the file ends entries with a comma: so does this one
	}
	arr.Elements = append(arr.Elements, nv)
	e.changes = append(e.changes, fmt.Sprintf("added feedback's hook to %s", strings.Join(path, ".")))
	return nil
}

// mentions reports whether a decoded JSON value holds a string containing
// marker.
func mentions(v any, marker string) bool {
	switch v := v.(type) {
	case string:
		return strings.Contains(v, marker)
	case []any:
		return slices.ContainsFunc(v, func(x any) bool { return mentions(x, marker) })
	case map[string]any:
		for _, x := range v {
			if mentions(x, marker) {
				return true
			}
		}
	}
	return false
}

// ownedOnly reports whether an event's entry runs nothing but feedback's
// hook: a handler itself, or a group of handlers that are all ours.
func ownedOnly(v any, marker string) bool {
	m, ok := v.(map[string]any)
	if !ok {
		return false
	}
	hs, ok := m["hooks"].([]any)
	if !ok {
		return true // a handler (Cursor's)
	}
	for _, h := range hs {
		if !mentions(h, marker) {
			return false
		}
	}
	return true
}

// checkHooksOnly decodes both documents and makes sure they differ in
// hooks.<events> (and a new "version") only, and that every entry an event
// had is still there but feedback's own.
func checkHooksOnly(before, after []byte, events []string) error {
	a, b, err := decodeBoth(before, after)
	if err != nil {
		return err
	}
	for _, doc := range []map[string]any{a, b} {
		if h, ok := doc["hooks"].(map[string]any); ok {
			for _, ev := range events {
				delete(h, ev)
			}
			if len(h) == 0 {
				delete(doc, "hooks")
			}
		}
	}
	if _, had := a["version"]; !had {
		delete(b, "version")
	}
	if !reflect.DeepEqual(a, b) {
		return errors.New("internal error: the edit would change more than feedback's hooks; nothing written")
	}
	return nil
}

// mergeNotifyTOML sets Codex's top-level notify to args. Codex runs one
// notify program: another one already there is left alone, with an error
// saying how to choose.
func mergeNotifyTOML(data []byte, args []string) ([]byte, []string, error) {
	var doc map[string]any
	if err := toml.Unmarshal(data, &doc); err != nil {
		return nil, nil, fmt.Errorf("not valid TOML: %w", err)
	}
	line := "notify = ["
	for i, a := range args {
		if i > 0 {
			line += ", "
		}
		q, _ := json.Marshal(a) // a TOML basic string is a JSON string
		line += string(q)
	}
	line += "]"
	if old, ok := doc["notify"]; ok {
		if jsonEqual(old, args) {
			return data, nil, nil
		}
		return nil, nil, fmt.Errorf("another notify program is set in Codex (notify = %v), which runs only one; to have feedback's instead, replace that line with: %s", old, line)
	}
	root, _, err := scanTOML(data)
	if err != nil {
		return nil, nil, fmt.Errorf("not valid TOML: %w", err)
	}
	// A top-level key goes before the first table: after the last
	// top-level key, or at the start.
	var out []byte
	if len(root.kvs) > 0 {
		at := root.lastEnd
		out = append(append(append(slices.Clone(data[:at]), '\n'), line...), data[at:]...)
	} else {
		out = append([]byte(line+"\n\n"), data...)
	}
	var check map[string]any
	if err := toml.Unmarshal(out, &check); err != nil || !jsonEqual(check["notify"], args) {
		return nil, nil, fmt.Errorf("internal error: the edited file does not read back (%v); nothing written", err)
	}
	delete(check, "notify")
	if !reflect.DeepEqual(doc, check) && !(len(doc) == 0 && len(check) == 0) {
		return nil, nil, errors.New("internal error: the edit would change more than notify; nothing written")
	}
	return out, []string{"set notify to " + strings.TrimPrefix(line, "notify = ")}, nil
}

// OwnToolsRule is the Claude Code permission rule that lets it call every
// tool of the MCP server named feedback without asking: feedback's tools
// are the questions to the user, and a permission prompt before each (in
// `claude -p` every call was refused: "you haven't granted it yet") asks
// the user whether the agent may ask the user.
const OwnToolsRule = "mcp__feedback"

// ConfigureOwnTools adds OwnToolsRule to Claude Code's permissions.allow in
// its settings file for scope (the file --hooks and --approvals edit), as
// ConfigureHooks edits that file; other clients have nothing to allow.
func ConfigureOwnTools(e Env, c Client, scope Scope, write bool) (Result, error) {
	spec := hookSpecs["claude-code"]
	path := spec.userFile(e)
	if scope == ScopeProject {
		path = filepath.Join(e.Dir, spec.projectFile)
	}
	res, err := editConfigFile(e, c, scope, path, write, func(data []byte) ([]byte, []string, error) {
		out, changed, err := addAllowRule(data, OwnToolsRule)
		if err != nil || !changed {
			return out, nil, err
		}
		return out, []string{"added " + OwnToolsRule + " to permissions.allow"}, nil
	})
	if errors.Is(err, ErrChangedMeanwhile) {
		err = fmt.Errorf("%w; close the program that writes it, then run feedback setup %s again", err, c.Name)
	}
	return res, err
}
