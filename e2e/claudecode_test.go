package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"feedback/e2e/internal/fakeapi"
	"feedback/internal/approval"
	"feedback/internal/pathlinks"
	"feedback/ipc/wire"
)

// The real Claude Code (npm @anthropic-ai/claude-code, installed into a
// temporary directory at test time; E2E_CLAUDE names an installed
// `claude` instead) driven by a fake Messages API (e2e/internal/fakeapi).

// agentCLI is one agent CLI from the npm registry, installed into a
// temporary directory the first time a test needs it (removed by
// TestMain), or the installed one its environment variable names.
type agentCLI struct {
	pkg    string // the npm package and version range
	bin    string // its command in node_modules/.bin
	envVar string // names an installed command instead

	once sync.Once
	path string
	err  string
}

var (
	claudeCLI = &agentCLI{pkg: "@anthropic-ai/claude-code@2.1", bin: "claude", envVar: "E2E_CLAUDE"}
	geminiCLI = &agentCLI{pkg: "@google/gemini-cli@0.61", bin: "gemini", envVar: "E2E_GEMINI"}
	codexCLI  = &agentCLI{pkg: "@openai/codex@0.171", bin: "codex", envVar: "E2E_CODEX"}

	cliDirsMu sync.Mutex
	cliDirs   []string // the temporary installs
)

// command is the path of the CLI to run, or the test is skipped with why
// there is none.
func (c *agentCLI) command(t *testing.T) string {
	t.Helper()
	c.once.Do(func() {
		if p := os.Getenv(c.envVar); p != "" {
			c.path = p
			return
		}
		npm, err := exec.LookPath("npm")
		if err != nil {
			c.err = "npm is not installed: the tests against the real " + c.bin + " need it (or " + c.envVar + "=path/to/" + c.bin + ")"
			return
		}
		dir, err := os.MkdirTemp("", "e2e-"+c.bin+"-")
		if err != nil {
			c.err = err.Error()
			return
		}
		cliDirsMu.Lock()
		cliDirs = append(cliDirs, dir)
		cliDirsMu.Unlock()
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
		defer cancel()
		out, err := exec.CommandContext(ctx, npm, "install", "--no-audit", "--no-fund", "--prefix", dir, c.pkg).CombinedOutput()
		if err != nil {
			c.err = "npm install " + c.pkg + " failed: " + err.Error() + ": " + string(out)
			return
		}
		c.path = filepath.Join(dir, "node_modules", ".bin", c.bin)
	})
	if c.path == "" {
		if os.Getenv("E2E_REQUIRE_CLIS") != "" { // make e2e: the real clients are the judge
			t.Fatal(c.err)
		}
		t.Skip(c.err)
	}
	return c.path
}

// removeCLIs removes the temporary installs (TestMain).
func removeCLIs() {
	cliDirsMu.Lock()
	defer cliDirsMu.Unlock()
	for _, d := range cliDirs {
		os.RemoveAll(d)
	}
}

// claudeCode is the path of a `claude` to run, or the test is skipped
// with why there is none.
func claudeCode(t *testing.T) string {
	t.Helper()
	return claudeCLI.command(t)
}

// claudeRun is one `claude -p` run in project, its model the fake api, with
// a home of its own (no user settings); it returns its output.
func claudeRun(t *testing.T, project, home string, api *fakeapi.Server, extraEnv []string, args ...string) string {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, claudeCode(t), append([]string{"-p", "go", "--output-format", "json"}, args...)...)
	cmd.Dir = project
	cmd.Env = append([]string{
		"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=dumb", "LANG=en_US.UTF-8",
		"ANTHROPIC_BASE_URL=" + api.URL, "ANTHROPIC_API_KEY=sk-ant-test",
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1",
	}, extraEnv...)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Logf("claude: %v\n%s", err, out)
	}
	return string(out)
}

// trustProject writes home's ~/.claude.json as Claude Code keeps it once
// the user has accepted its trust dialog for project: measured here
// (2.1.197), the project's settings — its permission rules too — are not
// applied without it.
func trustProject(t *testing.T, home, project string) {
	t.Helper()
	data, _ := json.Marshal(map[string]any{"hasCompletedOnboarding": true, "projects": map[string]any{project: map[string]any{"hasTrustDialogAccepted": true}}})
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
}

