package e2e

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// hookEvent is Claude Code's PermissionRequest event for a call of tool
// with input in the project at cwd, with Claude Code's suggestions (nil:
// none), as its documentation shows it.
func hookEvent(cwd, tool string, input map[string]any, suggestions []any) string {
	ev := map[string]any{
		"session_id": "e2e", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
		"permission_mode": "default", "hook_event_name": "PermissionRequest",
		"tool_name": tool, "tool_input": input,
	}
	if suggestions != nil {
		ev["permission_suggestions"] = suggestions
	}
	event, _ := json.Marshal(ev)
	return string(event)
}

// runHook starts `feedback approve --from claude-code` on event, as Claude
// Code runs it (extraEnv added to its environment); wait returns the
// decision it printed once it has ended.
func runHook(t *testing.T, event string, extraEnv ...string) (wait func() map[string]any) {
	t.Helper()
	cmd := exec.Command(bin, "approve", "--from", "claude-code")
	cmd.Env = append(append(cmd.Environ(), env...), extraEnv...)
	cmd.Stdin = strings.NewReader(event)
	var out strings.Builder
	cmd.Stdout = &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	t.Cleanup(func() { cmd.Process.Kill() })
	return func() map[string]any {
		t.Helper()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("the hook: %v", err)
			}
		case <-time.After(30 * time.Second):
			cmd.Process.Kill()
			t.Fatal("the hook did not return")
		}
		var v struct {
			H struct {
				Decision map[string]any `json:"decision"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal([]byte(out.String()), &v); err != nil || v.H.Decision == nil {
			t.Fatalf("the hook printed %q: %v", out.String(), err)
		}
		return v.H.Decision
	}
}
