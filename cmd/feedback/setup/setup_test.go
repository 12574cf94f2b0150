package setup

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/pelletier/go-toml/v2"
	"github.com/tailscale/hujson"
)

const testExe = "/opt/feedback/bin/feedback"

type testEnv struct {
	Env
	vars   map[string]string
	stdout *bytes.Buffer
	stderr *bytes.Buffer
}

func newEnv(t *testing.T) *testEnv {
	t.Helper()
	root := t.TempDir()
	te := &testEnv{vars: map[string]string{}, stdout: &bytes.Buffer{}, stderr: &bytes.Buffer{}}
	te.Env = Env{
		Exe: testExe, Home: filepath.Join(root, "home"), GOOS: "linux", Dir: filepath.Join(root, "project"),
		Socket:   "/run/user/1000/feedback/feedback.sock",
		Getenv:   func(k string) string { return te.vars[k] },
		LookPath: func(string) (string, error) { return "", exec.ErrNotFound },
		Stdout:   te.stdout, Stderr: te.stderr,
		Now: func() time.Time { return time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC) },
	}
	for _, d := range []string{te.Home, te.Dir} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			t.Fatal(err)
		}
	}
	return te
}

// decode parses a client's file as the client would.
func decode(t *testing.T, c Client, data []byte) map[string]any {
	t.Helper()
	var doc map[string]any
	if c.format == formatTOML {
		if err := toml.Unmarshal(data, &doc); err != nil {
			t.Fatalf("%s: not TOML: %v\n%s", c.Name, err, data)
		}
		return doc
	}
	std, err := hujson.Standardize(bytes.Clone(data))
	if err != nil {
		t.Fatalf("%s: not JSON: %v\n%s", c.Name, err, data)
	}
	if err := json.Unmarshal(std, &doc); err != nil {
		t.Fatal(err)
	}
	return doc
}

func entry(t *testing.T, c Client, doc map[string]any) map[string]any {
	t.Helper()
	servers, ok := doc[c.container].(map[string]any)
	if !ok {
		t.Fatalf("%s: no %s object in %v", c.Name, c.container, doc)
	}
	e, ok := servers[ServerName].(map[string]any)
	if !ok {
		t.Fatalf("%s: no %s.%s in %v", c.Name, c.container, ServerName, doc)
	}
	return e
}

func strs(v any) []string {
	var out []string
	for _, x := range v.([]any) {
		out = append(out, x.(string))
	}
	return out
}

