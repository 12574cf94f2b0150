package mcpshim

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"feedback/internal/settings"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// A dialect is one tool vocabulary the shim speaks: how the tool is
// described in tools/list, and how one call's arguments become an
// wire.Question. Adding a dialect is adding one file that defines a dialect
// and one entry in the tools table.
type dialect struct {
	// tool is the tools/list entry (name, description, raw input schema,
	// annotations).
	tool mcp.Tool
	// prepare normalises the arguments of one call. It is total: it never
	// panics, whatever the arguments. An *ArgError is for the agent to fix;
	// on success the Question has an ID and a Source and passes Validate.
	prepare func(args map[string]any, env callEnv) (prepared, error)
}

// callEnv is what a dialect may read besides the arguments.
type callEnv struct {
	settings settings.Settings
	// notify posts a callback_url notification in the background; it never
	// blocks and its failures are only logged.
	notify func(webhook)
	// client is the MCP client's name (initialize's clientInfo), per call.
	client string
	// session is Options.Session: the calling session.
	session string
	// elicitation: the client declared form elicitation, per call.
	elicitation bool
	// dir is the shim's working directory: the project a client such as
	// Claude Code starts it in (permission_prompt's "always allow" rules).
	dir string
	// log logs a message with key/value pairs (nil: nothing).
	logf func(msg string, args ...any)
	// tellUser sends the user a message through the app in the
	// background (permission_prompt.go); nil: none can be sent.
	tellUser func(wire.Message)
	// granted are the rules the user just chose to always allow
	// (permission_prompt.go); nil: none are held.
	granted *grants
}

// log logs through logf, if set.
func (e callEnv) log(msg string, args ...any) {
	if e.logf != nil {
		e.logf(msg, args...)
	}
}

// questionID is the stable ID of q asked through tool by this call's
// client in this session (see stableQuestionID). Dialects that answer
// "call again" use it, so that a call made again joins the window still
// open.
func (e callEnv) questionID(tool string, q wire.Question) string {
	return stableQuestionID(tool, e.client, e.session, q)
}

// prepared is a normalised call, ready to be asked.
type prepared struct {
	question wire.Question
	// attachOnly asks without opening a window (wire.Ask.AttachOnly): the
	// question has only its ID and Source.
	attachOnly bool
	// render turns the app's Answer into the tool result. It is total.
	render func(wire.Answer) *mcp.CallToolResult
	// ignored names the compatibility arguments that were given and ignored,
	// for the debug log.
	ignored []string
	// fail, when set, renders an infrastructure failure (the app cannot be
	// reached or started, the connection broke, the app refused) in the
	// dialect's own result shape; nil uses the generic isError text. It is
	// never called for a call the client cancelled.
	fail func(err error) *mcp.CallToolResult
	// immediate, when set, is the result at once: nothing is asked.
	immediate *mcp.CallToolResult
	// message, when set, is sent to the app as a one-way message
	// (notify.go): nothing is asked.
	message *wire.Message
	// wait, when positive, bounds the wait for the answer further than the
	// client's wait profile does (clientWait).
	wait time.Duration
	// pending is the "not answered yet — call again" result, returned when
	// the wait runs out while the window stays open: the app keeps it, and
	// its answer, for the call made again with the same ID. Its argument
	// is what the app said with "pending": the question's CallerData (kept
	// by the app, so a restarted shim has it too). nil uses a generic text.
	pending func(wire.Answer) *mcp.CallToolResult
	// chat, when set, is the result when the app cannot show the question
	// and the client offers no form (or its form failed): the question and
	// its options for the agent to ask in chat. nil uses fail.
	chat func(cause error) *mcp.CallToolResult
	// elicited, when set, renders an Answer collected through the client's
	// own form (elicitation) instead of render.
	elicited func(wire.Answer) *mcp.CallToolResult
}

// tools is the table of every dialect, in tools/list order.
var tools = []dialect{
	interactiveFeedback,
	askHuman,
	askHumanResult,
	userInteract,
	askUserQuestion,
	askChoice,
	askConfirm,
	askText,
	askMultiSelect,
	notifyTool,
	permissionPrompt,
}

// ToolNames returns the names of the tools the shim can offer, in the order
// tools/list shows them.
func ToolNames() []string {
	names := make([]string, len(tools))
	for i, d := range tools {
		names[i] = d.tool.Name
	}
	return names
}

// annotations are the hints every tool of the shim declares: asking the
// user changes nothing (read-only, not destructive), and asking again asks
// again (not idempotent). openWorld is set for a tool that reaches beyond
// the user and the local app (ask_human's callback_url).
func annotations(title string, openWorld bool) mcp.ToolAnnotation {
	return mcp.ToolAnnotation{
		Title:           title,
		ReadOnlyHint:    mcp.ToBoolPtr(true),
		DestructiveHint: mcp.ToBoolPtr(false),
		IdempotentHint:  mcp.ToBoolPtr(false),
		OpenWorldHint:   mcp.ToBoolPtr(openWorld),
	}
}

// jsonToolResult is the result of the dialects that answer in JSON: v as
// structuredContent and as one text block holding the same JSON (with <, >
// and & as they are), for clients that read only the text. A v that cannot
// be encoded (not reached: results are built from strings, numbers and
// decoded JSON) is an isError text saying so.
func jsonToolResult(v any, isError bool) *mcp.CallToolResult {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return mcp.NewToolResultError(fmt.Sprintf("The result could not be encoded as JSON (%v); this is a bug in the feedback MCP server. Ask the user in chat instead.", err))
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(strings.TrimSuffix(buf.String(), "\n"))},
		StructuredContent: v,
		IsError:           isError,
	}
}
