package e2e

import (
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// structured decodes a result's structuredContent.
func structured(t *testing.T, res *mcp.CallToolResult) map[string]any {
	t.Helper()
	data, err := json.Marshal(res.StructuredContent)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatalf("structuredContent %s: %v", data, err)
	}
	return m
}

func wantText(t *testing.T, res *mcp.CallToolResult, want string) {
	t.Helper()
	if res.IsError {
		t.Fatalf("isError result: %s", text(res))
	}
	if got := text(res); got != want {
		t.Errorf("text:\n%s\nwant:\n%s", got, want)
	}
}

// The app is not running; the shim starts it, the window opens with the
// reply box focused, Alt+2 ticks the second option and Ctrl+Enter submits.
func TestShimStartsTheAppAndAnswer(t *testing.T) {
	requireSession(t)
	stopApp()
	if appPID() != 0 {
		t.Fatal("the app still runs after stopApp")
	}
	c := newMCP(t, "autostart")
	res := call(c, "interactive_feedback", map[string]any{
		"message":      "## Plan\n\nShall I **refactor** the `auth` module?",
		"header_label": "Plan",
		"predefined_options": []any{
			map[string]any{"label": "Refactor", "default": true},
			"Add tests first",
			"Leave it",
		},
	})
	win := findWindow(t, "Plan — feedback")
	if appPID() == 0 {
		t.Fatal("a window opened but no app answers on the socket")
	}
	activate(t, win)
	typeText(t, "Go ahead, keep the API.")
	key(t, "alt+2")
	screenshot(t, "autostart-before-submit")
	key(t, "ctrl+Return")
	r := await(t, res)
	wantText(t, r, "Selected options:\n- Refactor\n- Add tests first\n\nUser reply:\nGo ahead, keep the API.")
	sc := structured(t, r)
	if sc["status"] != "answered" || sc["user_reply"] != "Go ahead, keep the API." {
		t.Errorf("structuredContent = %v", sc)
	}
	windowGone(t, "Plan — feedback", 2*time.Second)
}

// Two agents ask at once: two windows, and each answer goes to its own caller.
func TestTwoQuestionsAtOnce(t *testing.T) {
	requireSession(t)
	a, b := newMCP(t, "agent-a"), newMCP(t, "agent-b")
	ra := call(a, "interactive_feedback", map[string]any{"message": "Question from A", "header_label": "AgentA"})
	rb := call(b, "interactive_feedback", map[string]any{"message": "Question from B", "header_label": "AgentB"})
	wa := findWindow(t, "AgentA — feedback")
	wb := findWindow(t, "AgentB — feedback")
	screenshot(t, "two-at-once")

	activate(t, wb)
	typeText(t, "answer for B")
	key(t, "ctrl+Return")
	activate(t, wa)
	typeText(t, "answer for A")
	key(t, "ctrl+Return")

	wantText(t, await(t, ra), "User reply:\nanswer for A")
	wantText(t, await(t, rb), "User reply:\nanswer for B")
}

// Escape with nothing typed dismisses; the result says so and is no answer.
func TestDismiss(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "dismiss")
	res := call(c, "interactive_feedback", map[string]any{"summary": "Dismiss me", "header_label": "Dismiss"})
	win := findWindow(t, "Dismiss — feedback")
	activate(t, win)
	key(t, "Escape")
	r := await(t, res)
	if r.IsError {
		t.Fatalf("isError: %s", text(r))
	}
	if sc := structured(t, r); sc["status"] != "dismissed" {
		t.Errorf("status = %v, want dismissed", sc["status"])
	}
	if !strings.Contains(text(r), "dismissed") {
		t.Errorf("text does not say dismissed: %q", text(r))
	}
}

// A yes/no question has Yes and No buttons; Alt+Y answers yes.
func TestYesNo(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "yesno")
	res := call(c, "interactive_feedback", map[string]any{
		"prompt": "Deploy to staging?", "question_type": "yesno", "header_label": "Deploy",
	})
	win := findWindow(t, "Deploy — feedback")
	activate(t, win)
	screenshot(t, "yesno")
	key(t, "alt+y")
	wantText(t, await(t, res), "User reply:\nyes")
}

// A Chinese question, title and answer survive the round trip.
func TestChinese(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "chinese")
	res := call(c, "interactive_feedback", map[string]any{
		"message":            "## 方案确认\n\n是否将 **认证模块** 迁移到 `PyJWT 2.x`？\n\n- 保持接口不变\n- 补充集成测试",
		"header_label":       "审批",
		"predefined_options": []any{map[string]any{"text": "同意", "checked": true}, "拒绝"},
	})
	win := findWindow(t, "审批 — feedback")
	activate(t, win)
	typeText(t, "可以，注意兼容。")
	screenshot(t, "chinese")
	key(t, "ctrl+Return")
	wantText(t, await(t, res), "Selected options:\n- 同意\n\nUser reply:\n可以，注意兼容。")
}

// The agent's client going away withdraws its question: the window closes.
func TestClientExitWithdraws(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "leaver")
	call(c, "interactive_feedback", map[string]any{"message": "Nobody waits for me", "header_label": "Leaver"})
	findWindow(t, "Leaver — feedback")
	c.Close()
	windowGone(t, "Leaver — feedback", 2*time.Second)
}

// Bad arguments give an isError result that names what to fix.
func TestInvalidArguments(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "invalid")
	r := await(t, call(c, "interactive_feedback", map[string]any{"message": "   "}))
	if !r.IsError || !strings.Contains(text(r), "message") {
		t.Errorf("want an isError result naming message, got isError=%v %q", r.IsError, text(r))
	}
}

// A second `feedback` sees the first and exits 0 at once.
func TestSingleInstance(t *testing.T) {
	requireSession(t)
	ensureApp(t)
	first := appPID()
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	done := make(chan error, 1)
	go func() { done <- cmd.Run() }()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("second instance: %v", err)
		}
	case <-ctx.Done():
		cmd.Process.Kill()
		t.Fatal("the second instance did not exit")
	}
	if appPID() != first {
		t.Errorf("the first instance (pid %d) was replaced by %d", first, appPID())
	}
}

// ensureApp starts the app when it is not running.
func ensureApp(t *testing.T) {
	t.Helper()
	if appPID() != 0 {
		return
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), env...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := os.MkdirAll(filepath.Dir(appLog), 0o700); err != nil {
		t.Fatal(err)
	}
	log, err := os.OpenFile(appLog, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer log.Close() // the child keeps its own descriptor
	cmd.Stdout, cmd.Stderr = log, log
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go cmd.Wait()
	for deadline := time.Now().Add(15 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
		if appPID() != 0 {
			return
		}
	}
	t.Fatal("the app did not come up within 15 s")
}
