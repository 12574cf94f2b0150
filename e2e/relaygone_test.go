package e2e

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// pidOfExe returns the pid of the running process whose executable is
// exe (a copy of the headless binary of the test's own: headlessAlone),
// or 0.
func pidOfExe(exe string) int {
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if p, err := os.Readlink(filepath.Join("/proc", e.Name(), "exe")); err == nil && p == exe {
			return pid
		}
	}
	return 0
}

// A remote shim is killed (SIGKILL: the broker publishes its will) while
// its question's window is open; the window stays; the user answers it
// while no shim runs; the client starts the shim again (the same client
// process: the same session) and its identical call gets that answer at
// once, with no new window, as a restarted local shim's does.
func TestRelayAnswerWhileTheRemoteShimIsGone(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	b := startMQTTBroker(t)
	token, _, logPath := relayDeskLog(t, b, "sandbox")
	logHas := func(s string) func() bool {
		return func() bool { data, _ := os.ReadFile(logPath); return strings.Contains(string(data), s) }
	}
	shimEnv := relayShimEnv(t, b, token)
	exe := headlessAlone(t)
	agent := startMCPClientEnv(t, "claude-code", "2025-11-25", exe, []string{"mcp"}, nil, shimEnv)
	args := map[string]any{"message": "Which region for the new bucket?", "header_label": "GoneRemote"}
	const title = "GoneRemote — feedback"
	first := call(agent, "interactive_feedback", args)
	win := findWindow(t, title)

	pid := pidOfExe(exe)
	if pid == 0 {
		t.Fatal("the remote shim's process is not found")
	}
	if err := syscall.Kill(pid, syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	if r := <-first; r.err == nil && !r.res.IsError {
		t.Fatalf("the killed shim's call returned a result: %s", text(r.res))
	}
	waitFor(t, "the desktop to hear the shim's will", 20*time.Second, logHas("relay: a remote shim went away"))
	// The window outlives its caller: 12 s, longer than the desktop once
	// waited for such a process to come back.
	for end := time.Now().Add(12 * time.Second); time.Now().Before(end); time.Sleep(100 * time.Millisecond) {
		if visibleWindows(title) != 1 {
			t.Fatal("the window of the killed remote shim's question closed")
		}
	}
	activate(t, win)
	typeText(t, "eu-west-3 please")
	key(t, "ctrl+Return")
	windowGone(t, title, 5*time.Second)

	again := startMCPClientEnv(t, "claude-code", "2025-11-25", exe, []string{"mcp"}, nil, shimEnv)
	start := time.Now()
	r := await(t, call(again, "interactive_feedback", args))
	if r.IsError || !strings.Contains(text(r), "eu-west-3 please") {
		t.Fatalf("the restarted shim's identical call got %s, want the answer given while it was gone", text(r))
	}
	t.Logf("the restarted shim got the answer in %v", time.Since(start))
	if n := visibleWindows(title); n != 0 {
		t.Errorf("%d windows opened for the answer given meanwhile", n)
	}
}

// MCP tasks (2025-11-25) through the broker work as they do locally: a
// task's window opens on the desktop and tasks/result carries the answer;
// tasks/cancel closes its window; a task's shim that exits (its input
// ends) hands its window over, so the same call made again as a task by
// the restarted shim reattaches to it and gets what the user typed.
func TestRelayTasks(t *testing.T) {
	requireSession(t)
	openScreen(t).waitForWindowManager(t)
	b := startMQTTBroker(t)
	token, _ := relayDesk(t, b, "sandbox")
	shimEnv := relayShimEnv(t, b, token)
	exe := headlessAlone(t)
	agent := startMCPClientEnv(t, "task-agent", "2025-11-25", exe, []string{"mcp"}, nil, shimEnv)

	t.Run("answered", func(t *testing.T) {
		id := startTask(t, agent, "interactive_feedback", map[string]any{"message": "A task from afar", "header_label": "RemoteTask"})
		win := findWindow(t, "RemoteTask — feedback")
		activate(t, win)
		typeText(t, "task answer 5521")
		key(t, "ctrl+Return")
		if raw := rawRequest(t, agent, "result-1", "tasks/result", map[string]any{"taskId": id}); !strings.Contains(string(raw), "task answer 5521") {
			t.Errorf("tasks/result: %s", raw)
		}
	})
	t.Run("cancelled", func(t *testing.T) {
		id := startTask(t, agent, "interactive_feedback", map[string]any{"message": "Cancel this task", "header_label": "TaskCancelR"})
		findWindow(t, "TaskCancelR — feedback")
		rawRequest(t, agent, "cancel-1", "tasks/cancel", map[string]any{"taskId": id})
		windowGone(t, "TaskCancelR — feedback", 10*time.Second)
	})
	t.Run("shim restarted", func(t *testing.T) {
		args := map[string]any{"message": "Still there after a remote restart?", "header_label": "TaskRestartR"}
		const title = "TaskRestartR — feedback"
		first := startMCPClientEnv(t, "task-agent", "2025-11-25", exe, []string{"mcp"}, nil, shimEnv)
		startTask(t, first, "interactive_feedback", args)
		win := findWindow(t, title)
		activate(t, win)
		typeText(t, "typed before the restart")
		if err := first.Close(); err != nil { // its input ends; Close waits for the process to exit
			t.Logf("closing the first shim: %v", err)
		}
		// A withdrawal follows the exit within a moment; the hand-over ends
		// a second after it. Three seconds of the window staying prove it kept.
		for end := time.Now().Add(3 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
			if visibleWindows(title) != 1 {
				t.Fatal("the window closed when the remote shim of its task exited")
			}
		}
		second := startMCPClientEnv(t, "task-agent", "2025-11-25", exe, []string{"mcp"}, nil, shimEnv)
		id := startTask(t, second, "interactive_feedback", args)
		if n := visibleWindows(title); n != 1 {
			t.Fatalf("%d windows after the restart, want the first one still open", n)
		}
		activate(t, win)
		typeText(t, " and after")
		key(t, "ctrl+Return")
		if raw := rawRequest(t, second, "result-2", "tasks/result", map[string]any{"taskId": id}); !strings.Contains(string(raw), "typed before the restart and after") {
			t.Errorf("tasks/result: %s", raw)
		}
	})
}
