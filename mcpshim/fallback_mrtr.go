package mcpshim

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"feedback/wire"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The no-GUI fallback for a client of the stateless revision (2026-07-28,
// SEP-2322). Such a client may not be sent elicitation/create; the call
// instead returns an input-required result holding the same form
// (elicitationForm) under formInputKey, and the client retries the call,
// same arguments, with the form's answer in inputResponses and the opaque
// requestState echoed back. The retry renders that answer exactly as an
// answer through elicitation/create would be (formAnswer), so accept,
// decline and cancel mean the same in both eras.
//
// The shim keeps nothing between the two requests: requestState carries
// when the form was sent and a fingerprint of the question, and the retry
// carries the arguments again, from which the question and its form are
// rebuilt. So a retry that never comes costs nothing, and a retry served
// by a restarted shim works as well as one served by the same process. A
// retry whose state cannot be read, is older than formStateTTL, or belongs
// to another question is not an answer: the call starts over (the app is
// asked again, and without a window the form is sent again).

// formInputKey is the key of the form in an input-required result.
const formInputKey = "feedback_form"

// formStatePrefix marks the shim's requestState (and its version).
const formStatePrefix = "feedback-form-v1."

// formStateTTL bounds how long after the form was sent its answer is
// taken: an answer that comes back later is stale.
const formStateTTL = 24 * time.Hour

// maxFormStateBytes bounds the requestState the shim decodes.
const maxFormStateBytes = 1024

// formState is what requestState carries from the form to the retry.
type formState struct {
	// Question is formFingerprint of the question the form asks.
	Question string `json:"q"`
	// SentMS is when the form was sent, Unix milliseconds.
	SentMS int64 `json:"t"`
}

// Errors of a retry that is not the answer to the shim's form.
var (
	errNoFormState    = errors.New("no requestState of this server")
	errBadFormState   = errors.New("the requestState cannot be read")
	errStaleFormState = errors.New("the form was sent too long ago")
	errOtherQuestion  = errors.New("the requestState belongs to another question")
	errNoFormAnswer   = errors.New("the retry carries no answer to the form")
)

// formFingerprint identifies what a form asks, stable across calls with
// the same arguments from the same client: stableQuestionID without the
// parts a dialect sets afresh on each call (ask_human's random ID and the
// time in its CallerData).
func formFingerprint(tool, client string, q wire.Question) string {
	q.CallerData = nil
	return stableQuestionID(tool, client, "", q) // no session: a restarted shim serves the retry
}

// encode is s as a requestState.
func (s formState) encode() string {
	raw, _ := json.Marshal(s) // strings and ints: cannot fail
	return formStatePrefix + base64.RawURLEncoding.EncodeToString(raw)
}

// decodeFormState reads a requestState written by encode; now is the time
// of the retry.
func decodeFormState(state string, now time.Time) (formState, error) {
	var s formState
	rest, ok := strings.CutPrefix(state, formStatePrefix)
	if !ok {
		return s, errNoFormState
	}
	if len(rest) > maxFormStateBytes {
		return s, errBadFormState
	}
	raw, err := base64.RawURLEncoding.DecodeString(rest)
	if err != nil || json.Unmarshal(raw, &s) != nil || s.Question == "" || s.SentMS <= 0 {
		return formState{}, errBadFormState
	}
	sent := time.UnixMilli(s.SentMS)
	if now.Sub(sent) > formStateTTL || sent.After(now.Add(time.Minute)) {
		return formState{}, errStaleFormState
	}
	return s, nil
}

// formInputRequired is the input-required result asking q through the
// client's form: the no-GUI fallback of a stateless client that declared
// elicitation. msg is the form's message.
func formInputRequired(c call, msg string, schema map[string]any, now time.Time) (*mcp.CallToolResult, error) {
	params := mcp.ElicitationParams{Message: msg, RequestedSchema: schema}
	if err := params.Validate(); err != nil {
		return nil, err
	}
	state := formState{Question: formFingerprint(c.tool, c.client, c.p.question), SentMS: now.UnixMilli()}
	return server.NewInputRequestBuilder(state.encode()).Elicit(formInputKey, params).ToolResult(), nil
}

// formRetry returns the Answer that the retry of a call (rt: its
// inputResponses and requestState) brings for the form the shim sent, or
// an error saying why the retry is not one.
func formRetry(c call, rt mcp.MultiRoundTripParams, now time.Time) (wire.Answer, error) {
	s, err := decodeFormState(rt.RequestState, now)
	if err != nil {
		return wire.Answer{}, err
	}
	q := c.p.question
	if s.Question != formFingerprint(c.tool, c.client, q) {
		return wire.Answer{}, errOtherQuestion
	}
	res := server.ElicitationResponse(rt.InputResponses, formInputKey)
	if res == nil {
		return wire.Answer{}, errNoFormAnswer
	}
	_, _, fields := elicitationForm(q)
	elapsed := max(now.Sub(time.UnixMilli(s.SentMS)).Milliseconds(), 0)
	return formAnswer(q, fields, res, elapsed), nil
}

// resumeForm serves the retry of a call that the shim answered with its
// form: the rendered answer and true, or false when the call is no such
// retry (then it is asked as a new call; a retry that could not be used is
// logged).
func resumeForm(c call, log *slog.Logger) (*mcp.CallToolResult, bool) {
	rt := c.roundTrip
	if rt.RequestState == "" && len(rt.InputResponses) == 0 {
		return nil, false
	}
	a, err := formRetry(c, rt, time.Now())
	if err != nil {
		log.Warn("a retry with input that is no answer to this question's form: asking again", "err", err)
		return nil, false
	}
	log.Info("answered through the client's form (input-required retry)", "status", a.Status, "elapsed_ms", a.ElapsedMS)
	return c.renderFormAnswer(a), true
}

// renderFormAnswer renders an Answer collected through the client's form,
// in either era.
func (c call) renderFormAnswer(a wire.Answer) *mcp.CallToolResult {
	if c.p.elicited != nil {
		return c.p.elicited(a)
	}
	return c.p.render(a)
}

// askFormStateless answers a stateless client's call with the form, or
// returns an error (then the call falls back to the chat hand-off).
func askFormStateless(c call, msg string, schema map[string]any, log *slog.Logger) (*mcp.CallToolResult, error) {
	res, err := formInputRequired(c, msg, schema, time.Now())
	if err != nil {
		return nil, fmt.Errorf("the form cannot be sent: %w", err)
	}
	log.Info("asking through the client's form: input-required result; the client retries with the answer")
	return res, nil
}
