package mcpshim

import (
	_ "embed"
	"encoding/base64"
	"errors"
	"fmt"
	"math"
	"strings"
	"time"
	"unicode/utf8"

	"feedback/internal/i18n"
	"feedback/internal/settings"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// The interactive_feedback dialect (reference tool: seed 000). Its limits are
// counted in characters (runes).
const (
	maxMessageRunes     = 1_000_000
	maxOptionRunes      = 10_000
	maxHeaderRunes      = 16
	maxPlaceholderRunes = 200
	truncatedMarker     = "…[truncated]"
	// questionTypeYesNo is the one question_type value that changes the
	// window, matched exactly.
	questionTypeYesNo = "yesno"
)

//go:embed schemas/interactive_feedback.json
var interactiveFeedbackSchema []byte

// interactiveFeedbackOutputSchema is the shape of the structuredContent every success returns
// (checkOutput in the tests holds every result to it).
//
//go:embed schemas/interactive_feedback_output.json
var interactiveFeedbackOutputSchema []byte

var interactiveFeedback = dialect{
	tool: mcp.Tool{
		Name: "interactive_feedback",
		Description: "Ask the human user a question in a desktop window and wait for the reply. " +
			"Use it whenever you need a decision, clarification, confirmation or sign-off before continuing. " +
			"Blocks until the user answers, dismisses the window, or its countdown runs out. " +
			"Returns the selected options and the user's typed reply (\"yes\"/\"no\" for question_type \"yesno\", the only question_type accepted: any other value is the normal reply box); " +
			"a dismissed or timed-out result is not an answer.",
		RawInputSchema:  interactiveFeedbackSchema,
		RawOutputSchema: interactiveFeedbackOutputSchema,
		Annotations:     annotations("Ask the user", false),
	},
	prepare: prepareInteractiveFeedback,
}

// feedbackMeta is what the renderer needs to know about the call besides the
// Answer.
type feedbackMeta struct {
	questionID string
	// placeholderLength is the length in characters of a feedback_placeholder
	// that was clamped, 0 when it was not.
	placeholderLength int
	// ignored names the compatibility arguments that were given.
	ignored []string
	// suffix is Settings.PromptSuffix, appended to answered results.
	suffix string
}

// ignoredFields are accepted with any value and ignored (seed 000's
// compatibility list). project_directory, once in it, names the project
// when it is a string (project.go) and is ignored otherwise.
var ignoredFields = []string{
	"submit_button_text", "timeout", "timeout_seconds", "feedback_type",
	"priority", "language", "tags", "user_id", "task_id",
}

// loopFields are clamped and shown as context lines, in this order; each
// label is an i18n id, shown in the process's language (main's i18n.Use:
// the language setting's, else the OS locale's), as the window's own
// labels are.
var loopFields = []struct {
	key, label string
	max        int
}{
	{"loop_id", "context.loop", 64},
	{"loop_phase", "context.phase", 32},
	{"loop_objective", "context.objective", 500},
	{"iteration_label", "context.iteration", 32},
	{"success_criteria", "context.success_criteria", 500},
}

func prepareInteractiveFeedback(args map[string]any, env callEnv) (prepared, error) {
	q, m, err := normalizeInteractiveFeedback(args)
	if err != nil {
		return prepared{}, err
	}
	m.suffix = env.settings.PromptSuffix
	q.ID = env.questionID("interactive_feedback", q)
	m.questionID = q.ID
	render := func(a wire.Answer) *mcp.CallToolResult { return renderInteractiveFeedback(a, m) }
	chat := func(cause error) *mcp.CallToolResult {
		text := fmt.Sprintf(textNeedsUserInput, failureCause(cause), chatQuestion(q))
		return feedbackStatusResult(statusNeedsUserInput, text, m)
	}
	return prepared{
		question: q,
		render:   render,
		ignored:  m.ignored,
		fail:     func(err error) *mcp.CallToolResult { return resubmitResult(env.settings.ResubmitPrompt, err) },
		pending: func(a wire.Answer) *mcp.CallToolResult {
			res := feedbackStatusResult(statusPending, callAgain(a, "interactive_feedback", textPending), m)
			res.StructuredContent = withElapsed(res.StructuredContent.(feedbackResult), a.ElapsedMS)
			return res
		},
		chat:     chat,
		elicited: elicitedOrChat(render, chat), // elicit.go: a form declined at once asks in chat
	}, nil
}

// withElapsed is r with ElapsedMS set.
func withElapsed(r feedbackResult, ms int64) feedbackResult {
	r.ElapsedMS = max(ms, 0)
	return r
}

// feedbackStatusResult is a result that carries no answer: status and text.
func feedbackStatusResult(status, text string, m feedbackMeta) *mcp.CallToolResult {
	return &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(text)},
		StructuredContent: feedbackResult{Status: status, SelectedOptions: []string{}, QuestionID: m.questionID, Message: text},
	}
}

