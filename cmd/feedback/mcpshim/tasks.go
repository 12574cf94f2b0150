package mcpshim

import (
	"context"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
)

// Long waits as tasks (MCP tasks as of 2025-11-25, served by mcp-go). A
// client that declared task support may call an asking tool with
// params.task: the call returns a task at once, the client polls tasks/get
// and fetches the outcome with tasks/result when the human has answered,
// and tasks/cancel withdraws the window. No client wait profile applies to
// such a call: it waits for the question's own countdown, at most taskWait.
// A call without params.task is served as before (progress, "call again").
//
// mcp-go (from v1.6.0) runs a task's handler under a context that keeps the
// tools/call's values, not its end, and cancels it on tasks/cancel and when
// the task's TTL runs out. What it still leaves to the shim (each checked
// against the version TestMCPGoWorkaroundsVerified names, each with its
// probe in upstream_test.go and its request in docs/upstream/):
//   - A TTL beyond the range of a time.Duration (2^63-1 ns, some 292
//     years in ms) becomes a negative sleep: the task is forgotten at once,
//     its handler cancelled. A task without a TTL is kept forever. So every
//     task gets one, bounded (boundTaskCall, maxTaskTTL).
//   - It refuses tasks/result to a 2026-07-28 client (the removed methods),
//     so such a client's task could never be collected: its params.task is
//     dropped and the call served as an ordinary one (progress, "call
//     again"). The 2026-07-28 tasks extension (io.modelcontextprotocol/tasks,
//     SEP-2663: tasks/get carrying the result, tasks/update) is not in
//     mcp-go v1.6.0.
//   - Its tasks live in the shim's memory, under random IDs. After a
//     restart of the shim a tasks/get for an old task fails ("task not
//     found"); the question, though, stays open in the app under its
//     stable ID (the shim hands it off as it exits: taskhandoff.go), so
//     the same call made again (with or without params.task) reattaches to
//     it or collects its kept answer, as the call-again path does.

// taskWait bounds the wait of a call run as a task; the question's own
// countdown normally ends it first.
const taskWait = 24 * time.Hour

// maxTaskTTL bounds how long a task is kept (params.task.ttl, in ms): the
// longest wait and an hour to collect the result. A longer TTL, a
// negative one or none is this (see above). The task's ttl tells the
// client what it got, as the revision lets a server decide.
const maxTaskTTL = taskWait + time.Hour

// boundTaskCall is a BeforeCallTool hook: a call that asks for a task gets
// its TTL bounded (maxTaskTTL); a stateless client's params.task is
// dropped.
func boundTaskCall(ctx context.Context, _ any, req *mcp.CallToolRequest) {
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
}

// runsAsTask reports whether mcp-go runs the call as a task: it asked for
// one (boundTaskCall has dropped a stateless client's ask) of a tool that
// supports them. mcp-go runs a call with params.task to a tool without
// task support as an ordinary call.
func runsAsTask(tool mcp.Tool, req mcp.CallToolRequest) bool {
	return req.Params.Task != nil && tool.Execution != nil &&
		(tool.Execution.TaskSupport == mcp.TaskSupportOptional || tool.Execution.TaskSupport == mcp.TaskSupportRequired)
}

// withTaskSupport marks a tool as callable as a task (or not).
func withTaskSupport(t mcp.Tool) mcp.Tool {
	t.Execution = &mcp.ToolExecution{TaskSupport: mcp.TaskSupportOptional}
	return t
}
