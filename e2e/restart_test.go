package e2e

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// The app is killed (SIGKILL) while a question is open: the shim restarts
// it and asks the same question (same ID) again; the window comes back
// with the same title and the draft typed before the crash (the app saves
// drafts by question ID as the user types), and its answer reaches the
// original call.
func TestAppKilledMidQuestion(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	c := newMCP(t, "survivor")
	res := call(c, "interactive_feedback", map[string]any{"message": "Survive a crash", "header_label": "Survivor"})
	win := findWindow(t, "Survivor — feedback")
	activate(t, win)
	typeText(t, "typed before the crash")
	// The app saved it: the fact the crash must not lose.
	waitDraft(t, sessionDB(), "Survivor", func(d wire.Draft) bool {
		return len(d.Replies) > 0 && strings.Contains(d.Replies[0].Text, "typed before the crash")
	})
	old := appPID()
	if old == 0 {
		t.Fatal("no app answers on the socket")
	}
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	windowGone(t, "Survivor — feedback", 3*time.Second)
	win = findWindow(t, "Survivor — feedback")
	now := appPID()
	if now == 0 || now == old {
		t.Fatalf("the app was not restarted: pid %d, was %d", now, old)
	}
	activate(t, win)
	screenshot(t, "restart-reopened")
	key(t, "End") // after the restored draft (one line); the app leaves the cursor at its start
	typeText(t, " and after")
	key(t, "ctrl+Return")
	r := await(t, res)
	wantText(t, r, "User reply:\ntyped before the crash and after")
}

// An ask_human question whose call returned pending is kept open by the
// app: the app is killed (SIGKILL), ask_human_result restarts it, the app
// shows the window again, and the human's choice comes back, through a
// new shim, with its choice id, not "unknown or already collected".
func TestAskHumanSurvivesACrash(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	c := newMCP(t, "human-crash", "FEEDBACK_MAX_WAIT=1")
	r := await(t, call(c, "ask_human", map[string]any{"agent_name": "deployer", "title": "CrashHuman",
		"content": "Ship after the crash?", "choices": []any{map[string]any{"id": "go", "label": "Go"}, map[string]any{"id": "stop", "label": "Stop"}}}))
	sc := structured(t, r)
	id, _ := sc["request_id"].(string)
	if sc["status"] != "pending" || id == "" {
		t.Fatalf("ask_human: %v", sc)
	}
	findWindow(t, "CrashHuman — feedback")
	old := appPID()
	if err := syscall.Kill(old, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	windowGone(t, "CrashHuman — feedback", 3*time.Second)
	// The client restarted its shim too: a new one, waiting as long as it needs.
	res := call(newMCP(t, "human-crash"), "ask_human_result", map[string]any{"request_id": id, "wait_seconds": 60})
	win := findWindow(t, "CrashHuman — feedback") // shown again by the restarted app
	if now := appPID(); now == 0 || now == old {
		t.Fatalf("the app was not restarted: pid %d, was %d", now, old)
	}
	activate(t, win)
	screenshot(t, "ask-human-after-crash")
	key(t, "alt+2")
	key(t, "ctrl+Return")
	got := structured(t, await(t, res))
	if got["status"] != "answered" || got["choice_id"] != "stop" || got["request_id"] != id {
		t.Errorf("ask_human_result after the crash: %v", got)
	}
}
