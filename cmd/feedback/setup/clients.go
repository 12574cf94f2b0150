package setup

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"
)

// ServerName is the key the feedback server is registered under in every
// client's configuration.
const ServerName = "feedback"

// Long waits. The clients that let a configuration raise their tool-call
// timeout get toolTimeout, and the shim is told (--wait) to return "not
// answered yet — call again" shimWait before it, with the window still
// open. toolTimeout matches the window's default countdown (600 s).
const (
	toolTimeout = 600 * time.Second
	shimWait    = toolTimeout - 60*time.Second
)

// Env is what setup reads from the machine; StdEnv fills it from the
// process, tests from a temporary home.
type Env struct {
	Exe      string // absolute path of this feedback binary: what autostart runs
	Shim     string // the command written in MCP clients' configs when set (see Command); else Exe
	Home     string // the user's home directory
	GOOS     string // runtime.GOOS
	Dir      string // the project directory for --scope project (the working directory)
	Socket   string // this machine's app socket (ipc.SocketPath), for feedback setup ssh
	Headless bool   // this binary has no window app (go build -tags headless)
	// Relay, when set (--relay), is a pairing token written as
	// FEEDBACK_RELAY in the client's shim environment: its questions go
	// through the broker when no local app answers (docs/remote.md).
	Relay    string
	Getenv   func(string) string
	LookPath func(string) (string, error)
	Stdout   io.Writer
	Stderr   io.Writer
	Now      func() time.Time
}

// Command is the command written in MCP clients' configs: the shim
// installed beside this binary (feedback-headless: the same MCP server
// without the window toolkit, so it answers initialize in about half the
// time, and it starts this app when none runs), else this binary.
func (e Env) Command() string {
	if e.Shim != "" {
		return e.Shim
	}
	return e.Exe
}

// StdEnv returns the Env of this process, but for what another package
// knows: the shim installed beside the binary (Shim) and this machine's
// app socket (Socket), which the caller sets (cmd/feedback).
func StdEnv() (Env, error) {
	exe, err := os.Executable()
	if err != nil {
		return Env{}, fmt.Errorf("finding this feedback binary: %w", err)
	}
	if real, err := filepath.EvalSymlinks(exe); err == nil {
		exe = real
	}
	home, err := os.UserHomeDir()
	if err != nil {
		return Env{}, fmt.Errorf("finding your home directory: %w", err)
	}
	dir, err := os.Getwd()
	if err != nil {
		return Env{}, err
	}
	return Env{Exe: exe, Home: home, GOOS: runtime.GOOS, Dir: dir, Getenv: os.Getenv,
		LookPath: exec.LookPath, Stdout: os.Stdout, Stderr: os.Stderr, Now: time.Now}, nil
}

// configDir is the per-user application data directory of desktop apps
// built on Electron (VS Code, Claude Desktop): %APPDATA% on Windows,
// ~/Library/Application Support on macOS, $XDG_CONFIG_HOME or ~/.config
// elsewhere.
func (e Env) configDir() string {
	switch e.GOOS {
	case "windows":
		if d := e.Getenv("APPDATA"); d != "" {
			return d
		}
		return filepath.Join(e.Home, "AppData", "Roaming")
	case "darwin":
		return filepath.Join(e.Home, "Library", "Application Support")
	}
	if d := e.Getenv("XDG_CONFIG_HOME"); filepath.IsAbs(d) {
		return d
	}
	return filepath.Join(e.Home, ".config")
}

// format is how a client's file is written.
type format int

const (
	formatJSON format = iota // JSON, comments and trailing commas kept (hujson)
	formatTOML               // TOML (Codex)
)

// A field is one key of the feedback entry. A map[string]string value is
// merged into the object of that name (env): its other keys stay.
type field struct {
	key   string
	value any
}