// resubmitResult is the isError result of a service failure: the resubmit
// prompt with "{error}" replaced by the cause (seed 000). An empty prompt
// is settings.DefaultResubmitPrompt.
func resubmitResult(prompt string, err error) *mcp.CallToolResult {
	if prompt == "" {
		prompt = settings.DefaultResubmitPrompt
	}
	return mcp.NewToolResultError(strings.ReplaceAll(prompt, "{error}", failureCause(err)))
}

// failureCause says in a few words why the app could not serve a question.
func failureCause(err error) string {
	var e *wire.Error
	if errors.As(err, &e) {
		cause := fmt.Sprintf("the feedback app refused the question (%s): %s", e.Code, e.Message)
		switch e.Code { // asking again cannot help
		case wire.CodeNoDisplay:
			cause += "; the app cannot show windows on this machine: ask the user in chat instead"
		case wire.CodeRevoked:
			cause += "; ask the user in chat instead, and tell them this machine's relay pairing was revoked on their desktop: they must pair it again"
		case wire.CodeProtocol:
			cause += "; the feedback app and this MCP server are different versions: ask the user to update and restart them"
		}
		return cause
	}
	return err.Error()
}

// normalizeInteractiveFeedback applies seed 000's rules to the arguments of
// one call: aliases, clamps, option shapes, question_type, loop context and
// ignored compatibility fields. An error is an *ArgError. On success the
// Question has a fresh ID, Source "interactive_feedback", one prompt, and
// passes Validate; Client is left for the caller.
func normalizeInteractiveFeedback(args map[string]any) (wire.Question, feedbackMeta, error) {
	var m feedbackMeta
	// Removed upstream (seed 000, R167): the original rejects it, naming
	// it, rather than lose the recommendation silently.
	if _, ok := args["predefined_options_defaults"]; ok {
		return wire.Question{}, m, argErrorf("predefined_options_defaults", `no longer supported (removed upstream); mark a recommended option in predefined_options itself: {"label": "Apply", "default": true}`)
	}
	msg, err := feedbackMessage(args)
	if err != nil {
		return wire.Question{}, m, err
	}
	p := wire.Prompt{Markdown: msg}
	if p.Options, err = feedbackOptions(args); err != nil {
		return wire.Question{}, m, err
	}
	// question_type: "yesno" (surrounding spaces stripped, as the original
	// does) shows Yes/No buttons; anything else — absent, null, another
	// string ("YESNO", "yes-no", "rating"…), another JSON type — is
	// silently the reply box (seed 000: forward-compatible).
	if qt, ok := args["question_type"]; ok && qt != nil {
		if s, _ := qt.(string); strings.TrimSpace(s) == questionTypeYesNo {
			p.Kind = wire.KindYesNo
		} else {
			m.ignored = append(m.ignored, "question_type")
		}
	}
	if p.Header, _, err = readString(args, "header_label", strArg{trim: true, max: maxHeaderRunes, clamp: true}); err != nil {
		return wire.Question{}, m, err
	}
	if p.Placeholder, _, err = readString(args, "feedback_placeholder", strArg{trim: true}); err != nil {
		return wire.Question{}, m, err
	}
	if clamped, cut := clampRunes(p.Placeholder, maxPlaceholderRunes); cut {
		m.placeholderLength = utf8.RuneCountInString(p.Placeholder)
		p.Placeholder = clamped
	}
	lines, err := loopContext(args)
	if err != nil {
		return wire.Question{}, m, err
	}
	var project string
	if dir, ok := args["project_directory"]; ok {
		if d, ok := dir.(string); ok {
			project = projectName(d)
		} else {
			m.ignored = append(m.ignored, "project_directory")
		}
	}
	for _, k := range ignoredFields {
		if _, ok := args[k]; ok {
			m.ignored = append(m.ignored, k)
		}
	}
	q := wire.Question{
		ID:      wire.NewID(),
		Source:  "interactive_feedback",
		Title:   p.Header,
		Project: project,
		Context: lines,
		Prompts: []wire.Prompt{p},
	}
	m.questionID = q.ID
	return q, m, nil
}

