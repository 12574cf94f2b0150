package dialogs

import (
	"bytes"
	"image"
	_ "image/jpeg" // the decoders of the attachments' encodings, for RestoreDraft
	_ "image/png"
	"slices"
	"time"

	"fyne.io/fyne/v2"

	"feedback/dialogs/imagepipe"
	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// Drafts: every edit (typing, an option, an image added or removed) marks
// the view dirty and (re)starts a timer (debounce.go); when the user pauses
// for Options.DraftDelay, or MaxDraftInterval after the first unreported
// edit if they never pause, the view reports the whole draft through
// Options.OnDraft. Closing the view without an answer reports a draft that
// is still dirty at once, so nothing typed is lost when the question is
// withdrawn. An answer ends the drafts: no draft is reported after it.

// MaxDraftInterval is the longest an edit goes unreported while the user
// keeps typing without a pause: a crash loses at most about this much.
const MaxDraftInterval = time.Second

// afterOnFyne runs f on the Fyne goroutine after d, unless stopped first.
func afterOnFyne(d time.Duration, f func()) func() bool {
	return time.AfterFunc(d, func() { fyne.Do(f) }).Stop
}

// onFyne runs f on the Fyne goroutine; safe from any goroutine. In a Window
// f runs on its heartbeat, and not at all once the window has closed.
func (v *View) onFyne(f func()) {
	if v.hooks.post != nil {
		v.hooks.post(f)
		return
	}
	fyne.Do(f)
}

// scheduleDraft reports the draft once the user has paused (debounce.go).
func (v *View) scheduleDraft() {
	if v.opts.OnDraft == nil || v.done {
		return
	}
	v.drafts.Edited(v.now())
}

// FlushDraft reports the draft now if an edit is unreported; the window
// calls it when it closes without an answer. It does nothing once the view
// has ended.
func (v *View) FlushDraft() {
	if v.done || v.opts.OnDraft == nil {
		return
	}
	v.drafts.Flush()
}

// reportDraft hands the draft as it stands to Options.OnDraft.
func (v *View) reportDraft() { v.opts.OnDraft(v.Draft()) }

// Draft is the user's unfinished answer as it stands.
func (v *View) Draft() wire.Draft {
	d := wire.Draft{Replies: make([]wire.Reply, len(v.prompts))}
	for i, p := range v.prompts {
		d.Replies[i] = p.draftReply()
	}
	if v.att != nil {
		d.Images = v.att.images()
	}
	return d
}

// RestoreDraft puts an earlier draft of this question back into the view:
// reply text, option selections and images. Call it before the user edits;
// it is not an edit itself, so it reports no draft; a draft holding
// something of the user's holds the countdown, as the typing did, unless
// Options.SubmitDraftOnTimeout is set (then the countdown runs, and the
// draft is sent at zero). Replies beyond the prompts and labels no option has are ignored
// (the question may have changed); an image that no longer fits the limits
// is named in the attachments' problem line.
func (v *View) RestoreDraft(d wire.Draft) {
	if v.ended() {
		return
	}
	v.restoring = true
	defer func() { v.restoring = false }()
	for i, r := range d.Replies {
		if i < len(v.prompts) {
			v.prompts[i].restore(r)
		}
	}
	if v.att != nil {
		for _, img := range d.Images {
			v.att.restore(img)
		}
	}
	v.restoring = false
	// The user was answering when the draft was saved (edits hold the
	// countdown), so the countdown stays held — unless the user asked for
	// drafts to be sent at zero (SubmitDraftOnTimeout), which needs it to run.
	if !v.opts.SubmitDraftOnTimeout && v.draftNonEmpty() {
		v.hold()
	}
}

// draftReply is the prompt's state for a draft: reply() plus a choice's
// free-text field even while its option is unselected.
func (pv *promptView) draftReply() wire.Reply {
	r := pv.reply()
	if pv.entry != nil {
		r.Text = pv.entry.Text
	}
	return r
}

// restore sets the prompt's controls from a draft's reply.
func (pv *promptView) restore(r wire.Reply) {
	if len(pv.options) > 0 {
		// Unselect first, so that a single choice ends with the draft's option.
		for j, o := range pv.options {
			if !slices.Contains(r.Selected, pv.labels[j]) && o.selected() {
				o.setSelected(false)
			}
		}
		for j, o := range pv.options {
			if slices.Contains(r.Selected, pv.labels[j]) && !o.selected() {
				o.setSelected(true)
			}
		}
		pv.syncFreeText()
	}
	if pv.entry != nil && pv.p.EffectiveKind() != wire.KindYesNo {
		pv.entry.SetText(r.Text)
		// The cursor goes to the end, so that typing carries on the draft.
		pv.entry.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown})
	}
}

// selectionChanged reports whether the options differ from the recommended ones.
func (pv *promptView) selectionChanged() bool {
	for j, o := range pv.options {
		if o.selected() != pv.defaults[j] {
			return true
		}
	}
	return false
}

// restore shows an image of a restored draft. It was processed when it was
// first attached, so it is only measured, not processed again.
func (a *attachments) restore(img wire.Image) {
	cfg, _, err := image.DecodeConfig(bytes.NewReader(img.Data))
	if err != nil {
		a.showProblem(i18n.T("attach.unrestorable", map[string]any{"Name": displayName(img.Name), "Err": err.Error()}))
		return
	}
	pi := imagepipe.Image{MIME: img.MIME, Data: img.Data, Width: cfg.Width, Height: cfg.Height,
		Name: img.Name, OriginalBytes: len(img.Data)}
	if err := a.set.Add(pi); err != nil {
		a.showProblem(err.Error())
		return
	}
	a.addCard(pi)
}

func displayName(name string) string {
	if name == "" {
		return i18n.T("attach.an_image")
	}
	return name
}
