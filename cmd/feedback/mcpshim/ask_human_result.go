package mcpshim

import (
	_ "embed"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// ask_human_result, the companion of ask_human: it collects the choice of a
// request that answered pending. It never opens a window (attach-only).
const maxResultWaitSeconds = 300

//go:embed schemas/ask_human_result.json
var askHumanResultSchema []byte

var askHumanResult = dialect{
	tool: mcp.Tool{
		Name: askHumanResultName,
		Description: "Get the human's choice for an ask_human request that returned status \"pending\". " +
			"Waits up to wait_seconds, then returns the same result shape as ask_human: answered, declined, expired, or pending again. " +
			"A choice is returned once; an unknown or already collected request_id is an error.",
		RawInputSchema:  askHumanResultSchema,
		RawOutputSchema: askHumanOutputSchema, // ask_human's results
		// It posts ask_human's callback_url when it learns the outcome.
		Annotations: annotations("Get a human's choice", true),
	},
	prepare: prepareAskHumanResult,
}

// textUnknownRequest is the isError text for a request_id the app has
// neither open nor kept.
const textUnknownRequest = "unknown or already collected request_id %q: no ask_human request with this id is open, and its answer (if any) was already returned. Call ask_human again if you still need a decision."

func prepareAskHumanResult(args map[string]any, env callEnv) (prepared, error) {
	id, wait, err := normalizeAskHumanResult(args, env)
	if err != nil {
		return prepared{}, err
	}
	return prepared{
		question:   wire.Question{ID: id, Source: askHumanName},
		attachOnly: true,
		wait:       wait,
		// The request is the one the app kept with the question and
		// returned (its CallerData), whichever shim asked it.
		pending: func(a wire.Answer) *mcp.CallToolResult { return humanPending(id, requestOf(id, a.CallerData), a) },
		render:  func(a wire.Answer) *mcp.CallToolResult { return settleHuman(a, id, requestOf(id, a.CallerData), env) },
		fail: func(err error) *mcp.CallToolResult {
			if errors.Is(err, &wire.Error{Code: wire.CodeNotFound}) {
				return mcp.NewToolResultError(fmt.Sprintf(textUnknownRequest, id))
			}
			return mcp.NewToolResultError(fmt.Sprintf("The feedback app could not be asked about request_id %q (%s). Nothing was collected: the request is still pending, call ask_human_result again later.", id, failureCause(err)))
		},
	}, nil
}

// normalizeAskHumanResult returns the request id and how long to wait:
// wait_seconds from 0 to 300 (a fraction rounded up; 0 checks and returns
// within a second), default Settings.PendingWaitSeconds capped at 300.
func normalizeAskHumanResult(args map[string]any, env callEnv) (string, time.Duration, error) {
	id, _, err := readString(args, "request_id", strArg{})
	if err != nil {
		return "", 0, err
	}
	id = strings.TrimSpace(id)
	if id == "" {
		return "", 0, argErrorf("request_id", "required: the request_id of a pending ask_human result")
	}
	if len(id) > wire.MaxIDBytes {
		return "", 0, argErrorf("request_id", "at most %d bytes, got %d; pass the request_id exactly as ask_human returned it", wire.MaxIDBytes, len(id))
	}
	secs := min(max(env.settings.PendingWaitSeconds, 1), maxResultWaitSeconds)
	w, present, err := numberArg(args, "wait_seconds")
	if err != nil {
		return "", 0, err
	}
	if present {
		if w < 0 || w > maxResultWaitSeconds {
			return "", 0, argErrorf("wait_seconds", "must be from 0 to %d, got %v", maxResultWaitSeconds, w)
		}
		secs = max(int(math.Ceil(w)), 1)
	}
	return id, time.Duration(secs) * time.Second, nil
}
