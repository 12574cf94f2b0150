package approval

import (
	"encoding/json"
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
// or a "deny" decision with its message. It writes only what the window
// showed: an Always decision adds its exact rule to the project's local
// settings (never Claude Code's own, broader suggestion); a suggestion the
// user chose (its own option, which named it and where it applies) is
// written as the window showed it.
func (d Decision) HookOutput(ev HookEvent) []byte {
	dec := map[string]any{"behavior": "deny", "message": d.Message}
	if d.Allow {
		input := ev.Input
		if input == nil {
			input = map[string]any{}
		}
		dec = map[string]any{"behavior": "allow", "updatedInput": input}
		switch {
		case d.Always != "":
			dec["updatedPermissions"] = []any{ruleUpdate(d.Always)}
		case d.Update != nil:
			dec["updatedPermissions"] = []any{*d.Update}
		}
	}
	out, _ := json.Marshal(map[string]any{"hookSpecificOutput": map[string]any{"hookEventName": "PermissionRequest", "decision": dec}})
	return out
}
