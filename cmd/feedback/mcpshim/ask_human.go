package mcpshim

import (
	_ "embed"
	"encoding/json"
	"fmt"
	"math"
	"net/url"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// The ask_human dialect (reference tool: seed 002). Its limits are the
// seed's; a value beyond one is the caller's error, never clamped. Character
// limits count runes; content's 50 KB counts bytes.
const (
	askHumanName       = "ask_human"
	askHumanResultName = "ask_human_result"

	maxAgentNameRunes   = 100
	maxTitleRunes       = 200
	maxContentBytes     = 50 * 1024
	minChoices          = 2
	maxChoices          = 4
	maxChoiceIDRunes    = 50
	maxChoiceLabelRunes = 100
	maxReasonRunes      = 500
	defaultHumanTimeout = 3600
	// maxChipRunes is the longest title shown whole in the window's chip
	// (and title bar); a longer one is also shown in full above the content.
	maxChipRunes    = 60
	maxHumanTimeout = 86400
)

//go:embed schemas/ask_human.json
var askHumanSchema []byte

// askHumanOutputSchema is the shape of the structuredContent every success returns
// (checkOutput in the tests holds every result to it).
//
//go:embed schemas/ask_human_output.json
var askHumanOutputSchema []byte

var askHuman = dialect{
	tool: mcp.Tool{
		Name: askHumanName,
		Description: "Show content to the human in a desktop window and ask them to pick one of 2-4 choices. " +
			"Use it for subjective judgment, approval, preference or tie-breaks; not for deterministic checks or reversible low-stakes choices. " +
			"Waits briefly: if the human has not chosen yet it returns status \"pending\" with a request_id; the window stays open and " +
			"ask_human_result(request_id) returns the choice later. " +
			"Result (JSON): status answered|pending|declined|expired, request_id, choice_id, choice_label. " +
			"With callback_url (https) the outcome is also POSTed there.",
		RawInputSchema:  askHumanSchema,
		RawOutputSchema: askHumanOutputSchema,
		// callback_url makes it POST to a URL of the caller's choosing.
		Annotations: annotations("Ask a human to choose", true),
	},
	prepare: prepareAskHuman,
}

// askHumanFields are the arguments of the seed's schema; others are ignored.
var askHumanFields = []string{
	"agent_name", "title", "content", "content_type", "choices", "callback_url", "metadata",
	"decision_reason", "confidence", "consequence_of_wrong_choice", "recommended_option",
	"run_id", "trace_id", "timeout_seconds",
}

// humanChoice is one choice of an ask_human call.
type humanChoice struct {
	ID    string `json:"id"`
	Label string `json:"label"`
}

// humanRequest is what one ask_human call asked: enough to map the chosen
// label back to its id, to pass run_id, trace_id and metadata through, and
// to post the callback once. The shim keeps none of them: the app keeps
// each with its question (humanData, the question's CallerData) and
// returns it with "pending" and with the outcome, so ask_human_result, in
// this shim or in one started later, rebuilds it from there (requestOf).
type humanRequest struct {
	id          string
	choices     []humanChoice
	runID       string
	traceID     string
	metadata    map[string]any
	callbackURL string
	timeout     time.Duration
	// askedAt is when the question was handed to the app; the window opens
	// then, so askedAt plus the Answer's ElapsedMS is when the human acted.
	askedAt time.Time
	// settled is set by the first final outcome rendered: the callback is
	// posted once.
	settled atomic.Bool
}

func prepareAskHuman(args map[string]any, env callEnv) (prepared, error) {
	q, req, err := normalizeAskHuman(args)
	if err != nil {
		return prepared{}, err
	}
	req.askedAt = time.Now()
	if q.CallerData, err = req.callerData(); err != nil {
		return prepared{}, err
	}
	var ignored []string
	for k := range args {
		if !slices.Contains(askHumanFields, k) {
			ignored = append(ignored, k)
		}
	}
	slices.Sort(ignored)
	render := func(a wire.Answer) *mcp.CallToolResult { return settleHuman(a, req.id, req, env) }
	chat := func(cause error) *mcp.CallToolResult { return humanNeedsInput(q, req, cause) }
	return prepared{
		question: q,
		ignored:  ignored,
		wait:     pendingWait(env),
		pending:  func(a wire.Answer) *mcp.CallToolResult { return humanPending(req.id, req, a) },
		render:   render,
		chat:     chat,
		elicited: elicitedOrChat(render, chat), // elicit.go: a form declined at once asks in chat
	}, nil
}

// humanNeedsInput is the result when no window can ask and the client
// offers no form: the content and the choices, for the agent to ask in
// chat.
func humanNeedsInput(q wire.Question, req *humanRequest, cause error) *mcp.CallToolResult {
	var b strings.Builder
	fmt.Fprintf(&b, "The decision window cannot be shown (%s). Nothing was chosen. Ask the human in chat:\n", failureCause(cause))
	if q.Title != "" {
		b.WriteString(q.Title + "\n")
	}
	for _, f := range q.Context {
		fmt.Fprintf(&b, "%s: %s\n", f.Label, f.Value)
	}
	b.WriteString(q.Prompts[0].Markdown + "\nChoices (choose one):")
	for i, c := range req.choices {
		fmt.Fprintf(&b, "\n- %s (id %s)", c.Label, c.ID)
		if q.Prompts[0].Options[i].Default {
			b.WriteString(" (recommended)")
		}
	}
	res := humanResult{Status: humanNeedsUserInput, RequestID: req.id, Message: b.String(),
		NextStep: "Ask the human this yourself, in chat, and wait for their choice; do not guess."}
	req.passThrough(&res)
	return humanToolResult(res)
}

// pendingWait is Settings.PendingWaitSeconds as a duration, at least 1 s.
func pendingWait(env callEnv) time.Duration {
	return time.Duration(max(env.settings.PendingWaitSeconds, 1)) * time.Second
}

// normalizeAskHuman applies seed 002's rules to the arguments of one call.
// An error is an *ArgError naming the field and the limit. On success the
// Question has a fresh ID (the request_id), Source "ask_human",
// one single-choice prompt whose options are the choice labels, and passes
// Validate; Client is left for the caller.
func normalizeAskHuman(args map[string]any) (wire.Question, *humanRequest, error) {
	fail := func(err error) (wire.Question, *humanRequest, error) { return wire.Question{}, nil, err }
	agent, _, err := readString(args, "agent_name", strArg{trim: true, required: true, max: maxAgentNameRunes})
	if err != nil {
		return fail(err)
	}
	title, _, err := readString(args, "title", strArg{trim: true, required: true, max: maxTitleRunes})
	if err != nil {
		return fail(err)
	}
	body, err := humanContent(args, title)
	if err != nil {
		return fail(err)
	}
	choices, err := humanChoices(args)
	if err != nil {
		return fail(err)
	}
	recommended, _, err := readString(args, "recommended_option", strArg{})
	if err != nil {
		return fail(err)
	}
	req := &humanRequest{choices: choices}
	// Submitted without a choice is declined (humanOutcome): the window
	// holds Submit back until one is chosen (wire.CheckReply).
	p := wire.Prompt{Kind: wire.KindChoice, Single: true, Markdown: body, Required: true}
	found := recommended == ""
	for _, c := range choices {
		o := wire.Option{Label: c.Label}
		if recommended != "" && c.ID == recommended {
			o.Default, o.Description, found = true, "Recommended by the agent", true
		}
		p.Options = append(p.Options, o)
	}
	if !found {
		ids := make([]string, len(choices))
		for i, c := range choices {
			ids[i] = fmt.Sprintf("%q", c.ID)
		}
		return fail(argErrorf("recommended_option", "%q is not the id of a choice; use one of %s or omit it", recommended, strings.Join(ids, ", ")))
	}
	ctx, err := humanContext(args, agent)
	if err != nil {
		return fail(err)
	}
	timeout, err := humanTimeout(args)
	if err != nil {
		return fail(err)
	}
	req.timeout = time.Duration(timeout) * time.Second
	if req.callbackURL, err = callbackURL(args); err != nil {
		return fail(err)
	}
	if req.runID, _, err = readString(args, "run_id", strArg{}); err != nil {
		return fail(err)
	}
	if req.traceID, _, err = readString(args, "trace_id", strArg{}); err != nil {
		return fail(err)
	}
	switch m := args["metadata"].(type) {
	case nil:
	case map[string]any:
		req.metadata = m
	default:
		return fail(argErrorf("metadata", "must be a JSON object, got %s", jsonType(m)))
	}
	chip := title
	if utf8.RuneCountInString(title) > maxChipRunes { // a long title is a heading, the chip its start
		c, _ := clampRunes(title, maxChipRunes-1)
		chip = strings.TrimSpace(c) + "…"
		p.Markdown = "**" + literalMarkdown(strings.Join(strings.Fields(title), " ")) + "**\n\n" + p.Markdown
	}
	q := wire.Question{
		ID:             wire.NewID(),
		Source:         askHumanName,
		Title:          chip,
		Context:        ctx,
		Prompts:        []wire.Prompt{p},
		TimeoutSeconds: timeout,
	}
	req.id = q.ID
	return q, req, nil
}

// humanChoices returns the 2-4 choices, ids and labels unique.
func humanChoices(args map[string]any) ([]humanChoice, error) {
	const shape = `an array of 2 to 4 {"id": string, "label": string} objects`
	v, ok := args["choices"]
	if !ok || v == nil {
		return nil, argErrorf("choices", "required: %s", shape)
	}
	items, ok := v.([]any)
	if !ok {
		return nil, argErrorf("choices", "must be %s, got %s", shape, jsonType(v))
	}
	if len(items) < minChoices || len(items) > maxChoices {
		return nil, argErrorf("choices", "must hold %d to %d choices, got %d", minChoices, maxChoices, len(items))
	}
	choices := make([]humanChoice, 0, len(items))
	for i, item := range items {
		obj, ok := item.(map[string]any)
		if !ok {
			return nil, argErrorf(fmt.Sprintf("choices[%d]", i), `must be an object {"id": string, "label": string}, got %s`, jsonType(item))
		}
		id, _, err := readString(obj, "id", strArg{trim: true, required: true, max: maxChoiceIDRunes})
		if err != nil {
			return nil, prefixField(err, fmt.Sprintf("choices[%d].", i))
		}
		label, _, err := readString(obj, "label", strArg{trim: true, required: true, max: maxChoiceLabelRunes})
		if err != nil {
			return nil, prefixField(err, fmt.Sprintf("choices[%d].", i))
		}
		for _, c := range choices {
			if c.ID == id {
				return nil, argErrorf(fmt.Sprintf("choices[%d].id", i), "%q is used twice; choice ids must be unique", id)
			}
			if c.Label == label {
				return nil, argErrorf(fmt.Sprintf("choices[%d].label", i), "%q is used twice; labels must be unique, the human tells the choices apart by them", label)
			}
		}
		choices = append(choices, humanChoice{ID: id, Label: label})
	}
	return choices, nil
}

// prefixField prefixes the Field of an *ArgError.
func prefixField(err error, prefix string) error {
	if ae, ok := err.(*ArgError); ok {
		return &ArgError{Field: prefix + ae.Field, Rule: ae.Rule}
	}
	return err
}

// humanContext returns the context lines shown above the content: the
// agent, why it asks, what a wrong choice costs, and its confidence.
func humanContext(args map[string]any, agent string) ([]wire.Field, error) {
	fields := []wire.Field{{Label: "Agent", Value: agent}}
	reason, _, err := readString(args, "decision_reason", strArg{trim: true, max: maxReasonRunes})
	if err != nil {
		return nil, err
	}
	if reason != "" {
		fields = append(fields, wire.Field{Label: "Why a human", Value: reason})
	}
	risk, _, err := readString(args, "consequence_of_wrong_choice", strArg{trim: true, max: maxReasonRunes})
	if err != nil {
		return nil, err
	}
	if risk != "" {
		fields = append(fields, wire.Field{Label: "If wrong", Value: risk})
	}
	c, present, err := numberArg(args, "confidence")
	if err != nil {
		return nil, err
	}
	if present {
		if c < 0 || c > 1 {
			return nil, argErrorf("confidence", "must be between 0 and 1, got %v", c)
		}
		fields = append(fields, wire.Field{Label: "Agent's confidence", Value: fmt.Sprintf("%.0f%%", c*100)})
	}
	return fields, nil
}

// humanTimeout returns timeout_seconds (default 3600), a whole number of
// seconds from 1 to 86400; a fraction is rounded up.
func humanTimeout(args map[string]any) (int, error) {
	t, present, err := numberArg(args, "timeout_seconds")
	if err != nil || !present {
		return defaultHumanTimeout, err
	}
	if t <= 0 || t > maxHumanTimeout {
		return 0, argErrorf("timeout_seconds", "must be from 1 to %d seconds (default %d), got %v", maxHumanTimeout, defaultHumanTimeout, t)
	}
	return int(math.Ceil(t)), nil
}

// callbackURL returns callback_url, which must be an absolute https URL;
// blank means none.
func callbackURL(args map[string]any) (string, error) {
	s, _, err := readString(args, "callback_url", strArg{})
	if err != nil {
		return "", err
	}
	if s = strings.TrimSpace(s); s == "" {
		return "", nil
	}
	u, err := url.Parse(s)
	if err != nil || !strings.EqualFold(u.Scheme, "https") || u.Host == "" {
		return "", argErrorf("callback_url", "must be an absolute https:// URL (http and other schemes are refused), got %q", s)
	}
	return s, nil
}

// numberArg returns the number at key. present is false when the key is
// absent or null; another type is an *ArgError.
func numberArg(args map[string]any, key string) (n float64, present bool, err error) {
	switch v := args[key].(type) {
	case nil:
		return 0, false, nil
	case float64:
		return v, true, nil
	case int:
		return float64(v), true, nil
	case int64:
		return float64(v), true, nil
	case json.Number:
		f, err := v.Float64()
		if err != nil {
			return 0, false, argErrorf(key, "must be a number, got %q", v.String())
		}
		return f, true, nil
	default:
		return 0, false, argErrorf(key, "must be a number, got %s", jsonType(v))
	}
}

// Result of ask_human and ask_human_result: statuses.
const (
	humanAnswered = "answered"
	humanPendingS = "pending"
	humanDeclined = "declined"
	humanExpired  = "expired"
	// humanNeedsUserInput: no window could be shown; ask in chat.
	humanNeedsUserInput = "needs_user_input"
)

// humanResult is the structuredContent of every ask_human and
// ask_human_result result; the text block is the same object as JSON.
type humanResult struct {
	Status      string         `json:"status"`
	RequestID   string         `json:"request_id"`
	ChoiceID    string         `json:"choice_id,omitempty"`
	ChoiceLabel string         `json:"choice_label,omitempty"`
	AnsweredAt  string         `json:"answered_at,omitempty"`
	Message     string         `json:"message,omitempty"`
	NextStep    string         `json:"next_step,omitempty"`
	RunID       string         `json:"run_id,omitempty"`
	TraceID     string         `json:"trace_id,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	// Away: the human is away and asked agents to proceed (no choice).
	Away bool `json:"away,omitempty"`
}

// Fixed phrases of the ask_human results.
const (
	humanNextStep = "The human has not chosen yet; the window stays open. Continue with other work if you can, " +
		"then call ask_human_result with this request_id to get the choice (it waits up to wait_seconds, default 30 s, and may answer pending again)."
	humanDeclinedDismissed = "The human closed the window without choosing. Do not assume approval."
	humanDeclinedNoChoice  = "The human submitted without choosing any option. Do not assume approval."
	humanExpiredMessage    = "The request expired: no choice was made before timeout_seconds ran out. Call ask_human again if you still need a decision."
	humanUnknownChoiceNote = "choice_id is unknown: this server did not ask the question (it was restarted), so only the label is known."
)

// humanPending is the result while the human has not chosen.
func humanPending(id string, req *humanRequest, a wire.Answer) *mcp.CallToolResult {
	res := humanResult{Status: humanPendingS, RequestID: id, NextStep: callAgain(a, askHumanResultName, humanNextStep)}
	req.passThrough(&res)
	return humanToolResult(res)
}

// settleHuman renders a final outcome and posts its callback (once per
// request). req may be nil when the app returned no request with the
// outcome.
func settleHuman(a wire.Answer, id string, req *humanRequest, env callEnv) *mcp.CallToolResult {
	res, ok := humanOutcome(a, id, req, time.Now())
	if !ok {
		return mcp.NewToolResultError(fmt.Sprintf("The feedback app ended request %s with an unknown status %q; the human's choice is unknown. Update the feedback app and this MCP server to the same version, then call ask_human again.", id, a.Status))
	}
	if req != nil && req.callbackURL != "" && req.settled.CompareAndSwap(false, true) && env.notify != nil {
		env.notify(webhook{url: req.callbackURL, body: webhookBodyOf(res)})
	}
	return humanToolResult(res)
}

// humanOutcome maps an Answer to the result; ok is false for a status the
// shim does not know. now is used for answered_at when the request is not
// known.
func humanOutcome(a wire.Answer, id string, req *humanRequest, now time.Time) (res humanResult, ok bool) {
	res.RequestID = id
	at := now
	if req != nil && !req.askedAt.IsZero() {
		at = req.askedAt.Add(time.Duration(a.ElapsedMS) * time.Millisecond)
	}
	switch a.Status {
	case wire.StatusAnswered:
		var label string
		if len(a.Replies) > 0 && len(a.Replies[0].Selected) > 0 {
			label = a.Replies[0].Selected[0]
		}
		if label == "" {
			res.Status, res.Message = humanDeclined, humanDeclinedNoChoice
			break
		}
		res.Status, res.ChoiceLabel = humanAnswered, label
		res.AnsweredAt = at.UTC().Format(time.RFC3339)
		res.ChoiceID = req.idOf(label)
		if res.ChoiceID == "" {
			res.Message = humanUnknownChoiceNote
		}
	case wire.StatusDismissed:
		res.Status, res.Message = humanDeclined, humanDeclinedDismissed
	case wire.StatusTimeout:
		res.Status, res.Message = humanExpired, humanExpiredMessage
	case wire.StatusAway: // no choice: the human is away and asked agents to proceed (nextsteps.go)
		res.Status, res.Away, res.NextStep = humanDeclined, true, nextStep(kindAway, "ask_human", nil, time.Time{})
		res.Message = "The human is away: no window was shown, and no choice was made."
	default:
		return res, false
	}
	req.passThrough(&res)
	return res, true
}

// humanData is what the app keeps of a request with its question
// (wire.Question.CallerData, persisted) and returns with its outcome, so a
// shim that did not ask it (the client restarted it) still maps the label
// to its choice id, passes run_id, trace_id and metadata through and posts
// the callback.
type humanData struct {
	Choices     []humanChoice  `json:"choices"`
	RunID       string         `json:"run_id,omitempty"`
	TraceID     string         `json:"trace_id,omitempty"`
	Metadata    map[string]any `json:"metadata,omitempty"`
	CallbackURL string         `json:"callback_url,omitempty"`
	AskedAt     time.Time      `json:"asked_at"`
	TimeoutSecs int            `json:"timeout_seconds"`
}

// callerData is r as the question's CallerData; metadata that makes it
// larger than ipc.MaxCallerDataBytes is the caller's error.
func (r *humanRequest) callerData() (json.RawMessage, error) {
	data, err := json.Marshal(humanData{Choices: r.choices, RunID: r.runID, TraceID: r.traceID, Metadata: r.metadata,
		CallbackURL: r.callbackURL, AskedAt: r.askedAt, TimeoutSecs: int(r.timeout / time.Second)})
	if err != nil { // metadata came from JSON: not reached
		return nil, argErrorf("metadata", "cannot be encoded: %v", err)
	}
	if len(data) > wire.MaxCallerDataBytes {
		return nil, argErrorf("metadata", "too large: the request with its metadata must fit in %d bytes of JSON, got %d; pass a smaller object", wire.MaxCallerDataBytes, len(data))
	}
	return data, nil
}

// requestOf rebuilds the request with id from the CallerData the app
// returned; nil when there is none.
func requestOf(id string, data json.RawMessage) *humanRequest {
	if len(data) == 0 {
		return nil
	}
	var d humanData
	if err := json.Unmarshal(data, &d); err != nil {
		return nil
	}
	return &humanRequest{id: id, choices: d.Choices, runID: d.RunID, traceID: d.TraceID, metadata: d.Metadata,
		callbackURL: d.CallbackURL, askedAt: d.AskedAt, timeout: time.Duration(d.TimeoutSecs) * time.Second}
}

// idOf returns the id of the choice labelled label, or "" (also for a nil
// request).
func (r *humanRequest) idOf(label string) string {
	if r == nil {
		return ""
	}
	for _, c := range r.choices {
		if c.Label == label {
			return c.ID
		}
	}
	return ""
}

// passThrough copies run_id, trace_id and metadata into res.
func (r *humanRequest) passThrough(res *humanResult) {
	if r == nil {
		return
	}
	res.RunID, res.TraceID, res.Metadata = r.runID, r.traceID, r.metadata
}

// humanToolResult is res as a JSON text block and as structuredContent.
func humanToolResult(res humanResult) *mcp.CallToolResult { return jsonToolResult(res, false) }
