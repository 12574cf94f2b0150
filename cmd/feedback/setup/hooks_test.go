package setup

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// handlers lists the commands of an event's hooks in doc (Claude Code and
// Gemini CLI nest them in groups; Cursor does not).
func handlers(doc map[string]any, event string) []string {
	hooks, _ := doc["hooks"].(map[string]any)
	list, _ := hooks[event].([]any)
	var cmds []string
	for _, el := range list {
		m, _ := el.(map[string]any)
		if hs, ok := m["hooks"].([]any); ok {
			for _, h := range hs {
				cmds = append(cmds, h.(map[string]any)["command"].(string))
			}
		} else if c, ok := m["command"].(string); ok {
			cmds = append(cmds, c)
		}
	}
	return cmds
}

// Claude Code: the Notification and Stop hooks run feedback notify, next to
// the user's own hooks and settings, which stay as they were; running it
// again changes nothing; after the binary moved it updates feedback's hook
// only. The MCP entry is set up too.
func TestHooksClaudeCode(t *testing.T) {
	te := newEnv(t)
	settings := filepath.Join(te.Home, ".claude", "settings.json")
	writeFile(t, settings, `{
  "permissions": {"allow": ["Bash(npm test)"]},
  "hooks": {
    "Stop": [{"hooks": [{"type": "command", "command": "say done"}]}]
  }
}
`)
	if code := Run([]string{"claude-code", "--hooks"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	c, _ := Lookup("claude-code")
	doc := decode(t, c, []byte(readFile(t, settings)))
	want := testExe + " notify --from claude-code"
	if got := handlers(doc, "Notification"); len(got) != 1 || got[0] != want {
		t.Errorf("Notification hooks %q", got)
	}
	if got := handlers(doc, "Stop"); len(got) != 2 || got[0] != "say done" || got[1] != want {
		t.Errorf("Stop hooks %q, want the user's then feedback's", got)
	}
	if allow := doc["permissions"].(map[string]any)["allow"].([]any); len(allow) != 2 || allow[0] != "Bash(npm test)" || allow[1] != OwnToolsRule {
		t.Errorf("permissions: %v, want the user's rule kept and feedback's own tools allowed", doc["permissions"])
	}
	h := doc["hooks"].(map[string]any)["Notification"].([]any)[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
	if h["type"] != "command" || h["timeout"] != float64(30) {
		t.Errorf("handler %v", h)
	}
	if out := te.stdout.String(); !strings.Contains(out, "Claude Code hooks: updated") || !strings.Contains(out, "saved as") {
		t.Errorf("report:\n%s", out)
	}

	te.stdout.Reset()
	if code := Run([]string{"claude-code", "--hooks"}, te.Env); code != 0 || !strings.Contains(te.stdout.String(), "hooks: already set up") {
		t.Errorf("again: exit %d\n%s", code, te.stdout)
	}

	te.Exe = "/usr/local/bin/feedback"
	te.stdout.Reset()
	if code := Run([]string{"claude-code", "--hooks"}, te.Env); code != 0 {
		t.Fatalf("moved: exit %d: %s", code, te.stderr)
	}
	doc = decode(t, c, []byte(readFile(t, settings)))
	if got := handlers(doc, "Stop"); len(got) != 2 || got[0] != "say done" || got[1] != "/usr/local/bin/feedback notify --from claude-code" {
		t.Errorf("after the move, Stop hooks %q", got)
	}

	// The project's hooks go in its settings.local.json: they name this
	// machine's binary.
	if code := Run([]string{"claude-code", "--hooks", "--scope", "project"}, te.Env); code != 0 {
		t.Fatalf("project: exit %d: %s", code, te.stderr)
	}
	local := decode(t, c, []byte(readFile(t, filepath.Join(te.Dir, ".claude", "settings.local.json"))))
	if len(handlers(local, "Stop")) != 1 {
		t.Errorf("project settings.local.json: %v", local)
	}
}

// Gemini CLI keeps its comments; Cursor gets its version; Codex's notify
// goes before the tables and another notify program is never replaced.
func TestHooksGeminiCursorCodex(t *testing.T) {
	te := newEnv(t)
	gemini := filepath.Join(te.Home, ".gemini", "settings.json")
	writeFile(t, gemini, "{\n  // my theme\n  \"theme\": \"dark\",\n}\n")
	if code := Run([]string{"gemini", "--hooks"}, te.Env); code != 0 {
		t.Fatalf("gemini: exit %d: %s", code, te.stderr)
	}
	g := readFile(t, gemini)
	gc, _ := Lookup("gemini")
	gdoc := decode(t, gc, []byte(g))
	if !strings.Contains(g, "// my theme") || gdoc["theme"] != "dark" || len(handlers(gdoc, "Notification")) != 1 || len(handlers(gdoc, "AfterAgent")) != 1 {
		t.Errorf("gemini settings:\n%s", g)
	}
	if h := gdoc["hooks"].(map[string]any)["AfterAgent"].([]any)[0].(map[string]any)["hooks"].([]any)[0].(map[string]any); h["timeout"] != float64(30000) {
		t.Errorf("gemini's timeout is in ms: %v", h)
	}

	if code := Run([]string{"cursor", "--hooks"}, te.Env); code != 0 {
		t.Fatalf("cursor: exit %d: %s", code, te.stderr)
	}
	cc, _ := Lookup("cursor")
	cdoc := decode(t, cc, []byte(readFile(t, filepath.Join(te.Home, ".cursor", "hooks.json"))))
	if cdoc["version"] != float64(1) || len(handlers(cdoc, "stop")) != 1 || handlers(cdoc, "stop")[0] != testExe+" notify --from cursor" {
		t.Errorf("cursor hooks.json: %v", cdoc)
	}

	codex := filepath.Join(te.Home, ".codex", "config.toml")
	writeFile(t, codex, "model = \"o3\"\n\n[mcp_servers.other]\ncommand = \"x\"\n")
	if code := Run([]string{"codex", "--hooks"}, te.Env); code != 0 {
		t.Fatalf("codex: exit %d: %s", code, te.stderr)
	}
	xc, _ := Lookup("codex")
	xdoc := decode(t, xc, []byte(readFile(t, codex)))
	if n, _ := xdoc["notify"].([]any); len(n) != 4 || n[0] != testExe || n[3] != "codex" || xdoc["model"] != "o3" {
		t.Errorf("codex config:\n%s", readFile(t, codex))
	}
	if _, ok := xdoc["mcp_servers"].(map[string]any)["other"]; !ok {
		t.Errorf("codex lost its other server:\n%s", readFile(t, codex))
	}
	te.stdout.Reset()
	if code := Run([]string{"codex", "--hooks"}, te.Env); code != 0 || !strings.Contains(te.stdout.String(), "Codex hooks: already set up") {
		t.Errorf("codex again: exit %d\n%s", code, te.stdout)
	}

	writeFile(t, codex, "notify = [\"notify-send\", \"codex\"]\n")
	te.stderr.Reset()
	if code := Run([]string{"codex", "--hooks"}, te.Env); code != 1 || !strings.Contains(te.stderr.String(), "replace that line with: notify = [") {
		t.Errorf("another notify program: exit %d, %s", code, te.stderr)
	}
	if n := decode(t, xc, []byte(readFile(t, codex)))["notify"].([]any); n[0] != "notify-send" {
		t.Errorf("another notify program was replaced: %v", n)
	}

	te.stderr.Reset()
	if code := Run([]string{"vscode", "--hooks"}, te.Env); code != 2 || !strings.Contains(te.stderr.String(), "claude-code, cursor, codex, gemini") {
		t.Errorf("a client without hooks: exit %d, %s", code, te.stderr)
	}
}

func TestShellCommand(t *testing.T) {
	if got := shellCommand([]string{"/opt/my apps/feedback", "notify", "--from", "it's"}); got != `'/opt/my apps/feedback' notify --from 'it'\''s'` {
		t.Errorf("got %s", got)
	}
}

// "Always allow in this project" adds its rule to the project's
// settings.local.json once, beside the rules and settings already there.
func TestAllowRule(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, ".claude", "settings.local.json")
	now := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	if p, changed, err := AllowRule(dir, "Bash(npm test)", now); err != nil || !changed || p != path {
		t.Fatalf("new file: %s %v %v", p, changed, err)
	}
	writeFile(t, path, "{\n  \"permissions\": {\n    \"allow\": [\n      \"Read(./src/**)\"\n    ],\n    \"deny\": [\"Bash(git push *)\"]\n  },\n  \"model\": \"opus\"\n}\n")
	for range 2 {
		if _, _, err := AllowRule(dir, "Bash(npm test)", now); err != nil {
			t.Fatal(err)
		}
	}
	var doc struct {
		Permissions struct{ Allow, Deny []string }
		Model       string
	}
	if err := json.Unmarshal([]byte(readFile(t, path)), &doc); err != nil {
		t.Fatalf("%v\n%s", err, readFile(t, path))
	}
	if strings.Join(doc.Permissions.Allow, "|") != "Read(./src/**)|Bash(npm test)" || len(doc.Permissions.Deny) != 1 || doc.Model != "opus" {
		t.Errorf("settings.local.json:\n%s", readFile(t, path))
	}
}

// --approvals: Claude Code's PermissionRequest hook runs feedback approve,
// with a timeout longer than the window's countdown; other clients refuse.
func TestApprovalsHook(t *testing.T) {
	te := newEnv(t)
	if code := Run([]string{"claude-code", "--approvals"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	c, _ := Lookup("claude-code")
	doc := decode(t, c, []byte(readFile(t, filepath.Join(te.Home, ".claude", "settings.json"))))
	if got := handlers(doc, "PermissionRequest"); len(got) != 1 || got[0] != testExe+" approve --from claude-code" {
		t.Errorf("PermissionRequest hooks %q", got)
	}
	h := doc["hooks"].(map[string]any)["PermissionRequest"].([]any)[0].(map[string]any)["hooks"].([]any)[0].(map[string]any)
	if h["timeout"] != float64(ApprovalHookTimeout) {
		t.Errorf("handler %v", h)
	}
	if len(handlers(doc, "Stop")) != 0 {
		t.Error("--approvals added the notify hooks too")
	}
	// It says what it set up: the permission prompts, not the hooks'
	// "tells you when an agent needs you".
	if out := te.stdout.String(); !strings.Contains(out, "permission prompts") || !strings.Contains(out, "approval window") || strings.Contains(out, "needs you or has finished") {
		t.Errorf("--approvals said:\n%s", out)
	}
	if code := Run([]string{"gemini", "--approvals"}, te.Env); code != 2 {
		t.Errorf("gemini --approvals: exit %d", code)
	}
}

// Claude Code may call feedback's own tools without a permission prompt:
// setup claude-code allows them (mcp__feedback) in its settings file, once;
// in `claude -p` every call was refused ("you haven't granted it yet") and,
// with --approvals, an approval window came before each question.
func TestSetupAllowsFeedbacksOwnTools(t *testing.T) {
	te := newEnv(t)
	if code := Run([]string{"claude-code"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	settings := filepath.Join(te.Home, ".claude", "settings.json")
	c, _ := Lookup("claude-code")
	doc := decode(t, c, []byte(readFile(t, settings)))
	if allow, _ := doc["permissions"].(map[string]any)["allow"].([]any); len(allow) != 1 || allow[0] != OwnToolsRule {
		t.Fatalf("permissions %v, want allow [%s]", doc["permissions"], OwnToolsRule)
	}
	if out := te.stdout.String(); !strings.Contains(out, "without a permission prompt") {
		t.Errorf("setup did not say it allowed the tools:\n%s", out)
	}
	before := readFile(t, settings)
	te.stdout.Reset()
	if code := Run([]string{"claude-code"}, te.Env); code != 0 || readFile(t, settings) != before {
		t.Errorf("again: exit %d, the file changed", code)
	}
	if code := Run([]string{"cursor"}, te.Env); code != 0 {
		t.Fatalf("cursor: exit %d", code)
	}
	if readFile(t, settings) != before {
		t.Error("setting up another client changed Claude Code's permissions")
	}
}
