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

// Several prompts: each header line says "Question 2 of 3", and the Submit
// row has a pager (‹ Question 1 of 3 ›) that brings the previous or next
// prompt to the top of the page and gives its first control the keyboard.
// A prompt counts as seen once its header and its first control were in
// view together, or the keyboard was in it. Submit with a prompt that has
// no answer does not send, whether that prompt is in view or below the
// fold: it goes to that prompt and says so in the warning line, once per
// prompt; a Submit after that declines it. So "declined" is only ever the
// user's act, never one keystroke's.

// pager is the Submit row's "‹ Question n of m ›".
type pager struct {
	prev, next *keyButton
	label      *widget.Label
	box        fyne.CanvasObject
}

func (v *View) newPager() *pager {
	pg := &pager{label: widget.NewLabel("")}
	pg.prev = newKeyButton("", theme.NavigateBackIcon(), v, func() { v.goToPrompt(v.pages.current - 1) })
	pg.next = newKeyButton("", theme.NavigateNextIcon(), v, func() { v.goToPrompt(v.pages.current + 1) })
	pg.prev.tip, pg.next.tip = i18n.T("question.prev"), i18n.T("question.next")
	pg.box = container.NewVBox(layout.NewSpacer(), container.NewHBox(pg.prev, pg.label, pg.next), layout.NewSpacer())
	return pg
}

// promptOf returns the number of the prompt o belongs to, or -1.
func (v *View) promptOf(o fyne.CanvasObject) int {
	for i, pv := range v.prompts {
		if pv.entry != nil && fyne.CanvasObject(pv.entry) == o {
			return i
		}
		for _, c := range pv.options {
			if f, ok := c.focusable().(fyne.CanvasObject); ok && f == o {
				return i
			}
		}
	}
	return -1
}

// setCurrent makes prompt i the pager's.
func (v *View) setCurrent(i int) {
	if i < 0 || i >= len(v.prompts) {
		return
	}
	v.pages.current = i
	if v.pages.bar == nil {
		return
	}
	v.pages.bar.label.SetText(i18n.T("question.of", map[string]any{"N": i + 1, "M": len(v.prompts)}))
	setEnabled(v.pages.bar.prev, i > 0 && !v.ended())
	setEnabled(v.pages.bar.next, i < len(v.prompts)-1 && !v.ended())
}

// goToPrompt brings prompt i's header to the top of the page, gives it
// the keyboard (keyControl: its selected radio button, else its first
// control) and counts it as seen.
func (v *View) goToPrompt(i int) {
	if i < 0 || i >= len(v.prompts) || v.ended() {
		return
	}
	pv := v.prompts[i]
	pv.seen = true
	v.setCurrent(i)
	if pv.head != nil && fyne.CurrentApp() != nil {
		d := fyne.CurrentApp().Driver()
		top := d.AbsolutePositionForObject(pv.head).Y - d.AbsolutePositionForObject(v.panes.scroll.Content).Y
		most := max(v.panes.scroll.Content.Size().Height-v.panes.scroll.Size().Height, 0)
		v.panes.scroll.ScrollToOffset(fyne.NewPos(v.panes.scroll.Offset.X, min(max(top, 0), most)))
	}
	if f := pv.keyControl(); f != nil && v.hooks.focusOn != nil {
		v.hooks.focusOn(f)
	}
}

// firstControl is the prompt's first option, or its reply box.
func (pv *promptView) firstControl() fyne.Focusable {
	if len(pv.options) > 0 {
		return pv.options[0].focusable()
	}
	if pv.entry != nil && pv.entry.Visible() {
		return pv.entry
	}
	return nil
}

// markSeen counts as seen each prompt whose header and first control are
// in view now, and makes the topmost of them the pager's.
func (v *View) markSeen() {
	app := fyne.CurrentApp()
	if app == nil || len(v.prompts) < 2 || v.panes.scroll == nil {
		return
	}
	d := app.Driver()
	view := d.AbsolutePositionForObject(v.panes.scroll).Y
	inView := func(o fyne.CanvasObject) bool {
		y := d.AbsolutePositionForObject(o).Y - view
		return o.Visible() && y >= -1 && y+o.Size().Height <= v.panes.scroll.Size().Height+1
	}
	top := -1
	for i, pv := range v.prompts {
		f, _ := pv.firstControl().(fyne.CanvasObject)
		if pv.head == nil || !inView(pv.head) || (f != nil && !inView(f)) {
			continue
		}
		pv.seen = true
		if top < 0 {
			top = i
		}
	}
	if f := v.focusedPrompt(); f >= 0 {
		v.prompts[f].seen = true
		top = f
	}
	if top >= 0 && top != v.pages.current {
		v.setCurrent(top)
	}
}

// focusedPrompt is the number of the prompt that has the keyboard, or -1.
func (v *View) focusedPrompt() int {
	if v.hooks.focused == nil {
		return -1
	}
	if o, ok := v.hooks.focused().(fyne.CanvasObject); ok {
		return v.promptOf(o)
	}
	return -1
}

// unaskedUnanswered is the first prompt that has no answer and that Submit
// has not yet gone to for it, or -1. It asks in a window of several
// prompts, and of one prompt with options (an approval aside: its own
// rules hold back Allow, approve.go); a window of one text prompt sends
// its empty reply, which its Sending line, or its lack of one, shows, and
// a window of one prompt with images attached sends them.
func (v *View) unaskedUnanswered() int {
	if v.sending == nil || v.q.IsApproval() || len(v.prompts) == 1 && (len(v.prompts[0].options) == 0 || v.attached() > 0) {
		return -1 // one prompt: images attached are its answer, as its Sending line says
	}
	v.markSeen()
	for i, pv := range v.prompts {
		if !pv.asked && pv.unanswered() {
			return i
		}
	}
	return -1
}

// unanswered reports whether the prompt would send nothing.
func (pv *promptView) unanswered() bool {
	r := pv.reply()
	return len(r.Selected) == 0 && (pv.p.EffectiveKind() == wire.KindYesNo && pv.yesno == "" ||
		pv.p.EffectiveKind() != wire.KindYesNo && strings.TrimSpace(r.Text) == "")
}

// askUnanswered goes to prompt i, which has no answer, and says so; the
// next Submit declines it.
func (v *View) askUnanswered(i int) {
	v.prompts[i].asked = true
	v.goToPrompt(i)
	if v.sending != nil {
		setSegment(v.sending.warn, i18n.T("question.unseen", map[string]any{"N": i + 1}))
		v.sending.warn.Show()
		v.placeSending() // its row shows
	}
}
