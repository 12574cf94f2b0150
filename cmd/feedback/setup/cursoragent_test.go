package setup

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// cursor-agent shares Cursor's file: setup merges into it (keeping the
// other servers, with a backup), is idempotent, and every run — --print
// too — says that cursor-agent loads the server only once approved.
func TestCursorAgentSetupSaysToApprove(t *testing.T) {
	te := newEnv(t)
	file := filepath.Join(te.Home, ".cursor", "mcp.json")
	if err := os.MkdirAll(filepath.Dir(file), 0o700); err != nil {
		t.Fatal(err)
	}
	before := `{
  // the user's own server
  "mcpServers": {"github": {"command": "gh-mcp", "args": []}}
}
`
	if err := os.WriteFile(file, []byte(before), 0o600); err != nil {
		t.Fatal(err)
	}
	for i, args := range [][]string{{"cursor-agent", "--print"}, {"cursor-agent"}, {"cursor-agent"}} {
		te.stdout.Reset()
		if code := Run(args, te.Env); code != 0 {
			t.Fatalf("run %d: exit %d: %s", i, code, te.stderr)
		}
		if out := te.stdout.String(); !strings.Contains(out, "cursor-agent mcp enable feedback") {
			t.Errorf("run %d does not say how to approve:\n%s", i, out)
		}
		if i == 1 && !strings.Contains(te.stdout.String(), "the previous file is saved as") {
			t.Errorf("no backup of the previous file:\n%s", te.stdout)
		}
		if i == 2 && !strings.Contains(te.stdout.String(), "nothing changed") {
			t.Errorf("the second run changed something:\n%s", te.stdout)
		}
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	c, _ := Lookup("cursor-agent")
	doc := decode(t, c, data)
	if e := entry(t, c, doc); e["command"] != testExe {
		t.Errorf("feedback entry: %v", e)
	}
	if servers := doc["mcpServers"].(map[string]any); servers["github"] == nil || !strings.Contains(string(data), "the user's own server") {
		t.Errorf("the other server or the comment was lost:\n%s", data)
	}
}

func TestCursorAgentApprovals(t *testing.T) {
	te := newEnv(t)
	write := func(project, body string) {
		dir := filepath.Join(te.Home, ".cursor", "projects", project)
		if err := os.MkdirAll(dir, 0o700); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "mcp-approvals.json"), []byte(body), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	if got := CursorAgentApprovals(te.Env); len(got) != 0 {
		t.Errorf("no approvals file: %v", got)
	}
	write("home-me-other", `["github-0a1b2c"]`)
	write("home-me-broken", `{not json`)
	write("home-me-feedbacker", `["feedbacker-12ab"]`)
	if got := CursorAgentApprovals(te.Env); len(got) != 0 {
		t.Errorf("other servers only: %v", got)
	}
	write("home-me-web", `["github-0a1b2c", "feedback-9f8e7d6c"]`)
	if got := CursorAgentApprovals(te.Env); len(got) != 1 || got[0] != "home-me-web" {
		t.Errorf("approved in home-me-web: %v", got)
	}
}
