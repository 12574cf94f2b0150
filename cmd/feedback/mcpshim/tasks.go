package mcpshim

import (
	"context"
	"strconv"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// Long waits as tasks (MCP tasks as of 2025-11-25, served by mcp-go). A
// client that declared task support may call an asking tool with
// params.task: the call returns a task at once, the client polls tasks/get
// and fetches the outcome with tasks/result when the human has answered,
// and tasks/cancel withdraws the window. No client wait profile applies to
// such a call: it waits for the question's own countdown, at most taskWait.
// A call without params.task is served as before (progress, "call again").
//
// Two things mcp-go v1.2.1 leaves to the shim:
//   - It runs a task's handler under the context of the tools/call that
//     created it, which ends as soon as the task is returned: the ask would
//     be withdrawn at once. The shim runs it detached (context.WithoutCancel)
//     and cancels it itself when tasks/cancel names the task (taskRegistry).
//   - Its tasks live in the shim's memory, under random IDs. After a
//     restart of the shim a tasks/get for an old task fails ("task not
//     found"); the question, though, stays open in the app under its
//     stable ID (the shim hands it off as it exits: taskhandoff.go), so
//     the same call made again (with or without params.task) reattaches to
//     it or collects its kept answer, as the call-again path does.
//
// The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks, SEP-2663:
// tasks/get carrying the result, tasks/update) is not implemented by
// mcp-go v1.2.1: a stateless client gets its answer through the ordinary
// call (progress, "call again").

// taskWait bounds the wait of a call run as a task; the question's own
// countdown normally ends it first.
const taskWait = 24 * time.Hour

// maxTaskTTL bounds how long a task is kept (params.task.ttl, in ms): the
// longest wait and an hour to collect the result. A longer TTL, a
// negative one or none is this: mcp-go turns a TTL beyond the range of a
// time.Duration (2^63-1 ms) into a negative sleep and forgets the task at
// once, and keeps a task without TTL forever. The task's ttl tells the
// client what it got, as the revision lets a server decide.
const maxTaskTTL = taskWait + time.Hour

// taskTokenMeta is set in the _meta of a tools/call that asks for a task
// (by markTaskCall), so its handler can find the task mcp-go created.
const taskTokenMeta = "io.feedback/task-call"

// maxTrackedTasks bounds the tasks the registry remembers.
const maxTrackedTasks = 1024

// taskRegistry links a task-augmented tools/call, its task ID and the
// cancel of its detached handler.
type taskRegistry struct {
	mu      sync.Mutex
	next    uint64
	byCtx   map[context.Context]string // the tools/call's context → its token, until the task is created
	taskOf  map[string]string          // token → task ID
	cancels map[string]context.CancelFunc
	ended   map[string]bool // task IDs cancelled before their handler registered
}

func newTaskRegistry() *taskRegistry {
	return &taskRegistry{byCtx: map[context.Context]string{}, taskOf: map[string]string{},
		cancels: map[string]context.CancelFunc{}, ended: map[string]bool{}}
}

// markTaskCall is a BeforeCallTool hook: a call that asks for a task gets
// its TTL bounded (maxTaskTTL) and a token in its _meta, remembered under the call's context (the context
// mcp-go then creates the task under; see taskCreated). A token the client
// sent itself is removed. A stateless client's params.task is dropped.
func (r *taskRegistry) markTaskCall(ctx context.Context, _ any, req *mcp.CallToolRequest) {
	if req.Params.Meta != nil {
		delete(req.Params.Meta.AdditionalFields, taskTokenMeta)
	}
	if req.Params.Task == nil {
		return
	}
	if modernRequest(ctx) {
		// mcp-go refuses tasks/result to a 2026-07-28 client: such a task
		// could never be collected. The call is served as an ordinary one.
		req.Params.Task = nil
		return
	}
	if ttl := req.Params.Task.TTL; ttl == nil || *ttl <= 0 || *ttl > maxTaskTTL.Milliseconds() {
		bounded := maxTaskTTL.Milliseconds()
		req.Params.Task.TTL = &bounded
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.byCtx) >= maxTrackedTasks {
		return // not tracked: the task runs, but cannot be cancelled
	}
	r.next++
	token := strconv.FormatUint(r.next, 10)
	r.byCtx[ctx] = token
	if req.Params.Meta == nil {
		req.Params.Meta = &mcp.Meta{}
	}
	if req.Params.Meta.AdditionalFields == nil {
		req.Params.Meta.AdditionalFields = map[string]any{}
	}
	req.Params.Meta.AdditionalFields[taskTokenMeta] = token
}

// taskCreated is an OnTaskCreated hook: it links the call's token to the
// task's ID. mcp-go calls it with the tools/call's context, before the
// handler starts.
func (r *taskRegistry) taskCreated(ctx context.Context, m server.TaskMetrics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	token, ok := r.byCtx[ctx]
	if !ok {
		return
	}
	delete(r.byCtx, ctx)
	if len(r.taskOf) >= maxTrackedTasks {
		return
	}
	r.taskOf[token] = m.TaskID
}

// forgetCall drops what markTaskCall remembered of a call whose task was
// never created (the call failed before).
func (r *taskRegistry) forgetCall(ctx context.Context) {
	r.mu.Lock()
	defer r.mu.Unlock()
	delete(r.byCtx, ctx)
}

// register adds the registry's hooks: the call's and the tasks'.
func (r *taskRegistry) register(hooks *server.Hooks, taskHooks *server.TaskHooks) {
	hooks.AddBeforeCallTool(r.markTaskCall)
	hooks.AddAfterCallTool(func(ctx context.Context, _ any, _ *mcp.CallToolRequest, _ any) { r.forgetCall(ctx) })
	hooks.AddOnError(func(ctx context.Context, _ any, method mcp.MCPMethod, _ any, _ error) {
		if method == mcp.MethodToolsCall {
			r.forgetCall(ctx)
		}
	})
	taskHooks.AddOnTaskCreated(r.taskCreated)
	taskHooks.AddOnTaskCancelled(r.taskCancelled)
}

// taskCancelled is an OnTaskCancelled hook: tasks/cancel ends the task's
// handler (and so withdraws its window).
func (r *taskRegistry) taskCancelled(_ context.Context, m server.TaskMetrics) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if cancel, ok := r.cancels[m.TaskID]; ok {
		cancel()
		return
	}
	if len(r.ended) < maxTrackedTasks {
		r.ended[m.TaskID] = true
	}
}

