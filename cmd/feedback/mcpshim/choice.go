package mcpshim

import (
	"context"
	_ "embed"
	"fmt"
	"strings"
	"time"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// The ask_choice family (reference tools: seed 004): ask_choice,
// ask_confirm, ask_text and ask_multi_select. They share one output schema,
// declared as outputSchema, and every result — failures included, except
// invalid arguments, which are isError — carries it as structuredContent
// and as a text block holding the same JSON.

//go:embed schemas/ask_choice.json
var askChoiceSchema []byte

//go:embed schemas/ask_confirm.json
var askConfirmSchema []byte

//go:embed schemas/ask_text.json
var askTextSchema []byte

//go:embed schemas/ask_multi_select.json
var askMultiSelectSchema []byte

//go:embed schemas/ask_choice_output.json
var choiceOutputSchema []byte

// choiceKind is the member of the family.
type choiceKind int

const (
	kindPick choiceKind = iota
	kindConfirm
	kindText
	kindMulti
)

// Tool names of the family.
const (
	askChoiceName      = "ask_choice"
	askConfirmName     = "ask_confirm"
	askTextName        = "ask_text"
	askMultiSelectName = "ask_multi_select"
)

const (
	// minChoiceOptions and maxChoiceOptions bound ask_choice and
	// ask_multi_select options (seed 004).
	minChoiceOptions = 2
	maxChoiceOptions = wire.MaxOptions
	// maxPlaceholder bounds ask_text's placeholder, in characters.
	maxPlaceholder = 200
	// maxTextDefault bounds ask_text's default (the prefilled answer), in
	// characters.
	maxTextDefault = maxQuestionRunes
	// autoRejectMS: a decline this soon after the window was shown was
	// probably not the user's (seed 004's auto_reject_suspected).
	autoRejectMS = 400
	// choiceNote ends every description: how to read the result.
	choiceNote = " Only status \"answered\" carries an answer; always follow next_step."
)

var (
	askChoice = choiceDialect(askChoiceName, "Ask the user to pick one option", askChoiceSchema, kindPick,
		"Ask the user to choose exactly one of 2-25 options in a desktop window and wait for the answer. "+
			"Use it when a decision has a few genuinely viable alternatives that change what you build (an architecture, a library, a naming scheme, a file layout). "+
			"Prefer it over ask_confirm when the answer is a choice, and over ask_text when the answers can be enumerated. "+
			"Returns the chosen label in answer and selected.")
	askConfirm = choiceDialect(askConfirmName, "Ask the user to confirm", askConfirmSchema, kindConfirm,
		"Ask the user a yes/no question in a desktop window and wait for the answer. "+
			"Use it for approval before an action or a decision that is genuinely yes or no; use ask_choice when there are alternatives. "+
			"Returns confirmed (true for yes) and answer \"yes\"/\"no\".")
	askText = choiceDialect(askTextName, "Ask the user for text", askTextSchema, kindText,
		"Ask the user an open question in a desktop window and wait for the typed answer. "+
			"Use it only when the reasonable answers cannot be listed (a name, a URL, a description); otherwise use ask_choice or ask_confirm. "+
			"Returns the text in answer.")
	askMultiSelect = choiceDialect(askMultiSelectName, "Ask the user to pick options", askMultiSelectSchema, kindMulti,
		"Ask the user to tick any number of 2-25 options in a desktop window and wait for the answer. "+
			"Use it when several alternatives can apply at once (features to include, files to change); use ask_choice when exactly one must be chosen. "+
			"Set min/max only when the count matters (min must not exceed max, max not the number of options; a submission outside them is invalid_response). "+
			"Returns the ticked labels in selected (possibly none).")
)

// choiceDialect builds one member of the family.
func choiceDialect(name, title string, schema []byte, kind choiceKind, description string) dialect {
	return dialect{
		tool: mcp.Tool{
			Name:            name,
			Description:     description + choiceNote,
			RawInputSchema:  schema,
			RawOutputSchema: choiceOutputSchema,
			Annotations:     annotations(title, false),
		},
		prepare: func(args map[string]any, env callEnv) (prepared, error) {
			q, c, err := normalizeChoice(name, args)
			if err != nil {
				return prepared{}, err
			}
			c.start = time.Now()
			c.elicitation = env.elicitation
			q.ID = env.questionID(name, q)
			elicited := c
			elicited.via = viaElicitation
			chat := c
			chat.via = viaChat
			return prepared{
				question: q,
				render:   func(a wire.Answer) *mcp.CallToolResult { return renderChoice(a, c) },
				fail:     func(err error) *mcp.CallToolResult { return failChoice(err, c) },
				pending:  func(a wire.Answer) *mcp.CallToolResult { return pendingChoice(c, a) },
				chat:     func(err error) *mcp.CallToolResult { return failChoice(err, chat) },
				elicited: func(a wire.Answer) *mcp.CallToolResult { return renderChoice(a, elicited) },
			}, nil
		},
	}
}

// choiceCall is what the renderer needs to know about one call.
type choiceCall struct {
	tool     string
	kind     choiceKind
	question string
	options  []string
	// descriptions[i] is options[i]'s description, "" when none.
	descriptions []string
	// recommended are the default labels (ask_choice, ask_multi_select) or
	// "yes"/"no" (ask_confirm).
	recommended []string
	allowFree   bool
	// prefill is ask_text's default, the suggested answer.
	prefill string
	// minPick and maxPick bound how many options ask_multi_select's answer
	// may tick, when the caller set min or max (0: no bound; maxPick is
	// then the number of options). Without min, as in the original, at
	// least one option must be ticked (minGiven false, minPick 1).
	minPick, maxPick int
	minGiven         bool
	// prompt is the prompt asked, whose rule (wire.CheckReply) a reply
	// must keep.
	prompt wire.Prompt
	// start is when the call was prepared, for elapsed_ms of a failure.
	start time.Time
	// elicitation: the client declared form elicitation.
	elicitation bool
	// via is the channel of the result: "" (the window), viaElicitation or
	// viaChat; it is also the fallback.
	via string
}

// Channels of a result besides the window (via and fallback); viaNone
// (via only) is the outcome no channel showed: the user is away.
const (
	viaElicitation = "elicitation"
	viaChat        = "chat"
	viaNone        = "none"
)

// normalizeChoice applies seed 004's rules to the arguments of tool, one of
// the family. An error is an *ArgError. On success the Question has a fresh
// ID, Source tool, one prompt, the countdown of timeout_ms, and passes
// Validate:
//   - ask_choice: exclusive options (KindChoice, Single), default pre-selected;
//     with allow_free_text a KindText prompt (a reply box beside the options);
//   - ask_confirm: KindYesNo; default becomes a "Recommended" context line;
//   - ask_text: KindText without options, placeholder in the empty box,
//     default prefilled in it (submitted unchanged, it is the answer);
//   - ask_multi_select: checkboxes (KindChoice), defaults pre-ticked; with
//     allow_free_text a KindText prompt.
//
// Unknown properties are ignored.
func normalizeChoice(tool string, args map[string]any) (wire.Question, choiceCall, error) {
	c := choiceCall{tool: tool}
	switch tool {
	case askChoiceName:
		c.kind = kindPick
	case askConfirmName:
		c.kind = kindConfirm
	case askTextName:
		c.kind = kindText
	case askMultiSelectName:
		c.kind = kindMulti
	default:
		return wire.Question{}, c, argErrorf("tool", "%q is not one of the ask_choice family", tool)
	}
	var err error
	if c.question, _, err = readString(args, "question", strArg{required: true, max: maxQuestionRunes}); err != nil {
		return wire.Question{}, c, err
	}
	timeout, err := timeoutField(args)
	if err != nil {
		return wire.Question{}, c, err
	}
	q := wire.Question{ID: wire.NewID(), Source: tool, TimeoutSeconds: timeout}
	p := wire.Prompt{Markdown: c.question}
	switch c.kind {
	case kindPick, kindMulti:
		err = choiceOptions(args, &c, &p)
		if rule := c.boundsText(); rule != "" {
			q.Context = []wire.Field{{Label: "Choose", Value: rule}}
		}
	case kindConfirm:
		p.Kind = wire.KindYesNo
		var rec, given bool
		if rec, given, err = boolField(args, "default", "default"); given {
			c.recommended = []string{yesNo(rec)}
			q.Context = []wire.Field{{Label: "Recommended", Value: map[bool]string{true: "Yes", false: "No"}[rec]}}
		}
	case kindText:
		p.Kind = wire.KindText
		if p.Placeholder, _, err = readString(args, "placeholder", strArg{max: maxPlaceholder}); err == nil {
			p.Prefill, _, err = readString(args, "default", strArg{max: maxTextDefault})
			c.prefill = p.Prefill
		}
	}
	if err != nil {
		return wire.Question{}, c, err
	}
	// What answered refuses, carried to the window, which holds back a
	// reply that breaks it (wire.CheckReply is the one rule of both).
	switch c.kind {
	case kindMulti:
		p.MinSelected, p.MaxSelected = c.minPick, c.maxPick
	case kindConfirm:
		p.Required = len(c.recommended) == 0 // with a default, submitting accepts it
	default:
		p.Required = true
	}
	c.prompt = p
	q.Prompts = []wire.Prompt{p}
	return q, c, nil
}

// choiceOptions reads options, default/defaults and allow_free_text of
// ask_choice and ask_multi_select into c and p.
func choiceOptions(args map[string]any, c *choiceCall, p *wire.Prompt) error {
	opts, err := choiceOptionList(args, "options", minChoiceOptions, maxChoiceOptions)
	if err != nil {
		return err
	}
	for _, o := range opts {
		c.options = append(c.options, o.Label)
		c.descriptions = append(c.descriptions, o.Description)
	}
	labels := c.options
	if c.allowFree, _, err = boolField(args, "allow_free_text", "allow_free_text"); err != nil {
		return err
	}
	if c.kind == kindPick {
		d, given, err := readString(args, "default", strArg{max: maxLabelRunes})
		if err != nil {
			return err
		}
		if given {
			if !contains(labels, d) {
				return argErrorf("default", "%q does not exactly match any of options; pass one of the labels, or omit default", d)
			}
			c.recommended = []string{d}
		}
	} else {
		if c.recommended, err = multiDefaults(args, labels); err != nil {
			return err
		}
		if err = pickBounds(args, c); err != nil {
			return err
		}
	}
	p.Kind, p.Single = wire.KindChoice, c.kind == kindPick
	if c.allowFree {
		p.Kind = wire.KindText // the options and an optional reply box
		p.Placeholder = "Optional: add a note, or an answer not listed"
	}
	for _, o := range opts {
		o.Default = contains(c.recommended, o.Label)
		p.Options = append(p.Options, o)
	}
	return nil
}

// optionShape is the shape of an option of ask_choice and ask_multi_select,
// for error messages.
const optionShape = `a string (the option's label) or an object {"label": string, "description"?: string} ("text" and "value" are aliases of "label")`

// choiceOptionList reads the options at m[key]: min to max items, each a
// label or a {label, description} object (label aliases text and value,
// the first that is present). A label is non-blank, at most maxLabelRunes
// characters and different from every other; it is kept exactly as given
// (the answer repeats it). A description is trimmed and at most
// maxAUQDescription characters. Other keys of an object are ignored.
func choiceOptionList(m map[string]any, key string, min, max int) ([]wire.Option, error) {
	items, err := arrayField(m, key, key, min, max)
	if err != nil {
		return nil, err
	}
	opts := make([]wire.Option, 0, len(items))
	seen := make(map[string]int, len(items))
	for i, item := range items {
		field := indexed(key, i)
		var o wire.Option
		switch v := item.(type) {
		case string:
			o.Label, err = stringValue(v, strArg{field: field, required: true, max: maxLabelRunes})
		case map[string]any:
			o, err = optionObject(v, field)
		default:
			err = argErrorf(field, "must be %s, got %s", optionShape, jsonType(item))
		}
		if err != nil {
			return nil, err
		}
		if j, dup := seen[o.Label]; dup {
			return nil, argErrorf(field, "%q repeats %s; every option must be different", o.Label, indexed(key, j))
		}
		seen[o.Label] = i
		opts = append(opts, o)
	}
	return opts, nil
}

// optionObject reads one {label|text|value, description} option; field is
// its path.
func optionObject(v map[string]any, field string) (wire.Option, error) {
	labelKey := "label"
	for _, k := range []string{"label", "text", "value"} {
		if x, ok := v[k]; ok && x != nil {
			labelKey = k
			break
		}
	}
	label, _, err := readString(v, labelKey, strArg{field: field + "." + labelKey, required: true, max: maxLabelRunes})
	if err != nil {
		return wire.Option{}, err
	}
	desc, _, err := readString(v, "description", strArg{field: field + ".description", trim: true, max: maxAUQDescription})
	if err != nil {
		return wire.Option{}, err
	}
	return wire.Option{Label: label, Description: desc}, nil
}

// pickBounds reads ask_multi_select's min (0 to 25) and max (1 to 25), as
// the original does: min must not exceed max (max defaults to the number
// of options) and neither may exceed the number of options. Unset, nothing
// bounds the count.
func pickBounds(args map[string]any, c *choiceCall) error {
	n := len(c.options)
	lo, loGiven, err := countField(args, "min", 0, maxChoiceOptions)
	if err != nil {
		return err
	}
	hi, hiGiven, err := countField(args, "max", 1, maxChoiceOptions)
	if err != nil {
		return err
	}
	if !hiGiven {
		hi = n
	}
	switch {
	case lo > hi:
		return argErrorf("min", "(%d) must not exceed max (%d)", lo, hi)
	case hi > n:
		return argErrorf("max", "(%d) cannot exceed the number of options (%d)", hi, n)
	}
	c.minPick, c.minGiven = 1, loGiven // the original's default: one or more
	if loGiven {
		c.minPick = lo
	}
	if hiGiven {
		c.maxPick = hi
	}
	return nil
}

// multiDefaults reads ask_multi_select's defaults: labels of options, each
// at most once.
func multiDefaults(args map[string]any, labels []string) ([]string, error) {
	items, err := arrayField(args, "defaults", "defaults", 0, len(labels))
	if err != nil {
		return nil, err
	}
	var out []string
	for i, item := range items {
		field := indexed("defaults", i)
		s, ok := item.(string)
		if !ok {
			return nil, argErrorf(field, "must be a string (a label of options), got %s", jsonType(item))
		}
		if !contains(labels, s) {
			return nil, argErrorf(field, "%q does not exactly match any of options; pass labels of options only", s)
		}
		if contains(out, s) {
			return nil, argErrorf(field, "%q is listed twice", s)
		}
		out = append(out, s)
	}
	return out, nil
}

func contains(list []string, s string) bool {
	for _, l := range list {
		if l == s {
			return true
		}
	}
	return false
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// choiceResult is the structuredContent of every result of the family, in
// the shape of schemas/ask_choice_output.json: every field is always
// present.
type choiceResult struct {
	Via      string   `json:"via"`
	Tool     string   `json:"tool"`
	Answer   string   `json:"answer"`
	Status   string   `json:"status"`
	Message  string   `json:"message"`
	Fallback string   `json:"fallback"`
	FormURL  string   `json:"form_url"`
	Question string   `json:"question"`
	Selected []string `json:"selected"`
	// Confirmed is ask_confirm's answer, true for yes and false for no;
	// null for the other tools and for an ask_confirm not answered, as
	// the original has it (false would read as a "no").
	Confirmed           *bool  `json:"confirmed"`
	FreeText            string `json:"free_text"`
	NextStep            string `json:"next_step"`
	ElapsedMS           int64  `json:"elapsed_ms"`
	ClientElicitation   bool   `json:"client_elicitation"`
	AutoRejectSuspected bool   `json:"auto_reject_suspected"`
	// Away is set only when the user is away and asked agents to proceed.
	Away bool `json:"away,omitempty"`
}

// Statuses of the family.
const (
	statusAnswered       = "answered"
	statusDeclined       = "declined"
	statusCancelled      = "cancelled"
	statusTimeout        = "timeout"
	statusNeedsUserInput = "needs_user_input"
	statusAway           = "away"
)

// newChoiceResult is a result of c with the fixed fields set.
func newChoiceResult(c choiceCall) choiceResult {
	via, fallback := "window", "none"
	if c.via != "" {
		via, fallback = c.via, c.via
	}
	return choiceResult{
		Via:               via,
		Tool:              c.tool,
		Fallback:          fallback,
		Question:          c.question,
		Selected:          []string{},
		ClientElicitation: c.elicitation,
	}
}

// renderChoice renders an Answer of the window. It is total: a status it
// does not know is "cancelled", never an answer.
func renderChoice(a wire.Answer, c choiceCall) *mcp.CallToolResult {
	r := newChoiceResult(c)
	r.ElapsedMS = max(a.ElapsedMS, 0)
	if a.Via == wire.ViaNotification {
		r.Via = wire.ViaNotification
	}
	switch a.Status {
	case wire.StatusAnswered:
		var reply wire.Reply
		if len(a.Replies) > 0 {
			reply = a.Replies[0]
		}
		answered(&r, c, reply)
	case wire.StatusDismissed:
		if a.Reason == reasonFormDeclined {
			return declinedForm(r, c, autoDeclined(a))
		}
		if auto := autoCancelled(a); auto != nil {
			return declinedForm(r, c, auto) // nobody was asked: ask in chat
		}
		// The window (or the client's form) was closed or dismissed
		// without an answer: cancelled, as the original reports a dismissal.
		r.Status = statusCancelled
		r.Message = "The user dismissed the question without answering."
		if a.Reason == wire.ReasonQuit {
			r.Message = "The user quit the feedback app without answering."
		}
		r.NextStep = "Do not ask again at once, and do not assume an answer. Continue only if a safe default exists; otherwise say what is blocked. An unanswered question is never permission for a destructive action."
	case wire.StatusAway:
		r.Status, r.Away, r.Via = statusAway, true, viaNone
		r.Message = "The user is away: no window was shown."
		r.NextStep = nextStep(kindAway, c.tool, nil, time.Time{})
	case wire.StatusTimeout:
		r.Status = statusTimeout
		r.Message = "The user did not answer in time: the window's countdown ran out."
		r.NextStep = nextStep(kindTimeout, c.tool, nil, time.Time{}) // nextsteps.go
	default:
		r.Status = statusCancelled
		r.Message = fmt.Sprintf("The question ended without an answer (the feedback app reported status %q).", a.Status)
		r.NextStep = "Do not assume an answer. Call " + c.tool + " again, or ask the user in chat."
	}
	return choiceToolResult(r)
}

// declinedForm is the result of a client form the user declined: an
// explicit refusal to answer (status declined), unless it came back so fast
// that the client probably declined it by itself (auto, from autoDeclined,
// is not nil) — then the agent must ask in chat (needs_user_input,
// auto_reject_suspected), as the original does.
func declinedForm(r choiceResult, c choiceCall, auto error) *mcp.CallToolResult {
	if auto != nil {
		res := failChoice(auto, c)
		fr := res.StructuredContent.(choiceResult)
		fr.ElapsedMS, fr.AutoRejectSuspected = r.ElapsedMS, true
		return choiceToolResult(fr)
	}
	r.Status = statusDeclined
	r.Message = "The user declined to answer."
	r.NextStep = "Do not ask again. Choose the most conservative option and say which assumption you made, or stop and report that a decision is needed."
	return choiceToolResult(r)
}

// answered fills r for a submitted window. A submission that answers
// nothing (no option chosen and no text for ask_choice, neither yes nor no
// for ask_confirm without a default) is declined; ask_confirm submitted
// without choosing answers its default.
func answered(r *choiceResult, c choiceCall, reply wire.Reply) {
	text := strings.TrimSpace(reply.Text)
	r.Status = statusAnswered
	if prob := wire.CheckReply(c.prompt, reply); prob != nil {
		refused(r, c, prob)
		return
	}
	switch c.kind {
	case kindConfirm:
		switch reply.Text {
		case "yes":
			r.Answer, r.Confirmed = "yes", ptr(true)
			r.Message = "The user answered yes."
			r.NextStep = "Proceed: the user confirmed."
		case "no":
			r.Answer, r.Confirmed = "no", ptr(false)
			r.Message = "The user answered no."
			r.NextStep = "Do not go ahead with what you asked about. Adjust your plan, or ask the user what they want instead."
		default:
			if len(c.recommended) == 0 { // a reply of neither, which CheckReply refuses
				declinedEmpty(r, "without answering yes or no")
				return
			}
			// Submitted without choosing (Ctrl+Enter, or Enter): the
			// recommended answer shown in the window stands.
			r.Answer = c.recommended[0]
			r.Confirmed = ptr(r.Answer == "yes")
			r.Message = "The user submitted without choosing, which accepts the recommended answer: " + r.Answer + "."
			r.NextStep = "Proceed: the user confirmed."
			if !*r.Confirmed {
				r.NextStep = "Do not go ahead with what you asked about. Adjust your plan, or ask the user what they want instead."
			}
		}
	case kindText:
		r.Answer = text
		r.Message = "The user answered: " + text
		r.NextStep = "Continue with the user's answer."
	case kindPick:
		r.FreeText = text
		r.Selected = append(r.Selected, reply.Selected...)
		switch {
		case len(reply.Selected) > 0:
			r.Answer = strings.Join(reply.Selected, ", ")
			r.Message = fmt.Sprintf("The user chose %q.", r.Answer)
			r.NextStep = fmt.Sprintf("Proceed with %q.", r.Answer)
			if text != "" {
				r.Message += " They added a note: " + text
				r.NextStep = fmt.Sprintf("Proceed with %q, taking the note in free_text into account.", r.Answer)
			}
		case text != "":
			r.Answer = text
			r.Message = "The user chose none of the options and answered in their own words: " + text
			r.NextStep = "Act on the user's own answer in answer; it is none of your options. Ask in chat if it is unclear."
		}
	case kindMulti:
		r.FreeText = text
		r.Selected = append(r.Selected, reply.Selected...)
		r.Answer = strings.Join(reply.Selected, ", ")
		if len(reply.Selected) == 0 {
			r.Message = fmt.Sprintf("The user selected none of the %d options.", len(c.options))
			r.NextStep = "Proceed with none of the options selected."
		} else {
			r.Message = fmt.Sprintf("The user selected %d of %d options: %s.", len(reply.Selected), len(c.options), quoteList(reply.Selected))
			r.NextStep = "Proceed with the selected options."
		}
		if text != "" {
			r.Message += " They added a note: " + text
			r.NextStep = strings.TrimSuffix(r.NextStep, ".") + ", taking the note in free_text into account."
		}
	}
}

// boundsText says ask_multi_select's min and max ("at least 1 and at most
// 2"), "" when neither was set.
func (c choiceCall) boundsText() string {
	var parts []string
	if c.minPick > 0 {
		parts = append(parts, fmt.Sprintf("at least %d", c.minPick))
	}
	if c.maxPick > 0 {
		parts = append(parts, fmt.Sprintf("at most %d", c.maxPick))
	}
	return strings.Join(parts, " and ")
}

// statusInvalidResponse: the user submitted, but the submission breaks
// the question's own rules (ask_multi_select's min or max); it carries no
// answer.
const statusInvalidResponse = "invalid_response"

// refused fills r for a submission that breaks the question's rule
// (prob, from wire.CheckReply): ask_multi_select ticked outside its min or
// max, or ask_text's empty box, is an invalid_response; ask_choice
// submitted without an option or text, or ask_confirm without yes or no
// and no default, is declined. The window holds such a reply back, so
// this is a client form's or an older window's.
func refused(r *choiceResult, c choiceCall, prob *wire.ReplyProblem) {
	switch {
	case prob.Kind == wire.ProblemTooFew || prob.Kind == wire.ProblemTooMany:
		rule := fmt.Sprintf("at least %d", prob.Bound)
		if prob.Kind == wire.ProblemTooMany {
			rule = fmt.Sprintf("at most %d", prob.Bound)
		}
		r.Status = statusInvalidResponse
		r.Message = fmt.Sprintf("The user ticked %d options, but the question asked for %s; this is not a usable answer.", prob.Selected, rule)
		r.NextStep = "Ask again with bounds the user can meet, or ask in chat; do not guess."
		if !c.minGiven && prob.Kind == wire.ProblemTooFew {
			r.NextStep = "Ask again with min 0 if none of the options is a valid answer, or ask in chat; do not guess."
		}
	case c.kind == kindText: // only spaces: as the original, no usable answer
		r.Status = statusInvalidResponse
		r.Message = "The user submitted an empty answer (nothing, or only spaces); this is not a usable answer."
		r.NextStep = "Do not treat it as an answer. Ask again (in chat if you like), or continue with an assumption you state explicitly."
	case c.kind == kindConfirm:
		declinedEmpty(r, "without answering yes or no")
	default:
		declinedEmpty(r, "without choosing an option")
	}
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }

// declinedEmpty makes r a declined submission that answered nothing.
func declinedEmpty(r *choiceResult, what string) {
	r.Status = statusDeclined
	r.Answer, r.Selected, r.FreeText = "", []string{}, ""
	r.Message = "The user submitted " + what + "."
	r.NextStep = "Do not assume an answer. Continue without it if you can, or ask the user in chat."
}

// pendingChoice is the result when the client's wait ran out while the
// window stays open: status timeout (the schema's "not answered"), with a
// message and next_step that say the window is still open and the call is
// to be made again.
func pendingChoice(c choiceCall, a wire.Answer) *mcp.CallToolResult {
	r := newChoiceResult(c)
	r.Status = statusTimeout
	r.ElapsedMS = max(time.Since(c.start).Milliseconds(), 0)
	r.Message = "Not answered yet: the question is still open in the feedback window, with anything the user typed."
	if a.Snooze != nil {
		r.Message = "Not answered yet: the user snoozed the question; its window comes back, with anything they typed, when the snooze ends."
	}
	r.NextStep = callAgain(a, c.tool, "This is not an answer and not a default. Call "+c.tool+" again now with the same arguments to keep waiting for the user.")
	return choiceToolResult(r)
}

// failChoice is the result when the window could not ask: the agent must
// ask in chat, and message holds everything it needs to.
func failChoice(err error, c choiceCall) *mcp.CallToolResult {
	r := newChoiceResult(c)
	r.Status = statusNeedsUserInput
	r.ElapsedMS = max(time.Since(c.start).Milliseconds(), 0)
	var b strings.Builder
	fmt.Fprintf(&b, "The question could not be shown in the feedback window (%v). Ask the user in chat:\n%s", err, c.question)
	switch c.kind {
	case kindConfirm:
		b.WriteString("\nAnswer: yes or no")
		if len(c.recommended) > 0 {
			fmt.Fprintf(&b, " (recommended: %s)", c.recommended[0])
		}
	case kindText:
		if c.prefill != "" {
			b.WriteString("\nSuggested answer: " + c.prefill)
		}
	case kindPick, kindMulti:
		if c.kind == kindPick {
			b.WriteString("\nOptions (choose one):")
		} else {
			b.WriteString("\nOptions (choose any number):")
		}
		for i, o := range c.options {
			b.WriteString("\n- " + o)
			if i < len(c.descriptions) && c.descriptions[i] != "" {
				b.WriteString(" — " + c.descriptions[i])
			}
			if contains(c.recommended, o) {
				b.WriteString(" (recommended)")
			}
		}
		if rule := c.boundsText(); rule != "" {
			b.WriteString("\nChoose " + rule + ".")
		}
		if c.allowFree {
			b.WriteString("\nThe user may also answer in their own words.")
		}
	}
	r.Message = b.String()
	r.NextStep = "Ask the user this question yourself, in chat, with the options in message. Wait for the reply before you continue; do not guess."
	return choiceToolResult(r)
}

// choiceToolResult is r as structuredContent and as a text block holding
// the same JSON.
func choiceToolResult(r choiceResult) *mcp.CallToolResult { return jsonToolResult(r, false) }

// quoteList is "\"A\", \"B\"".
func quoteList(labels []string) string {
	q := make([]string, len(labels))
	for i, l := range labels {
		q[i] = fmt.Sprintf("%q", l)
	}
	return strings.Join(q, ", ")
}

// clientDeclaresElicitation reports whether the client of the call in ctx
// declared form elicitation: per request (protocol 2026-07-28) or at
// initialize. An elicitation capability with neither form nor url is form
// support (the 2025-06-18 shape). The handler puts it into callEnv (and the
// choice family into client_elicitation); the no-GUI fallback asks through
// elicitation only when it is true.
func clientDeclaresElicitation(ctx context.Context) bool {
	var caps *mcp.ClientCapabilities
	if info := server.RequestProtocolInfoFromContext(ctx); info != nil && info.ClientCapabilities != nil {
		caps = info.ClientCapabilities
	} else if s, ok := server.ClientSessionFromContext(ctx).(server.SessionWithClientInfo); ok {
		c := s.GetClientCapabilities()
		caps = &c
	}
	if caps == nil || caps.Elicitation == nil {
		return false
	}
	e := caps.Elicitation
	return e.Form != nil || e.URL == nil
}
