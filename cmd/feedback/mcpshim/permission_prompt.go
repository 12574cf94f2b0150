package mcpshim

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"feedback/cmd/feedback/setup"
	"feedback/internal/approval"
	"feedback/internal/i18n"
	"feedback/internal/pathlinks"
	"feedback/ipc/wire"

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
	r := approval.Request{Client: env.client, Dir: env.dir, Tool: tool, Input: input, Lstat: os.Lstat, Resolve: pathlinks.Resolve}
	if env.dir != "" {
		r.Project = filepath.Base(env.dir)
	}
	// The user just chose to always allow this very call: their answer
	// stands until Claude Code has loaded the rule (alwaysHold).
	if env.granted.holds(env.dir, approval.Rule(r)) {
		return prepared{immediate: mcp.NewToolResultText(approval.Decision{Allow: true}.ToolResult(input))}, nil
	}
	q := approval.Question(r, wire.NewID(), 0)
	deny := func(msg string) *mcp.CallToolResult {
		return mcp.NewToolResultText(approval.Decision{Message: msg}.ToolResult(input))
	}
	render := func(a wire.Answer) *mcp.CallToolResult {
		d := approval.Decide(a, r)
		if d.Always != "" {
			saveRule(env, r, d.Always)
			if env.granted != nil {
				env.granted.add(env.dir, d.Always)
			}
		}
		return mcp.NewToolResultText(d.ToolResult(input))
	}
	chat := func(cause error) *mcp.CallToolResult {
		return deny(fmt.Sprintf("No approval window can be shown here (%s), so the tool call was not approved. Ask the user in chat whether to go ahead.", failureCause(cause)))
	}
	if approval.OwnTool(tool) { // a question to the user needs no approval of the user's first
		return prepared{question: q, immediate: mcp.NewToolResultText(approval.Decision{Allow: true}.ToolResult(input))}, nil
	}
	return prepared{
		question: q,
		render:   render,
		// A form the client closed by itself asked nobody: not the
		// user's closing of the approval. A decline stays the user's no.
		elicited: func(a wire.Answer) *mcp.CallToolResult {
			if cause := autoCancelled(a); cause != nil {
				return chat(cause)
			}
			return render(a)
		},
		pending: func(wire.Answer) *mcp.CallToolResult {
			return deny("The user did not answer within the time this call may wait, so the tool call was not approved. Do not retry it at once.")
		},
		fail: func(err error) *mcp.CallToolResult {
			return deny(fmt.Sprintf("The approval window could not be shown (%s), so the tool call was not approved. Ask the user in chat whether to go ahead.", failureCause(err)))
		},
		chat: chat,
	}, nil
}

// saveRule saves the rule the user chose to always allow in the project's
// settings.local.json (setup.AllowRule). When it cannot, the call is still
// allowed — the user allowed it — and the user is told, through the app (a
// notification, the tray's Messages, History), that the rule was not saved;
// the shim's log has it too.
func saveRule(env callEnv, r approval.Request, rule string) {
	path, err := filepath.Join(env.dir, filepath.FromSlash(setup.LocalSettings)), error(nil)
	if env.dir == "" {
		err = errors.New("the project's directory is not known")
	} else {
		path, _, err = setup.AllowRule(env.dir, rule, time.Now())
	}
	if err == nil {
		return
	}
	env.log("the rule the user always allows was not saved", "rule", rule, "err", err)
	if env.tellUser == nil {
		return
	}
	cut := func(s string, max int) string { // the message's text is at most wire.MaxMessageRunes
		if len(s) > max {
			s = s[:max] + "…"
		}
		return strings.ToValidUTF8(s, "?")
	}
	env.tellUser(wire.Message{Client: env.client, Project: r.Project,
		Title: i18n.T("approval.not_saved.title"),
		Text:  i18n.T("approval.not_saved", map[string]any{"Rule": cut(rule, 500), "Path": cut(path, 300), "Err": cut(err.Error(), 600)})})
}

// tellUser sends m to the app in the background, starting it if need be;
// what becomes of it is logged (tell).
func (h *handler) tellUser(m wire.Message) {
	go func() {
		ctx, cancel := context.WithTimeout(h.base, 30*time.Second)
		defer cancel()
		h.tell(ctx, m, h.log.With("tool", permissionPromptName))
	}()
}
