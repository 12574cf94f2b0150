package dialogs

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// The "Sending" line: in a window with options, or with several prompts,
// a line says what Submit sends as it stands, and changes with every
// choice, keystroke and attached image, so that nothing reaches the agent
// that the user did not see. It shows the whole of it: every prompt,
// every ticked option's label in full, the number of images attached, and
// a typed reply (which its own box shows whole) cut after
// sendingTextRunes characters. While it fits whole in the footer's hint
// slot by the Submit button it is shown there (the keyboard hint is then
// behind "?" and F1; a button's tip, the input guard's cue and the closing
// words still show there), so the message keeps the height; when it does
// not, it is in a row of its own above the footer, wrapped, never cut
// to fit the hint slot. An approval's line names the decision by its effect: "Allow this call", "Always allow
// <rule>" or "Deny", never "no answer". When a prompt's recommended option
// (a pre-ticked default of a multi-select prompt) is still ticked beside
// an option the user ticked, a warning line in the warning colour says
// so: both will be sent. A line, not a question on Submit: it is seen
// before the user acts, and Ctrl+Enter stays one key press. The row is
// shown only while it says something (or holds the pager of several
// prompts).

// sendingTextRunes caps a typed reply on the Sending line.
const sendingTextRunes = 80

// sendingLine is the line, in its two places, and its warning.
type sendingLine struct {
	what    *widget.RichText // in the row: the whole line, wrapped, while the hint slot cannot hold it
	inline  *widget.RichText // in the hint slot, while it fits there whole
	warn    *widget.RichText
	box     *fyne.Container // the row's lines
	row     fyne.CanvasObject
	footer  fyne.CanvasObject // the footer that holds the hint slot (sendingAt lays it out)
	slot    float32           // the hint slot's width, once laid out
	laidOut bool
	rowH    float32 // the row's height when last placed (0: hidden)
	tip     bool    // the hint slot shows a tip, the guard's cue or the closing words
	sizing  bool    // the window's size is being chosen (sendingAt): the row neither refits nor squeezes
}

func newSendingLine() *sendingLine {
	line := func(c fyne.ThemeColorName, bold bool, align fyne.TextAlign) *widget.RichText {
		rt := widget.NewRichText(&widget.TextSegment{Style: widget.RichTextStyle{
			ColorName: c, SizeName: theme.SizeNameCaptionText, Alignment: align,
			TextStyle: fyne.TextStyle{Bold: bold}}})
		rt.Wrapping = fyne.TextWrapWord
		return rt
	}
	s := &sendingLine{what: line(theme.ColorNameForeground, false, fyne.TextAlignLeading),
		inline: line(theme.ColorNameForeground, false, fyne.TextAlignTrailing),
		warn:   line(theme.ColorNameWarning, true, fyne.TextAlignLeading)}
	s.inline.Wrapping = fyne.TextWrapOff
	s.what.Hide()
	s.inline.Hide()
	s.warn.Hide()
	// The two lines as one paragraph: their text paddings overlap.
	s.box = container.New(&paddedLayout{}, container.New(layout.NewCustomPaddedVBoxLayout(-theme.InnerPadding()), s.what, s.warn))
	s.row = s.box
	return s
}

// fitsSlot reports whether the line fits whole in the hint slot.
func (s *sendingLine) fitsSlot() bool {
	text := s.inline.String()
	w := fyne.MeasureText(text, theme.Size(theme.SizeNameCaptionText), fyne.TextStyle{}).Width + 2*theme.InnerPadding()
	return !s.laidOut || w <= s.slot // not laid out yet: in the slot until the window's sizing (sendingAt) or a layout gives it a width
}

