package setup

import (
	"encoding/json"
	"io"
	"os"
	"path/filepath"
	"strings"
)

// Cursor's CLI (cursor-agent) reads the same files as Cursor
// (~/.cursor/mcp.json, .cursor/mcp.json), but it leaves a server out,
// silently — no prompt, no error; the agent just has no such tools —
// until the server is approved in the project: `cursor-agent mcp enable
// feedback`. The approval is kept per project in
// ~/.cursor/projects/<project>/mcp-approvals.json as "<id>-<hash of the
// entry>", so a changed entry (another binary path, other arguments) needs
// approving again. setup says so; doctor looks for the approval.

// cursorAgentEnable is the command that approves the feedback server.
const cursorAgentEnable = "cursor-agent mcp enable " + ServerName

var cursorAgent = Client{
	Name: "cursor-agent", Title: "Cursor CLI (cursor-agent)", format: formatJSON, container: "mcpServers",
	userFile:    func(e Env) string { return filepath.Join(e.Home, ".cursor", "mcp.json") },
	projectFile: filepath.Join(".cursor", "mcp.json"),
	markers:     func(Env) []string { return nil },
	binaries:    []string{"cursor-agent"},
	entry:       stdioEntry(false),
	notice: func(Env) string {
		return "cursor-agent loads no MCP server it has not approved, and says nothing about it: run `" + cursorAgentEnable +
			"` in each project where you use it (again after the entry changes)."
	},
}

// maxApprovalsBytes bounds an approvals file doctor reads.
const maxApprovalsBytes = 1 << 20

// CursorAgentApprovals returns the projects (their directory names under
// ~/.cursor/projects) where cursor-agent has approved the feedback server.
func CursorAgentApprovals(e Env) []string {
	files, _ := filepath.Glob(filepath.Join(e.Home, ".cursor", "projects", "*", "mcp-approvals.json"))
	var out []string
	for _, f := range files {
		if approvesFeedback(f) {
			out = append(out, filepath.Base(filepath.Dir(f)))
		}
	}
	return out
}

// approvesFeedback reports whether the approvals file at path holds an
// approval of the feedback server: a string "feedback-<hash>" (as an array
// item, an object key or value).
func approvesFeedback(path string) bool {
	f, err := os.Open(path)
	if err != nil {
		return false
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, maxApprovalsBytes))
	if err != nil {
		return false
	}
	var v any
	if json.Unmarshal(data, &v) != nil {
		return false
	}
	return holdsApproval(v, 0)
}

func holdsApproval(v any, depth int) bool {
	if depth > 8 {
		return false
	}
	switch v := v.(type) {
	case string:
		return v == ServerName || strings.HasPrefix(v, ServerName+"-")
	case []any:
		for _, x := range v {
			if holdsApproval(x, depth+1) {
				return true
			}
		}
	case map[string]any:
		for k, x := range v {
			if holdsApproval(k, depth+1) || holdsApproval(x, depth+1) {
				return true
			}
		}
	}
	return false
}
