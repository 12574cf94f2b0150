package setup

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"

	"github.com/tailscale/hujson"
)

// What the clients trust: a client that has not trusted a folder ignores
// what it finds there, and the Gemini CLI offers the model no tool of a
// server it does not trust. feedback doctor reads these (measured against
// Claude Code 2.1 and Gemini CLI 0.61, e2e/geminicli_test.go and
// e2e/claudecode_test.go).

// ClaudeCodeTrusts reports whether the user has accepted Claude Code's
// trust dialog for dir or a folder above it (~/.claude.json's projects);
// until then it applies none of the project's settings, its permission
// rules and hooks included, and starts none of its .mcp.json servers.
func ClaudeCodeTrusts(e Env, dir string) bool {
	var doc struct {
		Projects map[string]struct {
			Accepted bool `json:"hasTrustDialogAccepted"`
		} `json:"projects"`
	}
	if readJSON(filepath.Join(e.Home, ".claude.json"), &doc) != nil {
		return false
	}
	for d := filepath.Clean(dir); ; d = filepath.Dir(d) {
		if doc.Projects[d].Accepted {
			return true
		}
		if d == filepath.Dir(d) {
			return false
		}
	}
}

// ClaudeCodeProjectFiles are the files of dir in which Claude Code would
// find feedback: its MCP server (.mcp.json), or a permission rule or hook
// of feedback's (.claude/settings.json, .claude/settings.local.json).
func ClaudeCodeProjectFiles(dir string) []string {
	var out []string
	for _, rel := range []string{".mcp.json", filepath.Join(".claude", "settings.json"), filepath.Join(".claude", "settings.local.json")} {
		data, err := readConfig(filepath.Join(dir, rel))
		if err != nil || len(data) == 0 {
			continue
		}
		text := string(data)
		if strings.Contains(text, `"`+ServerName+`"`) || strings.Contains(text, OwnToolsRule) || strings.Contains(text, "feedback approve") || strings.Contains(text, "feedback notify") {
			out = append(out, rel)
		}
	}
	return out
}

// GeminiTrust is what the Gemini CLI makes of a folder.
type GeminiTrust int

const (
	GeminiTrustOff      GeminiTrust = iota // folder trust is turned off: every folder is trusted
	GeminiTrusted                          // a rule trusts it (or GEMINI_CLI_TRUST_WORKSPACE)
	GeminiNotTrusted                       // a rule says do not trust it
	GeminiNotYetTrusted                    // no rule: the CLI asks, and until then runs no MCP server
)

// GeminiFolderTrust is how the Gemini CLI started in dir trusts it: its
// security.folderTrust.enabled setting (default true), then the longest
// rule of trustedFolders.json (~/.gemini/, or
// $GEMINI_CLI_TRUSTED_FOLDERS_PATH) whose folder holds dir — a
// TRUST_PARENT rule's folder is its parent. An untrusted folder's MCP
// servers do not connect, and `gemini -p` there exits at once.
func GeminiFolderTrust(e Env, dir string) GeminiTrust {
	if e.Getenv != nil && e.Getenv("GEMINI_CLI_TRUST_WORKSPACE") == "true" {
		return GeminiTrusted
	}
	var settings struct {
		Security struct {
			FolderTrust struct {
				Enabled *bool `json:"enabled"`
			} `json:"folderTrust"`
		} `json:"security"`
	}
	readJSON(filepath.Join(e.Home, ".gemini", "settings.json"), &settings)
	if en := settings.Security.FolderTrust.Enabled; en != nil && !*en {
		return GeminiTrustOff
	}
	path := filepath.Join(e.Home, ".gemini", "trustedFolders.json")
	if e.Getenv != nil && e.Getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH") != "" {
		path = e.Getenv("GEMINI_CLI_TRUSTED_FOLDERS_PATH")
	}
	var rules map[string]string
	readJSON(path, &rules)
	dir = realPath(dir)
	best, level := -1, ""
	for rule, l := range rules {
		folder := rule
		if l == "TRUST_PARENT" {
			folder = filepath.Dir(rule)
		}
		if !within(realPath(folder), dir) || len(rule) <= best {
			continue
		}
		best, level = len(rule), l
	}
	switch level {
	case "TRUST_FOLDER", "TRUST_PARENT":
		return GeminiTrusted
	case "DO_NOT_TRUST":
		return GeminiNotTrusted
	}
	return GeminiNotYetTrusted
}

// GeminiServerTrusted reports whether a Gemini CLI entry trusts its
// server: without it, in the default approval mode, the CLI offers the
// model none of the server's tools.
func GeminiServerTrusted(entry map[string]any) bool {
	trust, _ := entry["trust"].(bool)
	return trust
}

// within reports whether path is folder or inside it.
func within(folder, path string) bool {
	rel, err := filepath.Rel(folder, path)
	return err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator))
}

func realPath(p string) string {
	if r, err := filepath.EvalSymlinks(p); err == nil {
		return r
	}
	return filepath.Clean(p)
}

// readJSON reads a JSON (or JSON with comments) file into v.
func readJSON(path string, v any) error {
	data, err := readConfig(path)
	if err != nil {
		return err
	}
	if len(data) == 0 {
		return os.ErrNotExist
	}
	std, err := hujson.Standardize(data)
	if err != nil {
		return err
	}
	return json.Unmarshal(std, v)
}

// ProjectEntry is feedback's entry in c's project file in e.Dir, nil when
// there is none.
func ProjectEntry(e Env, c Client) (map[string]any, error) {
	path, err := c.File(e, ScopeProject)
	if err != nil {
		return nil, err
	}
	return entryOf(path, c)
}
