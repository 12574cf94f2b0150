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
// response for it (the stdio stream drops the one mcp-go writes). Dialects with their own failure
// shape say so below: interactive_feedback returns Settings.ResubmitPrompt,
// user_interact its envelope.
//
// # Notes from the user
//
// Every result of an outcome the app delivered (answered, dismissed or
// timed out, in every dialect; never a "call again" result) that came with
// notes the user wrote for this client (wire.Answer.Notes, the tray's
// "Note for an agent…") ends with one text block per note:
//
//	Note from the user (sent on their own, not an answer to this question): <note>
//
// and, when the result has structuredContent, "user_notes": ["<note>", ...]
// in it (in a text block mirroring it too). Without notes neither appears.
//
// # Outcomes that are not the user's answer
//
// What an agent is told after a timeout, a snooze or while the user is away
// is one table (nextsteps.go), and always a result, never an isError:
//   - a snoozed question (wire.Answer.Snooze on a pending outcome): the
//     dialect's "call again" result, then one text block saying until when
//     (or until the user is back) and that it is no answer;
//   - the user away with the away setting "proceed" (wire.StatusAway):
//     every dialect's own shape with status "away" (interactive_feedback,
//     ask_user_question and the ask_choice family; "declined" for
//     ask_human, a failed envelope for user_interact), "away": true in its
//     structuredContent, and the table's words: proceed with care, record
//     what was decided.
//
// An answer given in the question's desktop notification says so:
// "via": "notification" in the structuredContent of interactive_feedback,
// ask_user_question and the ask_choice family.
//
// # notify and permission_prompt
//
// notify (notify.go) asks nothing: it sends a wire.Message to the app and
// returns at once {"status": "shown" | "recorded" | "not_shown", "id",
// "message"} as JSON text and structuredContent, never an isError (a message
// is never worth a retry). permission_prompt (permission_prompt.go) is
// Claude Code's --permission-prompt-tool: one text block holding
// {"behavior": "allow", "updatedInput": <input>} or {"behavior": "deny",
// "message": "…"}; anything but the user's Allow denies.
//
// # Long waits
//
// Every call waits at most its client's wait (initialize's clientInfo.name,
// matched case-insensitively by substring, first row first):
//
//	client name contains            wait    why
//	claude-code                     30 min  stdio calls have no per-request timer (MCP_TOOL_TIMEOUT ≈ 28 h)
//	claude-ai, claude desktop       50 s    Claude Desktop: about 60 s for stdio (4 min in newer builds)
//	cursor                          50 s    no documented limit: assume 60 s
//	visual studio code, vscode      4 min   Copilot cancels MCP calls at 5 min; progress does not extend it
//	copilot                         50 s    Copilot CLI, JetBrains, Eclipse: 60 s
//	codex                           50 s    tool_timeout_sec defaults to 60 s
//	gemini                          9 min   an MCP server's timeout defaults to 10 min
//	windsurf, cascade               50 s    no documented limit: assume 60 s
//	cline, roo                      50 s    a server's timeout defaults to 60 s
//	zed                             50 s    context_server_timeout defaults to 60 s
//	opencode                        50 s    about 60 s unless experimental.mcp_timeout is raised
//	goose                           25 s    300 s documented, but sessions kept the old 30 s
//	anything else                   50 s    under the TypeScript SDK's 60 s request timeout
//
// Settings.WaitSeconds overrides a row per client (a key equal to the name,
// else the longest key the name contains); Settings.MaxWaitSeconds
// (FEEDBACK_MAX_WAIT), when positive, caps every client. ask_human and
// ask_human_result wait the shorter of their own wait and this.
//
// When the wait runs out the call returns the dialect's "not answered yet —
// call again" result (below), never an answer, and the window stays open.
// Questions are identified by a hash of the tool, the client name, the
// session (Options.Session: the client process that started the shim) and
// the normalised question (stableQuestionID), so calling again with the
// same arguments from the same session joins the same window, draft and
// attachments intact (another session never gets its answer); once
// answered the ID is free, and the same question asked later opens a new
// window. The app, not the shim, keeps such a window (the call asks it to
// wait at most the client's wait, wire.Ask.Wait, and the app ends
// the call "pending"): for an hour, or its countdown if longer, for the
// caller to come back, across a restart of the shim (the client restarted
// it) and of the app (it shows the window again); an outcome given
// meanwhile, a countdown that ran out included, is kept by the app and
// returned at once, once, to the next call with that ID. A call with the
// same arguments made while another call still waits on the identical
// question (another session) opens a window of its own. A one-shot client
// (a new client process, so a new session, for every call) is served too:
// each ask carries the question's key — the tool, client, project and
// normalised question, without the session (questionKey) — and the session
// (wire.Ask.Key, Session), and once the session that asked has ended the
// app hands its kept answer, or its window kept open, to the next ask with
// that key. ask_human keeps
// its own pending / ask_human_result protocol on the same rules.
//
// A call that carries a progressToken gets notifications/progress every
// 10 s while it waits (Options.ProgressInterval): progress is the seconds
// waited, message "waiting for the user — window open 40 s" (or "form
// open", or "waiting for the feedback window to open"). Progress is written
// through the stdio stream at once, and the heartbeat is stopped before the
// result is returned: no progress follows the result on the wire.
//
// A call the client cancels (notifications/cancelled, end of input)
// withdraws its window, unless another call still waits on it; a window
// whose call already returned pending stays, for the caller to come back.
//
// # Faults
//
// When the app goes away while a question is open (ipc.ErrAppGone), the
// shim reconnects, which starts a new app, and asks the same question,
// same ID, again: at most 3 times, 0.25, 1 and 2 s apart, each logged; the
// app restores the draft it saved under that ID. Then the dialect's
// failure result.
//
// # No GUI
//
// When the app cannot be reached or started (launch.ErrNoDisplay: no
// DISPLAY or WAYLAND_DISPLAY), or refuses with ipc.CodeNoDisplay, a client
// that declared elicitation is asked through elicitation/create: one flat
// form per question, a property per prompt ("answer", or "q1".."q4" for
// several): yes/no and exclusive options as a string enum, checkboxes as an
// array of that enum, a reply box or an "Other" option's text as a string
// ("answer_text", "q1_text"), recommended options as defaults. The form
// waits at most what is left of the client's wait. Accept is rendered as
// the window's answer would be; decline and cancel as dismissed (for the
// ask_choice family: decline is declined, cancel is cancelled; via
// "elicitation"). A decline under 400 ms (autoRejectMS) is no person's: in
// every dialect it is the "ask in chat" result below, with the cause (for
// the ask_choice family with auto_reject_suspected, as seed 004 has it).
// Without elicitation, or when the form fails or times
// out, the call returns at once the dialect's "ask in chat" result, which
// holds the question and its options:
//
//	interactive_feedback  status "needs_user_input"; text starts "The feedback window cannot be shown (<cause>)."
//	ask_user_question     status "needs_user_input"; every answer "unanswered"
//	ask_choice family     status "needs_user_input", via and fallback "chat"
//	ask_human             status "needs_user_input", message with the choices and their ids
//	user_interact         outcome "pending" with question (seed 003's MCP surface)
//
// None of these is an isError result. An answer the app sent for the user
// (wire.Answer.Auto: the countdown ran out and their draft was submitted)
// gets a last text block that says so.
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
// Pending (the client's wait ran out; the window is still open):
//
//	The user has not answered yet; the question is still open in the feedback window, with anything they typed. This is not an answer. Call interactive_feedback again with the same arguments now to keep waiting for the reply.
//
// When feedback_placeholder was clamped, a blank line and this note follow:
//
//	Note: feedback_placeholder was truncated from <n> to 200 characters.
//
// When the user attached images, an answered text ends with a section
//
//	Attached images: <n>
//
// and each image follows the text block as an MCP image block (base64 data,
// image/png or image/jpeg), in order. When Settings.PromptSuffix is not
// empty, it is the last block of every answered result, a text block of its
// own. Dismissed and timeout results have neither.
//
// A service failure (the app cannot be reached or started, the connection
// broke, the app refused the question) is an isError result whose text is
// Settings.ResubmitPrompt with every "{error}" replaced by the cause (for a
// refusal "the feedback app refused the question (<code>): <message>").
//
// Dismissed and timeout results are normal outcomes, not errors (isError is
// false), and never carry a reply. structuredContent is
//
//	{"status": "answered" | "dismissed" | "timeout" | "pending" | "needs_user_input",
//	 "selected_options": ["<label>", ...],   // always an array, [] when none
//	 "user_reply": "<text>",                 // "" when none
//	 "images": <n>,                          // attached images, 0 when none
//	 "question_id": "<id>",
//	 "elapsed_ms": <n>}
//
// plus, when feedback_placeholder was clamped, "placeholder_truncated": true,
// "placeholder_original_length": <characters> and "placeholder_max_length":
// 200. The outputSchema declares this object (schemas/
// interactive_feedback_output.json); every success carries it.
//
// # ask_human and ask_human_result result format (stable)
//
// ask_human (seed 002) shows the content and 2-4 choices as one
// single-choice prompt, the recommended choice pre-selected and marked
// "Recommended by the agent", with the agent, decision_reason,
// consequence_of_wrong_choice and confidence (as a percentage) as context
// lines. content_type text is shown verbatim (Markdown punctuation escaped,
// line breaks kept), markdown as is, html as the Markdown of its structure
// (headings, bold, italic, lists, quotes, code, tables, http(s) links; text
// escaped, scripts and styles dropped; never rendered as HTML), image as a
// Markdown image of a data:image/… URI or an absolute path (an http(s) URL
// is only a link, never fetched). A title longer than 60 characters is shown
// in full above the content. Limits are the seed's and are never clamped: a
// longer agent_name (100), title (200), content (50 KB = 51200 bytes),
// choice id (50) or label (100), decision_reason or
// consequence_of_wrong_choice (500), fewer than 2 or more than 4 choices, a
// repeated id or label, a recommended_option that is not a choice id, a
// confidence outside 0..1, a timeout_seconds outside 1..86400 (a fraction is
// rounded up) or a callback_url that is not an absolute https URL is an
// isError result naming the field and the limit. Other arguments are
// ignored.
//
// The question's countdown is timeout_seconds (default 3600). The call
// waits Settings.PendingWaitSeconds; if the human has not acted, it returns
// pending and the window stays open (a call cancelled before withdraws
// it). The app keeps the choice ids, run_id, trace_id, metadata and
// callback_url with the question (wire.Question.CallerData, at most 64 KiB
// of JSON: larger metadata is an isError result), so ask_human_result
// renders the outcome in full from a restarted shim and after an app
// crash too. ask_human_result
// {request_id, wait_seconds 0..300 (default the pending wait)} attaches to
// that window without opening one: it returns the outcome, or pending again.
// The app hands an outcome out once; after that, or for an id it never
// knew, ask_human_result is an isError result starting with "unknown or
// already collected request_id".
//
// Both tools return one text block holding a JSON object, and the same
// object as structuredContent, which their outputSchema declares
// (schemas/ask_human_output.json):
//
//	{"status": "answered" | "pending" | "declined" | "expired" | "needs_user_input",
//	 "request_id": "<32 hex>",          // the question id; always
//	 "choice_id": "<id>",               // answered only
//	 "choice_label": "<label>",         // answered only
//	 "answered_at": "<RFC 3339, UTC>",  // answered only: window shown + elapsed
//	 "message": "<sentence>",           // declined and expired: what happened
//	 "next_step": "<sentence>",         // pending only: call ask_human_result
//	 "run_id": "…", "trace_id": "…", "metadata": {…}}  // when given
//
// declined is the window closed, or submitted with no choice; expired is
// the countdown reaching zero. Neither is an error. run_id, trace_id,
// metadata, callback_url and the label → id mapping are kept in one place,
// by the app with the question (its CallerData, across restarts of the
// shim and of the app), and returned with "pending" and with the outcome:
// ask_human_result rebuilds the request from there in any server process.
// Only an outcome the app returns without it (not reached) comes back with
// choice_label and no choice_id, says so in message, and posts no callback.
//
// When callback_url is set, the server POSTs, once per request and when it
// learns a final outcome (answered, declined or expired; from either tool),
// the JSON {"request_id", "status", "choice_id", "choice_label", "run_id",
// "trace_id", "metadata", "answered_at"} (every key present; "" or null when
// not applicable) with a 10 s timeout, following https redirects only. A
// failure is logged and never changes the tool result.
//
// # user_interact result format (stable)
//
// user_interact (seed 003) asks its question (Markdown) with a reply box.
// Every result is the seed's Result envelope as one JSON text block and as
// structuredContent:
//
//	{"outcome": "succeeded" | "failed",
//	 "answer": "<text>",                 // succeeded; omitted when empty
//	 "error": {"category": "validation" | "io" | "unknown", "message": "<sentence>"}}  // failed
//
// A missing, blank or non-string question (or a non-string answer) is
// failed/validation with isError, checked first, as the original does,
// even when an answer is given. Otherwise a non-empty answer argument is
// returned at once as succeeded, nothing asked. The user closing the window, the
// countdown running out, or the client's wait running out ("not answered
// yet; call user_interact again with the same question") is failed/unknown
// without isError: the tool worked but there is no answer. The connection
// broken or a refusal is failed/io with isError (validation when the app
// found the question invalid). "pending" with the question is returned
// only when no window can be shown (see No GUI).
//
// # ask_choice family (seed 004)
//
// When the client's wait runs out the result is status "timeout" with the
// message "Not answered yet: the question is still open in the feedback
// window, with anything the user typed." and a next_step to call the tool
// again with the same arguments (the output schema has no pending status).
// via is "window", "elicitation" or "chat"; fallback "none", "elicitation"
// or "chat".
//
// Options of ask_choice and ask_multi_select are labels or {label,
// description} objects (text and value alias label); answers carry the
// label. ask_confirm submitted without choosing answers its default
// ("answered", with a message saying the recommended answer stands), and
// is declined without one. ask_text's default is prefilled in the reply
// box (wire.Prompt.Prefill): submitted unchanged it is the answer.
//
// A window closed or dismissed without an answer (Escape, the close
// button, Quit) is "cancelled", as the original reports a dismissal;
// "declined" is an explicit refusal: the client's form declined, or a
// submission that answers nothing. ask_multi_select's min (0-25; omitted,
// 1, as in the original: one or more) and max
// (1-25, at most the number of options) are checked as the original does
// (min > max, max > options: isError naming the field), shown in the
// window as a "Choose" line, and a submission outside them is
// "invalid_response", not an answer. As in the original, an ask_text
// answer that is empty or only spaces is "invalid_response" too, and
// confirmed is null except in an answered ask_confirm.
package mcpshim
