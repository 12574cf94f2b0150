package dialogs

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// The "Sending" line: in a window with options, or with several prompts,
// the line by the Submit button (the footer's hint line, whose keyboard
// hint is then behind "?" and F1; a button's tip, the input guard's cue and
// the closing words still show there) says what Submit sends as it stands, and
// changes with every choice and keystroke, so that nothing reaches the
// agent that the user did not see. When a prompt's recommended option (a
// pre-ticked default of a multi-select prompt) is still ticked beside an
// option the user ticked, a second line in the warning colour says so: both
// will be sent. A line, not a question on Submit: it is seen before the
// user acts, and Ctrl+Enter stays one key press. The warning has a row of
// its own above the footer, shown only while it says something (or while
// the pager of several prompts is there): the message keeps the height.

// Caps of the Sending line: a label or a reply is cut after so many
// characters, and a prompt lists so many picks before "+N more".
const (
	sendingLabelRunes = 32
	sendingTextRunes  = 28
	sendingPicks      = 3
)

// sendingLine is the line and its warning.
type sendingLine struct {
	what, warn *widget.RichText
	box        *fyne.Container // the warning's row
	row        fyne.CanvasObject
}

func newSendingLine() *sendingLine {
	line := func(c fyne.ThemeColorName, bold bool) *widget.RichText {
		rt := widget.NewRichText(&widget.TextSegment{Style: widget.RichTextStyle{
			ColorName: c, SizeName: theme.SizeNameCaptionText, Alignment: fyne.TextAlignTrailing,
			TextStyle: fyne.TextStyle{Bold: bold}}})
		rt.Wrapping = fyne.TextWrapOff
		rt.Truncation = fyne.TextTruncateEllipsis
		return rt
	}
	s := &sendingLine{what: line(theme.ColorNameForeground, false), warn: line(theme.ColorNameWarning, true)}
	s.warn.Hide()
	s.box = container.New(&paddedLayout{}, s.warn)
	s.row = s.box
	return s
}

// wantsSendingLine reports whether the window shows the line: it has
// options or several prompts (a lone reply box shows what it sends).
func (v *View) wantsSendingLine() bool {
	return len(v.options) > 0 || len(v.prompts) > 1
}

// updateSending sets the line from the answer as it stands.
func (v *View) updateSending() {
	if v.sending == nil {
		return
	}
	what, warn := v.sendingText()
	setSegment(v.sending.what, what)
	setSegment(v.sending.warn, warn)
	if warn == "" {
		v.sending.warn.Hide()
	} else {
		v.sending.warn.Show()
	}
	v.showSendingRow()
}

// showSendingRow shows the warning's row while it has something to show.
func (v *View) showSendingRow() {
	if v.sending == nil || v.sending.row == nil {
		return
	}
	if v.pages.bar != nil || v.sending.warn.Visible() {
		v.sending.row.Show()
	} else {
		v.sending.row.Hide()
	}
}

// showSendingOrHint puts the Sending line in the footer's hint slot while
// the hint would show its keyboard hint, and the hint while it shows
// anything else (a button's tip, the input guard's cue, the closing words).
func (v *View) showSendingOrHint(tip string) {
	if v.sending == nil {
		return
	}
	if tip == "" && !v.Closing() {
		v.hint.text.Hide()
		v.sending.what.Show()
	} else {
		v.sending.what.Hide()
		v.hint.text.Show()
	}
}

func setSegment(rt *widget.RichText, text string) {
	if seg, ok := rt.Segments[0].(*widget.TextSegment); ok && seg.Text != text {
		seg.Text = text
		rt.Refresh()
	}
}

// sendingText is the line ("Sending: …") and its warning ("" for none).
func (v *View) sendingText() (what, warn string) {
	if v.allow != nil {
		return i18n.T("question.sending", map[string]any{"What": v.decisionText()}), ""
	}
	var parts, stale []string
	for i, pv := range v.prompts {
		part, rec := pv.sendingPart()
		if len(v.prompts) > 1 {
			part = fmt.Sprintf("%d: %s", i+1, part)
		}
		parts = append(parts, part)
		stale = append(stale, rec...)
	}
	what = i18n.T("question.sending", map[string]any{"What": strings.Join(parts, " · ")})
	if len(stale) > 0 {
		warn = i18n.T("question.sending.still_ticked", map[string]any{"Labels": strings.Join(stale, i18n.T("list.sep"))})
	}
	return what, warn
}

// decisionText is what an approval's Submit does, named by its effect:
// "Allow this call", "Always allow <rule>" (an option with the rule it
// adds, wire.Option.Rule), or "Deny" (with the reason typed, which only a
// denial sends) for Deny and for no choice at all.
func (v *View) decisionText() string {
	pv := v.prompts[0]
	for i, o := range pv.options {
		if !o.selected() || !pv.allows[i] {
			continue
		}
		if rule := pv.p.Options[i].Rule; rule != "" {
			return i18n.T("question.sending.always", map[string]any{"Rule": shorten(rule, sendingLabelRunes)})
		}
		return i18n.T("question.sending.allow")
	}
	what := i18n.T("question.sending.deny")
	if t := strings.TrimSpace(pv.reply().Text); t != "" {
		what += " · “" + shorten(strings.Join(strings.Fields(t), " "), sendingTextRunes) + "”"
	}
	return what
}

// sendingPart is what the prompt sends, shortened, and the labels of its
// recommended options still ticked beside an option the user ticked.
func (pv *promptView) sendingPart() (string, []string) {
	r := pv.reply()
	var picks, rec []string
	user := false
	for i, o := range pv.options {
		if !o.selected() {
			continue
		}
		label := shorten(pv.labels[i], sendingLabelRunes)
		if pv.free[i] && strings.TrimSpace(r.Text) != "" {
			continue // the text stands for it
		}
		picks = append(picks, label)
		if pv.defaults[i] {
			rec = append(rec, label)
		} else {
			user = true
		}
	}
	if n := len(picks); n > sendingPicks {
		picks = append(picks[:sendingPicks], i18n.T("question.sending.more", map[string]any{"N": n - sendingPicks}))
	}
	if t := strings.TrimSpace(r.Text); t != "" && pv.p.EffectiveKind() != wire.KindYesNo {
		picks = append(picks, "“"+shorten(strings.Join(strings.Fields(t), " "), sendingTextRunes)+"”")
	}
	if pv.p.Single || !user {
		rec = nil
	}
	if len(picks) == 0 {
		return i18n.T("question.sending.none"), nil
	}
	return strings.Join(picks, i18n.T("list.sep")), rec // "，" in Chinese
}

// shorten cuts s to n characters, the last an ellipsis.
func shorten(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return strings.TrimRight(string(r[:n-1]), " ") + "…"
	}
	return s
}
