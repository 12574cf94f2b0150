package dialogs

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// optionControl is one option's selectable control.
type optionControl interface {
	selected() bool
	// setSelected sets the control as the user's act: the prompt hears
	// of it (a one-choice prompt clears its other options).
	setSelected(bool)
	// choose is the user choosing the option (a click on its label, its
	// Alt+digit): a checkbox toggles, a radio button is selected.
	choose()
	focusable() fyne.Focusable
}

// promptView holds the controls of one prompt.
type promptView struct {
	p         wire.Prompt
	rows      []fyne.CanvasObject // option rows, in order
	options   []optionControl
	labels    []string
	free      []bool             // free[i]: option i reveals the text field
	defaults  []bool             // defaults[i]: option i is recommended (pre-selected)
	allows    []bool             // allows[i]: option i allows a tool call (approve.go)
	tapLabels []*tapLabel        // the options' labels
	descs     []*widget.RichText // the options' descriptions; nil for none
	entry     *replyEntry        // the reply box, or the free-text field of a choice
	yesno     string             // "yes" or "no" once chosen
	rule      *widget.RichText   // says how the reply breaks the prompt's rule (rule.go); nil without a rule
	head      fyne.CanvasObject  // the header line, with several prompts (pager.go)
	seen      bool               // the user saw it (pager.go)
	asked     bool               // Submit went to it for having no answer (pager.go)
}

// keyControl is where the keyboard enters the prompt (at open, from the
// pager): the selected option of a one-choice prompt, so that Space keeps
// the selection and the ring shows what is chosen; else its first option,
// else its reply box.
func (pv *promptView) keyControl() fyne.Focusable {
	for _, o := range pv.options {
		if _, radio := o.(radioOption); radio && o.selected() {
			return o.focusable()
		}
	}
	return pv.firstControl()
}

func (v *View) newPromptView(p wire.Prompt) *promptView {
	pv := &promptView{p: p}
	switch p.EffectiveKind() {
	case wire.KindYesNo:
		return pv // the Yes / No buttons live in the footer
	case wire.KindText:
		pv.entry = newReplyEntry(v, placeholderOr(p.Placeholder, i18n.T("question.placeholder.reply")))
		if p.Prefill != "" {
			// The suggested answer, set before OnChanged: it is no edit.
			pv.entry.SetText(p.Prefill)
			pv.entry.endOnFocus = true
		}
	case wire.KindChoice:
		for _, o := range p.Options {
			if o.FreeText {
				pv.entry = newReplyEntry(v, placeholderOr(p.Placeholder, i18n.T("question.placeholder.answer")))
				pv.entry.Hide()
				break
			}
		}
	}
	if pv.entry != nil {
		e := pv.entry
		v.fitReplyRows(e) // a prefilled answer
		e.OnChanged = func(string) { v.fitReplyRows(e); v.edited(); v.updateSending(); v.updateRules() }
	}
	for _, o := range p.Options {
		v.addOption(pv, o)
	}
	pv.syncFreeText()
	pv.rule = newRuleLine(p) // rule.go
	return pv
}

