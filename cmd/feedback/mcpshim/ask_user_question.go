package mcpshim

import (
	_ "embed"
	"fmt"
	"slices"
	"strings"
	"time"

	"feedback/internal/i18n"
	"feedback/internal/settings"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// The ask_user_question dialect (reference tool: seed 001, AskUserQuestion).
// Its limits are counted in characters (runes).
const (
	maxAUQQuestions = wire.MaxPrompts // questions in one window
	maxAUQHeader    = 12
	// maxAUQOptions is the hard cap of options per question ("Other"
	// included). The seed suggests 2-4; 8 leaves room for a longer list
	// while a window of 4 questions stays readable. Only options 1-9 of the
	// whole window have an Alt+digit shortcut.
	maxAUQOptions     = 8
	maxAUQDescription = 1000
)

//go:embed schemas/ask_user_question.json
var askUserQuestionSchema []byte

// askUserQuestionOutputSchema is the shape of the structuredContent every success returns
// (checkOutput in the tests holds every result to it).
//
//go:embed schemas/ask_user_question_output.json
var askUserQuestionOutputSchema []byte

var askUserQuestion = dialect{
	tool: mcp.Tool{
		Name: "ask_user_question",
		Description: "Ask the user 1-4 questions in one desktop window and wait for the answers; the user cannot see your text output, so this is how you ask. " +
			"Use it to clarify a vague task, learn a preference, or confirm an action (above all a destructive one) before you go on. " +
			"Every question with options also offers \"Other\", where the user may type their own answer. " +
			"Returns one line per question: \"User selected: A, B\", \"User answered: <their text>\" (\"Other\" or a question without options) " +
			"or \"User declined to answer the question.\" (in the user's language). Wait for and use typed answers.",
		RawInputSchema:  askUserQuestionSchema,
		RawOutputSchema: askUserQuestionOutputSchema,
		Annotations:     annotations("Ask the user questions", false),
	},
	prepare: prepareAskUserQuestion,
}

// auqQuestion is what the renderer needs to know about one question.
type auqQuestion struct {
	question, header string
	// choice: the question has options; without, it is a free-text question.
	choice bool
	// free[label]: the option reveals a text field ("Other" / "其他").
	free map[string]bool
}

func prepareAskUserQuestion(args map[string]any, env callEnv) (prepared, error) {
	q, qs, err := normalizeAskUserQuestion(args)
	if err != nil {
		return prepared{}, err
	}
	p := phrasesFor(env.settings.Language)
	offerOther(&q, qs, otherLabel(env.settings.Language))
	q.ID = env.questionID("ask_user_question", q)
	render := func(a wire.Answer) *mcp.CallToolResult { return renderAskUserQuestion(a, qs, p) }
	chat := func(cause error) *mcp.CallToolResult {
		text := fmt.Sprintf(auqNeedsUserInput, failureCause(cause), chatQuestion(q))
		return auqStatusResult(statusNeedsUserInput, text, q.ID, qs)
	}
	return prepared{
		question: q,
		render:   render,
		pending: func(a wire.Answer) *mcp.CallToolResult {
			res := auqStatusResult("pending", callAgain(a, "ask_user_question", p.pending), q.ID, qs)
			r := res.StructuredContent.(auqResult)
			r.ElapsedMS = max(a.ElapsedMS, 0)
			res.StructuredContent = r
			return res
		},
		chat: chat,
		// A form the user declined is "declined", as a closed modal is
		// (seed 001); one declined at once was never seen: ask in chat.
		elicited: elicitedOrChat(render, chat),
	}, nil
}

// otherLabel is the label of the "Other" option the window shows: the
// phrases' for a language set (lang), else the window's own — the
// process's language (main's i18n.Use: the OS locale's, as the app's),
// so a Chinese desktop shows 其他 while the sentences returned stay
// English.
func otherLabel(lang string) string {
	switch lang {
	case settings.English, settings.SimplifiedChinese, settings.TraditionalChinese:
		return phrasesFor(lang).other
	}
	return i18n.T("question.other")
}

// auqNeedsUserInput is the text when no window can ask: %s the cause, %s
// the questions with their options.
const auqNeedsUserInput = "The question window cannot be shown (%s). Nothing was answered. Ask the user these questions in chat yourself and wait for the answers; do not guess:\n\n%s"

// auqStatusResult is a result without answers: every question "unanswered".
func auqStatusResult(status, text, id string, qs []auqQuestion) *mcp.CallToolResult {
	res := auqResult{Status: status, QuestionID: id, Answers: make([]auqAnswer, len(qs)), Message: text}
	for i, q := range qs {
		res.Answers[i] = auqAnswer{Question: q.question, Header: q.header, Status: "unanswered", Selected: []string{}}
	}
	return &mcp.CallToolResult{Content: []mcp.Content{mcp.NewTextContent(text)}, StructuredContent: res}
}

// normalizeAskUserQuestion applies seed 001's rules. An error is an
// *ArgError. On success the Question has a fresh ID, Source
// "ask_user_question", one prompt per question (KindChoice with options,
// single unless multiSelect, "Other" as a FreeText option; KindText without
// options) and passes Validate. A single question's header is also the
// window's title (the window shows prompt headers only when there are
// several). Unknown properties are ignored.
func normalizeAskUserQuestion(args map[string]any) (wire.Question, []auqQuestion, error) {
	items, err := arrayField(args, "questions", "questions", 1, maxAUQQuestions)
	if err != nil {
		return wire.Question{}, nil, err
	}
	prompts := make([]wire.Prompt, 0, len(items))
	qs := make([]auqQuestion, 0, len(items))
	for i, item := range items {
		field := indexed("questions", i)
		obj, ok := item.(map[string]any)
		if !ok {
			return wire.Question{}, nil, argErrorf(field, `must be an object {"question": string, "header"?: string, "options"?: [...], "multiSelect"?: boolean}, got %s`, jsonType(item))
		}
		p, aq, err := auqPrompt(obj, field)
		if err != nil {
			return wire.Question{}, nil, err
		}
		prompts = append(prompts, p)
		qs = append(qs, aq)
	}
	q := wire.Question{ID: wire.NewID(), Source: "ask_user_question", Prompts: prompts}
	if len(prompts) == 1 {
		q.Title = prompts[0].Header
	}
	return q, qs, nil
}

// auqPrompt normalises one item of questions; field is its path.
func auqPrompt(obj map[string]any, field string) (wire.Prompt, auqQuestion, error) {
	var p wire.Prompt
	var err error
	if p.Markdown, _, err = readString(obj, "question", strArg{field: field + ".question", required: true, max: maxQuestionRunes}); err != nil {
		return p, auqQuestion{}, err
	}
	if p.Header, _, err = readString(obj, "header", strArg{field: field + ".header", trim: true, max: maxAUQHeader}); err != nil {
		return p, auqQuestion{}, err
	}
	multi, _, err := boolField(obj, "multiSelect", field+".multiSelect")
	if err != nil {
		return p, auqQuestion{}, err
	}
	aq := auqQuestion{question: p.Markdown, header: p.Header, free: map[string]bool{}}
	items, err := arrayField(obj, "options", field+".options", 0, maxAUQOptions)
	if err != nil {
		return p, aq, err
	}
	seen := make(map[string]int, len(items))
	for j, item := range items {
		of := indexed(field+".options", j)
		o, err := auqOption(item, of)
		if err != nil {
			return p, aq, err
		}
		if k, dup := seen[o.Label]; dup {
			return p, aq, argErrorf(of+".label", "%q repeats %s; every option must be different", o.Label, indexed(field+".options", k))
		}
		seen[o.Label] = j
		if o.FreeText {
			aq.free[o.Label] = true
		}
		p.Options = append(p.Options, o)
	}
	p.Kind = wire.KindText // a free-text question
	if len(p.Options) > 0 {
		p.Kind = wire.KindChoice
		p.Single = !multi
		aq.choice = true
	}
	return p, aq, nil
}

// offerOther gives every question with options that has no "Other" of
// its own a last option labelled other (the user's language): choosing it
// reveals a text field, and its text is the answer ("User answered: …"),
// as Claude Code's own tool always allows. A question without options is
// a free-text question already.
func offerOther(q *wire.Question, qs []auqQuestion, other string) {
	for i := range q.Prompts {
		p := &q.Prompts[i]
		if len(p.Options) == 0 || len(qs[i].free) > 0 || slices.ContainsFunc(p.Options, func(o wire.Option) bool { return o.Label == other }) {
			continue
		}
		p.Options = append(p.Options, wire.Option{Label: other, FreeText: true})
		qs[i].free[other] = true
	}
}

// auqOption normalises one option {label, description}.
func auqOption(item any, field string) (wire.Option, error) {
	obj, ok := item.(map[string]any)
	if !ok {
		return wire.Option{}, argErrorf(field, `must be an object {"label": string, "description"?: string}, got %s`, jsonType(item))
	}
	label, _, err := readString(obj, "label", strArg{field: field + ".label", required: true, max: maxLabelRunes})
	if err != nil {
		return wire.Option{}, err
	}
	desc, _, err := readString(obj, "description", strArg{field: field + ".description", trim: true, max: maxAUQDescription})
	if err != nil {
		return wire.Option{}, err
	}
	return wire.Option{Label: label, Description: desc, FreeText: isOtherLabel(label)}, nil
}

// isOtherLabel reports whether an option label asks for the user's own
// text: "Other" or "其他", trimmed, in any case.
func isOtherLabel(label string) bool {
	l := strings.TrimSpace(label)
	return strings.EqualFold(l, "Other") || l == "其他"
}

// auqAnswer is one question's entry in structuredContent.
type auqAnswer struct {
	Question string `json:"question"`
	Header   string `json:"header"`
	// Status is "selected" (options only), "answered" (the user's own
	// text, with or without options), "declined" (nothing chosen or typed,
	// or the window was dismissed) or "unanswered" (the window timed out).
	Status   string   `json:"status"`
	Selected []string `json:"selected"`
	Answer   string   `json:"answer"`
}

// auqResult is the structuredContent of an ask_user_question result.
type auqResult struct {
	// Status is "answered", "declined" (the window was dismissed, or
	// submitted with every question declined),
	// "timeout", "pending" (the client's wait ran out; the window is still
	// open) or "needs_user_input" (no window could be shown).
	Status     string      `json:"status"`
	Answers    []auqAnswer `json:"answers"`
	QuestionID string      `json:"question_id"`
	ElapsedMS  int64       `json:"elapsed_ms"`
	// Via is "notification" when the user answered in the question's
	// desktop notification; absent for the window.
	Via string `json:"via,omitempty"`
	// Away: the user is away and asked agents to proceed (status "away").
	Away bool `json:"away,omitempty"`
	// Message says, on every outcome but answered, what happened and what
	// to do next (on needs_user_input with the questions to ask in chat):
	// the text block's words, for clients that give the model
	// structuredContent alone (Claude Code).
	Message string `json:"message,omitempty"`
}

// renderAskUserQuestion renders an Answer as seed 001's response lines, one
// per question, in p's language; a timeout is one line that is no answer.
// An unknown status is an error result.
func renderAskUserQuestion(a wire.Answer, qs []auqQuestion, p phrases) *mcp.CallToolResult {
	res := auqResult{QuestionID: a.QuestionID, ElapsedMS: a.ElapsedMS, Via: a.Via, Answers: make([]auqAnswer, len(qs))}
	lines := make([]string, len(qs))
	for i, q := range qs {
		res.Answers[i] = auqAnswer{Question: q.question, Header: q.header, Selected: []string{}}
	}
	switch a.Status {
	case wire.StatusAnswered:
		res.Status = "answered"
		for i, q := range qs {
			var r wire.Reply
			if i < len(a.Replies) {
				r = a.Replies[i]
			}
			lines[i] = auqLine(&res.Answers[i], q, r, p)
		}
		// Nothing chosen or typed anywhere is a refusal of every question
		// (issue 30), as a closed window is: the whole is "declined".
		if !slices.ContainsFunc(res.Answers, func(a auqAnswer) bool { return a.Status != "declined" }) {
			res.Status = "declined"
		}
	case wire.StatusDismissed:
		res.Status = "declined"
		for i := range qs {
			res.Answers[i].Status = "declined"
			lines[i] = p.declined
		}
	case wire.StatusTimeout:
		res.Status = "timeout"
		for i := range qs {
			res.Answers[i].Status = "unanswered"
		}
		lines = []string{p.timeout}
	case wire.StatusAway:
		res.Status, res.Away = "away", true
		for i := range qs {
			res.Answers[i].Status = "unanswered"
		}
		lines = []string{nextStep(kindAway, "ask_user_question", nil, time.Time{})}
	default:
		return mcp.NewToolResultError(fmt.Sprintf("The feedback app ended question %s with an unknown status %q; the user's answer is unknown. Update the feedback app and this MCP server to the same version, then call ask_user_question again.", a.QuestionID, a.Status))
	}
	text := strings.Join(lines, "\n")
	if res.Status != "answered" {
		res.Message = text // what the model is told, where it is given structuredContent alone
	}
	return &mcp.CallToolResult{
		Content:           []mcp.Content{mcp.NewTextContent(text)},
		StructuredContent: res,
	}
}

// auqLine fills one answered question's entry and returns its line:
//   - own text typed (an "Other" option ticked, or a free-text question):
//     "User answered: <text>", preceded on the same line by "User selected:
//     A, B; " when other options were ticked too (multiSelect);
//   - options ticked: "User selected: A, B" (an "Other" ticked with no text
//     typed is listed as a label);
//   - nothing: "User declined to answer the question."
func auqLine(ans *auqAnswer, q auqQuestion, r wire.Reply, p phrases) string {
	text := strings.TrimSpace(r.Text)
	ans.Selected = append(ans.Selected, r.Selected...)
	var listed []string
	freeChosen := false
	for _, l := range r.Selected {
		if q.free[l] {
			freeChosen = true
			if text != "" {
				continue // replaced by the text
			}
		}
		listed = append(listed, l)
	}
	if q.choice && !freeChosen {
		text = "" // a choice's text field counts only while its option is ticked
	}
	switch {
	case text != "" && len(listed) > 0:
		ans.Status, ans.Answer = "answered", text
		return p.mixedLine(listed, text)
	case text != "":
		ans.Status, ans.Answer = "answered", text
		return p.answeredLine(text)
	case len(listed) > 0:
		ans.Status = "selected"
		return p.selectedLine(listed)
	default:
		ans.Status = "declined"
		return p.declined
	}
}
