package e2e

import (
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// An agent's one-way message, through a real MCP client (the notify tool)
// and through `feedback notify --from claude-code` fed Claude Code's Stop
// event: each returns at once, shows a desktop notification (dunst), is
// listed under the tray's Messages and recorded in History; a flood from
// one client is cut off with a result that says not to resend.
func TestMessagesFromAgents(t *testing.T) {
	requireSession(t)
	startDunst(t)
	dunstctl(t, "close-all")
	db := filepath.Join(t.TempDir(), "feedback.db")
	startApp(t, "FEEDBACK_DB="+db)

	c := newMCP(t, "msg-agent", "FEEDBACK_DB="+db)
	res := await(t, call(c, "notify", map[string]any{"message": "tests green, PR #12 opened", "title": "PR opened"}))
	if sc := structured(t, res); res.IsError || sc["status"] != "shown" {
		t.Fatalf("notify: %v (isError %v)", sc, res.IsError)
	}
	e := notesWith(t, "msg-agent: PR opened", "tests green, PR #12 opened")
	t.Logf("notification: %q / %q", e.Summary, e.Body)

	hook := exec.Command(bin, "notify", "--from", "claude-code")
	hook.Env = append(hook.Environ(), env...)
	hook.Stdin = strings.NewReader(`{"session_id":"abc123","transcript_path":"/tmp/t.jsonl","cwd":"/home/u/shop","permission_mode":"default","hook_event_name":"Stop","stop_hook_active":false,"last_assistant_message":"Refactoring done; all tests pass."}`)
	if out, err := hook.CombinedOutput(); err != nil || len(out) != 0 {
		t.Fatalf("the Stop hook: %v, printed %q (Claude Code reads its stdout)", err, out)
	}
	e = notesWith(t, "claude-code: Finished", "shop — Refactoring done; all tests pass.")
	t.Logf("notification: %q / %q", e.Summary, e.Body)

	tray := openTray(t)
	if _, ok := tray.labels(t)["Messages (2)"]; !ok {
		t.Errorf("the tray lists no \"Messages (2)\": %v", tray.labels(t))
	}

	// A flood: the sixth in a row is not shown, and the agent is told
	// plainly not to resend.
	var last map[string]any
	for i := range 6 {
		res := await(t, call(c, "notify", map[string]any{"message": "step " + string(rune('a'+i))}))
		last = structured(t, res)
	}
	if last["status"] != "not_shown" || !strings.Contains(last["message"].(string), "Do not resend") {
		t.Errorf("the sixth message in a row: %v", last)
	}
	dunstctl(t, "close-all")

	doc, out := readHistory(t, db)
	found := 0
	for _, title := range []string{"PR opened", "Finished"} {
		for _, q := range historyOf(doc.Loops, title) {
			if q.Outcome == "message" {
				found++
			}
		}
	}
	if found != 2 {
		t.Errorf("History has %d of the 2 messages as messages:\n%s", found, out)
	}
	screenshot(t, "messages")
}
