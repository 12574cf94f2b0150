package wire

import "strings"

// The rule of a reply: what a caller refuses (Prompt.MinSelected,
// MaxSelected, Required). CheckReply is its one statement: the caller
// (the MCP shim) checks the reply it is given with it, and the window
// checks the reply as it stands with it, so that Submit is never offered
// for a reply the caller would refuse.

// ProblemKind names the way a reply breaks its prompt's rule.
type ProblemKind string

const (
	// ProblemTooFew: fewer options selected than Prompt.MinSelected.
	ProblemTooFew ProblemKind = "too_few"
	// ProblemTooMany: more options selected than Prompt.MaxSelected.
	ProblemTooMany ProblemKind = "too_many"
	// ProblemNoAnswer: a Required prompt's reply selects nothing and
	// holds only blank text.
	ProblemNoAnswer ProblemKind = "no_answer"
)

// ReplyProblem is how a reply breaks its prompt's rule.
type ReplyProblem struct {
	Kind ProblemKind
	// Bound is the bound broken (MinSelected for ProblemTooFew,
	// MaxSelected for ProblemTooMany); 0 for ProblemNoAnswer.
	Bound int
	// Selected is how many options the reply selects.
	Selected int
}

// CheckReply reports how r breaks p's rule, or nil when p's caller takes
// it. The count of options selected is checked first, against
// MinSelected and MaxSelected: text never stands for a missing option
// there. Then, for a Required prompt, r must select one of its options or
// hold text that is not blank (for KindYesNo, "yes" or "no"). A prompt
// with no rule takes every reply.
func CheckReply(p Prompt, r Reply) *ReplyProblem {
	n := len(r.Selected)
	switch {
	case p.MinSelected > 0 && n < p.MinSelected:
		return &ReplyProblem{Kind: ProblemTooFew, Bound: p.MinSelected, Selected: n}
	case p.MaxSelected > 0 && n > p.MaxSelected:
		return &ReplyProblem{Kind: ProblemTooMany, Bound: p.MaxSelected, Selected: n}
	case p.Required && !answers(p, r):
		return &ReplyProblem{Kind: ProblemNoAnswer}
	}
	return nil
}

// answers reports whether r answers p: "yes" or "no" for KindYesNo; else
// an option of p's selected, or text that is not blank.
func answers(p Prompt, r Reply) bool {
	if p.EffectiveKind() == KindYesNo {
		return r.Text == "yes" || r.Text == "no"
	}
	return len(r.Selected) > 0 && len(p.Options) > 0 || strings.TrimSpace(r.Text) != ""
}

// validateRule checks prompt i's rule against its options.
func (p *Prompt) validateRule(i int) error {
	n := len(p.Options)
	switch {
	case p.MinSelected < 0 || p.MaxSelected < 0:
		return invalid("prompts[%d]: min_selected and max_selected must not be negative", i)
	case p.MinSelected > n:
		return invalid("prompts[%d].min_selected: %d is more than the %d options", i, p.MinSelected, n)
	case p.MaxSelected > n:
		return invalid("prompts[%d].max_selected: %d is more than the %d options", i, p.MaxSelected, n)
	case p.MaxSelected > 0 && p.MinSelected > p.MaxSelected:
		return invalid("prompts[%d].min_selected: %d exceeds max_selected %d", i, p.MinSelected, p.MaxSelected)
	}
	return nil
}
