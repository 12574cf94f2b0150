// Package mcpshim is the MCP stdio server behind `feedback mcp`: it offers
// human-feedback tools to an agent's MCP client, turns each tool call into an
// wire.Question, hands it to the feedback app through an ipc.Asker, and renders the
// app's wire.Answer as MCP content. It never imports the GUI toolkit, and it
// never writes anything but protocol messages to its output: logs go to
// Options.Logger.
//
// # Tools
//
// Each tool dialect lives in one file with its input schema (a raw JSON
// schema embedded from schemas/<tool>.json), a normaliser (arguments →
// wire.Question) and a renderer (wire.Answer → tool result), and is registered
// in the table of tools.go.
//
// Options.Tools (the --tools flag), else Settings.Tools (FEEDBACK_TOOLS),
// selects the tools offered; when both are empty every tool is offered.
// Selecting ask_human also offers ask_human_result. An unknown name is an
// *UnknownToolError, which names the valid tools, before anything is served.
//
// # Errors
//
// A call whose arguments the agent can fix returns a result with isError set
// and a message naming the field, the rule and the fix. So does a call the
// app cannot serve (the app is not reachable, or refuses the question with an
// ipc.Error whose code is kept in the text), because the agent must see it.
// A call cancelled by the client (notifications/cancelled, end of input)
// returns the context's error and no result, and the client gets no
// response for it (the stdio stream drops the one mcp-go writes). Dialects
// with their own failure shape say so in docs/tool-results.md:
// interactive_feedback returns Settings.ResubmitPrompt, user_interact its
// envelope.
//
// # Results
//
// What every outcome returns in every dialect — notes from the user,
// snoozes, away, approvals, long waits (call again, progress, tasks), faults,
// and each dialect's result format — is the contract documented in
// docs/tool-results.md; the tests of this package (golden results and
// schema snapshots) hold the code to it.
package mcpshim
