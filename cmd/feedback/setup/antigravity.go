package setup

import "path/filepath"

// Antigravity CLI (agy), the successor of Gemini CLI for consumer
// accounts, and the Antigravity IDE load MCP servers from one HOME-level
// file, ~/.gemini/config/mcp_config.json ("mcpServers"), and a project's
// from mcp_config.json in its customization root (.agents/). An entry of a
// shape it does not know is dropped without a word, so setup writes the
// plainest one: command and args.
var antigravity = Client{
	Name: "antigravity", Title: "Antigravity CLI", format: formatJSON, container: "mcpServers",
	userFile:    func(e Env) string { return filepath.Join(e.Home, ".gemini", "config", "mcp_config.json") },
	projectFile: filepath.Join(".agents", "mcp_config.json"),
	markers:     func(e Env) []string { return []string{filepath.Join(e.Home, ".gemini", "config")} },
	binaries:    []string{"agy"},
	entry:       stdioEntry(false),
}