// placeSending shows the line where it fits whole: in the hint slot
// (unless a tip is shown there), else in its row; the hint slot shows the
// keyboard hint or the tip while the line is not in it. The row is shown
// while it holds something.
func (v *View) placeSending() {
	s := v.sending
	if s == nil {
		return
	}
	fits := s.fitsSlot()
	setVisible(s.inline, fits && !s.tip && !v.Closing())
	if v.hint.text != nil {
		setVisible(v.hint.text, !s.inline.Visible())
	}
	setVisible(s.what, !fits && !v.Closing()) // the closing words say what is sent then
	if s.row != nil {
		setVisible(s.row, v.pages.bar != nil || s.what.Visible() || s.warn.Visible())
		h := float32(0)
		if s.row.Visible() {
			h = s.rowHeight()
		}
		if h > s.rowH+0.5 && !v.done && !s.sizing {
			v.contentBelowGrew() // layout.go: what the window cannot grow for, the options give up
			if v.hooks.refit != nil {
				v.hooks.refit() // the window grows for the row, if it can (budget.go)
			}
		}
		s.rowH = h
	}
}

// sendingAt places the line as the window's content width sets it: it
// lays the footer out at that width, which gives the hint slot its width
// there (sendingSlot), and the row, if shown, whose wrapped line's height
// depends on it, before the window's height is measured (heightAt).
// The place is never the one an earlier layout at another size left: Fyne
// lays new content out at its minimum size first, and a pooled window at
// its last question's size, where the slot is narrower or wider; a place
// kept from there counts the row, or not, by a slot of another width than
// the window opens with.
func (v *View) sendingAt(contentWidth float32) {
	s := v.sending
	if s == nil || s.footer == nil {
		return
	}
	s.sizing = true
	defer func() { s.sizing = false }()
	s.footer.Resize(fyne.NewSize(contentWidth, s.footer.MinSize().Height))
	if s.row != nil && s.row.Visible() {
		s.rowHeight()
	}
}

// rowHeight lays the row out at the footer's width, which it shares, and
// returns its height there: a line just shown in the row was not laid out
// with it, and a wrapped line measured before its first layout is a column
// of letters (it made the window grow by a few lines when the line moved
// from the hint slot to the row).
func (s *sendingLine) rowHeight() float32 {
	if s.footer != nil {
		if w := s.footer.Size().Width; w > 0 {
			s.row.Resize(fyne.NewSize(w, s.row.MinSize().Height))
			s.row.Resize(fyne.NewSize(w, s.row.MinSize().Height)) // again: the line wraps after the first pass
		}
	}
	return s.row.MinSize().Height
}

// setVisible shows or hides o, if it is not so already.
func setVisible(o fyne.CanvasObject, on bool) {
	switch {
	case on && !o.Visible():
		o.Show()
	case !on && o.Visible():
		o.Hide()
	}
}

// sendingSlot lays out the hint slot: the keyboard hint (objects[0]) and,
// on top of it, centred, the Sending line (objects[1], the inline copy),
// laid out whether or not it is shown; it tells the view the slot's width,
// which decides where the line goes (placeSending).
type sendingSlot struct{ v *View }

func (l sendingSlot) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	if s := l.v.sending; s != nil && (!s.laidOut || s.slot != size.Width) {
		s.slot, s.laidOut = size.Width, true
		l.v.placeSending()
	}
	objects[0].Move(fyne.Position{})
	objects[0].Resize(size)
	h := objects[1].MinSize().Height
	objects[1].Move(fyne.NewPos(0, (size.Height-h)/2))
	objects[1].Resize(fyne.NewSize(size.Width, h))
}

// MinSize is the hint's: the line takes the slot only when it fits.
func (sendingSlot) MinSize(objects []fyne.CanvasObject) fyne.Size { return objects[0].MinSize() }

// wantsSendingLine reports whether the window shows the line: it has
// options or several prompts (a lone reply box shows what it sends).
func (v *View) wantsSendingLine() bool {
	return len(v.options) > 0 || len(v.prompts) > 1
}

// countImages sets the line anew, its warning kept: an image came or went.
func (v *View) countImages() {
	if v.sending == nil {
		return
	}
	what, _ := v.sendingText()
	setSegment(v.sending.what, what)
	setSegment(v.sending.inline, what)
	v.placeSending()
}