// feedbackMessage returns message, else summary, else prompt (the first that
// is a non-blank string). A longer message is cut to 1,000,000 characters and
// ipc.MaxMarkdownBytes bytes, truncatedMarker included.
func feedbackMessage(args map[string]any) (string, error) {
	msg, _, err := firstNonBlank(args, "message", "summary", "prompt")
	if err != nil {
		return "", err
	}
	if msg == "" {
		return "", argErrorf("message", "required: pass the question as a non-empty Markdown string in message (aliases: summary, prompt)")
	}
	msg, _ = truncateMarked(msg, maxMessageRunes, wire.MaxMarkdownBytes, truncatedMarker)
	return msg, nil
}

// feedbackOptions returns predefined_options, else options: strings or
// {label|text|value, default|selected|checked} objects. Other items and
// blank labels are dropped, labels are trimmed and clamped, and a repeated
// label keeps its first occurrence.
func feedbackOptions(args map[string]any) ([]wire.Option, error) {
	items, key, err := optionList(args)
	if err != nil || len(items) == 0 {
		return nil, err
	}
	var opts []wire.Option
	seen := make(map[string]bool, len(items))
	for _, item := range items {
		o, ok := optionItem(item)
		if !ok || seen[o.Label] {
			continue
		}
		seen[o.Label] = true
		opts = append(opts, o)
	}
	if len(opts) > wire.MaxOptions {
		return nil, argErrorf(key, "at most %d options, got %d; merge or drop some, or ask in several calls", wire.MaxOptions, len(opts))
	}
	return opts, nil
}

// optionList returns the first of predefined_options and options that is a
// non-empty array, and its key.
func optionList(args map[string]any) ([]any, string, error) {
	for _, k := range []string{"predefined_options", "options"} {
		v, ok := args[k]
		if !ok || v == nil {
			continue
		}
		items, ok := v.([]any)
		if !ok {
			return nil, k, argErrorf(k, `must be an array of strings or of {"label": string, "default": boolean} objects, got %s`, jsonType(v))
		}
		if len(items) > 0 {
			return items, k, nil
		}
	}
	return nil, "", nil
}

// optionItem converts one option item; ok is false for an item to drop.
// An object's default is read by optionDefault, never rejected.
func optionItem(item any) (o wire.Option, ok bool) {
	switch v := item.(type) {
	case string:
		o.Label = v
	case map[string]any:
		o.Label = firstString(v, "label", "text", "value")
		o.Description, _ = clampRunes(strings.TrimSpace(strings.ToValidUTF8(firstString(v, "description"), "\uFFFD")), maxAUQDescription)
		o.Default = optionDefault(v)
	default:
		return o, false
	}
	o.Label, _ = clampRunes(strings.TrimSpace(strings.ToValidUTF8(o.Label, "\uFFFD")), maxOptionRunes)
	return o, strings.TrimSpace(o.Label) != ""
}

