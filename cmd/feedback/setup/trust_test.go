package setup

import (
	"path/filepath"
	"strings"
	"testing"
)

// The Gemini CLI's rules (0.61, trustedFolders.ts): the longest rule
// whose folder holds the directory wins; TRUST_PARENT's folder is the
// rule's parent; folder trust is on unless turned off; the environment's
// GEMINI_CLI_TRUST_WORKSPACE trusts any folder.
func TestGeminiFolderTrust(t *testing.T) {
	for _, tc := range []struct {
		name     string
		rules    string
		settings string
		env      map[string]string
		want     GeminiTrust
	}{
		{"no file", "", "", nil, GeminiNotYetTrusted},
		{"the folder", `{"PROJECT": "TRUST_FOLDER"}`, "", nil, GeminiTrusted},
		{"a folder above", `{"ROOT": "TRUST_FOLDER"}`, "", nil, GeminiTrusted},
		{"a sibling", `{"ROOT/other": "TRUST_FOLDER"}`, "", nil, GeminiNotYetTrusted},
		{"a prefix that is no folder above", `{"PROJECT-x": "TRUST_FOLDER", "ROOT/proj": "TRUST_FOLDER"}`, "", nil, GeminiNotYetTrusted},
		{"parent of a sibling", `{"ROOT/other": "TRUST_PARENT"}`, "", nil, GeminiTrusted},
		{"the longest rule wins", `{"ROOT": "TRUST_FOLDER", "PROJECT": "DO_NOT_TRUST"}`, "", nil, GeminiNotTrusted},
		{"the longest rule wins, trusting", `{"ROOT": "DO_NOT_TRUST", "PROJECT": "TRUST_FOLDER"}`, "", nil, GeminiTrusted},
		{"with comments", "// mine\n{\"PROJECT\": \"TRUST_FOLDER\",}", "", nil, GeminiTrusted},
		{"turned off", "", `{"security": {"folderTrust": {"enabled": false}}}`, nil, GeminiTrustOff},
		{"the environment", "", "", map[string]string{"GEMINI_CLI_TRUST_WORKSPACE": "true"}, GeminiTrusted},
	} {
		t.Run(tc.name, func(t *testing.T) {
			te := newEnv(t)
			root := filepath.Dir(te.Dir)
			r := func(s string) string {
				s = replaceAll(s, "PROJECT", filepathJSON(te.Dir))
				return replaceAll(s, "ROOT", filepathJSON(root))
			}
			if tc.rules != "" {
				writeFile(t, filepath.Join(te.Home, ".gemini", "trustedFolders.json"), r(tc.rules))
			}
			if tc.settings != "" {
				writeFile(t, filepath.Join(te.Home, ".gemini", "settings.json"), tc.settings)
			}
			for k, v := range tc.env {
				te.vars[k] = v
			}
			if got := GeminiFolderTrust(te.Env, te.Dir); got != tc.want {
				t.Errorf("got %v, want %v", got, tc.want)
			}
		})
	}
}

// Claude Code trusts a folder whose dialog was accepted for it or for a
// folder above it.
func TestClaudeCodeTrusts(t *testing.T) {
	te := newEnv(t)
	if ClaudeCodeTrusts(te.Env, te.Dir) {
		t.Error("trusted with no ~/.claude.json")
	}
	writeFile(t, filepath.Join(te.Home, ".claude.json"), `{"projects": {"`+filepathJSON(te.Dir)+`": {"hasTrustDialogAccepted": false}}}`)
	if ClaudeCodeTrusts(te.Env, te.Dir) {
		t.Error("trusted though the dialog was not accepted")
	}
	writeFile(t, filepath.Join(te.Home, ".claude.json"), `{"projects": {"`+filepathJSON(filepath.Dir(te.Dir))+`": {"hasTrustDialogAccepted": true}}}`)
	if !ClaudeCodeTrusts(te.Env, te.Dir) {
		t.Error("not trusted though the folder above is")
	}
	if files := ClaudeCodeProjectFiles(te.Dir); len(files) != 0 {
		t.Errorf("files %v in an empty project", files)
	}
	writeFile(t, filepath.Join(te.Dir, ".claude", "settings.local.json"), `{"permissions": {"allow": ["`+OwnToolsRule+`"]}}`)
	writeFile(t, filepath.Join(te.Dir, ".claude", "settings.json"), `{"permissions": {"allow": ["Bash(ls)"]}}`)
	if files := ClaudeCodeProjectFiles(te.Dir); len(files) != 1 || files[0] != filepath.Join(".claude", "settings.local.json") {
		t.Errorf("files %v", files)
	}
}

// filepathJSON is p inside a JSON string.
func filepathJSON(p string) string { return replaceAll(p, `\`, `\\`) }

func replaceAll(s, old, new string) string { return strings.ReplaceAll(s, old, new) }
