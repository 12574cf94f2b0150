package mcpshim

import (
	_ "embed"
	"fmt"
	"path/filepath"
	"time"

	"feedback/approval"
	"feedback/setup"
	"feedback/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// permission_prompt: Claude Code's permission prompt tool
// (`claude --permission-prompt-tool mcp__feedback__permission_prompt`).
// The client calls it with {tool_name, input, tool_use_id} when its rules
// do not decide a tool call; the user answers in the approval window, and
// the result is one text block holding the JSON the client reads:
// {"behavior": "allow", "updatedInput": input} or {"behavior": "deny",
// "message": …}. Anything but Allow — a timeout, a closed window, a
// failure — denies.

const permissionPromptName = "permission_prompt"

//go:embed schemas/permission_prompt.json
var permissionPromptSchema []byte

var permissionPrompt = dialect{
	tool: mcp.Tool{
		Name: permissionPromptName,
		Description: "Claude Code's permission prompt tool: pass --permission-prompt-tool mcp__feedback__permission_prompt and the user approves or denies each tool call in the feedback window. " +
			"Returns {\"behavior\":\"allow\",\"updatedInput\":…} or {\"behavior\":\"deny\",\"message\":…} as JSON text. Not for agents to call on their own.",
		RawInputSchema: permissionPromptSchema,
		Annotations:    annotations("Approve a tool call", false),
	},
	prepare: preparePermissionPrompt,
}

func preparePermissionPrompt(args map[string]any, env callEnv) (prepared, error) {
	tool, _, err := readString(args, "tool_name", strArg{required: true, trim: true, max: 200})
	if err != nil {
		return prepared{}, err
	}
	input, ok := args["input"].(map[string]any)
	if v, given := args["input"]; given && v != nil && !ok {
		return prepared{}, argErrorf("input", "must be a JSON object: the tool call's input")
	}
	if input == nil {
		input = map[string]any{}
	}
	r := approval.Request{Client: env.client, Dir: env.dir, Tool: tool, Input: input}
	if env.dir != "" {
		r.Project = filepath.Base(env.dir)
	}
	q := approval.Question(r, wire.NewID(), 0)
	deny := func(msg string) *mcp.CallToolResult {
		return mcp.NewToolResultText(approval.Decision{Message: msg}.ToolResult(input))
	}
	render := func(a wire.Answer) *mcp.CallToolResult {
		d := approval.Decide(a, r)
		if d.Always != "" && env.dir != "" {
			if _, _, err := setup.AllowRule(env.dir, d.Always, time.Now()); err != nil {
				env.log("the rule the user always allows was not saved", "rule", d.Always, "err", err)
			}
		}
		return mcp.NewToolResultText(d.ToolResult(input))
	}
	return prepared{
		question: q,
		render:   render,
		elicited: render,
		pending: func(wire.Answer) *mcp.CallToolResult {
			return deny("The user did not answer within the time this call may wait, so the tool call was not approved. Do not retry it at once.")
		},
		fail: func(err error) *mcp.CallToolResult {
			return deny(fmt.Sprintf("The approval window could not be shown (%s), so the tool call was not approved. Ask the user in chat whether to go ahead.", failureCause(err)))
		},
		chat: func(cause error) *mcp.CallToolResult {
			return deny(fmt.Sprintf("No approval window can be shown here (%s), so the tool call was not approved. Ask the user in chat whether to go ahead.", failureCause(cause)))
		},
	}, nil
}