// detach returns the context a task's handler runs under: ctx's values,
// not its end (mcp-go ends ctx when the task is returned), cancelled by
// tasks/cancel for the task, and the function to call when the handler
// returns. ok is false, and ctx returned, for a call that runs as no task
// (no params.task, or a tool without task support: mcp-go runs it as an
// ordinary call).
func (r *taskRegistry) detach(ctx context.Context, req mcp.CallToolRequest) (context.Context, func(), bool) {
	if req.Params.Task == nil || req.Params.Meta == nil {
		return ctx, func() {}, false
	}
	token, _ := req.Params.Meta.AdditionalFields[taskTokenMeta].(string)
	r.mu.Lock()
	defer r.mu.Unlock()
	id, ok := r.taskOf[token]
	if !ok {
		return ctx, func() {}, false
	}
	delete(r.taskOf, token)
	dctx, cancel := context.WithCancel(context.WithoutCancel(ctx))
	if r.ended[id] {
		delete(r.ended, id)
		cancel()
	}
	r.cancels[id] = cancel
	return dctx, func() {
		cancel()
		r.mu.Lock()
		delete(r.cancels, id)
		r.mu.Unlock()
	}, true
}

// withTaskSupport marks a tool as callable as a task (or not).
func withTaskSupport(t mcp.Tool) mcp.Tool {
	t.Execution = &mcp.ToolExecution{TaskSupport: mcp.TaskSupportOptional}
	return t
}
