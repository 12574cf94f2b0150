package dialogs

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// A prompt's rule (wire.Prompt's MinSelected, MaxSelected, Required) is
// what its caller refuses: ask_multi_select ticked outside its min and
// max, ask_text's empty box, ask_choice with nothing chosen. The window
// checks the reply as it stands against it with the caller's own check
// (wire.CheckReply) after every tick and keystroke: while it breaks the
// rule, a line under the prompt says what to fix ("Pick at most 2 (3
// ticked)") and Submit is off, as Ctrl+Enter is; nothing ticked or typed
// is touched. So a reply the agent would refuse is never sent, and the
// user is told before, not after, the window has closed.

// newRuleLine is the line that says how a prompt's reply breaks its rule,
// or nil for a prompt without one.
func newRuleLine(p wire.Prompt) *widget.RichText {
	if p.MinSelected == 0 && p.MaxSelected == 0 && !p.Required {
		return nil
	}
	rt := widget.NewRichText(&widget.TextSegment{Style: widget.RichTextStyle{
		ColorName: theme.ColorNameError, SizeName: theme.SizeNameCaptionText,
		TextStyle: fyne.TextStyle{Bold: true}}})
	rt.Wrapping = fyne.TextWrapWord
	rt.Hide()
	return rt
}

// problem is how the prompt's reply as it stands breaks its rule, or nil.
func (pv *promptView) problem() *wire.ReplyProblem {
	return wire.CheckReply(pv.p, pv.reply())
}

// problemText says what to fix, in the user's words.
func (pv *promptView) problemText(prob *wire.ReplyProblem) string {
	switch prob.Kind {
	case wire.ProblemTooFew:
		if prob.Selected == 0 {
			return i18n.T("rule.at_least_none", map[string]any{"Min": prob.Bound})
		}
		return i18n.T("rule.at_least", map[string]any{"Min": prob.Bound, "Ticked": prob.Selected})
	case wire.ProblemTooMany:
		return i18n.T("rule.at_most", map[string]any{"Max": prob.Bound, "Ticked": prob.Selected})
	}
	switch {
	case pv.p.EffectiveKind() == wire.KindYesNo:
		return i18n.T("rule.yesno")
	case len(pv.options) > 0 && pv.entry != nil:
		return i18n.T("rule.choice_or_text")
	case len(pv.options) > 0:
		return i18n.T("rule.choice")
	}
	return i18n.T("rule.text")
}

// updateRules shows each prompt's problem, or hides its line, and turns
// Submit off while any prompt's reply breaks its rule.
func (v *View) updateRules() {
	blocked, grew := false, false
	for _, pv := range v.prompts {
		prob := pv.problem()
		blocked = blocked || prob != nil
		if pv.rule == nil {
			continue
		}
		if prob != nil {
			setSegment(pv.rule, pv.problemText(prob))
			grew = grew || !pv.rule.Visible()
		}
		setVisible(pv.rule, prob != nil)
	}
	if v.submit != nil && !v.ended() {
		setEnabled(v.submit, !blocked)
	}
	if grew && v.content != nil && !v.done {
		v.contentBelowGrew() // layout.go: the line is in view, the options give up the room
		if v.hooks.refit != nil {
			v.hooks.refit() // the window grows for the line, if it can (budget.go)
		}
	}
}

// brokenRule is the first prompt whose reply breaks its rule, or -1.
func (v *View) brokenRule() int {
	for i, pv := range v.prompts {
		if pv.problem() != nil {
			return i
		}
	}
	return -1
}

// refuseBroken answers a Submit while prompt i's reply breaks its rule:
// nothing is sent; its line already says why, and with several prompts
// the pager goes to it.
func (v *View) refuseBroken(i int) {
	if v.pages.bar != nil {
		v.goToPrompt(i)
	}
}
