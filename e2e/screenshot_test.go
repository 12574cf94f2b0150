package e2e

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// TestScreenshot pops a representative question and saves its window as a
// PNG: to FEEDBACK_SCREENSHOT when set (make screenshot writes the README's
// docs/screenshot.png), else among the artifacts. The window is dismissed.
func TestScreenshot(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "claude-code")
	res := call(c, "interactive_feedback", map[string]any{
		"message": "## Migrate `auth/session.py` to PyJWT 2.x?\n\n" +
			"The tests are green on a branch. Two things changed:\n\n" +
			"1. `jwt.decode` now **requires** `algorithms=[...]`\n" +
			"2. tokens are `str`, not `bytes`\n\n" +
			"```python\njwt.decode(token, key, algorithms=[\"HS256\"])\n```\n\n" +
			"| Check | Result |\n|---|---|\n| unit tests | 214 passed |\n| integration | 12 passed |\n",
		"header_label":     "Auth",
		"loop_id":          "auth-refactor",
		"loop_phase":       "review",
		"iteration_label":  "iter-3",
		"success_criteria": "pytest all green, no new warnings",
		"predefined_options": []any{
			map[string]any{"label": "Merge it", "default": true},
			"Add a migration note first",
			"Hold off",
		},
		"feedback_placeholder": "Anything the agent should know?",
	})
	win := findWindow(t, "Auth — feedback")
	activate(t, win)
	_, _, w, h := geometry(t, win)
	waitPainted(t, win, w, h) // fit_test.go: not a black frame
	path := os.Getenv("FEEDBACK_SCREENSHOT")
	if path == "" {
		path = filepath.Join(artifacts, "window.png")
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if out, err := exec.Command("import", "-window", win, "-frame", path).CombinedOutput(); err != nil {
		t.Fatalf("import: %v: %s", err, out)
	}
	t.Logf("window screenshot: %s", path)
	key(t, "Escape")
	await(t, res)
}
