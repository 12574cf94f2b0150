// Package mcpshim is the MCP stdio server behind `feedback mcp`: it offers
// human-feedback tools to an agent's MCP client, turns each tool call into an
// ipc.Question, hands it to the feedback app through an Asker, and renders the
// app's ipc.Answer as MCP content. It never imports the GUI toolkit, and it
// never writes anything but protocol messages to its output: logs go to
// Options.Logger.
//
// # Tools
//
// Each tool dialect lives in one file with its input schema (a raw JSON
// schema embedded from schemas/<tool>.json), a normaliser (arguments →
// ipc.Question) and a renderer (ipc.Answer → tool result), and is registered
// in the table of tools.go. Only interactive_feedback exists today.
//
// # Errors
//
// A call whose arguments the agent can fix returns a result with isError set
// and a message naming the field, the rule and the fix. So does a call the
// app cannot serve (the app is not reachable, or refuses the question with an
// ipc.Error whose code is kept in the text), because the agent must see it.
// A call cancelled by the client (notifications/cancelled, end of input)
// returns the context's error and no result.
//
// # interactive_feedback result format (stable)
//
// The result holds one text block and structuredContent. The text block is
// exactly one of the following.
//
// Answered, with each section present only when it is not empty:
//
//	Selected options:
//	- <label>
//	- <label>
//
//	User reply:
//	<text>
//
// Answered with neither an option nor a reply:
//
//	The user submitted without selecting an option or typing a reply.
//
// A question_type "yesno" answer is an answered result whose reply is "yes"
// or "no":
//
//	User reply:
//	yes
//
// Dismissed (the user closed the window):
//
//	The user dismissed the question without answering. Do not assume approval; ask again later or continue without it.
//
// Timeout (the window's countdown ran out):
//
//	The user has not answered yet: the window's countdown ran out before a reply. This is not an answer. Call interactive_feedback again (same arguments) to keep waiting.
//
// When feedback_placeholder was clamped, a blank line and this note follow:
//
//	Note: feedback_placeholder was truncated from <n> to 200 characters.
//
// Dismissed and timeout results are normal outcomes, not errors (isError is
// false), and never carry a reply. structuredContent is
//
//	{"status": "answered" | "dismissed" | "timeout",
//	 "selected_options": ["<label>", ...],   // always an array, [] when none
//	 "user_reply": "<text>",                 // "" when none
//	 "question_id": "<id>",
//	 "elapsed_ms": <n>}
//
// plus, when feedback_placeholder was clamped, "placeholder_truncated": true,
// "placeholder_original_length": <characters> and "placeholder_max_length":
// 200. No outputSchema is declared.
package mcpshim