// writeLocalRules writes rules as the project's .claude/settings.local.json.
func writeLocalRules(t *testing.T, project string, rules ...string) {
	t.Helper()
	data, _ := json.Marshal(map[string]any{"permissions": map[string]any{"allow": rules}})
	if err := os.MkdirAll(filepath.Join(project, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(project, ".claude", "settings.local.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// refused reports whether a tool result is Claude Code's refusal of a call
// no rule allowed (its words in 2.1.197).
func refused(r fakeapi.ToolResult) bool {
	for _, w := range []string{"haven't granted", "requires approval", "require approval", "was blocked", "Approve only if"} {
		if r.IsError && strings.Contains(r.Text, w) {
			return true
		}
	}
	return false
}

// firstResult runs claude in project on the fake API scripted to make
// call, and returns the call's result as the model got it.
func firstResult(t *testing.T, project, home string, call fakeapi.ToolUse, extraEnv []string, args ...string) fakeapi.ToolResult {
	t.Helper()
	call.ID = "toolu_01"
	api := fakeapi.Start(t, fakeapi.Calls(call))
	out := claudeRun(t, project, home, api, extraEnv, args...)
	for _, r := range api.Requests() {
		if rs := fakeapi.ToolResults(r); len(rs) > 0 {
			return rs[0]
		}
	}
	t.Fatalf("no tool result reached the model; claude said:\n%s", out)
	return fakeapi.ToolResult{}
}

// Each kind of rule the approval window's "Always allow in this project"
// writes (approval.Rule, for the call itself), against the real Claude
// Code in a project the user trusts: without the rule Claude Code refuses
// the call (in print mode, with no one to ask), with it the call runs.
// A command redirecting its output into a file gets no rule: with the
// Bash rule it would get, Claude Code still refuses it.
func TestClaudeCodeHonoursRules(t *testing.T) {
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	project := func() (string, string) {
		n++
		p := filepath.Join(root, fmt.Sprintf("p%d", n))
		home := p + "-home"
		for _, d := range []string{p, home} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		trustProject(t, home, p)
		return p, home
	}
	for _, tc := range []struct {
		name  string
		tool  string
		input func(project string) map[string]any
	}{
		{"a command", "Bash", func(string) map[string]any { return map[string]any{"command": "touch made-by-bash.txt"} }},
		{"commands in a row", "Bash", func(string) map[string]any {
			return map[string]any{"command": "touch a.txt; touch b.txt || touch c.txt"}
		}},
		{"two commands", "Bash", func(string) map[string]any { return map[string]any{"command": "touch a.txt && touch b.txt"} }},
		{"a file", "Write", func(p string) map[string]any {
			return map[string]any{"file_path": filepath.Join(p, "notes.txt"), "content": "x\n"}
		}},
		{"a web site", "WebFetch", func(string) map[string]any {
			return map[string]any{"url": "https://example.com/", "prompt": "the title"}
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, home := project()
			call := fakeapi.ToolUse{Name: tc.tool, Input: tc.input(p)}
			rule := approval.Rule(approval.Request{Dir: p, Tool: tc.tool, Input: call.Input, Lstat: os.Lstat, Resolve: pathlinks.Resolve})
			if rule == "" {
				t.Fatalf("no rule for %v", call.Input)
			}
			if r := firstResult(t, p, home, call, nil); !refused(r) {
				t.Fatalf("without a rule Claude Code did not refuse: %+v", r)
			}
			p, home = project()
			call.Input = tc.input(p)
			rule = approval.Rule(approval.Request{Dir: p, Tool: tc.tool, Input: call.Input, Lstat: os.Lstat, Resolve: pathlinks.Resolve})
			writeLocalRules(t, p, rule)
			if r := firstResult(t, p, home, call, nil); refused(r) {
				t.Errorf("%s is not honoured: %+v", rule, r)
			} else {
				t.Logf("%s honoured: %.120s", rule, r.Text)
			}
		})
	}
	// What gets no rule: with the exact Bash rule it would get, Claude
	// Code still refuses it.
	for _, cmd := range []string{"echo hi > proof.txt", "touch c.txt | cat", "touch a.txt & wait", "cd . && touch a.txt"} {
		t.Run(cmd, func(t *testing.T) {
			p, home := project()
			if rule := approval.Rule(approval.Request{Dir: p, Tool: "Bash", Input: map[string]any{"command": cmd}}); rule != "" {
				t.Errorf("a rule is offered: %s", rule)
			}
			writeLocalRules(t, p, "Bash("+cmd+")")
			if r := firstResult(t, p, home, fakeapi.ToolUse{Name: "Bash", Input: map[string]any{"command": cmd}}, nil); !refused(r) {
				t.Errorf("Bash(%s) is honoured now (%+v): the window may offer it", cmd, r)
			} else {
				t.Logf("Bash(%s) not honoured: %.120s", cmd, r.Text)
			}
		})
	}
}

// The real Claude Code with feedback's permission prompt tool
// (--permission-prompt-tool mcp__feedback__permission_prompt, the built
// shim in --mcp-config), in a project the user trusts. The model makes
// `touch proof.txt` twice in a row, then `echo hi > proof.txt`. The user
// chooses "Always allow in this project" for the first: the identical
// call made about 0.1 s later (before Claude Code has loaded the rule
// saved) is not asked again, and runs. The redirection's window offers no
// Always and says why (Claude Code would ask again); Allow runs it.
func TestClaudeCodeAlwaysHolds(t *testing.T) {
	requireSession(t)
	claudeCode(t)
	db := issueApp(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	project, home := filepath.Join(root, "shop"), filepath.Join(root, "home")
	for _, d := range []string{project, home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	trustProject(t, home, project)
	shimEnv := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		shimEnv[k] = v
	}
	for _, k := range []string{"DISPLAY", "XAUTHORITY", "DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"} {
		if v := os.Getenv(k); v != "" {
			shimEnv[k] = v
		}
	}
	config, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"feedback": map[string]any{"command": bin, "args": []string{"mcp"}, "env": shimEnv}}})
	api := fakeapi.Start(t, fakeapi.Calls(
		fakeapi.ToolUse{ID: "toolu_01", Name: "Bash", Input: map[string]any{"command": "touch proof.txt"}},
		fakeapi.ToolUse{ID: "toolu_02", Name: "Bash", Input: map[string]any{"command": "touch proof.txt"}},
		fakeapi.ToolUse{ID: "toolu_03", Name: "Bash", Input: map[string]any{"command": "echo hi > proof.txt"}},
	))
	done := make(chan string, 1)
	go func() {
		done <- claudeRun(t, project, home, api, nil, "--mcp-config", string(config), "--permission-prompt-tool", "mcp__feedback__permission_prompt")
	}()

	const title = "Run a command? — feedback"
	comeTo(t, title)
	q := openApproval(t, db, "touch proof.txt")
	if r := rules(q); len(r) != 1 || r[0] != "Bash(touch proof.txt)" {
		t.Fatalf("rules offered: %q", r)
	}
	key(t, "alt+2", "ctrl+Return") // Always allow in this project
	windowGone(t, title, 5*time.Second)
	asked := time.Now()

	// The next window is the redirection's: not the identical call's.
	win := findWindowWithin(t, title, 30*time.Second)
	q = waitApproval(t, db, func(q wire.Question) bool { return true })
	if q.Call.Subject != "echo hi > proof.txt" {
		t.Errorf("asked again %v after Always: %q", time.Since(asked).Round(time.Millisecond), q.Call.Subject)
		time.Sleep(500 * time.Millisecond)
		activate(t, win)
		key(t, "alt+1", "ctrl+Return")
		windowGone(t, title, 5*time.Second)
		findWindowWithin(t, title, 30*time.Second)
		q = openApproval(t, db, "echo hi > proof.txt")
	}
	mustShow(t, q, "Claude Code asks again for a command that redirects its output into a file, whatever rule is saved")
	if r := rules(q); r != nil {
		t.Errorf("rules offered: %q", r)
	}
	comeTo(t, title)
	screenshot(t, "issue38-claudecode-redirect")
	key(t, "alt+1", "ctrl+Return") // Allow
	select {
	case out := <-done:
		t.Logf("claude: %.300s", out)
	case <-time.After(60 * time.Second):
		t.Fatal("claude did not finish")
	}
	results := api.Results()
	if len(results) != 3 {
		t.Fatalf("tool results: %+v", results)
	}
	for _, r := range results {
		if r.IsError {
			t.Errorf("%s: %s", r.ID, r.Text)
		}
	}
	if data, err := os.ReadFile(filepath.Join(project, "proof.txt")); err != nil || string(data) != "hi\n" {
		t.Errorf("proof.txt: %q %v", data, err)
	}
	saved, _ := os.ReadFile(filepath.Join(project, ".claude", "settings.local.json"))
	if !strings.Contains(string(saved), `"Bash(touch proof.txt)"`) || strings.Contains(string(saved), "echo hi") {
		t.Errorf("settings.local.json: %s", saved)
	}
}

// The same through Claude Code's PermissionRequest hook (feedback approve,
// as `feedback setup claude-code --approvals` adds it), which Claude Code
// runs in its interactive mode only: driven in tmux. The model makes
// `touch proof.txt` twice in a row, then `echo hi > proof.txt`; the user
// chooses "Always allow in this project" for the first, and the identical
// call made right after is not asked again (measured: Claude Code applies
// the hook's rule at once, so this held before the shim's hold too); the
// redirection offers no Always and says why.
func TestClaudeCodeAlwaysHoldsThroughHook(t *testing.T) {
	requireSession(t)
	claude := claudeCode(t)
	if _, err := exec.LookPath("tmux"); err != nil {
		t.Skip("tmux is not installed: Claude Code runs its hooks in its interactive mode only")
	}
	db := issueApp(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	project, home := filepath.Join(root, "shop"), filepath.Join(root, "home")
	for _, d := range []string{filepath.Join(project, ".claude"), home} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	const apiKey = "sk-ant-test-0123456789abcdefghij"
	data, _ := json.Marshal(map[string]any{"hasCompletedOnboarding": true, "theme": "dark",
		"customApiKeyResponses": map[string]any{"approved": []string{apiKey[len(apiKey)-20:]}, "rejected": []string{}},
		"projects":              map[string]any{project: map[string]any{"hasTrustDialogAccepted": true, "hasCompletedProjectOnboarding": true}}})
	if err := os.WriteFile(filepath.Join(home, ".claude.json"), data, 0o600); err != nil {
		t.Fatal(err)
	}
	hook := map[string]any{"hooks": map[string]any{"PermissionRequest": []any{map[string]any{"hooks": []any{map[string]any{"type": "command", "command": bin + " approve --from claude-code", "timeout": 900}}}}}}
	data, _ = json.Marshal(hook)
	if err := os.WriteFile(filepath.Join(project, ".claude", "settings.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	api := fakeapi.Start(t, fakeapi.Calls(
		fakeapi.ToolUse{ID: "toolu_01", Name: "Bash", Input: map[string]any{"command": "touch proof.txt"}},
		fakeapi.ToolUse{ID: "toolu_02", Name: "Bash", Input: map[string]any{"command": "touch proof.txt"}},
		fakeapi.ToolUse{ID: "toolu_03", Name: "Bash", Input: map[string]any{"command": "echo hi > proof.txt"}},
	))
	vars := append([]string{"HOME=" + home, "ANTHROPIC_BASE_URL=" + api.URL, "ANTHROPIC_API_KEY=" + apiKey,
		"CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC=1", "DISABLE_AUTOUPDATER=1", "TERM=xterm-256color", "LANG=en_US.UTF-8"}, env...)
	session := fmt.Sprintf("cc%d", os.Getpid())
	args := []string{"new-session", "-d", "-s", session, "-x", "200", "-y", "50", "-c", project, "env"}
	args = append(append(args, vars...), claude, "go")
	if out, err := exec.Command("tmux", args...).CombinedOutput(); err != nil {
		t.Fatalf("tmux: %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("tmux", "kill-session", "-t", session).Run() })
	pane := func() string {
		out, _ := exec.Command("tmux", "capture-pane", "-p", "-t", session).Output()
		return string(out)
	}

	const title = "Run a command? — feedback"
	deadline := time.Now().Add(60 * time.Second)
	for len(windowsTitled(title)) == 0 {
		if time.Now().After(deadline) {
			t.Fatalf("no approval window; Claude Code shows:\n%s", pane())
		}
		time.Sleep(200 * time.Millisecond)
	}
	comeTo(t, title)
	q := openApproval(t, db, "touch proof.txt")
	if r := rules(q); len(r) != 1 || r[0] != "Bash(touch proof.txt)" {
		t.Fatalf("rules offered: %q", r)
	}
	key(t, "alt+2", "ctrl+Return") // Always allow in this project
	windowGone(t, title, 5*time.Second)
	answered := time.Now()
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		if len(windowsTitled(title)) > 0 {
			if q := waitApproval(t, db, func(wire.Question) bool { return true }); q.Call.Subject != "touch proof.txt" {
				break // the redirection's
			}
			t.Errorf("asked again %v after Always", time.Since(answered).Round(time.Millisecond))
			win := findWindow(t, title)
			time.Sleep(500 * time.Millisecond)
			activate(t, win)
			key(t, "alt+1", "ctrl+Return")
			windowGone(t, title, 5*time.Second)
		}
		results := api.Results()
		if len(results) == 2 {
			for _, r := range results {
				if r.IsError {
					t.Errorf("%s: %s", r.ID, r.Text)
				}
			}
			break
		}
	}
	// The redirection: no Always (Claude Code would ask again), and why.
	win := findWindowWithin(t, title, 30*time.Second)
	q = openApproval(t, db, "echo hi > proof.txt")
	mustShow(t, q, "Claude Code asks again for a command that redirects its output into a file, whatever rule is saved")
	if r := rules(q); r != nil {
		t.Errorf("rules offered: %q", r)
	}
	time.Sleep(500 * time.Millisecond)
	activate(t, win)
	screenshot(t, "issue38-claudecode-hook-redirect")
	key(t, "alt+1", "ctrl+Return") // Allow
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		results := api.Results()
		if len(results) == 3 {
			if results[2].IsError {
				t.Errorf("the redirection: %s", results[2].Text)
			}
			return
		}
	}
	t.Fatalf("Claude Code did not make the three calls; it shows:\n%s", pane())
}

// The MCP kind of rule (one tool of one server, mcp__feedback__notify)
// against the real Claude Code in a project the user trusts: refused
// without it, run with it.
func TestClaudeCodeHonoursMCPRule(t *testing.T) {
	requireSession(t)
	claudeCode(t)
	issueApp(t)
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	shimEnv := map[string]string{}
	for _, kv := range env {
		k, v, _ := strings.Cut(kv, "=")
		shimEnv[k] = v
	}
	config, _ := json.Marshal(map[string]any{"mcpServers": map[string]any{"feedback": map[string]any{"command": bin, "args": []string{"mcp"}, "env": shimEnv}}})
	call := fakeapi.ToolUse{Name: "mcp__feedback__notify", Input: map[string]any{"message": "The build passed."}}
	rule := approval.Rule(approval.Request{Tool: call.Name, Input: call.Input})
	if rule != "mcp__feedback__notify" {
		t.Fatalf("rule %q", rule)
	}
	for _, withRule := range []bool{false, true} {
		p := filepath.Join(root, fmt.Sprint(withRule))
		home := p + "-home"
		for _, d := range []string{p, home} {
			if err := os.MkdirAll(d, 0o755); err != nil {
				t.Fatal(err)
			}
		}
		trustProject(t, home, p)
		if withRule {
			writeLocalRules(t, p, rule)
		}
		r := firstResult(t, p, home, call, nil, "--mcp-config", string(config))
		if refused(r) == withRule {
			t.Errorf("with the rule %v: %+v", withRule, r)
		} else {
			t.Logf("with the rule %v: %.150s", withRule, r.Text)
		}
	}
}