func (v *View) addOption(pv *promptView, o wire.Option) {
	i := len(pv.options)
	changed := func(on bool) {
		v.edited()
		if on && pv.p.Single {
			for j, other := range pv.options {
				if j != i && other.selected() {
					other.setSelected(false)
				}
			}
		}
		pv.syncFreeText()
		v.updateSending()
		v.updateRules()
		if on && pv.free[i] && v.hooks.focusOn != nil {
			v.hooks.focusOn(pv.entry) // choosing "Other" is choosing to type
		}
	}
	// The default is the agent's recommendation, not the user's edit: it is
	// set before the change handler, so it does not hold the countdown.
	// The control carries no text of its own: a check's or radio's label
	// never wraps, so a long label would force the window wider than the
	// screen. The label is a wrapping text beside it, and tapping it
	// toggles the option as tapping the control does.
	var ctl optionControl
	var box fyne.CanvasObject
	if pv.p.Single {
		r := newOptionRadio(v)
		r.on = o.Default
		r.move = v.moveOption
		r.onChosen = func() { changed(true) }
		ctl, box = radioOption{r}, r
	} else {
		c := newOptionCheck("", v, nil)
		c.move = v.moveOption
		c.Checked = o.Default
		c.OnChanged = changed
		ctl, box = checkOption{c}, c
	}
	n := len(v.options) // the option's place in the window
	label := newTapLabel(o.Label, func() {
		if v.ended() || v.refuseAllow(n) { // approve.go
			return
		}
		ctl.choose()
	})
	var obj fyne.CanvasObject = container.New(optionRowLayout{}, box, label)
	var descText *widget.RichText
	if o.Description != "" {
		// The description sits under the option's label, aligned with its
		// text, as its second line: the label's bottom padding and the
		// caption's top one overlap, since the two together leave its text
		// floating a line below the label's.
		indent := optionRowLayout{}.labelX(box)
		descText = caption(o.Description)
		desc := container.New(&insetLayout{left: indent}, descText)
		obj = container.New(layout.NewCustomPaddedVBoxLayout(-2*theme.InnerPadding()), obj, desc)
	}
	pv.rows = append(pv.rows, obj)
	pv.options = append(pv.options, ctl)
	pv.labels = append(pv.labels, o.Label)
	pv.free = append(pv.free, o.FreeText)
	pv.defaults = append(pv.defaults, o.Default)
	pv.allows = append(pv.allows, o.Allows)
	pv.tapLabels = append(pv.tapLabels, label)
	pv.descs = append(pv.descs, descText)
	v.options = append(v.options, ctl)
}

// moveOption gives the keyboard to the option by places away from from,
// in window order (Up and Down in the option list); the ends of the list
// stay where they are.
func (v *View) moveOption(from fyne.Focusable, by int) {
	for i, o := range v.options {
		if o.focusable() != from {
			continue
		}
		if j := i + by; j >= 0 && j < len(v.options) && v.hooks.focusOn != nil {
			v.hooks.focusOn(v.options[j].focusable())
		}
		return
	}
}

// typed reports whether the reply box holds text of the user's: not blank,
// and not the prefilled suggestion left as it was.
func (pv *promptView) typed() bool {
	return pv.entry != nil && strings.TrimSpace(pv.entry.Text) != "" && pv.entry.Text != pv.p.Prefill
}

// syncFreeText shows a choice's free-text field while a free-text option is selected.
func (pv *promptView) syncFreeText() {
	if pv.entry == nil || pv.p.EffectiveKind() != wire.KindChoice {
		return
	}
	if pv.freeSelected() {
		pv.entry.Show()
	} else {
		pv.entry.Hide()
	}
}

func (pv *promptView) freeSelected() bool {
	for i, o := range pv.options {
		if pv.free[i] && o.selected() {
			return true
		}
	}
	return false
}

func (pv *promptView) choose(yes bool) {
	pv.yesno = "no"
	if yes {
		pv.yesno = "yes"
	}
}

// reply collects what the user chose and typed for this prompt.
func (pv *promptView) reply() wire.Reply {
	var r wire.Reply
	for i, o := range pv.options {
		if o.selected() {
			r.Selected = append(r.Selected, pv.labels[i])
		}
	}
	switch pv.p.EffectiveKind() {
	case wire.KindYesNo:
		r.Text = pv.yesno
	case wire.KindText:
		r.Text = pv.entry.Text
	case wire.KindChoice:
		if pv.entry != nil && pv.freeSelected() {
			r.Text = pv.entry.Text
		}
	}
	return r
}

func placeholderOr(p, def string) string {
	if p != "" {
		return p
	}
	return def
}

type checkOption struct{ c *optionCheck }

func (o checkOption) selected() bool            { return o.c.Checked }
func (o checkOption) setSelected(b bool)        { o.c.SetChecked(b) }
func (o checkOption) choose()                   { o.c.SetChecked(!o.c.Checked) }
func (o checkOption) focusable() fyne.Focusable { return o.c }

type radioOption struct{ r *optionRadio }

func (o radioOption) selected() bool { return o.r.on }
func (o radioOption) setSelected(b bool) {
	if b {
		o.r.choose()
	} else {
		o.r.setOn(false)
	}
}
func (o radioOption) choose()                   { o.r.choose() }
func (o radioOption) focusable() fyne.Focusable { return o.r }
