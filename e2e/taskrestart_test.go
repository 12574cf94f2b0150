package e2e

import (
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// rawRequest sends a request the client's API does not model (a
// task-augmented tools/call, tasks/result) on c's transport and returns
// its result.
func rawRequest(t *testing.T, c *client.Client, id, method string, params any) json.RawMessage {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	res, err := c.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
		JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId(id), Method: method, Params: params})
	if err != nil {
		t.Fatalf("%s: %v", method, err)
	}
	if res.Error != nil {
		t.Fatalf("%s: error %d %s", method, res.Error.Code, res.Error.Message)
	}
	return res.Result
}

// startTask calls tool as a task on c and returns the task's ID.
func startTask(t *testing.T, c *client.Client, tool string, args map[string]any) string {
	t.Helper()
	var r struct {
		Task struct {
			TaskID string `json:"taskId"`
			Status string `json:"status"`
		} `json:"task"`
	}
	raw := rawRequest(t, c, "call-"+tool, "tools/call", map[string]any{"name": tool, "arguments": args, "task": map[string]any{}})
	if err := json.Unmarshal(raw, &r); err != nil || r.Task.TaskID == "" || r.Task.Status != "working" {
		t.Fatalf("tools/call as a task: %s (%v)", raw, err)
	}
	return r.Task.TaskID
}

// Two shim processes, one after the other: the first asks as a task and
// exits (its client restarts it) while the window is open; the window
// stays. The second cannot serve the first's task (mcp-go keeps tasks in
// the process), but the same call made again as a task reattaches to the
// same window, and its tasks/result carries what the user typed there.
func TestTaskSurvivesShimRestart(t *testing.T) {
	requireSession(t)
	args := map[string]any{"message": "Still there after a restart?", "header_label": "TaskRestart"}
	first := newMCP(t, "task-agent")
	startTask(t, first, "interactive_feedback", args)
	win := findWindow(t, "TaskRestart — feedback")
	activate(t, win)
	typeText(t, "typed before the restart")
	if err := first.Close(); err != nil { // stdin closed; Close waits for the process to exit
		t.Logf("closing the first shim: %v", err)
	}
	// A withdrawal follows the exit within milliseconds; the hand-over ends
	// a second after it. Two seconds of the window staying prove it kept.
	for end := time.Now().Add(2 * time.Second); time.Now().Before(end); time.Sleep(50 * time.Millisecond) {
		if visibleWindows("TaskRestart — feedback") != 1 {
			t.Fatal("the window closed when the shim of its task exited")
		}
	}

	second := newMCP(t, "task-agent")
	id := startTask(t, second, "interactive_feedback", args)
	if n := visibleWindows("TaskRestart — feedback"); n != 1 {
		t.Fatalf("%d TaskRestart windows after the restart, want the first one still open", n)
	}
	activate(t, win) // the first shim's window: fails if it was withdrawn
	typeText(t, " and after")
	windowShot(t, win, "task-restart")
	key(t, "ctrl+Return")
	raw := rawRequest(t, second, "result-1", "tasks/result", map[string]any{"taskId": id})
	if !strings.Contains(string(raw), "typed before the restart and after") {
		t.Errorf("tasks/result: %s", raw)
	}
}
