package approval

import (
	"encoding/json"
	"strings"
)

// HookEvent is what Claude Code sends a PermissionRequest hook on its
// standard input (the fields feedback reads).
type HookEvent struct {
	Event       string            `json:"hook_event_name"`
	Cwd         string            `json:"cwd"`
	Tool        string            `json:"tool_name"`
	Input       map[string]any    `json:"tool_input"`
	Suggestions []json.RawMessage `json:"permission_suggestions"`
}

// HookOutput is the PermissionRequest hook's standard output for d, in
// Claude Code's shape:
//
//	{"hookSpecificOutput": {"hookEventName": "PermissionRequest",
//	  "decision": {"behavior": "allow", "updatedInput": …, "updatedPermissions": […]}}}
//
// or a "deny" decision with its message. An Always decision adds the rule
// to the project's local settings: the first "allow" suggestion Claude Code
// sent (its own rule for the call), else the rule feedback made.
func (d Decision) HookOutput(ev HookEvent) []byte {
	dec := map[string]any{"behavior": "deny", "message": d.Message}
	if d.Allow {
		input := ev.Input
		if input == nil {
			input = map[string]any{}
		}
		dec = map[string]any{"behavior": "allow", "updatedInput": input}
		if d.Always != "" {
			dec["updatedPermissions"] = []any{permissionUpdate(d.Always, ev.Suggestions)}
		}
	}
	out, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PermissionRequest", "decision": dec}})
	return out
}

// permissionUpdate is the entry that allows rule in the project's local
// settings.
func permissionUpdate(rule string, suggestions []json.RawMessage) any {
	for _, raw := range suggestions {
		var s struct {
			Type     string `json:"type"`
			Behavior string `json:"behavior"`
		}
		if json.Unmarshal(raw, &s) == nil && s.Type == "addRules" && s.Behavior == "allow" {
			return raw
		}
	}
	r := map[string]any{"toolName": rule}
	if tool, content, ok := strings.Cut(rule, "("); ok && strings.HasSuffix(content, ")") {
		r = map[string]any{"toolName": tool, "ruleContent": strings.TrimSuffix(content, ")")}
	}
	return map[string]any{"type": "addRules", "rules": []any{r}, "behavior": "allow", "destination": "localSettings"}
}
