package e2e

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"feedback/e2e/internal/fakeapi"
)

// Claude Code set up by `feedback setup claude-code`, as a new user has it
// (a home of its own, a project they trust): `claude mcp list` finds
// feedback connected, and in `claude -p` every call of feedback's tools
// runs without a permission prompt (setup allowed them). Claude Code gives
// the model a result's structuredContent alone: what the model reads says
// what happened and what to do next on each outcome — an answer, a
// countdown that ran out, a dismissal, a call that must be made again, a
// notification.
func TestClaudeCodeSetUp(t *testing.T) {
	requireSession(t)
	claude := claudeCode(t)
	issueApp(t)
	home, project := claudeSetUp(t)

	health := exec.Command(claude, "mcp", "list")
	health.Dir = project
	health.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH"), "TERM=dumb"}
	if out, _ := health.CombinedOutput(); !strings.Contains(string(out), "feedback") || !strings.Contains(string(out), "Connected") {
		t.Errorf("claude mcp list does not show feedback connected:\n%s", out)
	}

	calls := []struct {
		call  fakeapi.ToolUse
		title string // the window's title; "" for none
		act   func(win string)
		says  []string // in what the model reads
	}{
		{fakeapi.ToolUse{Name: "mcp__feedback__ask_text", Input: map[string]any{"question": "Which branch shall I deploy?"}},
			"Which branch shall I deploy? — feedback", func(string) { typeText(t, "release-2.4"); key(t, "ctrl+Return") },
			[]string{`"answer":"release-2.4"`, `"next_step":"Continue with the user's answer."`}},
		{fakeapi.ToolUse{Name: "mcp__feedback__ask_confirm", Input: map[string]any{"question": "Push the tag?", "timeout_ms": 3000}},
			"Push the tag? — feedback", nil,
			[]string{`"status":"timeout"`, "did not answer in time", "This is not an answer and not a default"}},
		{fakeapi.ToolUse{Name: "mcp__feedback__interactive_feedback", Input: map[string]any{"message": "Shall I also tag it?", "header_label": "Tag"}},
			"Tag — feedback", func(string) { key(t, "Escape") },
			[]string{`"status":"dismissed"`, "dismissed the question without answering", "Do not assume approval"}},
		{fakeapi.ToolUse{Name: "mcp__feedback__ask_choice", Input: map[string]any{"question": "Which database?", "options": []any{"SQLite", "Postgres"}}},
			"", nil, // not answered within the shim's wait (FEEDBACK_MAX_WAIT)
			[]string{"Not answered yet", "still open", "Call ask_choice again now"}}, // status "timeout": the seed's statuses have no other
		{fakeapi.ToolUse{Name: "mcp__feedback__notify", Input: map[string]any{"message": "The build passed."}},
			"", nil, []string{`"status":"shown"`, "No answer will come; carry on."}},
	}
	var script []fakeapi.ToolUse
	for i, c := range calls {
		c.call.ID = "toolu_0" + string(rune('1'+i))
		script = append(script, c.call)
	}
	api := fakeapi.Start(t, fakeapi.Calls(script...))
	done := make(chan string, 1)
	go func() {
		done <- claudeRun(t, project, home, api, []string{
			"FEEDBACK_MAX_WAIT=5", // the shim says "call again" after 5 s
			"FEEDBACK_INPUT_GUARD_MS=0",
		})
	}()
	for _, c := range calls {
		if c.act == nil {
			continue
		}
		win := findWindow(t, c.title)
		time.Sleep(500 * time.Millisecond)
		activate(t, win)
		c.act(win)
	}
	out := <-done
	results := api.Results()
	if len(results) != len(calls) {
		t.Fatalf("the model got %d results of %d calls; claude said:\n%s", len(results), len(calls), out)
	}
	for i, c := range calls {
		r := strings.ReplaceAll(results[i].Text, `\"`, `"`)
		t.Logf("%s: the model read %s", c.call.Name, r)
		if refused(results[i]) {
			t.Errorf("%s was refused: setup did not allow feedback's tools", c.call.Name)
			continue
		}
		for _, w := range c.says {
			if !strings.Contains(r, w) {
				t.Errorf("%s: the model does not read %q", c.call.Name, w)
			}
		}
	}
	// The question that was not answered in time is still open.
	if n := visibleWindows("Which database? — feedback"); n != 1 {
		t.Errorf("%d windows of the question left open, want 1", n)
	}
}

