package e2e

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// A call with a progress token gets progress while the window is open,
// increasing, and none after its result.
func TestProgressHeartbeat(t *testing.T) {
	requireSession(t)
	c := newMCPClient(t, "heartbeat", nil, "FEEDBACK_PROGRESS_INTERVAL=400ms")
	var mu sync.Mutex
	var progress []float64
	var messages []string
	var late int
	result := false
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if n.Method != "notifications/progress" {
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if result {
			late++
		}
		p, _ := n.Params.AdditionalFields["progress"].(float64)
		m, _ := n.Params.AdditionalFields["message"].(string)
		progress, messages = append(progress, p), append(messages, m)
	})
	ch := make(chan callResult, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "interactive_feedback"
		req.Params.Arguments = map[string]any{"message": "Keep me alive", "header_label": "Heartbeat"}
		req.Params.Meta = &mcp.Meta{ProgressToken: "hb-1"}
		ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
		defer cancel()
		res, err := c.CallTool(ctx, req)
		mu.Lock()
		result = true
		mu.Unlock()
		ch <- callResult{res, err}
	}()
	win := findWindow(t, "Heartbeat — feedback")
	// Two heartbeats arrived, the last saying the window is open (the app
	// told the shim it was shown: that can come after xdotool sees it).
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		mu.Lock()
		n, open := len(progress), len(messages) > 0 && strings.HasPrefix(messages[len(messages)-1], "waiting for the user — window open ")
		mu.Unlock()
		if n >= 2 && open {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d progress notifications within 10 s, the last saying the window is open: %v", n, open)
		}
	}
	activate(t, win)
	typeText(t, "alive")
	key(t, "ctrl+Return")
	wantText(t, await(t, ch), "User reply:\nalive")
	// This sleep proves a negative: a notification sent after the result
	// would arrive within it (2.5 heartbeat intervals).
	time.Sleep(time.Second)
	mu.Lock()
	defer mu.Unlock()
	t.Logf("progress %v; messages %q", progress, messages)
	if len(progress) < 2 {
		t.Fatalf("%d progress notifications, want at least 2", len(progress))
	}
	for i := 1; i < len(progress); i++ {
		if progress[i] <= progress[i-1] {
			t.Errorf("progress does not increase: %v", progress)
		}
	}
	if late != 0 {
		t.Errorf("%d progress notifications after the result", late)
	}
	if !strings.HasPrefix(messages[len(messages)-1], "waiting for the user — window open ") {
		t.Errorf("last message = %q", messages[len(messages)-1])
	}
}

// FEEDBACK_MAX_WAIT=3: the call returns "not answered yet" after about
// 3 s and the window stays; the call made again joins it (still one
// window) and returns the answer typed in it.
func TestCallAgainSameWindow(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "callagain", "FEEDBACK_MAX_WAIT=3", "FEEDBACK_PROGRESS_INTERVAL=200ms")
	progress := watchProgress(c)
	args := map[string]any{"message": "Long thought needed", "header_label": "CallAgain"}
	start := time.Now()
	first := call(c, "interactive_feedback", args)
	win := findWindow(t, "CallAgain — feedback")
	activate(t, win)
	typeText(t, "draft before")
	r := await(t, first)
	waited := time.Since(start)
	if waited < 2500*time.Millisecond || waited > 6*time.Second {
		t.Errorf("the first call returned after %v, want about 3 s", waited)
	}
	if r.IsError || !strings.HasPrefix(text(r), "The user has not answered yet; the question is still open") {
		t.Fatalf("first call: isError = %v, %q", r.IsError, text(r))
	}
	if sc := structured(t, r); sc["status"] != "pending" {
		t.Errorf("structuredContent = %v", sc)
	}
	waitStore(t, sessionDB(), "the question kept open", keptOpen("CallAgain")) // the app decided: it stays
	if n := visibleWindows("CallAgain — feedback"); n != 1 {
		t.Fatalf("%d windows after the call-again result, want the one still open", n)
	}
	second := callWithProgress(c, "interactive_feedback", args, "again")
	progress.waitShown(t, "again") // the app has put its window for the call made again on screen
	if n := visibleWindows("CallAgain — feedback"); n != 1 {
		t.Fatalf("%d windows after calling again, want 1", n)
	}
	win = findWindow(t, "CallAgain — feedback")
	activate(t, win)
	typeText(t, ", then after")
	screenshot(t, "callagain-same-window")
	key(t, "ctrl+Return")
	wantText(t, await(t, second), "User reply:\ndraft before, then after")
	windowGone(t, "CallAgain — feedback", 2*time.Second)
}

