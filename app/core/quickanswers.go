package core

import (
	"unicode/utf8"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// QuickAnswer is an answer a question's notification offers as a button.
type QuickAnswer struct {
	Label string     // what the button says
	Reply wire.Reply // what choosing it answers
}

// Limits on the questions a notification answers: a button is short, and a
// notification has room for few.
const (
	maxQuickAnswers     = 3
	maxQuickAnswerRunes = 24
)

// QuickAnswers are the answers the notification of q offers, the
// recommended one first, or nil when q is not answered in one click: it
// must have one prompt that is a yes/no question, or a single choice of two
// or three short options (a free-text option such as "Other" is left to the
// window). The yes/no labels are in the process's language.
//
// A button never answers what the caller refuses (wire.CheckReply): a
// prompt that one option alone cannot answer is left to the window.
//
// An option that allows a tool call (wire.Option.Allows) is never offered:
// a notification shows a line of the question, not the call, and allowing
// is chosen in the window only. An approval's notification offers its
// other options, however few (Deny alone), and never a yes/no: "Open"
// leads to the rest.
func QuickAnswers(q wire.Question) []QuickAnswer {
	if len(q.Prompts) != 1 {
		return nil
	}
	p := q.Prompts[0]
	allows := q.IsApproval() || hasAllows(p)
	switch kind := p.EffectiveKind(); {
	case allows && kind == wire.KindYesNo:
		return nil
	case kind == wire.KindYesNo:
		yes := QuickAnswer{i18n.T("question.yes"), wire.Reply{Text: "yes"}}
		no := QuickAnswer{i18n.T("question.no"), wire.Reply{Text: "no"}}
		if q.RecommendedYesNo() == "no" {
			return []QuickAnswer{no, yes}
		}
		return []QuickAnswer{yes, no}
	case kind == wire.KindChoice && p.Single, kind == wire.KindText && p.Single && p.Prefill == "":
		// A reply box beside the options is optional: an option alone
		// answers. A prefilled one is the caller's suggested answer,
		// which a click would drop.
	default:
		return nil
	}
	var first, rest []QuickAnswer
	for _, o := range p.Options {
		if o.FreeText || o.Allows { // "Other": typed in the window ("Open"); allowing: chosen there
			continue
		}
		if o.Label == "" || utf8.RuneCountInString(o.Label) > maxQuickAnswerRunes {
			return nil
		}
		a := QuickAnswer{o.Label, wire.Reply{Selected: []string{o.Label}}}
		if wire.CheckReply(p, a.Reply) != nil {
			return nil // the caller would refuse one option alone: the window says why
		}
		if o.Default {
			first = append(first, a)
		} else {
			rest = append(rest, a)
		}
	}
	least := 2 // one option alone is no choice, unless the others allow
	if allows {
		least = 1
	}
	if n := len(first) + len(rest); n < least || n > maxQuickAnswers {
		return nil
	}
	return append(first, rest...)
}

// TakesInlineReply reports whether a short text typed in q's notification
// answers it: one prompt with a reply box, neither prefilled nor beside
// options the caller pre-selected (a reply would silently drop them). An
// approval, or a question with an option that allows a tool call, never
// does: its reply box is the reason beside a decision taken in the window.
func TakesInlineReply(q wire.Question) bool {
	if len(q.Prompts) != 1 || q.IsApproval() {
		return false
	}
	p := q.Prompts[0]
	if p.EffectiveKind() != wire.KindText || p.Prefill != "" || hasAllows(p) {
		return false
	}
	for _, o := range p.Options {
		if o.Default {
			return false
		}
	}
	return true
}

// hasAllows reports whether an option of p allows a tool call.
func hasAllows(p wire.Prompt) bool {
	for _, o := range p.Options {
		if o.Allows {
			return true
		}
	}
	return false
}