// Client is one MCP client that setup knows how to configure.
type Client struct {
	Name  string // the command-line name: claude-code, vscode, …
	Title string // for people: Claude Code, VS Code, …

	format    format
	container string // the object (table) holding servers: mcpServers, servers, mcp_servers
	// userFile is the user-level configuration file.
	userFile func(Env) string
	// projectFile is the project-level file relative to the project
	// directory, "" when the client has none.
	projectFile string
	// markers are directories or files whose existence means the client is
	// installed, besides userFile and binaries on PATH.
	markers  func(Env) []string
	binaries []string
	// entry returns the fields of the feedback entry.
	entry func(exe string) []field
	// notice, when set, is what the user must still do after setup (a
	// step setup cannot take for them); said after every run.
	notice func(Env) string
}

// stdioEntry is command and args, with "type": "stdio" first when typed.
func stdioEntry(typed bool, extra ...field) func(string) []field {
	return func(exe string) []field {
		var f []field
		if typed {
			f = append(f, field{"type", "stdio"})
		}
		f = append(f, field{"command", exe}, field{"args", []string{"mcp"}})
		return append(f, extra...)
	}
}

// waitArgs makes the shim return before the client's raised timeout.
func waitArgs(exe string) []field {
	return []field{{"command", exe}, {"args", []string{"mcp", "--wait", strconv.Itoa(int(shimWait / time.Second))}}}
}

// Clients is every client setup knows, in the order they are listed.
var Clients = []Client{
	{
		Name: "claude-code", Title: "Claude Code", format: formatJSON, container: "mcpServers",
		userFile: func(e Env) string {
			if d := e.Getenv("CLAUDE_CONFIG_DIR"); filepath.IsAbs(d) {
				return filepath.Join(d, ".claude.json")
			}
			return filepath.Join(e.Home, ".claude.json")
		},
		projectFile: ".mcp.json",
		markers:     func(e Env) []string { return []string{filepath.Join(e.Home, ".claude")} },
		binaries:    []string{"claude"},
		entry:       stdioEntry(true),
	},
	{
		Name: "claude-desktop", Title: "Claude Desktop", format: formatJSON, container: "mcpServers",
		userFile: func(e Env) string {
			return filepath.Join(e.configDir(), "Claude", "claude_desktop_config.json")
		},
		markers: func(e Env) []string { return []string{filepath.Join(e.configDir(), "Claude")} },
		entry:   stdioEntry(false),
	},
	{
		Name: "cursor", Title: "Cursor", format: formatJSON, container: "mcpServers",
		userFile:    func(e Env) string { return filepath.Join(e.Home, ".cursor", "mcp.json") },
		projectFile: filepath.Join(".cursor", "mcp.json"),
		markers:     func(e Env) []string { return []string{filepath.Join(e.Home, ".cursor")} },
		binaries:    []string{"cursor"},
		entry:       stdioEntry(false),
	},
	{
		Name: "vscode", Title: "VS Code", format: formatJSON, container: "servers",
		userFile:    func(e Env) string { return filepath.Join(e.configDir(), "Code", "User", "mcp.json") },
		projectFile: filepath.Join(".vscode", "mcp.json"),
		markers:     func(e Env) []string { return []string{filepath.Join(e.configDir(), "Code", "User")} },
		binaries:    []string{"code"},
		entry:       stdioEntry(true),
	},
	{
		Name: "windsurf", Title: "Windsurf", format: formatJSON, container: "mcpServers",
		userFile: func(e Env) string { return filepath.Join(e.Home, ".codeium", "windsurf", "mcp_config.json") },
		markers:  func(e Env) []string { return []string{filepath.Join(e.Home, ".codeium", "windsurf")} },
		binaries: []string{"windsurf"},
		entry:    stdioEntry(false),
	},
	{
		Name: "codex", Title: "Codex", format: formatTOML, container: "mcp_servers",
		userFile: func(e Env) string {
			if d := e.Getenv("CODEX_HOME"); filepath.IsAbs(d) {
				return filepath.Join(d, "config.toml")
			}
			return filepath.Join(e.Home, ".codex", "config.toml")
		},
		projectFile: filepath.Join(".codex", "config.toml"),
		markers:     func(e Env) []string { return []string{filepath.Join(e.Home, ".codex")} },
		binaries:    []string{"codex"},
		entry: func(exe string) []field {
			return append(waitArgs(exe), field{"tool_timeout_sec", int64(toolTimeout / time.Second)})
		},
	},
	{
		Name: "gemini", Title: "Gemini CLI", format: formatJSON, container: "mcpServers",
		userFile:    func(e Env) string { return filepath.Join(e.Home, ".gemini", "settings.json") },
		projectFile: filepath.Join(".gemini", "settings.json"),
		markers:     func(e Env) []string { return []string{filepath.Join(e.Home, ".gemini")} },
		binaries:    []string{"gemini"},
		// trust: in its default approval mode the Gemini CLI offers the
		// model no tool of a server it does not trust (measured, 0.61:
		// none of feedback's, the model cannot ask); feedback's tools are
		// the questions to the user, nothing to approve first.
		entry: func(exe string) []field {
			return append(waitArgs(exe), field{"timeout", int64(toolTimeout / time.Millisecond)}, field{"trust", true})
		},
	},
	cursorAgent, // cursoragent.go
	antigravity, // antigravity.go
	zed,         // extensions.go
	cline,       // extensions.go
	rooCode,     // extensions.go
}

