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

	"github.com/mark3labs/mcp-go/client"
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

// A task asked for with a TTL of 2^63-1 ms is kept (for the shim's
// longest, 25 h, which the task reports), not forgotten at once: tasks/get
// finds it working while its window is open, and tasks/result carries the
// answer.
func TestTaskHugeTTLKept(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "task-ttl")
	raw := rawRequest(t, c, "call-ttl", "tools/call", map[string]any{"name": "interactive_feedback",
		"arguments": map[string]any{"message": "Kept for long?", "header_label": "TaskTTL"},
		"task":      map[string]any{"ttl": int64(1<<63 - 1)}})
	var created struct {
		Task struct {
			TaskID string `json:"taskId"`
			TTL    int64  `json:"ttl"`
		} `json:"task"`
	}
	if err := json.Unmarshal(raw, &created); err != nil || created.Task.TaskID == "" {
		t.Fatalf("tools/call as a task: %s (%v)", raw, err)
	}
	if created.Task.TTL != 25*60*60*1000 {
		t.Errorf("the task's ttl is %d ms, want 25 h", created.Task.TTL)
	}
	win := findWindow(t, "TaskTTL — feedback")
	got := rawRequest(t, c, "get-ttl", "tasks/get", map[string]any{"taskId": created.Task.TaskID})
	if !strings.Contains(string(got), `"status":"working"`) {
		t.Errorf("tasks/get while the window is open: %s", got)
	}
	activate(t, win)
	typeText(t, "still here")
	key(t, "ctrl+Return")
	if res := rawRequest(t, c, "result-ttl", "tasks/result", map[string]any{"taskId": created.Task.TaskID}); !strings.Contains(string(res), "still here") {
		t.Errorf("tasks/result: %s", res)
	}
}

// Without a window, a 2025-06-18 client's form holds only what that
// revision allows: no array (multi-select came with 2025-11-25). An
// ask_multi_select is one checkbox (boolean) per option, and the boxes
// ticked are the selection; at 2025-11-25 it stays one multi-select field.
func TestFormAtEachRevisionHasItsTypes(t *testing.T) {
	headlessBinary(t)
	for _, tc := range []struct {
		version string
		answer  map[string]any
	}{
		{"2025-06-18", map[string]any{"answer_1": false, "answer_2": true, "answer_3": true}},
		{"2025-11-25", map[string]any{"answer": []any{"unit", "e2e"}}},
	} {
		t.Run(tc.version, func(t *testing.T) {
			var types []string
			h := formHandler(func(_ context.Context, req mcp.ElicitationRequest) (*mcp.ElicitationResult, error) {
				raw, _ := json.Marshal(req.Params.RequestedSchema)
				var schema struct {
					Properties map[string]struct {
						Type string `json:"type"`
					} `json:"properties"`
				}
				json.Unmarshal(raw, &schema)
				for k, p := range schema.Properties {
					types = append(types, k+":"+p.Type)
				}
				return elicitResult(mcp.ElicitationResponseActionAccept, tc.answer), nil
			})
			c := newMCPClientAt(t, "form-"+tc.version, tc.version, []client.ClientOption{client.WithElicitationHandler(h)}, noGUIEnv(t)...)
			sc := structured(t, callNow(t, c, "ask_multi_select", map[string]any{"question": "Which checks?", "options": []any{"lint", "unit", "e2e"}}))
			sel, _ := json.Marshal(sc["selected"])
			if sc["status"] != "answered" || string(sel) != `["unit","e2e"]` {
				t.Errorf("the form's answer: %v", sc)
			}
			arrays := strings.Contains(strings.Join(types, " "), ":array")
			if want := tc.version >= "2025-11-25"; arrays != want || len(types) == 0 {
				t.Errorf("the form's fields %v: an array %v, want %v", types, arrays, want)
			}
			t.Logf("%s form: %v", tc.version, types)
		})
	}
}

// Every tool whose results carry structuredContent declares an
// outputSchema (all but permission_prompt, which answers Claude Code in its
// text), and a success of such a tool carries structuredContent: clients
// built on the TypeScript SDK reject one without it.
func TestToolsDeclareTheirOutput(t *testing.T) {
	requireSession(t)
	c := newMCP(t, "output-letter")
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	list, err := c.ListTools(ctx, mcp.ListToolsRequest{})
	if err != nil {
		t.Fatal(err)
	}
	for _, tool := range list.Tools {
		if declared := tool.OutputSchema.Type == "object"; declared != (tool.Name != "permission_prompt") {
			t.Errorf("%s: outputSchema %+v", tool.Name, tool.OutputSchema)
		}
	}
	res := callNow(t, c, "notify", map[string]any{"message": "letter of the protocol"})
	if sc, ok := res.StructuredContent.(map[string]any); res.IsError || !ok || sc["status"] == nil {
		t.Errorf("notify: isError %v, structuredContent %v", res.IsError, res.StructuredContent)
	}
}
