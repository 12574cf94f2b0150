package dialogs

import (
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/dialogs/markdown"
	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// An approval (wire.Question.IsApproval) is a decision on a tool call, and
// the window never lets the user allow what they have not seen. Its code
// is wrapped, never off to the side (markdown.Options.WrapCode). While the
// message does not fit in its pane, the options that allow the call
// (wire.Option.Allows) are disabled, with the reason in place of Allow's
// description, until the
// message's scroll has reached its end with the whole message shown (no
// section held back behind "Show all"); then they are offered for good.
// Choosing a disabled option (Alt+digit, a click on its label) chooses
// nothing; Submit then sends nothing, and says why, rather than the denial
// the user did not mean; and Submit never sends an allowing option chosen
// before (a restored draft) while it is disabled. The window has no
// Attach…, no Quick reply and no Snooze: the decision and the reason for a
// denial are all it carries. Its countdown reaching zero never sends the
// choice as it stands (Options.SubmitDraftOnTimeout): a timeout denies.

// allowGate is an approval's state of being seen.
type allowGate struct {
	md *markdown.Widget
	// reason says why the allowing options are disabled: in place of the
	// first allowing option's description (no room is taken from the
	// message), whose text is desc; or, without one, note, a line above
	// the options.
	reason  *widget.RichText
	desc    string
	note    fyne.CanvasObject
	atEnd   bool // the user scrolled to the end of the whole message
	open    bool // the allowing options are offered
	refused bool // the user chose an allowing option while it was disabled
	applied bool // the options were set for open once
}

// offersAllow reports whether q has an option that allows: an approval
// offering Deny alone (a call too big to show whole) has nothing to unlock.
func offersAllow(q wire.Question) bool {
	for _, p := range q.Prompts {
		for _, o := range p.Options {
			if o.Allows {
				return true
			}
		}
	}
	return false
}

// placeAllowReason puts the reason the allowing options are disabled in
// the first allowing option's description, or, without one, on a line
// at the top of choices.
func (v *View) placeAllowReason(choices *fyne.Container) {
	g := v.allow
	for _, pv := range v.prompts {
		for i := range pv.options {
			if pv.allows[i] && pv.descs[i] != nil && g.reason == nil {
				g.reason, g.desc = pv.descs[i], pv.p.Options[i].Description
			}
		}
	}
	if g.reason != nil {
		return
	}
	g.reason = widget.NewRichText(&widget.TextSegment{})
	g.reason.Wrapping = fyne.TextWrapWord
	icon := widget.NewIcon(theme.NewThemedResource(theme.VisibilityIcon()))
	g.note = container.NewBorder(nil, nil, container.NewVBox(icon), nil, g.reason)
	choices.Objects = append([]fyne.CanvasObject{g.note}, choices.Objects...)
}

// allowLocked is the locked reason: it names the key that scrolls the
// call to its end (Alt+End), which works whatever has the keyboard.
func allowLocked() string {
	return i18n.T("question.allow_locked", map[string]any{"Key": mods.withAlt("End")})
}

// showReason shows the reason (locked) or the description again.
func (g *allowGate) showReason(locked bool) {
	seg, ok := g.reason.Segments[0].(*widget.TextSegment)
	if !ok {
		return
	}
	if locked {
		seg.Text = allowLocked()
		seg.Style.ColorName = theme.ColorNameForeground
		seg.Style.TextStyle.Bold = true
	} else {
		seg.Text = g.desc
		seg.Style.ColorName = theme.ColorNamePlaceHolder
		seg.Style.TextStyle.Bold = false
	}
	g.reason.Refresh()
	if g.note != nil && locked {
		g.note.Show()
	} else if g.note != nil {
		g.note.Hide()
	}
}

// allowReason is the reason shown, or "" when the allowing options are
// offered.
func (v *View) allowReason() string {
	if v.allow == nil || v.allow.open {
		return ""
	}
	return v.allow.reason.String()
}

// seenAll reports whether the user has seen the whole call: it is all
// shown, and it fits in its pane or was scrolled to its end.
func (v *View) seenAll() bool {
	g := v.allow
	if g == nil {
		return true
	}
	if !g.md.Complete() {
		return false
	}
	return g.atEnd || v.messageFits()
}

// messageFits reports whether the message's pane shows all of it.
func (v *View) messageFits() bool {
	s := v.panes.scroll
	if s == nil || s.Size().Height <= 0 {
		return false // not laid out: not seen
	}
	return s.Content.MinSize().Height <= s.Size().Height+1
}

// scrolled is the message's scroll moving: at its end, with the whole
// message shown, the call has been seen.
func (v *View) scrolled() {
	g := v.allow
	if g == nil || g.atEnd || !g.md.Complete() {
		return
	}
	s := v.panes.scroll
	if s.Size().Height > 0 && s.Offset.Y+s.Size().Height >= s.Content.MinSize().Height-1 {
		g.atEnd = true
	}
	v.updateAllow()
}

// laidOut is the panes being laid out: the message may fit now.
func (v *View) laidOut() { v.updateAllow() }

// updateAllow offers or withholds the allowing options as the call has
// been seen or not; an allowing option selected while withheld (a
// restored draft) is cleared.
func (v *View) updateAllow() {
	g := v.allow
	if g == nil || v.ended() {
		return // the closing state keeps every control disabled
	}
	open := v.seenAll()
	if g.applied && open == g.open {
		return
	}
	g.open, g.applied = open, true
	for _, pv := range v.prompts {
		for i, ctl := range pv.options {
			if !pv.allows[i] {
				continue
			}
			r, ok := ctl.(radioOption)
			if open {
				if ok {
					r.r.Enable()
				}
				pv.tapLabels[i].Importance = widget.MediumImportance
			} else {
				if ctl.selected() {
					ctl.setSelected(false)
				}
				if ok {
					r.r.Disable()
				}
				pv.tapLabels[i].Importance = widget.LowImportance
			}
			pv.tapLabels[i].Refresh()
		}
	}
	g.showReason(!open)
	v.updateSending()
}

// allowsAt reports whether option n (0-based, in window order) allows.
func (v *View) allowsAt(n int) bool {
	for _, pv := range v.prompts {
		if n < len(pv.options) {
			return pv.allows[n]
		}
		n -= len(pv.options)
	}
	return false
}

// refuseAllow is the user choosing option n (0-based): it reports whether
// the choice is refused, as the option allows the call and the call has
// not been seen; the refusal is remembered for Submit (holdsBackAllow).
func (v *View) refuseAllow(n int) bool {
	if v.allow == nil || !v.allowsAt(n) {
		return false
	}
	v.updateAllow()
	if v.allow.open {
		return false
	}
	v.allow.refused = true
	v.warnAllow()
	return true
}

// holdsBackAllow reports whether Submit must send nothing: an allowing
// option is selected while the call has not been seen, or the user's
// last try to allow it was refused and no other option was chosen since.
// It says why in the warning line.
func (v *View) holdsBackAllow() bool {
	if v.allow == nil {
		return false
	}
	v.updateAllow()
	selected, allowing := false, false
	for _, pv := range v.prompts {
		for i, ctl := range pv.options {
			if ctl.selected() {
				selected = true
				allowing = allowing || pv.allows[i]
			}
		}
	}
	if allowing && !v.allow.open || !selected && v.allow.refused {
		v.warnAllow()
		return true
	}
	return false
}

// warnAllow says in the warning line that nothing was sent and why: the
// call cannot be allowed yet (scroll to its end, or choose Deny), or,
// once it can, Allow must be chosen again.
func (v *View) warnAllow() {
	if v.sending == nil {
		return
	}
	text := i18n.T("question.allow_refused")
	if v.allow.open {
		text = i18n.T("question.allow_choose")
	}
	setSegment(v.sending.warn, text)
	v.sending.warn.Show()
	v.placeSending() // its row shows
}

// The message's keys: Alt+Page Down and Alt+Page Up move it a page,
// Alt+End and Alt+Home to its end and top, whatever has the keyboard (the
// reply box keeps Page Down for its own text), so that the whole of a
// long call can be seen, and allowed, from the keyboard.
var pageKeys = []fyne.KeyName{fyne.KeyPageDown, fyne.KeyPageUp, fyne.KeyEnd, fyne.KeyHome}

// pageShortcuts are the message's keys as shortcuts, for the canvas.
func pageShortcuts() []fyne.Shortcut {
	var out []fyne.Shortcut
	for _, k := range pageKeys {
		out = append(out, &desktop.CustomShortcut{KeyName: k, Modifier: mods.Alt})
	}
	return out
}

// pageKey moves the message as s asks, and reports whether s is one of
// the message's keys.
func (v *View) pageKey(s fyne.Shortcut) bool {
	k := altKey(s)
	if !slices.Contains(pageKeys, k) || v.panes.scroll == nil {
		return false
	}
	sc := v.panes.scroll
	end := max(sc.Content.MinSize().Height-sc.Size().Height, 0)
	off := sc.Offset.Y
	switch k {
	case fyne.KeyPageDown:
		off += sc.Size().Height * 0.9
	case fyne.KeyPageUp:
		off -= sc.Size().Height * 0.9
	case fyne.KeyEnd:
		off = end
	case fyne.KeyHome:
		off = 0
	}
	sc.ScrollToOffset(fyne.NewPos(sc.Offset.X, min(max(off, 0), end)))
	v.scrolled()
	return true
}