// firstString returns the first of keys that holds a non-blank string.
func firstString(m map[string]any, keys ...string) string {
	for _, k := range keys {
		if s, ok := m[k].(string); ok && strings.TrimSpace(s) != "" {
			return s
		}
	}
	return ""
}

// optionDefault reads an option object's default, else selected, else
// checked (the first present decides), coerced as the servers agents
// learned it from do: true for true, a non-zero number and the strings
// true, 1, yes, y, on, selected and checked (any case, trimmed); false for
// anything else — false, 0, null, "", no, n, off, false, an unknown word,
// an array or an object. It never rejects a call.
func optionDefault(m map[string]any) bool {
	for _, k := range []string{"default", "selected", "checked"} {
		v, ok := m[k]
		if !ok {
			continue
		}
		switch v := v.(type) {
		case bool:
			return v
		case float64:
			return v != 0 && !math.IsNaN(v)
		case string:
			switch strings.ToLower(strings.TrimSpace(v)) {
			case "true", "1", "yes", "y", "on", "selected", "checked":
				return true
			}
			return false
		default:
			return false
		}
	}
	return false
}

// loopContext returns the loop fields as context lines, omitting empty ones.
func loopContext(args map[string]any) ([]wire.Field, error) {
	var fields []wire.Field
	for _, f := range loopFields {
		v, _, err := readString(args, f.key, strArg{trim: true, max: f.max, clamp: true})
		if err != nil {
			return nil, err
		}
		if v != "" {
			fields = append(fields, wire.Field{Label: i18n.T(f.label), Value: v})
		}
	}
	return fields, nil
}

// Result texts of interactive_feedback; see the package comment.
const (
	textNothing   = "The user submitted without selecting an option or typing a reply."
	textDismissed = "The user dismissed the question without answering. Do not assume approval; ask again later or continue without it."
	textQuit      = "The user quit the feedback app without answering this question. Do not assume approval; continue without it, or ask the user in chat."

	textPending = "The user has not answered yet; the question is still open in the feedback window, with anything they typed. This is not an answer. Call interactive_feedback again with the same arguments now to keep waiting for the reply."
	// textNeedsUserInput: %s the cause, %s the question with its options.
	textNeedsUserInput = "The feedback window cannot be shown (%s). Nothing was answered. Ask the user this in chat yourself and wait for their reply; do not guess:\n\n%s"
)

// Statuses of interactive_feedback results that carry no answer, besides
// dismissed and timeout.
const (
	statusPending = "pending" // the client's wait ran out; the window is still open
	// statusNeedsUserInput (the choice family's constant) is used for the
	// no-GUI result.
)

// feedbackResult is the structuredContent of an interactive_feedback result.
type feedbackResult struct {
	Status                    string   `json:"status"`
	SelectedOptions           []string `json:"selected_options"`
	UserReply                 string   `json:"user_reply"`
	Images                    int      `json:"images"`
	QuestionID                string   `json:"question_id"`
	ElapsedMS                 int64    `json:"elapsed_ms"`
	PlaceholderTruncated      bool     `json:"placeholder_truncated,omitempty"`
	PlaceholderOriginalLength int      `json:"placeholder_original_length,omitempty"`
	PlaceholderMaxLength      int      `json:"placeholder_max_length,omitempty"`
	// Via is "notification" when the user answered in the question's
	// desktop notification; absent for the window.
	Via string `json:"via,omitempty"`
	// Away: the user is away and asked agents to proceed (status "away").
	Away bool `json:"away,omitempty"`
	// Message says, on every outcome but answered, what happened and what
	// to do next (on needs_user_input with the question to ask in chat):
	// the text block's words, for clients that give the model
	// structuredContent alone (Claude Code).
	Message string `json:"message,omitempty"`
	// NextStep, on answered, is the user's standing instruction to agents
	// (the prompt_suffix setting), which the text blocks end with.
	NextStep string `json:"next_step,omitempty"`
}

