package dialogs

import (
	"image/color"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// The view's side of the countdown (countdown.go): its label and buttons,
// the state reported through Options.OnCountdown, and the closing state at
// zero.

// ClosingFor is how long a window whose countdown reached zero stays open
// saying so, its controls disabled, before it ends: the user sees why it
// goes instead of seeing it vanish.
const ClosingFor = 1500 * time.Millisecond

// Tick advances the countdown to now. At zero the view enters its closing
// state: the countdown reads "Time is up — closing", the controls are
// disabled, and ClosingFor later the view ends with StatusTimeout, or,
// with Options.SubmitDraftOnTimeout and a non-empty draft, submits the
// draft as it stood at zero, marked Auto. Nothing the user does in the
// closing state is taken as an answer.
func (v *View) Tick(now time.Time) {
	if v.ended() {
		return
	}
	if v.cd.Expire(now) {
		v.expire(now)
		return
	}
	v.updateCountdown(now)
	v.expireGuardCue(now)
}

// expire enters the closing state at now: the countdown reached zero.
func (v *View) expire(now time.Time) {
	a := wire.Answer{Status: wire.StatusTimeout}
	why := i18n.T("countdown.timeout_nobody")
	// An approval's timeout denies (approve.go); a draft its caller would
	// refuse (rule.go) is no answer either.
	if v.opts.SubmitDraftOnTimeout && v.draftNonEmpty() && v.allow == nil && v.brokenRule() < 0 {
		a = v.collect()
		a.Auto = true
		why = i18n.T("countdown.timeout_draft")
	}
	v.updateCountdown(now)
	disableAll(v.content)
	v.hint.keys = why
	v.showHint("")
	v.hooks.after(ClosingFor, func() { v.finish(a, now) })
}

// Closing reports whether the countdown has reached zero and the view is
// about to end (see Tick).
func (v *View) Closing() bool { return v.cd.Closing() }

// ended reports whether the view takes no more input: it has reported its
// answer, or it is closing.
func (v *View) ended() bool { return v.done || v.cd.Closing() }

// Countdown is the countdown's state as it stands (see Options.Countdown).
func (v *View) Countdown() wire.Countdown { return v.cd.State() }

// Extend adds Options.Extend to a running countdown (the "+ time" button,
// Alt+T) and reports whether it did. It is not an edit: the countdown keeps
// running.
func (v *View) Extend() bool {
	if v.ended() || !v.cd.Extend(v.opts.Extend) {
		return false
	}
	v.countdownChanged()
	return true
}

// TogglePin removes the deadline (the pin button, Alt+P), for a decision
// that must not lapse, or, pressed again, restores the countdown with the
// time that was left. It reports whether there was a countdown to pin.
func (v *View) TogglePin() bool {
	if v.ended() || !v.cd.TogglePin(v.now()) {
		return false
	}
	v.countdownChanged()
	return true
}

// hold stops the countdown: the user is answering.
func (v *View) hold() {
	if v.ended() || v.restoring || !v.cd.Hold() {
		return
	}
	v.countdownChanged()
}

// countdownChanged redraws the countdown and reports its new state.
func (v *View) countdownChanged() {
	v.updateCountdown(v.now())
	v.reportCountdown()
}

// reportCountdown hands the countdown's state to Options.OnCountdown.
func (v *View) reportCountdown() {
	if v.opts.OnCountdown != nil {
		v.opts.OnCountdown(v.cd.State())
	}
}

func (v *View) updateCountdown(now time.Time) {
	v.clock.label.SetText(v.cd.Text(now))
	// The last minute is a warning band across the row, the time large
	// and bold in a colour of high contrast on it, with words to say it;
	// the window asks for attention once (never the focus).
	imp := widget.MediumImportance
	if v.cd.Warning(now) {
		imp = widget.WarningImportance
	}
	if v.clock.label.Importance != imp {
		v.styleCountdown(imp == widget.WarningImportance, now)
	}
	v.syncCountdownButtons()
}

// styleCountdown draws the countdown as the warning (warn) or as usual at now.
func (v *View) styleCountdown(warn bool, now time.Time) {
	imp := widget.MediumImportance
	if warn {
		imp = widget.WarningImportance
	}
	v.clock.label.Importance = imp
	v.clock.label.TextStyle = fyne.TextStyle{Monospace: !warn, Bold: warn} // no font is both
	v.clock.label.SizeName = ""
	if warn {
		v.clock.label.SizeName = theme.SizeNameSubHeadingText
		v.setBand(true)
		if v.hooks.onUrgent != nil && v.cd.Urge(now) {
			v.hooks.onUrgent()
		}
	} else {
		v.setBand(false)
	}
	v.clock.label.Refresh()
	v.contentChanged() // budget.go: the larger time is taller; the window grows for it, else the options yield
}

// urge asks for the user's attention once the last minute begins, through
// the urgency hint (the window manager flashes the title, a taskbar marks
// it), unless the window has the focus. It never takes the focus.
func (w *Window) urge() {
	if !w.closed && !desk.active(w.win) {
		desk.attention(w.win, true)
	}
}

// countdownBand is the countdown, right-aligned, over the band that is
// shown in the last minute.
func (v *View) countdownBand() fyne.CanvasObject {
	v.clock.band = canvas.NewRectangle(color.Transparent)
	v.clock.band.CornerRadius = theme.InputRadiusSize()
	v.clock.band.Hide()
	return container.NewStack(v.clock.band, v.clock.label)
}

// setBand shows or hides the warning band, in the colours of the theme
// variant in use.
func (v *View) setBand(on bool) {
	if !on {
		v.clock.band.Hide()
		v.clock.label.fg = nil
		return
	}
	variant := theme.VariantLight
	if a := fyne.CurrentApp(); a != nil {
		variant = a.Settings().ThemeVariant()
	}
	v.clock.band.FillColor, v.clock.label.fg = WarningBand(variant)
	v.clock.band.Show()
	v.clock.band.Refresh()
}

// countdownLabel is the countdown: a label (one right-aligned line, bold
// CJK drawn heavier) drawn in fg, when set, on the warning band
// (WarningBand's foreground). Not a label under a theme override: Fyne
// caches the fonts of each override scope for good, and a scope per
// window loaded every font again for each question (~6 MiB each, 475 MiB
// of a UI process's heap after the Markdown benchmark).
type countdownLabel struct {
	heavyRichText
	Text       string
	Importance widget.Importance // MediumImportance, or WarningImportance in the last minute
	TextStyle  fyne.TextStyle
	SizeName   fyne.ThemeSizeName // "": the text size
	fg         color.Color        // the text's colour on the band; nil: the theme's for Importance
}

func newCountdownLabel() *countdownLabel {
	l := &countdownLabel{TextStyle: fyne.TextStyle{Monospace: true}}
	l.Segments = []widget.RichTextSegment{&widget.TextSegment{}}
	l.Scroll = container.ScrollNone
	l.sync()
	l.ExtendBaseWidget(l)
	return l
}

// SetText shows s.
func (l *countdownLabel) SetText(s string) {
	l.Text = s
	l.Refresh()
}

// Refresh draws the label's fields.
func (l *countdownLabel) Refresh() {
	l.sync()
	l.heavyRichText.Refresh()
}

// CreateRenderer draws the rich text's texts in fg when it is set.
func (l *countdownLabel) CreateRenderer() fyne.WidgetRenderer {
	return &countdownRenderer{WidgetRenderer: l.heavyRichText.CreateRenderer(), l: l}
}

type countdownRenderer struct {
	fyne.WidgetRenderer
	l *countdownLabel
}

func (r *countdownRenderer) Layout(s fyne.Size) {
	r.WidgetRenderer.Layout(s)
	r.paint()
}

func (r *countdownRenderer) Refresh() {
	r.WidgetRenderer.Refresh()
	r.paint()
}

// paint colours the texts the rich text (and the heavy copies) laid out
// with the theme's colour in fg.
func (r *countdownRenderer) paint() {
	if r.l.fg == nil {
		return
	}
	for _, o := range r.WidgetRenderer.Objects() {
		if t, ok := o.(*canvas.Text); ok {
			t.Color = r.l.fg
		}
	}
}

// sync puts the fields into the one segment, as widget.Label does.
func (l *countdownLabel) sync() {
	col := theme.ColorNameForeground
	if l.Importance == widget.WarningImportance {
		col = theme.ColorNameWarning
	}
	size := l.SizeName
	if size == "" {
		size = theme.SizeNameText
	}
	seg := l.Segments[0].(*widget.TextSegment)
	seg.Text = l.Text
	seg.Style = widget.RichTextStyle{Alignment: fyne.TextAlignTrailing, ColorName: col, Inline: true, TextStyle: l.TextStyle, SizeName: size}
}

// syncCountdownButtons enables "+ time" while the countdown runs and the
// pin until an edit holds the countdown for good.
func (v *View) syncCountdownButtons() {
	if v.clock.extend == nil {
		return
	}
	setEnabled(v.clock.extend, v.cd.Running() && !v.ended())
	setEnabled(v.clock.pin, v.cd.CanPin() && !v.ended())
	key := map[string]any{"Key": mods.withAlt("P")}
	label, tip := i18n.T("question.pin"), i18n.T("question.pin.tip", key)
	if v.cd.Pinned() {
		label, tip = i18n.T("question.unpin"), i18n.T("question.unpin.tip", key)
	}
	if v.clock.pin.Text != label {
		v.clock.pin.SetText(label)
	}
	if old := v.clock.pin.tip; old != tip {
		v.clock.pin.tip = tip
		if seg, ok := v.hint.text.Segments[0].(*widget.TextSegment); ok && seg.Text == old {
			v.showHint(tip) // the pointer is on the pin
		}
	}
}

func setEnabled(b *keyButton, on bool) {
	switch {
	case on && b.Disabled():
		b.Enable()
	case !on && !b.Disabled():
		b.Disable()
	}
}

// disableAll disables every control under o (the closing state).
func disableAll(o fyne.CanvasObject) {
	if d, ok := o.(fyne.Disableable); ok && !d.Disabled() {
		d.Disable()
	}
	switch c := o.(type) {
	case *fyne.Container:
		for _, ch := range c.Objects {
			disableAll(ch)
		}
	case *container.Scroll:
		disableAll(c.Content)
	}
}