func TestEveryClientWritesItsOwnShape(t *testing.T) {
	want := map[string]struct {
		user, project string
		container     string
		typ           string // "type" member, "" for none
		args          []string
		timeout       any // the client's own tool timeout, nil for none
		timeoutKey    string
	}{
		"claude-code":    {".claude.json", ".mcp.json", "mcpServers", "stdio", []string{"mcp"}, nil, ""},
		"claude-desktop": {".config/Claude/claude_desktop_config.json", "", "mcpServers", "", []string{"mcp"}, nil, ""},
		"cursor":         {".cursor/mcp.json", ".cursor/mcp.json", "mcpServers", "", []string{"mcp"}, nil, ""},
		"cursor-agent":   {".cursor/mcp.json", ".cursor/mcp.json", "mcpServers", "", []string{"mcp"}, nil, ""},
		"antigravity":    {".gemini/config/mcp_config.json", ".agents/mcp_config.json", "mcpServers", "", []string{"mcp"}, nil, ""},
		"zed":            {".config/zed/settings.json", ".zed/settings.json", "context_servers", "", []string{"mcp"}, nil, ""},
		"cline":          {".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json", "", "mcpServers", "", []string{"mcp", "--wait", "540"}, float64(600), "timeout"},
		"roo-code":       {".config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json", ".roo/mcp.json", "mcpServers", "", []string{"mcp", "--wait", "540"}, float64(600), "timeout"},
		"vscode":         {".config/Code/User/mcp.json", ".vscode/mcp.json", "servers", "stdio", []string{"mcp"}, nil, ""},
		"windsurf":       {".codeium/windsurf/mcp_config.json", "", "mcpServers", "", []string{"mcp"}, nil, ""},
		"codex":          {".codex/config.toml", ".codex/config.toml", "mcp_servers", "", []string{"mcp", "--wait", "540"}, int64(600), "tool_timeout_sec"},
		"gemini":         {".gemini/settings.json", ".gemini/settings.json", "mcpServers", "", []string{"mcp", "--wait", "540"}, float64(600000), "timeout"},
	}
	if len(want) != len(Clients) {
		t.Fatalf("test covers %d clients, setup knows %d", len(want), len(Clients))
	}
	for _, c := range Clients {
		w := want[c.Name]
		for _, scope := range []Scope{ScopeUser, ScopeProject} {
			t.Run(c.Name+"/"+string(scope), func(t *testing.T) {
				te := newEnv(t)
				rel, base := w.user, te.Home
				if scope == ScopeProject {
					rel, base = w.project, te.Dir
				}
				if code := Run([]string{c.Name, "--scope", string(scope)}, te.Env); rel == "" {
					if code != 1 || !strings.Contains(te.stderr.String(), "no project-level configuration") {
						t.Fatalf("exit %d, stderr %q: want a clear refusal", code, te.stderr)
					}
					return
				} else if code != 0 {
					t.Fatalf("exit %d: %s", code, te.stderr)
				}
				path := filepath.Join(base, rel)
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatalf("%s not written: %v\nstdout: %s", path, err, te.stdout)
				}
				if !strings.Contains(te.stdout.String(), "updated") {
					t.Errorf("stdout %q does not say what changed", te.stdout)
				}
				e := entry(t, c, decode(t, c, data))
				if e["command"] != testExe || !reflect.DeepEqual(strs(e["args"]), w.args) {
					t.Errorf("entry %v: want command %s args %v", e, testExe, w.args)
				}
				if typ, _ := e["type"].(string); typ != w.typ {
					t.Errorf("type = %q, want %q", typ, w.typ)
				}
				if w.timeoutKey != "" && e[w.timeoutKey] != w.timeout {
					t.Errorf("%s = %#v, want %#v", w.timeoutKey, e[w.timeoutKey], w.timeout)
				}
				// The Gemini CLI offers the model no tool of a server it does
				// not trust (in its default approval mode).
				if trust, _ := e["trust"].(bool); trust != (c.Name == "gemini") {
					t.Errorf("trust = %#v", e["trust"])
				}
				fi, _ := os.Stat(path)
				if perm := fi.Mode().Perm(); scope == ScopeUser && perm != 0o600 || scope == ScopeProject && perm != 0o644 {
					t.Errorf("mode %v", perm)
				}
				if di, _ := os.Stat(filepath.Dir(path)); scope == ScopeProject && filepath.Dir(path) != te.Dir && di.Mode().Perm() != 0o755 {
					t.Errorf("project directory %s mode %v, want 0755", filepath.Dir(path), di.Mode().Perm())
				}

				te.stdout.Reset()
				if code := Run([]string{c.Name, "--scope", string(scope)}, te.Env); code != 0 {
					t.Fatalf("second run: exit %d: %s", code, te.stderr)
				}
				if !strings.Contains(te.stdout.String(), "already set up") {
					t.Errorf("second run says %q, want already set up", te.stdout)
				}
				again, _ := os.ReadFile(path)
				if !bytes.Equal(again, data) {
					t.Errorf("second run changed the file:\n%s\n---\n%s", data, again)
				}
				if baks, _ := filepath.Glob(path + ".*.bak"); len(baks) != 0 {
					t.Errorf("backups %v of a file that did not exist before", baks)
				}
			})
		}
	}
}

// The shim must give up before the client does, so that a long wait ends
// with "call again" rather than the client's timeout error.
func TestWaitIsUnderTheClientTimeout(t *testing.T) {
	// The unit of each client's own timeout key.
	units := map[string]time.Duration{"codex": time.Second, "gemini": time.Millisecond, "cline": time.Second, "roo-code": time.Second}
	for name, unit := range units {
		c, _ := Lookup(name)
		var wait time.Duration
		var timeout time.Duration
		for _, f := range c.Entry(testExe, "") {
			switch f.key {
			case "args":
				a := f.value.([]string)
				if len(a) != 3 || a[1] != "--wait" {
					t.Fatalf("%s args %v: want mcp --wait N", name, a)
				}
				d, err := time.ParseDuration(a[2] + "s")
				if err != nil {
					t.Fatal(err)
				}
				wait = d
			case "tool_timeout_sec", "timeout":
				timeout = time.Duration(f.value.(int64)) * unit
			}
		}
		if wait <= 0 || timeout-wait < 30*time.Second {
			t.Errorf("%s: shim waits %v, client times out at %v: want at least 30 s of margin", name, wait, timeout)
		}
	}
}