// renderInteractiveFeedback renders an Answer in the stable format of the
// package comment. Dismissed and timeout are not errors; an unknown status
// is (the app and the shim disagree), and never reads as an answer.
func renderInteractiveFeedback(a wire.Answer, m feedbackMeta) *mcp.CallToolResult {
	res := feedbackResult{
		Status:          string(a.Status),
		SelectedOptions: []string{},
		QuestionID:      a.QuestionID,
		ElapsedMS:       a.ElapsedMS,
		Via:             a.Via,
	}
	if res.QuestionID == "" {
		res.QuestionID = m.questionID
	}
	var text string
	switch a.Status {
	case wire.StatusAnswered:
		if len(a.Replies) > 0 {
			res.SelectedOptions = append(res.SelectedOptions, a.Replies[0].Selected...)
			res.UserReply = a.Replies[0].Text
		}
		res.Images = len(a.Images)
		text = answeredText(res.SelectedOptions, res.UserReply, res.Images)
	case wire.StatusDismissed:
		text = textDismissed
		if a.Reason == wire.ReasonQuit {
			text = textQuit
		}
	case wire.StatusTimeout:
		text = textTimeout()
	case wire.StatusAway:
		res.Away = true
		text = nextStep(kindAway, "interactive_feedback", nil, time.Time{})
	default:
		return mcp.NewToolResultError(fmt.Sprintf("The feedback app ended question %s with an unknown status %q; the user's answer is unknown. Update the feedback app and this MCP server to the same version, then call interactive_feedback again.", res.QuestionID, a.Status))
	}
	if m.placeholderLength > 0 {
		res.PlaceholderTruncated = true
		res.PlaceholderOriginalLength = m.placeholderLength
		res.PlaceholderMaxLength = maxPlaceholderRunes
		text += fmt.Sprintf("\n\nNote: feedback_placeholder was truncated from %d to %d characters.", m.placeholderLength, maxPlaceholderRunes)
	}
	switch {
	case a.Status != wire.StatusAnswered:
		res.Message = text // what the model is told, where it is given structuredContent alone
	case text == textNothing:
		res.Message = text // empty fields alone read as an answer of nothing
		fallthrough
	default:
		res.NextStep = m.suffix
	}
	content := []mcp.Content{mcp.NewTextContent(text)}
	if a.Status == wire.StatusAnswered {
		for _, img := range a.Images {
			content = append(content, mcp.NewImageContent(base64.StdEncoding.EncodeToString(img.Data), img.MIME))
		}
		if m.suffix != "" {
			content = append(content, mcp.NewTextContent(m.suffix))
		}
	}
	return &mcp.CallToolResult{Content: content, StructuredContent: res}
}

// answeredText is the text of an answered result.
func answeredText(selected []string, reply string, images int) string {
	var sections []string
	if len(selected) > 0 {
		var b strings.Builder
		b.WriteString("Selected options:")
		for _, s := range selected {
			b.WriteString("\n- " + s)
		}
		sections = append(sections, b.String())
	}
	if reply != "" {
		sections = append(sections, "User reply:\n"+reply)
	}
	if images > 0 {
		sections = append(sections, fmt.Sprintf("Attached images: %d", images))
	}
	if len(sections) == 0 {
		return textNothing
	}
	return strings.Join(sections, "\n\n")
}

// textTimeout is the result when the window's countdown ran out.
func textTimeout() string {
	return "The user did not answer before the window's countdown ran out. " + nextStep(kindTimeout, "interactive_feedback", nil, time.Time{})
}
