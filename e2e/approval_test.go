package e2e

import (
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// Claude Code's PermissionRequest hook, fed the event exactly as its
// documentation shows it: the approval window shows the command; choosing
// "Always allow in this project" prints the allow decision with the rule
// for the project's local settings. A second request, left to its
// countdown... is denied: here the user closes the window, which denies.
func TestApprovalHook(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	const event = `{"session_id":"abc123","transcript_path":"/tmp/t.jsonl","cwd":"/home/u/shop","permission_mode":"default","hook_event_name":"PermissionRequest","tool_name":"Bash","tool_input":{"command":"rm -rf node_modules","description":"Remove node_modules directory"},"permission_suggestions":[{"type":"addRules","rules":[{"toolName":"Bash","ruleContent":"rm -rf node_modules"}],"behavior":"allow","destination":"localSettings"}]}`
	hook := func() (*exec.Cmd, *strings.Builder) {
		cmd := exec.Command(bin, "approve", "--from", "claude-code")
		cmd.Env = append(cmd.Environ(), env...)
		cmd.Stdin = strings.NewReader(event)
		var out strings.Builder
		cmd.Stdout = &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		return cmd, &out
	}
	decision := func(cmd *exec.Cmd, out *strings.Builder) map[string]any {
		t.Helper()
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatalf("the hook: %v", err)
			}
		case <-time.After(20 * time.Second):
			cmd.Process.Kill()
			t.Fatal("the hook did not return")
		}
		var v struct {
			H struct {
				Event    string         `json:"hookEventName"`
				Decision map[string]any `json:"decision"`
			} `json:"hookSpecificOutput"`
		}
		if err := json.Unmarshal([]byte(out.String()), &v); err != nil || v.H.Event != "PermissionRequest" {
			t.Fatalf("the hook printed %q: %v", out, err)
		}
		return v.H.Decision
	}

	cmd, out := hook()
	win := findWindow(t, "Run a command? — feedback")
	activate(t, win)
	screenshot(t, "approval-window")
	key(t, "alt+2") // Always allow in this project
	key(t, "ctrl+Return")
	d := decision(cmd, out)
	perms, _ := d["updatedPermissions"].([]any)
	if d["behavior"] != "allow" || len(perms) != 1 || d["updatedInput"].(map[string]any)["command"] != "rm -rf node_modules" {
		t.Errorf("always allow: %v", d)
	}

	cmd, out = hook()
	win = findWindow(t, "Run a command? — feedback")
	activate(t, win)
	typeText(t, "use npm ci instead")
	key(t, "alt+3") // Deny
	key(t, "ctrl+Return")
	if d := decision(cmd, out); d["behavior"] != "deny" || !strings.Contains(d["message"].(string), "use npm ci instead") {
		t.Errorf("deny: %v", d)
	}
}

// The permission prompt tool through a real MCP client (as Claude Code
// calls it with --permission-prompt-tool): an edit is shown as a diff,
// and Allow returns the input unchanged as Claude Code reads it.
func TestPermissionPromptTool(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "claude-code")
	input := map[string]any{"file_path": "/tmp/shop/main.go", "old_string": "fmt.Println(1)", "new_string": "fmt.Println(2)"}
	res := call(c, "permission_prompt", map[string]any{"tool_name": "Edit", "input": input, "tool_use_id": "toolu_01"})
	win := findWindow(t, "Edit main.go? — feedback")
	activate(t, win)
	screenshot(t, "approval-edit")
	key(t, "alt+1") // Allow
	key(t, "ctrl+Return")
	var v map[string]any
	if err := json.Unmarshal([]byte(text(await(t, res))), &v); err != nil {
		t.Fatal(err)
	}
	if v["behavior"] != "allow" || v["updatedInput"].(map[string]any)["new_string"] != "fmt.Println(2)" {
		t.Errorf("result %v", v)
	}
}