func TestJSONMergeKeepsEverythingElse(t *testing.T) {
	te := newEnv(t)
	path := filepath.Join(te.Dir, ".vscode", "mcp.json")
	orig := `// Workspace MCP servers
{
	"inputs": [{"id": "token", "type": "promptString"}], // keep me
	"servers": {
		"github": {
			"type": "http",
			"url": "https://api.githubcopilot.com/mcp/", /* trailing comment */
		},
		"feedback": {
			"type": "stdio",
			"command": "/old/feedback", // an old build
			"args": ["mcp"],
			"env": {"FEEDBACK_DEBUG": "1"},
			"dev": {"watch": "src/**"},
		},
	},
	"unknownTopLevel": true,
}
`
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(orig), 0o640); err != nil {
		t.Fatal(err)
	}
	if code := Run([]string{"vscode", "--scope", "project", "--socket", "/home/u/.ssh/feedback.sock"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	got, _ := os.ReadFile(path)
	for _, keep := range []string{"// Workspace MCP servers", "// keep me", "/* trailing comment */", "// an old build", `"unknownTopLevel": true`, `"dev": {"watch": "src/**"}`} {
		if !bytes.Contains(got, []byte(keep)) {
			t.Errorf("lost %q:\n%s", keep, got)
		}
	}
	c, _ := Lookup("vscode")
	doc := decode(t, c, got)
	e := entry(t, c, doc)
	if e["command"] != testExe {
		t.Errorf("command %v", e["command"])
	}
	if env := e["env"].(map[string]any); env["FEEDBACK_DEBUG"] != "1" || env["FEEDBACK_SOCKET"] != "/home/u/.ssh/feedback.sock" {
		t.Errorf("env %v: want the old variable kept and FEEDBACK_SOCKET added", env)
	}
	if gh := doc["servers"].(map[string]any)["github"].(map[string]any); gh["url"] != "https://api.githubcopilot.com/mcp/" {
		t.Errorf("other server changed: %v", gh)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o640 {
		t.Errorf("mode %v, want the file's own 0640", fi.Mode().Perm())
	}
	bak := path + ".20261130-120000.bak"
	if b, err := os.ReadFile(bak); err != nil || string(b) != orig {
		t.Errorf("backup %s: %v %q", bak, err, b)
	}
	out := te.stdout.String()
	if !strings.Contains(out, `set servers.feedback.command to "`+testExe+`" (was "/old/feedback")`) || !strings.Contains(out, "FEEDBACK_SOCKET") {
		t.Errorf("report does not say what changed:\n%s", out)
	}
}

func TestPlainJSONStaysPlainAndIndentedLikeTheFile(t *testing.T) {
	te := newEnv(t)
	path := filepath.Join(te.Home, ".claude.json")
	orig := "{\n    \"numStartups\": 3,\n    \"projects\": {\"/src\": {\"mcpServers\": {}}}\n}\n"
	if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := Run([]string{"claude-code"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	got, _ := os.ReadFile(path)
	if !json.Valid(got) {
		t.Fatalf("not plain JSON any more:\n%s", got)
	}
	want := "{\n    \"numStartups\": 3,\n    \"projects\": {\"/src\": {\"mcpServers\": {}}},\n    \"mcpServers\": {\n        \"feedback\": {\n" +
		"            \"type\": \"stdio\",\n            \"command\": \"" + testExe + "\",\n            \"args\": [\"mcp\"]\n        }\n    }\n}\n"
	if string(got) != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestTOMLMergeKeepsComments(t *testing.T) {
	te := newEnv(t)
	path := filepath.Join(te.Home, ".codex", "config.toml")
	orig := `# Codex settings
model = "gpt-5" # the default model

[mcp_servers.context7]
command = "npx" # via npm
args = ["-y", "@upstash/context7-mcp"]

[mcp_servers.feedback] # ours, older
command = "/old/feedback"
args = [
  "mcp", # multi-line
]
enabled = true

[mcp_servers.feedback.env]
FEEDBACK_DEBUG = "1" # debug

[profiles.fast]
model = "gpt-5-mini"
`
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(orig), 0o600); err != nil {
		t.Fatal(err)
	}
	if code := Run([]string{"codex", "--socket", "/s/feedback.sock"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	got, _ := os.ReadFile(path)
	for _, keep := range []string{"# Codex settings", "# the default model", "# via npm", "# ours, older", "enabled = true", `FEEDBACK_DEBUG = "1" # debug`, "[profiles.fast]"} {
		if !bytes.Contains(got, []byte(keep)) {
			t.Errorf("lost %q:\n%s", keep, got)
		}
	}
	c, _ := Lookup("codex")
	doc := decode(t, c, got)
	e := entry(t, c, doc)
	if e["command"] != testExe || !reflect.DeepEqual(strs(e["args"]), []string{"mcp", "--wait", "540"}) || e["tool_timeout_sec"] != int64(600) || e["enabled"] != true {
		t.Errorf("entry %v", e)
	}
	if env := e["env"].(map[string]any); env["FEEDBACK_DEBUG"] != "1" || env["FEEDBACK_SOCKET"] != "/s/feedback.sock" {
		t.Errorf("env %v", env)
	}
	if doc["profiles"].(map[string]any)["fast"].(map[string]any)["model"] != "gpt-5-mini" {
		t.Errorf("profiles changed: %v", doc["profiles"])
	}
	te.stdout.Reset()
	if Run([]string{"codex", "--socket", "/s/feedback.sock"}, te.Env); !strings.Contains(te.stdout.String(), "already set up") {
		t.Errorf("second run: %s", te.stdout)
	}
}

func TestTOMLAppendsATable(t *testing.T) {
	data := []byte("model = \"o3\"") // no final newline
	out, changes, err := mergeTOML(data, "mcp_servers", "feedback", []field{{"command", "/x y/feedback"}, {"args", []string{"mcp"}}})
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := toml.Unmarshal(out, &doc); err != nil {
		t.Fatalf("%v:\n%s", err, out)
	}
	if !strings.HasPrefix(string(out), "model = \"o3\"\n\n[mcp_servers.feedback]\n") || len(changes) != 1 {
		t.Errorf("got %q, changes %v", out, changes)
	}
}

func TestRefusesWhatItCannotEditSafely(t *testing.T) {
	tests := []struct {
		name, client, file, content, want string
	}{
		{"broken JSON", "cursor", ".cursor/mcp.json", `{"mcpServers": {`, "not valid JSON"},
		{"JSON array", "cursor", ".cursor/mcp.json", `[]`, "not a JSON object"},
		{"servers not an object", "cursor", ".cursor/mcp.json", `{"mcpServers": []}`, "mcpServers is not a JSON object"},
		{"broken TOML", "codex", ".codex/config.toml", "[mcp_servers\n", "not valid TOML"},
		{"inline TOML entry", "codex", ".codex/config.toml", "mcp_servers = { feedback = { command = \"x\" } }\n", "does not edit"},
		{"dotted TOML entry", "codex", ".codex/config.toml", "[mcp_servers]\nfeedback.command = \"x\"\n", "does not edit"},
		{"TOML servers an array", "codex", ".codex/config.toml", "[[mcp_servers]]\nname = \"x\"\n", "mcp_servers is not a table"},
		{"TOML entry a string", "codex", ".codex/config.toml", "[mcp_servers]\nfeedback = \"x\"\n", "mcp_servers.feedback is not a table"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			te := newEnv(t)
			path := filepath.Join(te.Home, tt.file)
			os.MkdirAll(filepath.Dir(path), 0o700)
			if err := os.WriteFile(path, []byte(tt.content), 0o600); err != nil {
				t.Fatal(err)
			}
			if code := Run([]string{tt.client}, te.Env); code != 1 {
				t.Errorf("exit %d, want 1", code)
			}
			if !strings.Contains(te.stderr.String(), tt.want) || !strings.Contains(te.stderr.String(), path) {
				t.Errorf("stderr %q: want %q and the file's path", te.stderr, tt.want)
			}
			if got, _ := os.ReadFile(path); string(got) != tt.content {
				t.Errorf("file changed to %q", got)
			}
		})
	}
}

func TestPrintWritesNothing(t *testing.T) {
	te := newEnv(t)
	if code := Run([]string{"gemini", "--print"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	if _, err := os.Stat(filepath.Join(te.Home, ".gemini")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("--print created files: %v", err)
	}
	if out := te.stdout.String(); !strings.Contains(out, `"timeout": 600000`) || !strings.Contains(out, "nothing written") {
		t.Errorf("stdout:\n%s", out)
	}
}

func TestFollowsASymlinkedConfig(t *testing.T) {
	te := newEnv(t)
	real := filepath.Join(te.Home, "dotfiles", "gemini.json")
	os.MkdirAll(filepath.Dir(real), 0o700)
	os.MkdirAll(filepath.Join(te.Home, ".gemini"), 0o700)
	os.WriteFile(real, []byte(`{"theme": "dark"}`), 0o600)
	link := filepath.Join(te.Home, ".gemini", "settings.json")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if code := Run([]string{"gemini"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	if fi, err := os.Lstat(link); err != nil || fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}
	if b, _ := os.ReadFile(real); !bytes.Contains(b, []byte(testExe)) || !bytes.Contains(b, []byte(`"theme": "dark"`)) {
		t.Errorf("real file: %s", b)
	}
}

func TestPathsPerOS(t *testing.T) {
	tests := []struct {
		goos, client, home string
		vars               map[string]string
		want               string
	}{
		{"darwin", "vscode", "/Users/a", nil, "/Users/a/Library/Application Support/Code/User/mcp.json"},
		{"darwin", "claude-desktop", "/Users/a", nil, "/Users/a/Library/Application Support/Claude/claude_desktop_config.json"},
		{"windows", "vscode", `C:\Users\a`, map[string]string{"APPDATA": `C:\Users\a\AppData\Roaming`}, filepath.Join(`C:\Users\a\AppData\Roaming`, "Code", "User", "mcp.json")},
		{"windows", "claude-desktop", `C:\Users\a`, map[string]string{"APPDATA": `C:\R`}, filepath.Join(`C:\R`, "Claude", "claude_desktop_config.json")},
		{"linux", "vscode", "/home/a", map[string]string{"XDG_CONFIG_HOME": "/cfg"}, "/cfg/Code/User/mcp.json"},
		{"linux", "codex", "/home/a", map[string]string{"CODEX_HOME": "/ch"}, "/ch/config.toml"},
		{"linux", "claude-code", "/home/a", map[string]string{"CLAUDE_CONFIG_DIR": "/cc"}, "/cc/.claude.json"},
		{"linux", "windsurf", "/home/a", nil, "/home/a/.codeium/windsurf/mcp_config.json"},
		{"linux", "zed", "/home/a", map[string]string{"XDG_CONFIG_HOME": "/cfg"}, "/cfg/zed/settings.json"},
		{"darwin", "zed", "/Users/a", nil, "/Users/a/.config/zed/settings.json"},
		{"windows", "zed", `C:\Users\a`, map[string]string{"APPDATA": `C:\R`}, filepath.Join(`C:\R`, "Zed", "settings.json")},
		{"darwin", "cline", "/Users/a", nil, "/Users/a/Library/Application Support/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json"},
		{"windows", "roo-code", `C:\Users\a`, map[string]string{"APPDATA": `C:\R`}, filepath.Join(`C:\R`, "Code", "User", "globalStorage", "rooveterinaryinc.roo-cline", "settings", "mcp_settings.json")},
	}
	for _, tt := range tests {
		e := Env{GOOS: tt.goos, Home: tt.home, Getenv: func(k string) string { return tt.vars[k] }}
		c, _ := Lookup(tt.client)
		if got, _ := c.File(e, ScopeUser); got != tt.want {
			t.Errorf("%s on %s: %s, want %s", tt.client, tt.goos, got, tt.want)
		}
	}
}

func TestListShowsFoundClients(t *testing.T) {
	te := newEnv(t)
	os.MkdirAll(filepath.Join(te.Home, ".codex"), 0o700)
	te.LookPath = func(name string) (string, error) {
		if name == "gemini" {
			return "/usr/bin/gemini", nil
		}
		return "", exec.ErrNotFound
	}
	if code := Run([]string{"cursor"}, te.Env); code != 0 {
		t.Fatal(te.stderr)
	}
	os.WriteFile(filepath.Join(te.Home, ".claude.json"), []byte(`{"mcpServers": {"feedback": {"command": "/elsewhere/feedback"}}}`), 0o600)
	te.stdout.Reset()
	if code := Run(nil, te.Env); code != 0 {
		t.Fatalf("exit %d", code)
	}
	out := te.stdout.String()
	lines := map[string]string{}
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 0 {
			lines[f[0]] = l
		}
	}
	for name, want := range map[string]string{
		"cursor":      "set up",
		"codex":       "not set up: feedback setup codex",
		"gemini":      "/usr/bin/gemini (on PATH)",
		"claude-code": "set up, runs /elsewhere/feedback",
	} {
		if !strings.Contains(lines[name], want) {
			t.Errorf("%s line %q: want %q\n%s", name, lines[name], want, out)
		}
	}
	if !strings.Contains(out, "Not found here: claude-desktop, vscode, windsurf") {
		t.Errorf("missing clients not listed:\n%s", out)
	}

	os.MkdirAll(filepath.Join(te.Dir, ".vscode"), 0o755)
	os.WriteFile(filepath.Join(te.Dir, ".vscode", "mcp.json"), []byte(`{"servers": {}}`), 0o644)
	Run([]string{"gemini", "--scope", "project"}, te.Env)
	te.stdout.Reset()
	Run(nil, te.Env)
	out = te.stdout.String()
	if !strings.Contains(out, "./.vscode/mcp.json (this project)") || !strings.Contains(out, "not set up: feedback setup vscode --scope project") ||
		!strings.Contains(out, "./.gemini/settings.json (this project)") {
		t.Errorf("project files not listed:\n%s", out)
	}
}

func TestUsageErrors(t *testing.T) {
	for _, args := range [][]string{{"notepad"}, {"codex", "--scope", "team"}, {"codex", "--socket", "rel.sock"}, {"codex", "extra"}, {"ssh"}, {"ssh", "bad host"}} {
		te := newEnv(t)
		if code := Run(args, te.Env); code != 2 || te.stderr.Len() == 0 {
			t.Errorf("%v: exit %d, stderr %q: want 2 and a message", args, code, te.stderr)
		}
	}
}

func TestSSHRecipe(t *testing.T) {
	te := newEnv(t)
	if code := Run([]string{"ssh", "devbox", "--remote-user", "ann"}, te.Env); code != 0 {
		t.Fatalf("exit %d: %s", code, te.stderr)
	}
	out := te.stdout.String()
	for _, want := range []string{
		"Host devbox\n        RemoteForward /home/ann/.ssh/feedback.sock /run/user/1000/feedback/feedback.sock\n",
		"StreamLocalBindUnlink yes", "/etc/ssh/sshd_config",
		"feedback setup claude-code --socket /home/ann/.ssh/feedback.sock",
		`"env": {"FEEDBACK_SOCKET": "/home/ann/.ssh/feedback.sock"}`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in:\n%s", want, out)
		}
	}
	te = newEnv(t)
	if Run([]string{"ssh", "box", "--remote-user", "root"}, te.Env); !strings.Contains(te.stdout.String(), "RemoteForward /root/.ssh/feedback.sock") {
		t.Errorf("root's home: %s", te.stdout)
	}
	te = newEnv(t)
	te.GOOS = "windows"
	if code := Run([]string{"ssh", "box"}, te.Env); code != 1 || !strings.Contains(te.stderr.String(), "named pipe") {
		t.Errorf("windows: exit %d %q", code, te.stderr)
	}
}
