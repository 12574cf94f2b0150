package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
)

// jsonBody decodes a result whose text block is a JSON object equal to its
// structuredContent.
func jsonBody(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	if len(res.Content) != 1 {
		t.Fatalf("content has %d blocks, want 1: %v", len(res.Content), res.Content)
	}
	var m map[string]any
	if err := json.Unmarshal([]byte(text(res)), &m); err != nil {
		t.Fatalf("text is not a JSON object: %q", text(res))
	}
	if sc := structured(t, res); !sameJSON(sc, m) {
		t.Errorf("structuredContent %v differs from the text %v", sc, m)
	}
	return m
}

func sameJSON(a, b any) bool {
	x, _ := json.Marshal(a)
	y, _ := json.Marshal(b)
	return bytes.Equal(x, y)
}

// listed returns the tools of c's tools/list by name.
func listed(t *testing.T, c *client.Client) map[string]mcp.Tool {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	res, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]mcp.Tool{}
	for _, tool := range res.Tools {
		out[tool.Name] = tool
	}
	return out
}

// tools/list shows each tool with the schema of its file and honest annotations.
func TestHumanDialectsListed(t *testing.T) {
	requireSession(t)
	tools := listed(t, newMCP(t, "human-list"))
	for _, name := range []string{"ask_human", "ask_human_result", "user_interact"} {
		t.Run(name, func(t *testing.T) {
			tool, ok := tools[name]
			if !ok {
				t.Fatalf("tools/list has no %s", name)
			}
			data, err := os.ReadFile(filepath.Join("..", "cmd", "feedback", "mcpshim", "schemas", name+".json"))
			if err != nil {
				t.Fatal(err)
			}
			var want, got any
			json.Unmarshal(data, &want)
			raw, _ := json.Marshal(tool.InputSchema)
			json.Unmarshal(raw, &got)
			if !sameJSON(got, want) {
				t.Errorf("inputSchema:\n got %s\nwant %s", raw, data)
			}
			a := tool.Annotations
			if !*a.ReadOnlyHint || *a.DestructiveHint || *a.IdempotentHint || *a.OpenWorldHint != (name != "user_interact") {
				t.Errorf("annotations = %+v", a)
			}
			if tool.Description == "" || len(tool.Description) > 700 {
				t.Errorf("description of %d bytes", len(tool.Description))
			}
		})
	}
}

var shipArgs = map[string]any{
	"agent_name":                  "release-bot",
	"title":                       "Ship v2.3 to production?",
	"content":                     "Changes since v2.2:\n- faster start-up (*40%*)\n- new <settings> page\n\nAll 412 tests pass; staging soaked 24 h.",
	"choices":                     []any{map[string]any{"id": "ship", "label": "Ship now"}, map[string]any{"id": "wait", "label": "Wait until Monday"}, map[string]any{"id": "abort", "label": "Abort the release"}},
	"recommended_option":          "ship",
	"decision_reason":             "Releases on a Friday need a human's go.",
	"consequence_of_wrong_choice": "A bad release over the weekend has nobody on call.",
	"confidence":                  0.8,
	"run_id":                      "run-42",
	"metadata":                    map[string]any{"pr": 1234},
	"timeout_seconds":             600,
}

// ask_human answered within the wait: Alt+2 picks the second choice and
// Ctrl+Enter submits; the result names the choice id.
func TestAskHumanAnswered(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "human-answer", "FEEDBACK_PENDING_WAIT=60")
	res := call(c, "ask_human", shipArgs)
	win := findWindow(t, "Ship v2.3 to production? — feedback")
	activate(t, win)
	screenshot(t, "ask-human")
	key(t, "alt+2")
	key(t, "ctrl+Return")
	r := await(t, res)
	if r.IsError {
		t.Fatalf("isError: %s", text(r))
	}
	got := jsonBody(t, r)
	if got["status"] != "answered" || got["choice_id"] != "wait" || got["choice_label"] != "Wait until Monday" || got["run_id"] != "run-42" ||
		!sameJSON(got["metadata"], map[string]any{"pr": 1234}) || got["answered_at"] == nil || len(got["request_id"].(string)) != 32 {
		t.Errorf("result = %v", got)
	}
	keys := slices.Sorted(func(yield func(string) bool) {
		for k := range got {
			if !yield(k) {
				return
			}
		}
	})
	if want := []string{"answered_at", "choice_id", "choice_label", "metadata", "request_id", "run_id", "status"}; !slices.Equal(keys, want) {
		t.Errorf("keys = %v, want %v", keys, want)
	}
	windowGone(t, "Ship v2.3 to production? — feedback", 2*time.Second)
}

