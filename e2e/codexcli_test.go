package e2e

import (
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/e2e/internal/fakeapi"
)

// The real Codex CLI (npm @openai/codex, installed at test time;
// E2E_CODEX names an installed `codex`) set up by `feedback setup codex`,
// its model the fake Responses API as a custom model provider.

// codexHome is a CODEX_HOME whose config.toml has the fake API as its
// model provider and feedback set up by `feedback setup codex` for the
// test app's socket.
func codexHome(t *testing.T, api *fakeapi.Server) (home, codexHome string) {
	t.Helper()
	home = t.TempDir()
	codexHome = filepath.Join(home, ".codex")
	if err := os.MkdirAll(codexHome, 0o700); err != nil {
		t.Fatal(err)
	}
	provider := fmt.Sprintf(`model = "gpt-5-codex"
model_provider = "fake"

[model_providers.fake]
name = "fake"
base_url = "%s/v1"
env_key = "FAKE_API_KEY"
wire_api = "responses"
`, api.URL)
	if err := os.WriteFile(filepath.Join(codexHome, "config.toml"), []byte(provider), 0o600); err != nil {
		t.Fatal(err)
	}
	setup := exec.Command(bin, "setup", "codex", "--socket", socket)
	setup.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	out, err := setup.CombinedOutput()
	if err != nil {
		t.Fatalf("feedback setup codex: %v\n%s", err, out)
	}
	t.Logf("feedback setup codex:\n%s", out)
	return home, codexHome
}

// codexRun runs `codex exec go` in project and returns its output.
func codexRun(ctx context.Context, t *testing.T, project, home string, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, codexCLI.command(t), append([]string{"exec", "--skip-git-repo-check"}, append(args, "go")...)...)
	cmd.Dir = project
	cmd.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=dumb", "LANG=en_US.UTF-8", "FAKE_API_KEY=test-key", "RUST_LOG=warn"}
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Logf("codex: %v", err)
	}
	return string(out)
}

// Codex set up by feedback setup: `codex exec` offers the model feedback's
// tools (as the namespace mcp__feedback), and the model gets what the user
// answered in the window; a second call the user dismisses tells the model
// so, in feedback's words.
func TestCodexCLI(t *testing.T) {
	requireSession(t)
	codexCLI.command(t)
	issueApp(t)
	project, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	api := fakeapi.Start(t, fakeapi.Calls(
		fakeapi.ToolUse{Namespace: "mcp__feedback", Name: "ask_text", Input: map[string]any{"question": "Which branch shall I deploy?"}},
		fakeapi.ToolUse{Namespace: "mcp__feedback", Name: "interactive_feedback", Input: map[string]any{"message": "Shall I also tag it?", "header_label": "Tag"}},
	))
	home, _ := codexHome(t, api)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	done := make(chan string, 1)
	go func() { done <- codexRun(ctx, t, project, home) }()

	win := findWindow(t, "Which branch shall I deploy? — feedback")
	time.Sleep(500 * time.Millisecond)
	activate(t, win)
	typeText(t, "release-2.4")
	key(t, "ctrl+Return")

	win = findWindow(t, "Tag — feedback")
	time.Sleep(500 * time.Millisecond)
	activate(t, win)
	key(t, "Escape")

	out := <-done
	results := api.Results()
	if len(results) < 2 {
		t.Fatalf("the model got %d tool results; codex said:\n%s", len(results), out)
	}
	t.Logf("the model got:\n%s\n%s", results[0].Text, results[1].Text)
	if !strings.Contains(results[0].Text, `"answer":"release-2.4"`) || !strings.Contains(results[0].Text, `"status":"answered"`) {
		t.Errorf("ask_text's answer did not reach the model: %+v", results[0])
	}
	if !strings.Contains(results[1].Text, "dismissed the question without answering") || !strings.Contains(results[1].Text, "Do not assume approval") {
		t.Errorf("the dismissal did not reach the model in feedback's words: %+v", results[1])
	}
}
