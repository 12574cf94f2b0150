package setup

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// The README's client table is what setup writes: a row for every client,
// naming each field of its entry; a row that says it is tested against the
// real CLI names an end-to-end test file that exists and runs that CLI.
func TestREADMEClientTable(t *testing.T) {
	root := filepath.Join("..", "..", "..")
	data, err := os.ReadFile(filepath.Join(root, "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	rows := map[string]string{}
	row := regexp.MustCompile("(?m)^\\| `([a-z-]+)`[^|]*\\|(.*)$")
	for _, m := range row.FindAllStringSubmatch(string(data), -1) {
		if _, ok := rows[m[1]]; !ok {
			rows[m[1]] = m[2]
		}
	}
	tested := 0
	for _, c := range Clients {
		r, ok := rows[c.Name]
		if !ok {
			t.Errorf("the README's client table has no row for %s", c.Name)
			continue
		}
		if strings.Contains(r, "| as `") {
			continue // "as `cline`"
		}
		for _, f := range c.entry("/x/feedback") {
			if !strings.Contains(r, f.key) {
				t.Errorf("%s's row does not name %q, which setup writes:\n%s", c.Name, f.key, r)
			}
		}
		if _, file, ok := strings.Cut(r, "tested against the real CLI: "); ok {
			file = strings.Fields(strings.Trim(file, " |"))[0]
			src, err := os.ReadFile(filepath.Join(root, file))
			if err != nil {
				t.Errorf("%s's row names %s: %v", c.Name, file, err)
				continue
			}
			if !regexp.MustCompile(`(?m)^func Test\w+\(t \*testing\.T\)`).Match(src) || !strings.Contains(string(src), "CLI.command(t)") && !strings.Contains(string(src), "claudeCode(t)") {
				t.Errorf("%s runs no test of the real CLI", file)
			}
			tested++
		}
	}
	if tested < 3 {
		t.Errorf("%d rows say they are tested against the real CLI; Claude Code, Gemini CLI and Codex are", tested)
	}
}