// Lookup returns the client called name.
func Lookup(name string) (Client, bool) {
	for _, c := range Clients {
		if c.Name == name {
			return c, true
		}
	}
	return Client{}, false
}

// ClientNames lists the names setup accepts.
func ClientNames() []string {
	names := make([]string, len(Clients))
	for i, c := range Clients {
		names[i] = c.Name
	}
	return names
}

// Scope is where a client's configuration is written.
type Scope string

const (
	ScopeUser    Scope = "user"    // the user's own file, for every project
	ScopeProject Scope = "project" // the project directory's file, shared with it
)

// File returns the configuration file of c for scope.
func (c Client) File(e Env, scope Scope) (string, error) {
	if scope == ScopeProject {
		if c.projectFile == "" {
			return "", fmt.Errorf("%s has no project-level configuration; leave out --scope project to set it up for your user", c.Title)
		}
		return filepath.Join(e.Dir, c.projectFile), nil
	}
	return c.userFile(e), nil
}

// Entry returns the feedback entry for this client, with socket (when not
// empty) as FEEDBACK_SOCKET in its environment.
func (c Client) Entry(exe, socket string) []field {
	return c.EntryEnv(exe, socket, "")
}

// EntryEnv is Entry with a relay token (when not empty) as FEEDBACK_RELAY
// in its environment too.
func (c Client) EntryEnv(exe, socket, relayToken string) []field {
	f := c.entry(exe)
	env := map[string]string{}
	if socket != "" {
		env["FEEDBACK_SOCKET"] = socket
	}
	if relayToken != "" {
		env["FEEDBACK_RELAY"] = relayToken
	}
	if len(env) > 0 {
		f = append(f, field{"env", env})
	}
	return f
}

// found returns what shows the client is installed ("" if nothing does):
// its configuration file or directory, or its binary on PATH.
func (c Client) found(e Env) string {
	for _, p := range append([]string{c.userFile(e)}, c.markers(e)...) {
		if _, err := os.Stat(p); err == nil {
			return tildePath(e, p)
		}
	}
	for _, b := range c.binaries {
		if p, err := e.LookPath(b); err == nil {
			return p + " (on PATH)"
		}
	}
	return ""
}

// tildePath shortens a path under the home directory to ~/….
func tildePath(e Env, p string) string {
	if rel, err := filepath.Rel(e.Home, p); err == nil && rel != "." && !strings.HasPrefix(rel, "..") {
		return "~" + string(filepath.Separator) + rel
	}
	return p
}
