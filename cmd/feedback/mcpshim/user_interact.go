package mcpshim

import (
	_ "embed"
	"errors"
	"fmt"
	"strings"
	"time"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// The user_interact dialect (reference tool: seed 003). Every result, errors
// included, is the seed's Result envelope; see the package comment.
const userInteractName = "user_interact"

//go:embed schemas/user_interact.json
var userInteractSchema []byte

// userInteractOutputSchema is the shape of the structuredContent every success returns
// (checkOutput in the tests holds every result to it).
//
//go:embed schemas/user_interact_output.json
var userInteractOutputSchema []byte

var userInteract = dialect{
	tool: mcp.Tool{
		Name: userInteractName,
		Description: "Ask the user a free-form question in a desktop window and wait for the typed answer. " +
			"Use it when you need information only the user has. Leave answer empty. " +
			"Result (JSON): {outcome: succeeded|failed, answer, error: {category: validation|io|unknown, message}}.",
		RawInputSchema:  userInteractSchema,
		RawOutputSchema: userInteractOutputSchema,
		Annotations:     annotations("Ask the user (free text)", false),
	},
	prepare: prepareUserInteract,
}

// Outcomes and error categories of seed 003.
const (
	outcomeSucceeded = "succeeded"
	outcomeFailed    = "failed"
	// outcomePending is returned only when no window can be shown: the
	// host asks the question itself and calls again with answer set.
	outcomePending = "pending"

	categoryValidation = "validation"
	categoryIO         = "io"
	categoryUnknown    = "unknown"
)

// interactResult is the seed's Result envelope.
type interactResult struct {
	Outcome  string         `json:"outcome"`
	Answer   string         `json:"answer,omitempty"`
	Question string         `json:"question,omitempty"` // only when pending
	Error    *interactError `json:"error,omitempty"`
}

type interactError struct {
	Category string `json:"category"`
	Message  string `json:"message"`
}

// Messages of failed results.
const (
	interactDismissed = "The user dismissed the question without answering. This is not an answer; do not assume one. Ask again later or continue without it."

	interactPending = "The user has not answered yet; the question is still open in the feedback window. This is not an answer; call user_interact again with the same question now to keep waiting."
)

func prepareUserInteract(args map[string]any, env callEnv) (prepared, error) {
	q, immediate := normalizeUserInteract(args)
	if immediate != nil {
		return prepared{immediate: immediate}, nil
	}
	q.ID = env.questionID(userInteractName, q)
	// The seed's own MCP surface: pending with the question, for the host
	// to ask and to call again with answer set.
	chat := func(error) *mcp.CallToolResult {
		return interactToolResult(interactResult{Outcome: outcomePending, Question: q.Prompts[0].Markdown}, false)
	}
	return prepared{
		question: q,
		render:   renderUserInteract,
		fail:     userInteractFailure,
		pending: func(a wire.Answer) *mcp.CallToolResult {
			return interactToolResult(interactResult{Outcome: outcomeFailed, Error: &interactError{Category: categoryUnknown, Message: callAgain(a, "user_interact", interactPending)}}, false)
		},
		chat:     chat,
		elicited: elicitedOrChat(renderUserInteract, chat), // elicit.go: a form declined at once asks in chat
	}, nil
}

// normalizeUserInteract turns the arguments into a Question, or into the
// result to return at once: the pre-filled answer (succeeded, nothing
// asked) or a validation failure. It never returns an error: the failures
// are results in the envelope shape.
func normalizeUserInteract(args map[string]any) (wire.Question, *mcp.CallToolResult) {
	// The question first, answer or not, as the original checks it.
	question, _, err := readString(args, "question", strArg{})
	if err != nil {
		return wire.Question{}, interactInvalid(err)
	}
	if strings.TrimSpace(question) == "" {
		return wire.Question{}, interactInvalid(argErrorf("question", "required: a non-empty string (the question to show the user)"))
	}
	answer, _, err := readString(args, "answer", strArg{})
	if err != nil {
		return wire.Question{}, interactInvalid(err)
	}
	if answer != "" {
		return wire.Question{}, interactToolResult(interactResult{Outcome: outcomeSucceeded, Answer: answer}, false)
	}
	if len(question) > wire.MaxMarkdownBytes {
		return wire.Question{}, interactInvalid(argErrorf("question", "at most %d bytes, got %d; shorten it", wire.MaxMarkdownBytes, len(question)))
	}
	return wire.Question{
		ID:      wire.NewID(),
		Source:  userInteractName,
		Prompts: []wire.Prompt{{Kind: wire.KindText, Markdown: question}},
	}, nil
}

// interactInvalid is the failed/validation result of a bad argument.
func interactInvalid(err error) *mcp.CallToolResult {
	return interactToolResult(interactResult{Outcome: outcomeFailed, Error: &interactError{
		Category: categoryValidation,
		Message:  fmt.Sprintf("Invalid arguments for user_interact: %v. Fix the argument and call user_interact again.", err),
	}}, true)
}

// renderUserInteract maps the Answer to the envelope. The typed text is the
// answer (it may be empty when the user submitted nothing); a dismissal or a
// countdown that ran out is a failed outcome with category unknown but not
// an isError result: the tool worked, the user gave no answer.
func renderUserInteract(a wire.Answer) *mcp.CallToolResult {
	switch a.Status {
	case wire.StatusAnswered:
		var text string
		if len(a.Replies) > 0 {
			text = a.Replies[0].Text
		}
		return interactToolResult(interactResult{Outcome: outcomeSucceeded, Answer: text}, false)
	case wire.StatusDismissed:
		return interactToolResult(interactResult{Outcome: outcomeFailed, Error: &interactError{Category: categoryUnknown, Message: interactDismissed}}, false)
	case wire.StatusTimeout:
		return interactToolResult(interactResult{Outcome: outcomeFailed, Error: &interactError{Category: categoryUnknown, Message: interactTimeout()}}, false)
	case wire.StatusAway:
		return interactToolResult(interactResult{Outcome: outcomeFailed, Error: &interactError{Category: categoryUnknown, Message: nextStep(kindAway, "user_interact", nil, time.Time{})}}, false)
	default:
		return interactToolResult(interactResult{Outcome: outcomeFailed, Error: &interactError{Category: categoryUnknown,
			Message: fmt.Sprintf("The feedback app ended the question with an unknown status %q; the user's answer is unknown. Update the feedback app and this MCP server to the same version.", a.Status)}}, true)
	}
}

// userInteractFailure is the failed result of an infrastructure failure:
// category validation when the app found the question invalid, io otherwise.
func userInteractFailure(err error) *mcp.CallToolResult {
	category := categoryIO
	var e *wire.Error
	if errors.As(err, &e) && e.Code == wire.CodeInvalid {
		category = categoryValidation
	}
	return interactToolResult(interactResult{Outcome: outcomeFailed, Error: &interactError{
		Category: category,
		Message:  fmt.Sprintf("The feedback window could not ask the user (%s). Nothing was answered; call user_interact again, or ask the user in chat.", failureCause(err)),
	}}, true)
}

// interactToolResult is res as a JSON text block and as structuredContent.
func interactToolResult(res interactResult, isError bool) *mcp.CallToolResult {
	return jsonToolResult(res, isError)
}

// interactTimeout is the message when the window's countdown ran out.
func interactTimeout() string {
	return "The user did not answer before the window's countdown ran out. " + nextStep(kindTimeout, "user_interact", nil, time.Time{})
}
