package e2e

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// tasks/result for a task still working blocks until the task ends (MCP
// 2025-11-25 tasks): a client that calls it at once, without polling
// tasks/get, gets the answer as soon as the user gives it.
func TestTaskResultWaitsForTheTask(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "task-letter")
	id := startTask(t, c, "interactive_feedback", map[string]any{"message": "Answer me once", "header_label": "TaskLetter"})
	type reply struct {
		res *transport.JSONRPCResponse
		err error
	}
	got := make(chan reply, 1)
	go func() {
		ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
		defer cancel()
		res, err := c.GetTransport().SendRequest(ctx, transport.JSONRPCRequest{
			JSONRPC: mcp.JSONRPC_VERSION, ID: mcp.NewRequestId("result-at-once"), Method: "tasks/result",
			Params: map[string]any{"taskId": id}})
		got <- reply{res, err}
	}()
	win := findWindow(t, "TaskLetter — feedback")
	activate(t, win)
	typeText(t, "answered while tasks/result waits")
	key(t, "ctrl+Return")
	select {
	case r := <-got:
		if r.err != nil {
			t.Fatalf("tasks/result: %v", r.err)
		}
		if r.res.Error != nil {
			t.Fatalf("tasks/result: error %d %s", r.res.Error.Code, r.res.Error.Message)
		}
		if !strings.Contains(string(r.res.Result), "answered while tasks/result waits") {
			t.Errorf("tasks/result: %s", r.res.Result)
		}
		var res struct {
			Meta map[string]any `json:"_meta"`
		}
		json.Unmarshal(r.res.Result, &res)
		t.Logf("tasks/result answered: %s", r.res.Result)
	case <-time.After(30 * time.Second):
		t.Fatal("tasks/result called while the task was working never answered after the user answered")
	}
}

// `feedback mcp --help` starts no server: it prints its usage on standard
// output and exits 0, as every other command's help does (it exited 2).
// The shim builds too.
func TestMCPHelp(t *testing.T) {
	requireSession(t)
	bins := []string{bin}
	if h := os.Getenv("FEEDBACK_HEADLESS_BIN"); h != "" {
		bins = append(bins, h)
	}
	for _, b := range bins {
		for _, h := range []string{"--help", "-h"} {
			cmd := exec.Command(b, "mcp", h)
			cmd.Env = append(os.Environ(), env...)
			var stdout, stderr bytes.Buffer
			cmd.Stdout, cmd.Stderr = &stdout, &stderr
			err := cmd.Run()
			if err != nil || !strings.HasPrefix(stdout.String(), "usage: feedback mcp") || !strings.Contains(stdout.String(), "-tools") || stderr.Len() > 0 {
				t.Errorf("%s mcp %s: %v; stdout %q, stderr %q; want the usage on stdout and status 0", filepath.Base(b), h, err, stdout.String(), stderr.String())
			}
		}
	}
}
