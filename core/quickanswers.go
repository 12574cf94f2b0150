package core

import (
	"unicode/utf8"

	"feedback/i18n"
	"feedback/wire"
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
func QuickAnswers(q wire.Question) []QuickAnswer {
	if len(q.Prompts) != 1 {
		return nil
	}
	p := q.Prompts[0]
	switch kind := p.EffectiveKind(); {
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
		if o.FreeText { // "Other": typed in the window ("Open")
			continue
		}
		if o.Label == "" || utf8.RuneCountInString(o.Label) > maxQuickAnswerRunes {
			return nil
		}
		a := QuickAnswer{o.Label, wire.Reply{Selected: []string{o.Label}}}
		if o.Default {
			first = append(first, a)
		} else {
			rest = append(rest, a)
		}
	}
	if n := len(first) + len(rest); n < 2 || n > maxQuickAnswers {
		return nil
	}
	return append(first, rest...)
}

// TakesInlineReply reports whether a short text typed in q's notification
// answers it: one prompt with a reply box, neither prefilled nor beside
// options the caller pre-selected (a reply would silently drop them).
func TakesInlineReply(q wire.Question) bool {
	if len(q.Prompts) != 1 {
		return false
	}
	p := q.Prompts[0]
	if p.EffectiveKind() != wire.KindText || p.Prefill != "" {
		return false
	}
	for _, o := range p.Options {
		if o.Default {
			return false
		}
	}
	return true
}
