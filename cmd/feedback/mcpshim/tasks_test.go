package mcpshim

import (
	"encoding/json"
	"strconv"
	"strings"
	"testing"
	"time"

	"feedback/internal/settings"
)

// taskOf reads the task of a CreateTaskResult, tasks/get or tasks/cancel
// response.
func taskOf(t *testing.T, l rawLine) (id, status string) {
	t.Helper()
	var r struct {
		Task struct {
			TaskID string `json:"taskId"`
			Status string `json:"status"`
		} `json:"task"`
		TaskID string `json:"taskId"`
		Status string `json:"status"`
	}
	if err := json.Unmarshal(l.Result, &r); err != nil {
		t.Fatalf("%s: %v", l.raw, err)
	}
	if r.Task.TaskID != "" {
		return r.Task.TaskID, r.Task.Status
	}
	return r.TaskID, r.Status
}

// A question asked as a task waits for the human with no client wait: the
// app is told to wait for the question's own countdown (taskWait, far
// beyond the 15 minutes a human may take), the task is still working after
// the per-call wait setting (max_wait_seconds 1) has passed, and
// tasks/result returns the answer once the human gives it.
func TestTaskOutlivesTheCallWait(t *testing.T) {
	app := newFakeInbox()
	s := settings.Default()
	s.MaxWaitSeconds = 1
	r := startRawShim(t, Options{Connect: connectTo(app), Settings: s})
	r.send(`{"jsonrpc":"2.0","id":"t1","method":"tools/call","params":{"name":"ask_text","arguments":{"question":"Take your time?"},"task":{}}}`)
	id, status := taskOf(t, r.response(`"t1"`))
	if id == "" || status != "working" {
		t.Fatalf("tools/call as a task: %q %q", id, status)
	}
	q := <-app.asked
	if got := app.askOf(q.ID).Wait; got < 15*time.Minute {
		t.Errorf("the task waits %v for the human, want no client wait (at least 15 min)", got)
	}
	time.Sleep(1500 * time.Millisecond) // past the per-call wait: a call would have returned "call again"
	r.send(`{"jsonrpc":"2.0","id":"g1","method":"tasks/get","params":{"taskId":"` + id + `"}}`)
	if _, status := taskOf(t, r.response(`"g1"`)); status != "working" || app.waiters(q.ID) != 1 {
		t.Fatalf("after the per-call wait: task %s, %d waiting on the window", status, app.waiters(q.ID))
	}
	app.answer(t, q.ID, windowAnswer(q))
	r.send(`{"jsonrpc":"2.0","id":"r1","method":"tasks/result","params":{"taskId":"` + id + `"}}`)
	if res := r.response(`"r1"`); !strings.Contains(string(res.Result), humanWords) || !strings.Contains(string(res.Result), `"status":"answered"`) {
		t.Errorf("tasks/result: %s", res.raw)
	}
}

// tasks/cancel ends the task and withdraws its window.
func TestTaskCancelWithdraws(t *testing.T) {
	app := newFakeInbox()
	r := startRawShim(t, Options{Connect: connectTo(app), Settings: settings.Default()})
	r.send(`{"jsonrpc":"2.0","id":"t1","method":"tools/call","params":{"name":"ask_confirm","arguments":{"question":"Proceed?"},"task":{"ttl":60000}}}`)
	id, _ := taskOf(t, r.response(`"t1"`))
	q := <-app.asked
	app.waitWaiters(t, q.ID, 1)
	r.send(`{"jsonrpc":"2.0","id":"c1","method":"tasks/cancel","params":{"taskId":"` + id + `"}}`)
	if _, status := taskOf(t, r.response(`"c1"`)); status != "cancelled" {
		t.Errorf("tasks/cancel: %s", status)
	}
	app.waitWithdrawn(t, q.ID)
}

