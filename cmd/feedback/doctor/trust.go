package doctor

import (
	"context"
	"fmt"
	"strings"

	"feedback/cmd/feedback/setup"
)

// checkTrust says when a client set up for feedback will not use it in
// the folder doctor runs in (the project): Claude Code ignores a project's
// settings (feedback's permission rule and hooks, its .mcp.json server)
// until the user trusts the folder; the Gemini CLI offers the model no
// tool of a server it does not trust, and connects no MCP server in a
// folder the user has not trusted.
func checkTrust(_ context.Context, e Env) []Result {
	var out []Result
	dir := e.Setup.Dir
	for _, s := range setup.Statuses(e.Setup) {
		switch s.Client.Name {
		case "claude-code":
			files := setup.ClaudeCodeProjectFiles(dir)
			if len(files) == 0 || setup.ClaudeCodeTrusts(e.Setup, dir) {
				continue
			}
			out = append(out, Result{Level: Warn, Check: "trust",
				Msg: fmt.Sprintf("Claude Code has not trusted %s: it ignores feedback in %s there", dir, strings.Join(files, ", ")),
				Fix: "start claude in " + dir + " and accept its trust dialog (or: feedback setup claude-code, for every project)"})
		case "gemini":
			projectEntry := geminiProjectEntry(e)
			if !s.SetUp && projectEntry == nil {
				continue
			}
			for _, entry := range []map[string]any{s.Entry, projectEntry} {
				if entry != nil && !setup.GeminiServerTrusted(entry) {
					out = append(out, Result{Level: Warn, Check: "trust",
						Msg: "the Gemini CLI does not trust feedback's server: in its default approval mode it offers the model none of feedback's tools",
						Fix: "feedback setup gemini"})
					break
				}
			}
			switch setup.GeminiFolderTrust(e.Setup, dir) {
			case setup.GeminiNotTrusted:
				out = append(out, Result{Level: Warn, Check: "trust",
					Msg: fmt.Sprintf("the Gemini CLI does not trust %s (trustedFolders.json): it connects no MCP server there, feedback included", dir),
					Fix: "in the Gemini CLI, /permissions in " + dir + " and trust it"})
			case setup.GeminiNotYetTrusted:
				out = append(out, Result{Level: Warn, Check: "trust",
					Msg: fmt.Sprintf("the Gemini CLI has not been told to trust %s: until it is, it connects no MCP server there (and gemini -p exits)", dir),
					Fix: "start gemini in " + dir + " and choose to trust the folder"})
			}
		}
	}
	return out
}

// geminiProjectEntry is feedback's entry in the project's
// .gemini/settings.json, nil when there is none.
func geminiProjectEntry(e Env) map[string]any {
	c, _ := setup.Lookup("gemini")
	entry, _ := setup.ProjectEntry(e.Setup, c)
	return entry
}
