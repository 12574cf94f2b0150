package mcpshim

import (
	"fmt"
	"strings"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// The no-GUI fallback asks through the client's own form (MCP
// elicitation/create) when the app cannot show windows. One flat form asks
// the whole question; each prompt becomes properties named after it:
//
//	one prompt:   "answer", and "answer_text" beside options
//	prompt i of several: "q<i>", "q<i>_text"
//
// A yes/no prompt is a string enum ["yes", "no"]; exclusive options a string
// enum of their labels; checkboxes an array of that enum; a reply box (or
// an "Other" option's text) a string. Defaults pre-select the recommended
// options.
//
// A form holds only what the negotiated revision allows. Multi-select
// fields (an array of a string enum) came with 2025-11-25; 2025-06-18
// allows strings, numbers, booleans and string enums only. There the
// checkboxes are one boolean per option ("answer_1", "answer_2", …, or
// "q<i>_1", …), titled with the option's label: a form of checkboxes, as
// the window shows them, where a single string enum would have allowed
// one choice only and a free-text list would have lost the labels.

// formField maps one property of the form back to a prompt.
type formField struct {
	prompt int
	key    string
	role   fieldRole
	label  string // roleOption: the option it selects
}

type fieldRole int

const (
	roleYesNo  fieldRole = iota // "yes" or "no": the reply's text
	roleSingle                  // one label: the reply's selection
	roleMulti                   // labels: the reply's selection
	roleText                    // free text: the reply's text
	roleOption                  // true: the option label is selected
)

// multiSelectFrom is the first revision whose forms allow multi-select
// fields (an array of a string enum).
const multiSelectFrom = "2025-11-25"

// revisionAllowsMultiSelect reports whether the forms of revision allow
// multi-select fields; an unknown ("") revision is given the benefit of
// the doubt, as revisionHasElicitation does.
func revisionAllowsMultiSelect(revision string) bool {
	return revision == "" || revision >= multiSelectFrom
}

// elicitationForm returns the message and the requested schema asking q,
// and how to read the answer back, in a form of the latest revision.
func elicitationForm(q wire.Question) (string, map[string]any, []formField) {
	return elicitationFormAt(q, "")
}

// elicitationFormAt is elicitationForm in the form revision allows (see
// revisionAllowsMultiSelect).
func elicitationFormAt(q wire.Question, revision string) (string, map[string]any, []formField) {
	props := map[string]any{}
	var required []string
	var fields []formField
	add := func(i int, key string, role fieldRole, schema map[string]any, req bool) {
		props[key] = schema
		fields = append(fields, formField{prompt: i, key: key, role: role})
		if req {
			required = append(required, key)
		}
	}
	arrays := revisionAllowsMultiSelect(revision)
	for i, p := range q.Prompts {
		base := "answer"
		if len(q.Prompts) > 1 {
			base = fmt.Sprintf("q%d", i+1)
		}
		title := p.Header
		if title == "" {
			title = p.Summary(80)
		}
		if title == "" {
			title = "Question"
		}
		// The question itself. With one prompt the form's message holds it
		// already (formMessage): a client shows the message, then each
		// field's title and description, and Claude Code's form showed the
		// question three times. Then the field is only "Your answer".
		question := p.Markdown
		if len(q.Prompts) == 1 {
			title, question = "Your answer", ""
		}
		describe := func(s map[string]any, desc string) map[string]any {
			if desc = strings.TrimSpace(desc); desc != "" {
				s["description"] = desc
			}
			return s
		}
		labels, defaults, free := optionLabels(p)
		switch {
		case len(labels) > 0 && !p.Single && !arrays && p.EffectiveKind() != wire.KindYesNo:
			for j, o := range p.Options {
				s := map[string]any{"type": "boolean", "title": o.Label, "default": o.Default}
				desc := o.Description
				if j == 0 { // the question, once, above its checkboxes
					intro := "Choose any number of the options below."
					if question != "" {
						intro = question + "\n\n" + intro
						if p.Header != "" {
							intro = p.Header + "\n\n" + intro
						}
					}
					if desc != "" {
						intro += "\n\n" + desc
					}
					desc = intro
				}
				if desc != "" {
					s["description"] = desc
				}
				key := fmt.Sprintf("%s_%d", base, j+1)
				props[key] = s
				fields = append(fields, formField{prompt: i, key: key, role: roleOption, label: o.Label})
			}
			switch {
			case p.EffectiveKind() == wire.KindText:
				add(i, base+"_text", roleText, map[string]any{"type": "string", "title": "Your reply (optional)"}, false)
			case free != "":
				add(i, base+"_text", roleText, map[string]any{"type": "string", "title": fmt.Sprintf("Your own answer (with %q)", free)}, false)
			}
		case p.EffectiveKind() == wire.KindYesNo:
			add(i, base, roleYesNo, describe(map[string]any{"type": "string", "title": title, "enum": []string{"yes", "no"}}, question), true)
		case len(labels) == 0:
			s := describe(map[string]any{"type": "string", "title": title}, question)
			if p.Prefill != "" {
				s["default"] = p.Prefill
			}
			add(i, base, roleText, s, false)
		default:
			s := describe(map[string]any{"title": title}, question+optionNotes(p))
			role := roleMulti
			if p.Single {
				role = roleSingle
				s["type"], s["enum"] = "string", labels
				if len(defaults) > 0 {
					s["default"] = defaults[0]
				}
			} else {
				s["type"], s["items"] = "array", map[string]any{"type": "string", "enum": labels}
				if len(defaults) > 0 {
					s["default"] = defaults
				}
			}
			add(i, base, role, s, p.EffectiveKind() == wire.KindChoice && free == "" && p.Single)
			switch {
			case p.EffectiveKind() == wire.KindText:
				add(i, base+"_text", roleText, map[string]any{"type": "string", "title": "Your reply (optional)"}, false)
			case free != "":
				add(i, base+"_text", roleText, map[string]any{"type": "string", "title": fmt.Sprintf("Your own answer (with %q)", free)}, false)
			}
		}
	}
	schema := map[string]any{"type": "object", "properties": props}
	if len(required) > 0 {
		schema["required"] = required
	}
	msg := formMessage(q)
	return msg, schema, fields
}

// optionNotes lists the options that carry a description, one per line
// under the question, since a form's enum shows labels only; "" when none
// does.
func optionNotes(p wire.Prompt) string {
	var b strings.Builder
	for _, o := range p.Options {
		if o.Description != "" {
			fmt.Fprintf(&b, "\n- %s: %s", o.Label, o.Description)
		}
	}
	if b.Len() == 0 {
		return ""
	}
	return "\n\nOptions:" + b.String()
}

// formMessage introduces the form: the window title and, for one prompt,
// its question.
func formMessage(q wire.Question) string {
	var b strings.Builder
	if q.Title != "" {
		b.WriteString(q.Title + "\n\n")
	}
	for _, f := range q.Context {
		fmt.Fprintf(&b, "%s: %s\n", f.Label, f.Value)
	}
	if len(q.Context) > 0 {
		b.WriteString("\n")
	}
	if len(q.Prompts) == 1 {
		b.WriteString(q.Prompts[0].Markdown)
	} else {
		fmt.Fprintf(&b, "The agent asks %d questions; answer each below.", len(q.Prompts))
	}
	return b.String()
}

// optionLabels returns p's labels, the default ones, and the label of its
// free-text option ("" when none).
func optionLabels(p wire.Prompt) (labels, defaults []string, free string) {
	for _, o := range p.Options {
		labels = append(labels, o.Label)
		if o.Default {
			defaults = append(defaults, o.Label)
		}
		if o.FreeText && free == "" {
			free = o.Label
		}
	}
	return labels, defaults, free
}

// reasonFormDeclined is the Reason of a dismissed Answer whose client form
// the user declined (an explicit "no" to answering), as opposed to one
// they cancelled or closed. Only the shim sets it; it never reaches the app.
const reasonFormDeclined = "declined"

// formAutoDeclinedError is the cause of the "ask in chat" result of a
// client form declined too soon for a person (autoDeclined).
type formAutoDeclinedError struct{ elapsedMS int64 }

func (e *formAutoDeclinedError) Error() string {
	return fmt.Sprintf("the client declined its form %d ms after it was sent, too soon for a person: it probably declined it by itself, without showing it to the user", e.elapsedMS)
}

// autoDeclined returns the cause when a is a client form declined sooner
// than autoRejectMS after it was sent: the client, not the user, declined
// it (seed 004's auto_reject_suspected), so it is no answer of the user's,
// not even a refusal. nil for anything else.
func autoDeclined(a wire.Answer) error {
	if a.Status == wire.StatusDismissed && a.Reason == reasonFormDeclined && a.ElapsedMS < autoRejectMS {
		return &formAutoDeclinedError{elapsedMS: max(a.ElapsedMS, 0)}
	}
	return nil
}

// reasonFormCancelled is the Reason of a dismissed Answer whose client
// form was cancelled (closed without a choice), by the user or by the
// client itself (autoCancelled). Only the shim sets it.
const reasonFormCancelled = "cancelled"

// autoCancelMS: a form cancelled sooner than this after it was sent was
// cancelled by the client, not by a person. Claude Code's print mode
// (`claude -p`), which cannot show a form, cancels it about 3 ms after it
// was sent. A person must first see the form appear (a visual reaction
// alone takes 150-250 ms), then read at least its question before closing
// it means anything; a second is below the time anyone takes to read even
// a one-line question, and some 300 times the automatic cancel. The two
// errors are not alike: a person's quick cancel read as automatic makes
// the agent ask again in chat, an automatic one read as the person's tells
// the agent that somebody said "not now" when nobody was asked.
const autoCancelMS = 1000

// formAutoCancelledError is the cause of the "ask in chat" result of a
// client form cancelled too soon for a person (autoCancelled).
type formAutoCancelledError struct{ elapsedMS int64 }

func (e *formAutoCancelledError) Error() string {
	return fmt.Sprintf("the client's own form was tried instead, and the client closed it %d ms after it was sent, before anyone could answer it: the user could not be asked, and this is no answer of theirs", e.elapsedMS)
}

// autoCancelled returns the cause when a is a client form cancelled sooner
// than autoCancelMS after it was sent: the client closed it by itself, so
// nobody was asked and nobody dismissed it. nil for anything else; a
// decline is a person's explicit no and never matches.
func autoCancelled(a wire.Answer) error {
	if a.Status == wire.StatusDismissed && a.Reason == reasonFormCancelled && a.ElapsedMS < autoCancelMS {
		return &formAutoCancelledError{elapsedMS: max(a.ElapsedMS, 0)}
	}
	return nil
}

// formNotAsked returns why a form's outcome a is no outcome of the user's
// (autoDeclined, autoCancelled), or nil when it is theirs.
func formNotAsked(a wire.Answer) error {
	if cause := autoDeclined(a); cause != nil {
		return cause
	}
	return autoCancelled(a)
}

// elicitedOrChat is the elicited renderer of a dialect whose result has
// no field of its own for a suspected automatic decline or cancel: a form
// declined or cancelled too soon for a person (formNotAsked) is the
// dialect's "ask in chat" result, as when no form could ask (one meaning
// in every dialect, after seed 004, the only seed that speaks of it);
// anything else is rendered by render, as the window's answer would be.
func elicitedOrChat(render func(wire.Answer) *mcp.CallToolResult, chat func(error) *mcp.CallToolResult) func(wire.Answer) *mcp.CallToolResult {
	return func(a wire.Answer) *mcp.CallToolResult {
		if cause := formNotAsked(a); cause != nil {
			return chat(cause)
		}
		return render(a)
	}
}

// formAnswer turns an elicitation result into the Answer the window would
// have given: accept is answered with the form's values (labels that are
// not options of a prompt become its text), decline and cancel are
// dismissed, a decline with Reason reasonFormDeclined, a cancel with
// reasonFormCancelled. elapsedMS is the time the form was open.
func formAnswer(q wire.Question, fields []formField, res *mcp.ElicitationResult, elapsedMS int64) wire.Answer {
	a := wire.Answer{QuestionID: q.ID, ElapsedMS: elapsedMS}
	if res == nil || res.Action != mcp.ElicitationResponseActionAccept {
		a.Status = wire.StatusDismissed
		switch {
		case res == nil:
		case res.Action == mcp.ElicitationResponseActionDecline:
			a.Reason = reasonFormDeclined
		case res.Action == mcp.ElicitationResponseActionCancel:
			a.Reason = reasonFormCancelled
		}
		return a
	}
	a.Status = wire.StatusAnswered
	a.Replies = make([]wire.Reply, len(q.Prompts))
	content, _ := res.Content.(map[string]any)
	for _, f := range fields {
		p, r := q.Prompts[f.prompt], &a.Replies[f.prompt]
		switch v := content[f.key].(type) {
		case string:
			v = strings.TrimSpace(v)
			switch f.role {
			case roleYesNo:
				if l := strings.ToLower(v); l == "yes" || l == "no" {
					r.Text = l
				}
			case roleSingle, roleMulti:
				r.Selected, r.Text = pickLabels(p, []string{v}, r.Text)
			case roleText:
				r.Text = joinText(r.Text, v)
			}
		case []any:
			var got []string
			for _, item := range v {
				if s, ok := item.(string); ok {
					got = append(got, s)
				}
			}
			r.Selected, r.Text = pickLabels(p, got, r.Text)
		case bool:
			switch {
			case f.role == roleYesNo:
				r.Text = yesNo(v)
			case f.role == roleOption && v:
				r.Selected = append(r.Selected, f.label) // fields go in option order
			}
		}
	}
	return a
}

// pickLabels returns the labels of p among got, in option order; anything
// else in got is added to text.
func pickLabels(p wire.Prompt, got []string, text string) ([]string, string) {
	var sel []string
	for _, o := range p.Options {
		if contains(got, o.Label) {
			sel = append(sel, o.Label)
		}
	}
	for _, g := range got {
		if g = strings.TrimSpace(g); g != "" && !contains(sel, g) {
			text = joinText(text, g)
		}
	}
	return sel, text
}

func joinText(a, b string) string {
	switch {
	case b == "":
		return a
	case a == "":
		return b
	}
	return a + "\n" + b
}

// chatQuestion is q written out for the agent to ask in chat: each prompt
// with its options, the recommended ones marked.
func chatQuestion(q wire.Question) string {
	var b strings.Builder
	if q.Title != "" {
		b.WriteString(q.Title + "\n")
	}
	for _, f := range q.Context {
		fmt.Fprintf(&b, "%s: %s\n", f.Label, f.Value)
	}
	for i, p := range q.Prompts {
		if len(q.Prompts) > 1 {
			fmt.Fprintf(&b, "\nQuestion %d: ", i+1)
		}
		b.WriteString(p.Markdown)
		switch {
		case p.EffectiveKind() == wire.KindYesNo:
			b.WriteString("\nAnswer: yes or no")
		case len(p.Options) == 0 && p.Prefill != "":
			b.WriteString("\nSuggested answer: " + p.Prefill)
		case len(p.Options) > 0:
			if p.Single {
				b.WriteString("\nOptions (choose one):")
			} else {
				b.WriteString("\nOptions (choose any number):")
			}
			for _, o := range p.Options {
				b.WriteString("\n- " + o.Label)
				if o.Description != "" {
					b.WriteString(" — " + o.Description)
				}
				if o.Default {
					b.WriteString(" (recommended)")
				}
			}
			if p.EffectiveKind() == wire.KindText {
				b.WriteString("\nThe user may also reply in their own words.")
			}
		}
		b.WriteString("\n")
	}
	return strings.TrimRight(b.String(), "\n")
}