// An answer given while no call waits is kept and comes back at once to
// the call made again.
func TestKeptAnswerComesBack(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "kept", "FEEDBACK_MAX_WAIT=2")
	args := map[string]any{"message": "Answer me later", "header_label": "KeptAnswer"}
	first := call(c, "interactive_feedback", args)
	win := findWindow(t, "KeptAnswer — feedback")
	if r := await(t, first); !strings.HasPrefix(text(r), "The user has not answered yet") {
		t.Fatalf("first call: %q", text(r))
	}
	activate(t, win)
	typeText(t, "answered while nobody waited")
	key(t, "ctrl+Return")
	windowGone(t, "KeptAnswer — feedback", 2*time.Second)
	start := time.Now()
	r := await(t, call(c, "interactive_feedback", args))
	if d := time.Since(start); d > time.Second {
		t.Errorf("the kept answer took %v", d)
	}
	wantText(t, r, "User reply:\nanswered while nobody waited")
	if n := visibleWindows("KeptAnswer — feedback"); n != 0 {
		t.Errorf("%d windows opened for a kept answer", n)
	}
}

// A call the client cancels (notifications/cancelled) closes its window
// within 1 s.
func TestCancelledCallClosesWindow(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "canceller")
	ctx, cancel := context.WithCancel(context.Background())
	errc := make(chan error, 1)
	go func() {
		req := mcp.CallToolRequest{}
		req.Params.Name = "ask_text"
		req.Params.Arguments = map[string]any{"question": "Cancel me"}
		_, err := c.CallTool(ctx, req)
		errc <- err
	}()
	findWindow(t, "Cancel me — feedback")
	cancel()
	start := time.Now()
	windowGone(t, "Cancel me — feedback", time.Second)
	t.Logf("the window closed %v after the cancel", time.Since(start).Round(time.Millisecond))
	if err := <-errc; err == nil {
		t.Error("the cancelled call returned no error")
	}
}

// Two sessions (two shims of the same client) asking the identical
// question at once get a window each, and each the answer given in its own.
func TestTwoSessionsIdenticalQuestion(t *testing.T) {
	requireSession(t)
	args := map[string]any{"message": "Same question, two sessions", "header_label": "TwoSessions"}
	const title = "TwoSessions — feedback"
	first := call(newMCP(t, "twin"), "interactive_feedback", args)
	win1 := findWindow(t, title)
	second := call(newMCP(t, "twin"), "interactive_feedback", args)
	var win2 string
	for deadline := time.Now().Add(20 * time.Second); win2 == ""; time.Sleep(50 * time.Millisecond) {
		for _, w := range windowsTitled(title) {
			if w != win1 {
				win2 = w
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("the second session got no window of its own")
		}
	}
	activate(t, win1)
	typeText(t, "first session")
	key(t, "ctrl+Return")
	wantText(t, await(t, first), "User reply:\nfirst session")
	activate(t, win2)
	typeText(t, "second session")
	key(t, "ctrl+Return")
	wantText(t, await(t, second), "User reply:\nsecond session")
	windowGone(t, title, 2*time.Second)
}

// An answer given in one session is not handed to another: session A's
// ask_text returns "not answered yet", the user answers A's window, and
// session B — another client process (its shim started by a shell), same
// client name, identical arguments — gets a window of its own, not A's
// answer; A, calling again, collects it.
func TestKeptAnswerNotHandedToAnotherSession(t *testing.T) {
	requireSession(t)
	args := map[string]any{"question": "Which token name for the deploy key?"}
	const title = "Which token name for the deploy key? — feedback"
	a := newMCP(t, "sessions", "FEEDBACK_MAX_WAIT=2")
	first := call(a, "ask_text", args)
	win := findWindow(t, title)
	if r := structured(t, await(t, first)); r["status"] != "timeout" {
		t.Fatalf("session A's first call: %v", r)
	}
	activate(t, win)
	typeText(t, "session A only")
	key(t, "ctrl+Return")
	windowGone(t, title, 2*time.Second)

	b := startMCPClient(t, "sessions", "2025-11-25", "/bin/sh", []string{"-c", `"$0" mcp; exit $?`, bin}, nil, "FEEDBACK_MAX_WAIT=2")
	start := time.Now()
	second := call(b, "ask_text", args)
	findWindow(t, title) // a window of its own, not A's answer
	sc := structured(t, await(t, second))
	if sc["status"] != "timeout" || sc["answer"] != "" {
		t.Fatalf("session B got %v after %v, want its own window, not answered yet", sc, time.Since(start))
	}
	screenshot(t, "sessions-b-own-window")
	activate(t, findWindow(t, title))
	key(t, "Escape")
	windowGone(t, title, 2*time.Second)

	if sc := structured(t, await(t, call(a, "ask_text", args))); sc["status"] != "answered" || sc["answer"] != "session A only" {
		t.Errorf("session A calling again: %v", sc)
	}
}
