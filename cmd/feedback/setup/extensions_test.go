package setup

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Each client's file as the client itself writes it, with a server of the
// user's own and, for Zed, the editor's other settings: setup --print
// writes nothing, setup merges the feedback entry (a backup kept, the
// comments and the user's server kept), and a second run changes nothing.
func TestExtensionClientsMergeIntoTheirRealFiles(t *testing.T) {
	for _, tc := range []struct {
		client, rel, before string
		kept                []string // texts of the user's own that must stay
	}{
		{"zed", ".config/zed/settings.json", `// Zed settings
//
// For information on how to configure Zed, see the Zed
// documentation: https://zed.dev/docs/configuring-zed
{
  "theme": "One Dark",
  "ui_font_size": 16,
  "context_server_timeout": 120,
  "context_servers": {
    "github": {
      "command": "github-mcp-server",
      "args": ["stdio"],
      "env": {},
    },
  },
}
`, []string{`"theme": "One Dark"`, `"context_server_timeout": 120`, "github-mcp-server", "// Zed settings"}},
		{"cline", ".config/Code/User/globalStorage/saoudrizwan.claude-dev/settings/cline_mcp_settings.json", `{
  "mcpServers": {
    "brave-search": {
      "command": "node",
      "args": ["/home/u/mcp/brave-search/build/index.js"],
      "env": {"BRAVE_API_KEY": "key"},
      "disabled": false,
      "autoApprove": [],
      "timeout": 60
    }
  }
}
`, []string{"brave-search", `"autoApprove": []`, `"BRAVE_API_KEY": "key"`}},
		{"roo-code", ".config/Code/User/globalStorage/rooveterinaryinc.roo-cline/settings/mcp_settings.json", `{
  "mcpServers": {
    "puppeteer": {
      "command": "npx",
      "args": ["-y", "@modelcontextprotocol/server-puppeteer"],
      "alwaysAllow": ["puppeteer_navigate"],
      "disabled": false
    }
  }
}
`, []string{"puppeteer", `"alwaysAllow": ["puppeteer_navigate"]`}},
	} {
		t.Run(tc.client, func(t *testing.T) {
			te := newEnv(t)
			file := filepath.Join(te.Home, filepath.FromSlash(tc.rel))
			if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(file, []byte(tc.before), 0o600); err != nil {
				t.Fatal(err)
			}
			if code := Run([]string{tc.client, "--print"}, te.Env); code != 0 {
				t.Fatalf("--print: exit %d: %s", code, te.stderr)
			}
			if data, _ := os.ReadFile(file); string(data) != tc.before || !strings.Contains(te.stdout.String(), testExe) {
				t.Fatalf("--print changed the file or did not show the entry:\n%s", te.stdout)
			}
			te.stdout.Reset()
			if code := Run([]string{tc.client}, te.Env); code != 0 {
				t.Fatalf("exit %d: %s", code, te.stderr)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			c, _ := Lookup(tc.client)
			if e := entry(t, c, decode(t, c, data)); e["command"] != testExe {
				t.Errorf("feedback entry: %v", e)
			}
			for _, k := range tc.kept {
				if !bytes.Contains(data, []byte(k)) {
					t.Errorf("%q was lost:\n%s", k, data)
				}
			}
			if baks, _ := filepath.Glob(file + ".*.bak"); len(baks) != 1 {
				t.Errorf("backups %v, want the previous file saved once", baks)
			} else if bak, _ := os.ReadFile(baks[0]); string(bak) != tc.before {
				t.Errorf("the backup is not the previous file:\n%s", bak)
			}
			te.stdout.Reset()
			if code := Run([]string{tc.client}, te.Env); code != 0 || !strings.Contains(te.stdout.String(), "already set up") {
				t.Errorf("second run: exit %d, %q", code, te.stdout)
			}
			if again, _ := os.ReadFile(file); !bytes.Equal(again, data) {
				t.Errorf("the second run changed the file")
			}
		})
	}
}
