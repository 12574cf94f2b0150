package setup

import (
	"path/filepath"
	"time"
)

// Zed reads its MCP servers ("context servers") from its settings file,
// which also holds every other setting of the editor and is JSON with
// comments: "context_servers" maps a name to command, args and env
// (zed.dev/docs/ai/mcp). The file is ~/.config/zed/settings.json on Linux
// and macOS ($XDG_CONFIG_HOME on Linux), %APPDATA%\Zed\settings.json on
// Windows, and a project's .zed/settings.json. Zed's tool-call timeout is
// the setting context_server_timeout (60 s by default), outside the
// entry: the shim's wait profile for Zed stays under it.
var zed = Client{
	Name: "zed", Title: "Zed", format: formatJSON, container: "context_servers",
	userFile:    func(e Env) string { return filepath.Join(zedDir(e), "settings.json") },
	projectFile: filepath.Join(".zed", "settings.json"),
	markers:     func(e Env) []string { return []string{zedDir(e)} },
	binaries:    []string{"zed", "zeditor"},
	entry:       stdioEntry(false),
}

// zedDir is Zed's configuration directory.
func zedDir(e Env) string {
	switch e.GOOS {
	case "windows":
		return filepath.Join(e.configDir(), "Zed")
	case "darwin":
		return filepath.Join(e.Home, ".config", "zed")
	}
	return filepath.Join(e.configDir(), "zed")
}

// Cline and Roo Code, VS Code extensions, keep their MCP servers in a JSON
// file of the extension's global storage, "mcpServers" as Claude Desktop
// does, with a per-server "timeout" in seconds (60 by default; Cline takes
// 30 to 3600, Roo Code 1 to 3600): setup raises it to toolTimeout and
// tells the shim to return "call again" before (docs.cline.bot, "Adding &
// Configuring Servers"; docs.roocode.com, "Using MCP in Roo Code"). Roo
// Code also reads a project's .roo/mcp.json.
var (
	cline = Client{
		Name: "cline", Title: "Cline (VS Code)", format: formatJSON, container: "mcpServers",
		userFile: func(e Env) string {
			return filepath.Join(vscodeStorage(e, "saoudrizwan.claude-dev"), "settings", "cline_mcp_settings.json")
		},
		markers: func(e Env) []string { return []string{vscodeStorage(e, "saoudrizwan.claude-dev")} },
		entry:   secondsTimeoutEntry,
	}
	rooCode = Client{
		Name: "roo-code", Title: "Roo Code (VS Code)", format: formatJSON, container: "mcpServers",
		userFile: func(e Env) string {
			return filepath.Join(vscodeStorage(e, "rooveterinaryinc.roo-cline"), "settings", "mcp_settings.json")
		},
		projectFile: filepath.Join(".roo", "mcp.json"),
		markers:     func(e Env) []string { return []string{vscodeStorage(e, "rooveterinaryinc.roo-cline")} },
		entry:       secondsTimeoutEntry,
	}
)

// vscodeStorage is the global storage directory of VS Code extension id.
func vscodeStorage(e Env, id string) string {
	return filepath.Join(e.configDir(), "Code", "User", "globalStorage", id)
}

// secondsTimeoutEntry is command and args with the shim's --wait, and the
// client's "timeout" in seconds.
func secondsTimeoutEntry(exe string) []field {
	return append(waitArgs(exe), field{"timeout", int64(toolTimeout / time.Second)})
}
