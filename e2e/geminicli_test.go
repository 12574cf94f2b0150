package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/e2e/internal/fakeapi"
)

// The real Gemini CLI (npm @google/gemini-cli, installed at test time;
// E2E_GEMINI names an installed `gemini`) set up by `feedback setup
// gemini`, its model the fake Gemini API (GOOGLE_GEMINI_BASE_URL).

// geminiHome is a home where `feedback setup gemini` has set feedback up
// for the test app's socket, as a user who has signed in with an API key.
func geminiHome(t *testing.T) string {
	t.Helper()
	home := t.TempDir()
	setup := exec.Command(bin, "setup", "gemini", "--socket", socket)
	setup.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	out, err := setup.CombinedOutput()
	if err != nil {
		t.Fatalf("feedback setup gemini: %v\n%s", err, out)
	}
	t.Logf("feedback setup gemini:\n%s", out)
	// The sign-in: the user's choice of an API key (the CLI asks once).
	path := filepath.Join(home, ".gemini", "settings.json")
	var s map[string]any
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	s["security"] = map[string]any{"auth": map[string]any{"selectedType": "gemini-api-key"}}
	data, _ = json.Marshal(s)
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return home
}

// geminiEnv is the environment of a gemini run in home against api.
func geminiEnv(home string, api *fakeapi.Server) []string {
	return []string{
		"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=dumb", "LANG=en_US.UTF-8",
		"GEMINI_API_KEY=test-key", "GOOGLE_GEMINI_BASE_URL=" + api.URL,
		"GEMINI_CLI_NO_RELAUNCH=true", "NO_BROWSER=1",
	}
}

// geminiRun runs `gemini -p go` in project (trusted for the run) and
// returns its output once it ends; args are added.
func geminiRun(ctx context.Context, t *testing.T, project, home string, api *fakeapi.Server, args ...string) string {
	t.Helper()
	cmd := exec.CommandContext(ctx, geminiCLI.command(t), append([]string{"-p", "go", "-m", "gemini-2.5-flash", "--output-format", "json"}, args...)...)
	cmd.Dir = project
	cmd.Env = geminiEnv(home, api)
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Logf("gemini: %v", err)
	}
	return string(out)
}

// The Gemini CLI set up by feedback setup, in a project: until the user
// trusts the folder it runs no MCP server there and doctor says so; then
// its MCP health check lists feedback connected; in its default approval
// mode it offers the model
// feedback's tools (setup trusts feedback's server), and the model gets
// what the user answered in the window; a second call the user dismisses
// tells the model so and what to do next.
func TestGeminiCLI(t *testing.T) {
	requireSession(t)
	gemini := geminiCLI.command(t)
	issueApp(t)
	home := geminiHome(t)
	project, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}

	api := fakeapi.Start(t, fakeapi.Calls(
		fakeapi.ToolUse{Name: "mcp_feedback_ask_text", Input: map[string]any{"question": "Which branch shall I deploy?"}},
		fakeapi.ToolUse{Name: "mcp_feedback_interactive_feedback", Input: map[string]any{"message": "Shall I also tag it?", "header_label": "Tag"}},
	))

	// A folder the user has not trusted: the CLI connects no MCP server
	// there and its print mode exits; doctor says so, and how to fix it.
	trustLine := func() string {
		cmd := exec.Command(bin, "doctor")
		cmd.Dir = project
		cmd.Env = append(append(os.Environ(), env...), "HOME="+home)
		out, _ := cmd.CombinedOutput()
		var lines []string
		for _, l := range strings.Split(string(out), "\n") {
			if strings.Contains(l, "trust") {
				lines = append(lines, l)
			}
		}
		return strings.Join(lines, "\n")
	}
	if l := trustLine(); !strings.Contains(l, "has not been told to trust "+project) {
		t.Errorf("doctor in a folder the Gemini CLI does not trust says: %q", l)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Minute)
	defer cancel()
	if out := geminiRun(ctx, t, project, home, api); !strings.Contains(out, "not running in a trusted directory") {
		t.Errorf("gemini -p in a folder not trusted:\n%s", out)
	}
	// The user trusts it, as the CLI's trust dialog writes it.
	rules, _ := json.Marshal(map[string]string{project: "TRUST_FOLDER"})
	if err := os.WriteFile(filepath.Join(home, ".gemini", "trustedFolders.json"), rules, 0o600); err != nil {
		t.Fatal(err)
	}
	if l := trustLine(); l != "" {
		t.Errorf("doctor in a trusted folder says: %q", l)
	}

	list := exec.Command(gemini, "mcp", "list")
	list.Dir = project
	list.Env = geminiEnv(home, api)
	out, _ := list.CombinedOutput()
	if !strings.Contains(string(out), "feedback") || !strings.Contains(strings.ToLower(string(out)), "connected") || strings.Contains(strings.ToLower(string(out)), "disconnected") {
		t.Errorf("gemini mcp list does not show feedback connected:\n%s", out)
	}

	done := make(chan string, 1)
	go func() { done <- geminiRun(ctx, t, project, home, api) }()

	win := findWindow(t, "Which branch shall I deploy? — feedback")
	time.Sleep(500 * time.Millisecond)
	activate(t, win)
	typeText(t, "release-2.4")
	key(t, "ctrl+Return")

	win = findWindow(t, "Tag — feedback")
	time.Sleep(500 * time.Millisecond)
	activate(t, win)
	key(t, "Escape")

	output := <-done
	results := api.Results()
	if len(results) < 2 {
		var offered []string
		for _, r := range api.Requests() {
			offered = append(offered, strings.Join(fakeapi.ToolNames(r), " "))
		}
		t.Fatalf("the model got %d tool results; tools offered: %q\ngemini said:\n%s", len(results), offered, output)
	}
	t.Logf("the model got:\n%s\n%s", results[0].Text, results[1].Text)
	if !strings.Contains(results[0].Text, "release-2.4") || results[0].IsError {
		t.Errorf("ask_text's answer did not reach the model: %+v", results[0])
	}
	if !strings.Contains(results[1].Text, "dismissed the question without answering") || !strings.Contains(results[1].Text, "Do not assume approval") {
		t.Errorf("the dismissal did not reach the model in feedback's words: %+v", results[1])
	}
}
