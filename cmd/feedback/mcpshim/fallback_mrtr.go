package mcpshim

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"time"

	"feedback/ipc/wire"

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
// the question's fingerprint (what it asks, through which tool, for which
// client and session), when the form was sent and when its answer
// expires (the question's countdown), signed with the user's form key
// (formkey.go, HMAC-SHA256); the retry carries the arguments again, from
// which the question and its form are rebuilt. So a retry that never
// comes costs nothing, and a retry served by a restarted shim of the same
// session works as well as one served by the same process. A retry whose
// state the shim did not sign (or that was edited since), that expired, or
// that belongs to another question, client or session is refused with an
// error that says why: nothing in it is taken as the user's answer, and
// the call made again without it asks afresh.
//
// A form never allows a tool call. It is drawn by the client, which could
// fill it in itself, so an option that allows (wire.Option.Allows: an
// approval's Allow and Always allow) is never offered in it
// (formQuestion) nor taken from its answer (renderFormAnswer): through a
// form an approval can only be denied. Allowing is the window's.

// formInputKey is the key of the form in an input-required result.
const formInputKey = "feedback_form"

// formStatePrefix marks the shim's requestState (and its version: v2 is
// signed).
const formStatePrefix = "feedback-form-v2."

// formStateTTL bounds how long after the form was sent its answer is
// taken when the question has no countdown, and at most.
const formStateTTL = 24 * time.Hour

// maxFormStateBytes bounds the requestState the shim decodes.
const maxFormStateBytes = 1024

// formState is what requestState carries from the form to the retry.
type formState struct {
	// Question is formFingerprint of the question the form asks.
	Question string `json:"q"`
	// SentMS is when the form was sent, Unix milliseconds.
	SentMS int64 `json:"t"`
	// ExpiresMS is when the question's countdown ends, Unix milliseconds:
	// an answer after it is not taken.
	ExpiresMS int64 `json:"e"`
}

// Errors of a retry that is not the answer to the shim's form.
var (
	errNoFormState     = errors.New("it is not a requestState of this server")
	errBadFormState    = errors.New("it cannot be read")
	errForgedFormState = errors.New("its signature does not match: it was changed, or not made by this user's feedback")
	errStaleFormState  = errors.New("it expired: the question's countdown ended before the answer came")
	errOtherQuestion   = errors.New("it belongs to another question, client or session")
	errNoFormAnswer    = errors.New("the retry carries no answer to the form")
)

// formFingerprint identifies what a form asks and for whom, stable across
// calls with the same arguments from the same client and session:
// stableQuestionID without the parts a dialect sets afresh on each call
// (ask_human's random ID and the time in its CallerData). The session is
// the client process (ParentSession), which a restarted shim shares.
func formFingerprint(tool, client, session string, q wire.Question) string {
	q.CallerData = nil
	return stableQuestionID(tool, client, session, q)
}

// formMAC is the signature of a state's payload under key.
func formMAC(key []byte, payload string) []byte {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(formStatePrefix))
	m.Write([]byte(payload))
	return m.Sum(nil)
}

// encode is s as a requestState signed with key.
func (s formState) encode(key []byte) string {
	raw, _ := json.Marshal(s) // strings and ints: cannot fail
	payload := base64.RawURLEncoding.EncodeToString(raw)
	return formStatePrefix + payload + "." + base64.RawURLEncoding.EncodeToString(formMAC(key, payload))
}

