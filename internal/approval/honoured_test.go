package approval

import (
	"strings"
	"testing"
)

// Claude Code (2.1.197, e2e TestClaudeCodeHonoursRules) asks again, with
// the exact Bash rule saved, for a command that redirects its output into
// a file, pipes commands, runs one in the background or changes
// directory: no Always is offered for those, and the window says why. A
// redirection to /dev/null or to another descriptor, a quoted ">" or "|",
// ;, && and || keep their rule.
func TestNoRuleClaudeCodeWouldNotHonour(t *testing.T) {
	for cmd, why := range map[string]string{
		"echo hi > proof.txt":   "that redirects its output into a file",
		"echo hi >> log.txt":    "that redirects its output into a file",
		"make &> build.log":     "that redirects its output into a file",
		"ls 2> err.txt":         "that redirects its output into a file",
		"echo hi >| f":          "that redirects its output into a file",
		"touch c.txt | cat":     "that pipes commands into each other",
		"make 2>&1 | tail -5":   "that pipes commands into each other",
		"touch a.txt & wait":    "run in the background (&)",
		"cd web && npm test":    "that changes directory (cd)",
		"echo 'unterminated":    "the shell cannot read as it is written",
		"cat <<EOF > x.txt\nhi": "",
	} {
		r := bash(cmd)
		if Rule(r) != "" {
			t.Errorf("%q: rule %q", cmd, Rule(r))
		}
		md := Question(r, "id", 0).Prompts[0].Markdown
		if why != "" && !strings.Contains(md, "Claude Code asks again for a command "+why+", whatever rule is saved") {
			t.Errorf("%q: why not said:\n%s", cmd, md)
		}
	}
	for _, cmd := range []string{"echo hi > /dev/null", "go test ./... >&2", "echo '>' x", "echo \"a | b\"", "grep -c x < in.txt", "make lint && make test", "a; b", "a || b", "FOO=1 make"} {
		if Rule(bash(cmd)) == "" {
			t.Errorf("%q: no rule", cmd)
		}
	}
}