// ask_human's pending flow: no answer within a 1 s wait gives pending with a
// request id; the window stays; the human answers; ask_human_result returns
// the choice once.
func TestAskHumanPendingFlow(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "human-pending", "FEEDBACK_PENDING_WAIT=1")
	args := map[string]any{
		"agent_name": "planner", "title": "Pick a database", "content_type": "markdown",
		"content":            "## Options\n\n| | Postgres | SQLite |\n|---|---|---|\n| ops | server | file |",
		"choices":            []any{map[string]any{"id": "pg", "label": "Postgres"}, map[string]any{"id": "sqlite", "label": "SQLite"}},
		"recommended_option": "sqlite",
	}
	start := time.Now()
	r := await(t, call(c, "ask_human", args))
	got := jsonBody(t, r)
	id, _ := got["request_id"].(string)
	if r.IsError || got["status"] != "pending" || len(id) != 32 || !strings.Contains(got["next_step"].(string), "ask_human_result") {
		t.Fatalf("first result = %v", got)
	}
	if waited := time.Since(start); waited > 10*time.Second {
		t.Errorf("pending after %v", waited)
	}
	win := findWindow(t, "Pick a database — feedback") // still open
	screenshot(t, "ask-human-pending")

	again := jsonBody(t, await(t, call(c, "ask_human_result", map[string]any{"request_id": id, "wait_seconds": 0})))
	if again["status"] != "pending" || again["request_id"] != id {
		t.Errorf("before the answer: %v", again)
	}

	activate(t, win)
	key(t, "ctrl+Return") // the recommended SQLite is pre-selected
	windowGone(t, "Pick a database — feedback", 2*time.Second)

	done := jsonBody(t, await(t, call(c, "ask_human_result", map[string]any{"request_id": id})))
	if want := map[string]any{"status": "answered", "request_id": id, "choice_id": "sqlite", "choice_label": "SQLite", "answered_at": done["answered_at"]}; !sameJSON(done, want) {
		t.Errorf("collected = %v\nwant %v", done, want)
	}
	r = await(t, call(c, "ask_human_result", map[string]any{"request_id": id}))
	if !r.IsError || !strings.Contains(text(r), "unknown or already collected request_id") {
		t.Errorf("second collection: isError %v %q", r.IsError, text(r))
	}
}

// Escape closes the window: declined, not an answer. A long title is cut
// in the chip and the title bar, and shown in full above the content.
func TestAskHumanDeclined(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "human-decline", "FEEDBACK_PENDING_WAIT=60")
	res := call(c, "ask_human", map[string]any{
		"agent_name": "a", "title": "Decline me: should the nightly job also rebuild the search index for every tenant?",
		"content": "<h1>Plan</h1><p>Rebuild <b>all</b> indexes &amp; vacuum.</p><script>alert(1)</script><ul><li>one</li><li>two</li></ul>", "content_type": "html",
		"choices": []any{map[string]any{"id": "a", "label": "A"}, map[string]any{"id": "b", "label": "B"}},
	})
	activate(t, findWindow(t, "Decline me: should the nightly job also rebuild the search… — feedback"))
	screenshot(t, "ask-human-long-title")
	key(t, "Escape")
	got := jsonBody(t, await(t, res))
	if got["status"] != "declined" || got["choice_id"] != nil || got["message"] == nil {
		t.Errorf("result = %v", got)
	}
}

// user_interact asks a free-text question; the typed text is the answer.
func TestUserInteractAnswered(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "interact")
	res := call(c, "user_interact", map[string]any{"question": "Which port should the dev server use?"})
	win := findWindow(t, "Which port should the dev server use? — feedback")
	activate(t, win)
	typeText(t, "8080, please")
	screenshot(t, "user-interact")
	key(t, "ctrl+Return")
	r := await(t, res)
	if got := jsonBody(t, r); r.IsError || !sameJSON(got, map[string]any{"outcome": "succeeded", "answer": "8080, please"}) {
		t.Errorf("result = %v (isError %v)", got, r.IsError)
	}
}

// A pre-filled answer comes back at once, without a window; Escape on a
// question is a failed outcome, never a success.
func TestUserInteractPrefilledAndDismissed(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "interact2")
	r := await(t, call(c, "user_interact", map[string]any{"question": "Port?", "answer": "9000"}))
	if got := jsonBody(t, r); r.IsError || !sameJSON(got, map[string]any{"outcome": "succeeded", "answer": "9000"}) {
		t.Errorf("pre-filled = %v", got)
	}
	res := call(c, "user_interact", map[string]any{"question": "Dismiss this one"})
	activate(t, findWindow(t, "Dismiss this one — feedback"))
	key(t, "Escape")
	r = await(t, res)
	got := jsonBody(t, r)
	e, _ := got["error"].(map[string]any)
	if r.IsError || got["outcome"] != "failed" || e["category"] != "unknown" || got["answer"] != nil {
		t.Errorf("dismissed = %v (isError %v)", got, r.IsError)
	}
	r = await(t, call(c, "user_interact", map[string]any{"question": ""}))
	got = jsonBody(t, r)
	if e, _ := got["error"].(map[string]any); !r.IsError || got["outcome"] != "failed" || e["category"] != "validation" {
		t.Errorf("empty question = %v (isError %v)", got, r.IsError)
	}
}

// FEEDBACK_TOOLS selects the tools; an unknown --tools name stops
// `feedback mcp` at start with the valid names on stderr.
func TestToolSelection(t *testing.T) {
	requireSession(t)
	tools := listed(t, newMCP(t, "select", "FEEDBACK_TOOLS=ask_human"))
	var names []string
	for n := range tools {
		names = append(names, n)
	}
	slices.Sort(names)
	if !slices.Equal(names, []string{"ask_human", "ask_human_result"}) {
		t.Errorf("tools = %v", names)
	}

	cmd := exec.Command(bin, "mcp", "--tools", "user_interact,ask_humans")
	cmd.Env = append(os.Environ(), env...)
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.Stdin = strings.NewReader("")
	err := cmd.Run()
	var exit *exec.ExitError
	if !errors.As(err, &exit) || exit.ExitCode() != 2 {
		t.Fatalf("exit: %v; stderr: %s", err, stderr.String())
	}
	if msg := stderr.String(); !strings.Contains(msg, `unknown tool "ask_humans"; valid tools are: `) || !strings.Contains(msg, "interactive_feedback, ") || !strings.Contains(msg, "user_interact") {
		t.Errorf("stderr = %q", msg)
	}
}
