package mcpshim

import (
	"context"
	_ "embed"
	"errors"
	"fmt"
	"io"
	"log/slog"

	"feedback/ipc"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// notify: a one-way message from the agent (wire.Message). It never opens
// a window and returns at once: a desktop notification, a line in the
// tray's "Messages" and an entry in History.

const notifyName = "notify"

//go:embed schemas/notify.json
var notifySchema []byte

// notifyOutputSchema is the shape of the structuredContent every success returns
// (checkOutput in the tests holds every result to it).
//
//go:embed schemas/notify_output.json
var notifyOutputSchema []byte

var notifyTool = dialect{
	tool: mcp.Tool{
		Name: notifyName,
		Description: "Tell the user something that needs no answer — a milestone (\"tests green, PR opened\"), that you finished, or that you are blocked — " +
			"as a desktop notification, also listed in the feedback app's tray and History. Returns at once: it does not wait for the user, and the user cannot reply through it. " +
			"When you need an answer, use an asking tool (ask_confirm, ask_choice, interactive_feedback) instead. " +
			"Send one at a meaningful moment, not one per step: each client may send 5 in a row, then one every 12 s (all clients together 10, then one every 3 s); the rest are not shown.",
		RawInputSchema:  notifySchema,
		RawOutputSchema: notifyOutputSchema,
		Annotations:     annotations("Notify the user", false),
	},
	prepare: prepareNotify,
}

func prepareNotify(args map[string]any, _ callEnv) (prepared, error) {
	text, _, err := readString(args, "message", strArg{required: true, trim: true, max: wire.MaxMessageRunes})
	if err != nil {
		return prepared{}, err
	}
	title, _, err := readString(args, "title", strArg{trim: true, max: wire.MaxMessageTitleRunes})
	if err != nil {
		return prepared{}, err
	}
	urgent, _, err := boolField(args, "urgent", "urgent")
	if err != nil {
		return prepared{}, err
	}
	return prepared{message: &wire.Message{Text: text, Title: title, Urgent: urgent}}, nil
}

// messenger is what sends a message: the app's *ipc.Client.
type messenger interface {
	Message(ctx context.Context, m wire.Message) (ipc.Receipt, error)
}

// notifyResult is the structuredContent of a notify result.
type notifyResult struct {
	// Status is "shown" (a notification showed it), "recorded" (in
	// History and the tray only: do not disturb is on, or the desktop has
	// no notification server) or "not_shown" (rate limited).
	Status  string `json:"status"`
	ID      string `json:"id,omitempty"`
	Message string `json:"message"`
}

// tell sends m to the app (starting it if need be) and renders the
// receipt. Failures are results the agent reads and moves on from: a
// message is never worth a retry loop.
func (h *handler) tell(ctx context.Context, m wire.Message, log *slog.Logger) *mcp.CallToolResult {
	if h.connect == nil {
		return mcp.NewToolResultError("The feedback app is not reachable: this MCP server has no connection configured. Tell the user in chat instead.")
	}
	var rec ipc.Receipt
	a, err := h.connect(ctx)
	if err == nil {
		if c, ok := a.(io.Closer); ok {
			defer c.Close()
		}
		msg, ok := a.(messenger)
		if !ok { // not reached: the app's client sends messages
			err = errors.New("this connection cannot send messages")
		} else {
			rec, err = msg.Message(ctx, m)
		}
	}
	switch {
	case errors.Is(err, &wire.Error{Code: wire.CodeRateLimited}):
		log.Info("message not shown: rate limited", "err", err)
		var we *wire.Error
		errors.As(err, &we)
		return jsonToolResult(notifyResult{Status: "not_shown", Message: "Not shown to the user: " + we.Message +
			". Do not resend it now; carry on with your work, and send fewer, more meaningful messages."}, false)
	case err != nil:
		log.Warn("message not delivered", "err", err)
		return jsonToolResult(notifyResult{Status: "not_shown", Message: fmt.Sprintf(
			"Not shown to the user: the feedback app could not be reached (%s). Do not retry; tell the user in chat if it matters.", failureCause(err))}, false)
	case rec.Notified:
		log.Info("message shown", "id", rec.ID)
		return jsonToolResult(notifyResult{Status: "shown", ID: rec.ID, Message: "Shown to the user as a desktop notification and recorded in the feedback app's History. No answer will come; carry on."}, false)
	default:
		log.Info("message recorded without a notification", "id", rec.ID)
		return jsonToolResult(notifyResult{Status: "recorded", ID: rec.ID, Message: "Recorded in the feedback app's tray and History; no desktop notification was shown (do not disturb is on, or there is no notification server). No answer will come; carry on."}, false)
	}
}