// Every other tool of feedback's through the real Claude Code set up by
// feedback setup, each answered in its window: what the model reads is
// the answer, in structuredContent; ask_human not answered within the
// call says pending, and ask_human_result collects the answer by the
// request_id the model read.
func TestClaudeCodeEveryTool(t *testing.T) {
	requireSession(t)
	claudeCode(t)
	issueApp(t)
	home, project := claudeSetUp(t)
	calls := []struct {
		call  fakeapi.ToolUse
		title string
		keys  []string // typed: "type:…" types, else a key
		says  []string
	}{
		{fakeapi.ToolUse{Name: "mcp__feedback__ask_choice", Input: map[string]any{"question": "Which database?", "options": []any{"SQLite", "Postgres"}}},
			"Which database? — feedback", []string{"alt+2", "ctrl+Return"}, []string{`"answer":"Postgres"`, `"status":"answered"`}},
		{fakeapi.ToolUse{Name: "mcp__feedback__ask_multi_select", Input: map[string]any{"question": "Which checks?", "options": []any{"lint", "test", "build"}}},
			"Which checks? — feedback", []string{"alt+1", "alt+3", "ctrl+Return"}, []string{`"selected":["lint","build"]`, `"status":"answered"`}},
		{fakeapi.ToolUse{Name: "mcp__feedback__ask_user_question", Input: map[string]any{"questions": []any{map[string]any{
			"question": "Which region?", "header": "Region", "multiSelect": false,
			"options": []any{map[string]any{"label": "eu", "description": "Europe"}, map[string]any{"label": "us", "description": "America"}}}}}},
			"Region — feedback", []string{"alt+2", "ctrl+Return"}, []string{`"us"`, "Which region?"}},
		{fakeapi.ToolUse{Name: "mcp__feedback__user_interact", Input: map[string]any{"question": "Which port?"}},
			"Which port? — feedback", []string{"type:9000", "ctrl+Return"}, []string{"9000"}},
		{fakeapi.ToolUse{Name: "mcp__feedback__ask_human", Input: map[string]any{"agent_name": "deployer", "title": "Ship v2?",
			"choices": []any{map[string]any{"id": "yes", "label": "Ship it"}, map[string]any{"id": "no", "label": "Hold"}}}},
			"Ship v2? — feedback", nil, []string{`"status":"pending"`, "ask_human_result"}}, // answered after its call returned
		{fakeapi.ToolUse{Name: "mcp__feedback__ask_human_result"}, "Ship v2? — feedback", []string{"alt+1", "ctrl+Return"}, []string{`"choice_id":"yes"`, `"status":"answered"`}},
	}
	requestID := regexp.MustCompile(`"request_id":\s*"([0-9a-f#]+)"`)
	api := fakeapi.Start(t, func(req fakeapi.Request) fakeapi.Turn {
		if !fakeapi.HasTools(req) {
			return fakeapi.Turn{Text: "ok"}
		}
		results := fakeapi.ToolResults(req)
		n := len(results)
		if n >= len(calls) {
			return fakeapi.Turn{Text: "done"}
		}
		call := calls[n].call
		call.ID = fmt.Sprintf("toolu_%02d", n+1)
		if call.Name == "mcp__feedback__ask_human_result" {
			id := ""
			if m := requestID.FindStringSubmatch(strings.ReplaceAll(results[n-1].Text, `\"`, `"`)); m != nil {
				id = m[1]
			}
			call.Input = map[string]any{"request_id": id}
		}
		return fakeapi.Turn{Tools: []fakeapi.ToolUse{call}}
	})
	done := make(chan string, 1)
	go func() {
		done <- claudeRun(t, project, home, api, []string{
			"FEEDBACK_INPUT_GUARD_MS=0",
			"FEEDBACK_MAX_WAIT=4", // ask_human, not answered, says "pending" after 4 s
		})
	}()
	for i, c := range calls {
		if c.keys == nil {
			continue
		}
		// The window is answered once the model has read the results
		// before its call (ask_human's "pending" before ask_human_result).
		waitFor(t, fmt.Sprintf("the results before %s", c.call.Name), time.Minute, func() bool {
			for _, r := range api.Requests() {
				if len(fakeapi.ToolResults(r)) >= i {
					return true
				}
			}
			return false
		})
		win := findWindow(t, c.title)
		time.Sleep(500 * time.Millisecond)
		activate(t, win)
		for _, k := range c.keys {
			if s, ok := strings.CutPrefix(k, "type:"); ok {
				typeText(t, s)
			} else {
				key(t, k)
			}
		}
	}
	out := <-done
	results := api.Results()
	if len(results) != len(calls) {
		t.Fatalf("the model got %d results of %d calls; claude said:\n%s", len(results), len(calls), out)
	}
	for i, c := range calls {
		r := strings.ReplaceAll(results[i].Text, `\"`, `"`)
		t.Logf("%s: the model read %.400s", c.call.Name, r)
		if refused(results[i]) || results[i].IsError {
			t.Errorf("%s: refused or an error", c.call.Name)
			continue
		}
		for _, w := range c.says {
			if !strings.Contains(r, w) {
				t.Errorf("%s: the model does not read %q", c.call.Name, w)
			}
		}
	}
}

// claudeSetUp is a new user's home and a project they trust, with
// feedback set up by feedback setup claude-code for the test app's socket.
func claudeSetUp(t *testing.T) (home, project string) {
	t.Helper()
	root, err := filepath.EvalSymlinks(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	home, project = filepath.Join(root, "home"), filepath.Join(root, "shop")
	for _, d := range []string{home, project} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	trustProject(t, home, project)
	setup := exec.Command(bin, "setup", "claude-code", "--socket", socket)
	setup.Env = []string{"HOME=" + home, "PATH=" + os.Getenv("PATH")}
	out, err := setup.CombinedOutput()
	if err != nil {
		t.Fatalf("feedback setup claude-code: %v\n%s", err, out)
	}
	t.Logf("feedback setup claude-code:\n%s", out)
	return home, project
}