// updateSending sets the line from the answer as it stands.
func (v *View) updateSending() {
	if v.sending == nil {
		return
	}
	what, warn := v.sendingText()
	setSegment(v.sending.what, what)
	setSegment(v.sending.inline, what)
	setSegment(v.sending.warn, warn)
	setVisible(v.sending.warn, warn != "")
	v.placeSending()
}

func setSegment(rt *widget.RichText, text string) {
	if seg, ok := rt.Segments[0].(*widget.TextSegment); ok && seg.Text != text {
		seg.Text = text
		rt.Refresh()
	}
}

// sendingText is the line ("Sending: …") and its warning ("" for none).
func (v *View) sendingText() (what, warn string) {
	if v.allow != nil || v.q.IsApproval() && len(v.prompts) > 0 {
		return i18n.T("question.sending", map[string]any{"What": v.decisionText()}), ""
	}
	var parts, stale, contra []string
	for i, pv := range v.prompts {
		part, rec := pv.sendingPart()
		contra = append(contra, pv.contradiction()...)
		if len(v.prompts) > 1 {
			part = fmt.Sprintf("%d: %s", i+1, part)
		}
		parts = append(parts, part)
		stale = append(stale, rec...)
	}
	if n := v.attached(); n > 0 {
		if len(v.prompts) == 1 && v.prompts[0].unanswered() {
			parts = nil // the images are the answer
		}
		parts = append(parts, fmt.Sprintf(lang.L(map[bool]string{true: "%d attached image", false: "%d attached images"}[n == 1]), n))
	}
	// While a reply breaks its prompt's rule Submit is off (rule.go): the
	// line says what is ticked and typed, not that it is being sent.
	id := "question.sending"
	if v.brokenRule() >= 0 {
		id = "question.sending.held"
	}
	what = i18n.T(id, map[string]any{"What": strings.Join(parts, " · ")})
	var warns []string
	if len(contra) > 0 {
		warns = append(warns, i18n.T("question.sending.contradicts", map[string]any{"Labels": strings.Join(contra, i18n.T("list.sep"))}))
	}
	if len(stale) > 0 {
		warns = append(warns, i18n.T("question.sending.still_ticked", map[string]any{"Labels": strings.Join(stale, i18n.T("list.sep"))}))
	}
	return what, strings.Join(warns, "\n")
}

// opposites are pairs of option labels that answer a question both ways
// (compared trimmed, ignoring case).
var opposites = [][2]string{{"yes", "no"}, {"y", "n"}, {"是", "否"}, {"是", "不是"}}

// contradiction is the labels of a multi-select prompt's ticked options
// that answer both ways ("Yes", "No"), or nil: interactive_feedback offers
// ["Yes","No"] as checkboxes (seed 000 allows several), and both ticked
// are both sent.
func (pv *promptView) contradiction() []string {
	if pv.p.Single {
		return nil
	}
	ticked := map[string]string{}
	for i, o := range pv.options {
		if o.selected() {
			ticked[strings.ToLower(strings.TrimSpace(pv.labels[i]))] = pv.labels[i]
		}
	}
	for _, pair := range opposites {
		if a, ok := ticked[pair[0]]; ok {
			if b, ok := ticked[pair[1]]; ok {
				return []string{a, b}
			}
		}
	}
	return nil
}

// attached is the number of images attached and ready to send.
func (v *View) attached() int {
	if v.att == nil {
		return 0
	}
	return v.att.set.Len()
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
			return i18n.T("question.sending.always", map[string]any{"Rule": rule})
		}
		return i18n.T("question.sending.allow")
	}
	what := i18n.T("question.sending.deny")
	if t := strings.TrimSpace(pv.reply().Text); t != "" {
		what += " · “" + shorten(strings.Join(strings.Fields(t), " "), sendingTextRunes) + "”"
	}
	return what
}

// sendingPart is what the prompt sends, every label in full, and the
// labels of its recommended options still ticked beside an option the user
// ticked.
func (pv *promptView) sendingPart() (string, []string) {
	r := pv.reply()
	var picks, rec []string
	user := false
	for i, o := range pv.options {
		if !o.selected() {
			continue
		}
		label := pv.labels[i]
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
