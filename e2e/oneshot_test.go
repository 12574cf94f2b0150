package e2e

import (
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
)

// oneShot starts a new client process for one call, as one-shot clients
// do: a shell that runs the shim, so the session (the shim's parent
// process) is new each time and ends when the client is closed.
func oneShot(t *testing.T, extraEnv ...string) *client.Client {
	t.Helper()
	return startMCPClient(t, "oneshot", "2025-11-25", "/bin/sh", []string{"-c", `"$0" mcp; exit $?`, bin}, nil, extraEnv...)
}

// A client that starts a new process, so a new session, for every call: its
// call returns "not answered yet", the client process exits, the user
// answers the window; the identical call from a new client process gets
// that answer at once, and no window opens for it.
func TestOneShotClientGetsItsAnswer(t *testing.T) {
	requireSession(t)
	startDunst(t) // the user is told where the answer went
	args := map[string]any{"question": "Which port should the dev server use?"}
	const title = "Which port should the dev server use? — feedback"
	a := oneShot(t, "FEEDBACK_MAX_WAIT=2")
	first := call(a, "ask_text", args)
	win := findWindow(t, title)
	if sc := structured(t, await(t, first)); sc["status"] != "timeout" {
		t.Fatalf("the first call: %v, want not answered yet", sc)
	}
	a.Close() // the client process exits: its session ended
	activate(t, win)
	typeText(t, "8080")
	key(t, "ctrl+Return")
	windowGone(t, title, 2*time.Second)

	dunstctl(t, "close-all")
	b := oneShot(t, "FEEDBACK_MAX_WAIT=2")
	start := time.Now()
	sc := structured(t, await(t, call(b, "ask_text", args)))
	if sc["status"] != "answered" || sc["answer"] != "8080" {
		t.Fatalf("the new client process got %v after %v, want the answer given meanwhile", sc, time.Since(start))
	}
	e := notesWith(t, "Your answer went to", "next call: Which port should the dev server use?")
	t.Logf("notification: %q / %q", e.Summary, e.Body)
	if d := time.Since(start); d > 1500*time.Millisecond {
		t.Errorf("the kept answer took %v", d)
	}
	if n := visibleWindows(title); n != 0 {
		t.Errorf("%d windows opened for the kept answer", n)
	}
}

// The window of a one-shot client's ended session is joined by its next
// call (one window, which gets the answer); a call made while that one
// still waits on it gets a window of its own.
func TestOneShotClientJoinsTheWindowAndConcurrentGetsItsOwn(t *testing.T) {
	requireSession(t)
	args := map[string]any{"question": "Deploy to staging or production?"}
	const title = "Deploy to staging or production? — feedback"
	a := oneShot(t, "FEEDBACK_MAX_WAIT=2")
	first := call(a, "ask_text", args)
	win := findWindow(t, title)
	if sc := structured(t, await(t, first)); sc["status"] != "timeout" {
		t.Fatalf("the first call: %v, want not answered yet", sc)
	}
	a.Close()

	b := oneShot(t, "FEEDBACK_PROGRESS_INTERVAL=200ms")
	progress := watchProgress(b)
	second := callWithProgress(b, "ask_text", args, "joined")
	progress.waitShown(t, "joined") // it waits on a window that is on screen
	if n := visibleWindows(title); n != 1 {
		t.Fatalf("%d windows after the next session asked, want the first one alone", n)
	}

	c := oneShot(t)
	third := call(c, "ask_text", args)
	var own string
	for deadline := time.Now().Add(20 * time.Second); own == ""; time.Sleep(50 * time.Millisecond) {
		for _, w := range windowsTitled(title) {
			if w != win {
				own = w
			}
		}
		if time.Now().After(deadline) {
			t.Fatal("a call made while another waits on the window got no window of its own")
		}
	}
	screenshot(t, "oneshot-concurrent-own-window")
	activate(t, win)
	typeText(t, "staging")
	key(t, "ctrl+Return")
	if sc := structured(t, await(t, second)); sc["status"] != "answered" || sc["answer"] != "staging" {
		t.Errorf("the session that joined the window got %v", sc)
	}
	activate(t, own)
	typeText(t, "production")
	key(t, "ctrl+Return")
	if sc := structured(t, await(t, third)); sc["status"] != "answered" || sc["answer"] != "production" {
		t.Errorf("the concurrent session got %v", sc)
	}
	windowGone(t, title, 2*time.Second)
}