// A call without params.task keeps the client's wait and its "call again".
func TestCallWithoutTaskKeepsItsWait(t *testing.T) {
	app := newFakeInbox()
	s := settings.Default()
	s.MaxWaitSeconds = 1
	r := startRawShim(t, Options{Connect: connectTo(app), Settings: s})
	r.send(`{"jsonrpc":"2.0","id":"c1","method":"tools/call","params":{"name":"ask_text","arguments":{"question":"Quick?"}}}`)
	q := <-app.asked
	if w := app.askOf(q.ID).Wait; w != time.Second {
		t.Errorf("wait %v, want the per-call wait 1s", w)
	}
	if res := r.response(`"c1"`); !strings.Contains(string(res.Result), "Call ask_text again") {
		t.Errorf("after the client's wait: %s", res.raw)
	}
}

// ask_human_result has no task support: with params.task it is an
// ordinary call, bounded by its own wait.
func TestTaskParamsOnAToolWithoutTasks(t *testing.T) {
	r := startRawShim(t, Options{Connect: connectTo(newFakeInbox()), Settings: settings.Default()})
	r.send(`{"jsonrpc":"2.0","id":"h1","method":"tools/call","params":{"name":"ask_human_result","arguments":{"request_id":"0123456789abcdef0123456789abcdef","wait_seconds":0},"task":{}}}`)
	if res := r.response(`"h1"`); !strings.Contains(string(res.Result), "unknown or already collected request_id") {
		t.Errorf("ask_human_result with params.task: %s", res.raw)
	}
}

// A 2026-07-28 client could not collect a task's result from mcp-go
// (tasks/result is refused to it): its params.task is ignored, the call
// answered as an ordinary one.
func TestStatelessTaskParamsServedInline(t *testing.T) {
	app := newFakeInbox()
	app.auto = windowAnswer
	r := startRawShim(t, Options{Connect: connectTo(app), Settings: settings.Default()})
	res := modernCall(t, r, 7, map[string]any{"name": "ask_text", "arguments": map[string]any{"question": "Inline?"}, "task": map[string]any{}})
	if sc, _ := res["structuredContent"].(map[string]any); sc["status"] != "answered" || sc["answer"] != humanWords {
		t.Errorf("a stateless call with params.task: %v", res)
	}
}

// A task's TTL is bounded: 2^63-1 ms (which mcp-go turned into a negative
// sleep, forgetting the task at once), a negative one and none become
// maxTaskTTL, which the created task reports; a TTL within it is kept.
// The task is still there to get once its question is asked.
func TestTaskTTLBounded(t *testing.T) {
	max := strconv.FormatInt(maxTaskTTL.Milliseconds(), 10)
	for _, tc := range []struct{ task, want string }{
		{`{"ttl":9223372036854775807}`, max},
		{`{"ttl":-5}`, max},
		{`{}`, max},
		{`{"ttl":60000}`, "60000"},
	} {
		t.Run(tc.task, func(t *testing.T) {
			app := newFakeInbox()
			r := startRawShim(t, Options{Connect: connectTo(app), Settings: settings.Default()})
			r.send(`{"jsonrpc":"2.0","id":"t1","method":"tools/call","params":{"name":"ask_text","arguments":{"question":"Kept?"},"task":` + tc.task + `}}`)
			created := r.response(`"t1"`)
			var res struct {
				Task struct {
					TaskID string          `json:"taskId"`
					TTL    json.RawMessage `json:"ttl"`
				} `json:"task"`
			}
			if err := json.Unmarshal(created.Result, &res); err != nil || string(res.Task.TTL) != tc.want {
				t.Fatalf("created task's ttl %s, want %s: %s", res.Task.TTL, tc.want, created.raw)
			}
			q := <-app.asked
			app.waitWaiters(t, q.ID, 1)
			r.send(`{"jsonrpc":"2.0","id":"g1","method":"tasks/get","params":{"taskId":"` + res.Task.TaskID + `"}}`)
			if got := r.response(`"g1"`); got.Error != nil || !strings.Contains(string(got.Result), `"status":"working"`) {
				t.Errorf("tasks/get once the question is asked: %s", got.raw)
			}
		})
	}
}
