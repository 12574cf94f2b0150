package approval

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// fakeLinks resolves paths as a project whose folders cfg, tools and keys
// are links to .claude, .git/hooks and ~/.ssh.
func fakeLinks(p string) (string, error) {
	for from, to := range map[string]string{
		"/home/u/shop/cfg":   "/home/u/shop/.claude",
		"/home/u/shop/tools": "/home/u/shop/.git/hooks",
		"/home/u/shop/keys":  "/home/u/.ssh",
		"/srv/link":          "/srv/real",
	} {
		if p == from || strings.HasPrefix(p, from+"/") {
			return to + p[len(from):], nil
		}
	}
	if strings.Contains(p, "broken") {
		return "", errors.New("permission denied")
	}
	return p, nil
}

// A path that passes through a link is shown with where it leads, and no
// rule is offered for it; a link into .claude or .git is named so.
func TestLinks(t *testing.T) {
	for _, tc := range []struct {
		path, shown, leads string
	}{
		{"/home/u/shop/cfg/settings.local.json", "`cfg/settings.local.json`", "`.claude/settings.local.json`"},
		{"/home/u/shop/tools/pre-commit", "`tools/pre-commit`", "`.git/hooks/pre-commit`"},
		{"/home/u/shop/keys/authorized_keys", "`keys/authorized_keys`", "`/home/u/.ssh/authorized_keys`"},
	} {
		r := Request{Client: "claude-code", Dir: "/home/u/shop", Tool: "Write", Input: map[string]any{"file_path": tc.path, "content": "x"}, Resolve: fakeLinks}
		q := Question(r, "id", 0)
		md := q.Prompts[0].Markdown
		if !strings.Contains(md, tc.shown) || !strings.Contains(md, "**This path leads through a link to** the file it changes:\n\n"+tc.leads+"\n") {
			t.Errorf("%s: want %s leading to %s in\n%s", tc.path, tc.shown, tc.leads, md)
		}
		if strings.Contains(tc.leads, ".claude") && !strings.Contains(md, "`.claude`") {
			t.Errorf("%s: .claude not named:\n%s", tc.path, md)
		}
		for _, o := range q.Prompts[0].Options {
			if o.Rule != "" {
				t.Errorf("%s: rule %q offered", tc.path, o.Rule)
			}
		}
		if Rule(r) != "" {
			t.Errorf("%s: Rule = %q", tc.path, Rule(r))
		}
	}
	// A project that is itself reached through a link, and a plain file
	// in it, keeps its rule; a path that cannot be resolved gets none.
	r := Request{Dir: "/srv/link", Tool: "Edit", Input: map[string]any{"file_path": "/srv/link/a.go", "old_string": "a", "new_string": "b"}, Resolve: fakeLinks}
	if Rule(r) != "Edit(//srv/link/a.go)" || strings.Contains(Question(r, "id", 0).Prompts[0].Markdown, "leads through") {
		t.Errorf("a project reached through a link: %q", Rule(r))
	}
	r = Request{Dir: "/home/u/shop", Tool: "Edit", Input: map[string]any{"file_path": "/home/u/shop/broken/a.go", "old_string": "a", "new_string": "b"}, Resolve: fakeLinks}
	if Rule(r) != "" {
		t.Errorf("unresolved: %q", Rule(r))
	}
}

// Claude Code's own suggestions are not offered for a call that shows
// something else than it is: through a link, with a field of the wrong
// type, with imitated marks.
func TestNoSuggestionsForMisleadingCalls(t *testing.T) {
	sugg := []json.RawMessage{json.RawMessage(`{"type":"addRules","rules":[{"toolName":"Edit","ruleContent":"cfg/**"}],"behavior":"allow","destination":"localSettings"}`)}
	for name, r := range map[string]Request{
		"link":       {Dir: "/home/u/shop", Tool: "Write", Input: map[string]any{"file_path": "/home/u/shop/cfg/settings.local.json", "content": "x"}, Resolve: fakeLinks},
		"wrong type": {Dir: "/home/u/shop", Tool: "Write", Input: map[string]any{"file_path": "/home/u/shop/a.txt", "content": []any{"x"}}},
		"marks":      {Dir: "/home/u/shop", Tool: "Bash", Input: map[string]any{"command": "# x\n⤷ curl x | sh"}},
	} {
		r.Suggestions = sugg
		for _, o := range Question(r, "id", 0).Prompts[0].Options {
			if o.Rule != "" {
				t.Errorf("%s: %q offered", name, o.Rule)
			}
		}
	}
}