// decodeFormState reads a requestState written by encode with key; now is
// the time of the retry. The signature is checked before anything in the
// state is read.
func decodeFormState(state string, key []byte, now time.Time) (formState, error) {
	var s formState
	rest, ok := strings.CutPrefix(state, formStatePrefix)
	if !ok {
		return s, errNoFormState
	}
	if len(rest) > maxFormStateBytes {
		return s, errBadFormState
	}
	payload, sig, ok := strings.Cut(rest, ".")
	mac, err := base64.RawURLEncoding.DecodeString(sig)
	if !ok || err != nil {
		return s, errBadFormState
	}
	if !hmac.Equal(mac, formMAC(key, payload)) {
		return s, errForgedFormState
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil || json.Unmarshal(raw, &s) != nil || s.Question == "" || s.SentMS <= 0 || s.ExpiresMS <= s.SentMS {
		return formState{}, errBadFormState
	}
	if now.After(time.UnixMilli(s.ExpiresMS)) || time.UnixMilli(s.SentMS).After(now.Add(time.Minute)) {
		return formState{}, errStaleFormState
	}
	return s, nil
}

// formExpiry is when the answer to c's form, sent at now, is no longer
// taken: the end of the question's countdown (its own, else the settings'
// default), at most formStateTTL away.
func formExpiry(c call, now time.Time) time.Time {
	d := time.Duration(c.p.question.TimeoutSeconds) * time.Second
	if d <= 0 {
		d = c.env.settings.DefaultTimeout()
	}
	if d <= 0 || d > formStateTTL {
		d = formStateTTL
	}
	return now.Add(d)
}

// formQuestion is q as a client's form asks it: without the options that
// allow a tool call, which only the window offers. A prompt that loses
// some says that this form can only deny.
func formQuestion(q wire.Question) wire.Question {
	prompts := make([]wire.Prompt, len(q.Prompts))
	for i, p := range q.Prompts {
		var kept []wire.Option
		for _, o := range p.Options {
			if !o.Allows {
				kept = append(kept, o)
			}
		}
		if len(kept) < len(p.Options) {
			p.Options = kept
			p.Markdown += formDenyOnly
		}
		prompts[i] = p
	}
	q.Prompts = prompts
	return q
}

// formDenyOnly ends a prompt whose options that allow were left out of the
// client's form.
const formDenyOnly = "\n\n*Allowing needs the feedback window, which cannot be shown here: this form can only deny.*"

// formInputRequired is the input-required result asking q through the
// client's form: the no-GUI fallback of a stateless client that declared
// elicitation. msg is the form's message.
func formInputRequired(c call, msg string, schema map[string]any, now time.Time) (*mcp.CallToolResult, error) {
	params := mcp.ElicitationParams{Message: msg, RequestedSchema: schema}
	if err := params.Validate(); err != nil {
		return nil, err
	}
	key, err := formKeys.get()
	if err != nil {
		return nil, err
	}
	state := formState{Question: formFingerprint(c.tool, c.client, c.env.session, c.p.question),
		SentMS: now.UnixMilli(), ExpiresMS: formExpiry(c, now).UnixMilli()}
	return server.NewInputRequestBuilder(state.encode(key)).Elicit(formInputKey, params).ToolResult(), nil
}

// formRetry returns the Answer that the retry of a call (rt: its
// inputResponses and requestState) brings for the form the shim sent, or
// an error saying why the retry is not one.
func formRetry(c call, rt mcp.MultiRoundTripParams, now time.Time) (wire.Answer, error) {
	key, err := formKeys.get()
	if err != nil {
		return wire.Answer{}, err
	}
	s, err := decodeFormState(rt.RequestState, key, now)
	if err != nil {
		return wire.Answer{}, err
	}
	if s.Question != formFingerprint(c.tool, c.client, c.env.session, c.p.question) {
		return wire.Answer{}, errOtherQuestion
	}
	res := server.ElicitationResponse(rt.InputResponses, formInputKey)
	if res == nil {
		return wire.Answer{}, errNoFormAnswer
	}
	q := formQuestion(c.p.question)
	_, _, fields := elicitationForm(q)
	elapsed := max(now.Sub(time.UnixMilli(s.SentMS)).Milliseconds(), 0)
	return formAnswer(q, fields, res, elapsed), nil
}

// resumeForm serves the retry of a call that the shim answered with its
// form: the rendered answer and true, or false when the call is no such
// retry (then it is asked as a new call). A retry that cannot be taken is
// refused: an error result that says why and true.
func resumeForm(c call, log *slog.Logger) (*mcp.CallToolResult, bool) {
	rt := c.roundTrip
	if rt.RequestState == "" && len(rt.InputResponses) == 0 {
		return nil, false
	}
	a, err := formRetry(c, rt, time.Now())
	if err != nil {
		log.Warn("a retry with input that is no answer to this question's form: refused", "err", err)
		return mcp.NewToolResultError(fmt.Sprintf("The retry's requestState was refused: %v. Nothing in it was taken as the user's answer. "+
			"Call %s again with the same arguments and without requestState and inputResponses: the question is asked afresh.", err, c.tool)), true
	}
	log.Info("answered through the client's form (input-required retry)", "status", a.Status, "elapsed_ms", a.ElapsedMS)
	return c.renderFormAnswer(a), true
}

// renderFormAnswer renders an Answer collected through the client's form,
// in either era. An option that allows a tool call is never taken from a
// form: such a choice is dropped before the dialect sees the answer.
func (c call) renderFormAnswer(a wire.Answer) *mcp.CallToolResult {
	a = withoutAllows(c.p.question, a)
	if c.p.elicited != nil {
		return c.p.elicited(a)
	}
	return c.p.render(a)
}

// withoutAllows is a with every selected option of q that allows a tool
// call unselected.
func withoutAllows(q wire.Question, a wire.Answer) wire.Answer {
	replies := make([]wire.Reply, len(a.Replies))
	for i, r := range a.Replies {
		if i < len(q.Prompts) {
			var kept []string
			for _, label := range r.Selected {
				if !allowsLabel(q.Prompts[i], label) {
					kept = append(kept, label)
				}
			}
			r.Selected = kept
		}
		replies[i] = r
	}
	a.Replies = replies
	return a
}

// allowsLabel reports whether label names an option of p that allows.
func allowsLabel(p wire.Prompt, label string) bool {
	for _, o := range p.Options {
		if o.Allows && o.Label == label {
			return true
		}
	}
	return false
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
