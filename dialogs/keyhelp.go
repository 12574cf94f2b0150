package dialogs

import (
	"fmt"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/dialogs/internal/modal"
	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// The footer's hint line names only the keys that answer (submit, or yes
// and no) and Escape; it fits beside the buttons in every language. The
// "?" button at its start, and F1, show every key of the window in a
// dialog (keyRows).

// HelpKey shows the window's keys.
const HelpKey = fyne.KeyF1

// hintParts are the footer's hint line, in parts, most important first;
// the line shows as many as fit (hintLayout).
// While the window waits for the user to come to it, the line says first
// how to: a click, or the shortcut that brings the keyboard (SetWaiting).
func (v *View) hintParts() []string {
	var parts []string
	if v.hint.waiting {
		if v.hint.bring != "" {
			parts = append(parts, i18n.T("hint.bring", map[string]any{"Key": v.hint.bring}))
		} else {
			parts = append(parts, i18n.T("hint.click"))
		}
	}
	dont := i18n.T("hint.dont_answer")
	if v.hasSubmit() {
		return append(parts, i18n.T("hint.submit", map[string]any{"Key": mods.withPrimary("Enter")}), dont)
	}
	if ans := v.enterAnswer(); ans != "" { // keys.go: the focused button's answer
		parts = append(parts, i18n.T("hint.enter_"+ans))
	}
	return append(parts, i18n.T("hint.yes", map[string]any{"Key": mods.withAlt("Y")}),
		i18n.T("hint.no", map[string]any{"Key": mods.withAlt("N")}), dont)
}

// SetWaiting says whether the window waits for the user to come to it
// (it opened without the keyboard), and bring, the shortcut that brings
// the keyboard to it ("": none, a click does); the hint line says so
// first while it waits.
func (v *View) SetWaiting(on bool, bring string) {
	if v.hint.waiting == on && v.hint.bring == bring {
		return
	}
	v.hint.waiting, v.hint.bring = on, bring
	if v.hint.width > 0 {
		v.fitHint(v.hint.width)
	}
}

// Waiting reports whether the hint says the window waits for the user.
func (v *View) Waiting() bool { return v.hint.waiting }

// hintSep separates the parts of the hint line.
const hintSep = " · "

// shortHint is the whole hint line.
func (v *View) shortHint() string { return strings.Join(v.hintParts(), hintSep) }

// fittingHint is the longest run of the hint's first parts that fits in
// width (at least the first part).
func (v *View) fittingHint(width float32) string {
	parts := v.hintParts()
	size := theme.Size(theme.SizeNameCaptionText)
	for n := len(parts); n > 1; n-- {
		text := strings.Join(parts[:n], hintSep)
		if fyne.MeasureText(text, size, fyne.TextStyle{}).Width <= width {
			return text
		}
	}
	if v.hint.waiting && v.hint.bring != "" && fyne.MeasureText(parts[0], size, fyne.TextStyle{}).Width > width {
		return i18n.T("hint.bring_short", map[string]any{"Key": v.hint.bring}) // the key, whole, rather than a cut sentence
	}
	return parts[0]
}

// hintLayout lays out the hint line (its only object) and has it show the
// parts of the hint that fit the width it gets: a hint cut mid-word is no
// help. The closing state's words and a button's tip are left as they are.
type hintLayout struct{ v *View }

func (l hintLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	l.v.fitHint(size.Width)
	for _, o := range objects {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(size)
	}
}

func (l hintLayout) MinSize(objects []fyne.CanvasObject) fyne.Size { return objects[0].MinSize() }

// fitHint sets the keyboard hint to the parts that fit in width, the hint
// line's, and shows it if the line showed the hint before.
func (v *View) fitHint(width float32) {
	if v.Closing() || width <= 0 {
		return
	}
	v.hint.width = width
	text := v.fittingHint(width - 2*theme.InnerPadding())
	if text != v.hint.keys {
		old := v.hint.keys
		v.hint.keys = text
		if seg, ok := v.hint.text.Segments[0].(*widget.TextSegment); ok && seg.Text == old {
			v.showHint("")
		}
	}
}

// hasSubmit reports whether the window has a Submit button: all but a
// window of one yes/no question.
func (v *View) hasSubmit() bool {
	return !(len(v.prompts) == 1 && v.prompts[0].p.Kind == wire.KindYesNo)
}

// keyRow is one line of the keys dialog: the key and what it does.
type keyRow struct{ key, does string }

// keyRows lists the keys of this window, in the order of the README's
// Keyboard table: only those that do something here.
func (v *View) keyRows() []keyRow {
	var rows []keyRow
	add := func(key, id string, data ...any) { rows = append(rows, keyRow{key, i18n.T(id, data...)}) }
	if v.hasSubmit() {
		add(mods.withPrimary("Enter"), "keys.submit")
	}
	add("Esc", "keys.dont_answer")
	add("Tab / Shift+Tab", "keys.move")
	add("Space / Enter", "keys.press")
	if n := min(len(v.options), 9); n > 0 {
		add(fmt.Sprintf("%s … %d", mods.withAlt("1"), n), "keys.options", map[string]any{"N": n})
		add("Up / Down", "keys.up_down")
	}
	if v.hasKind(wire.KindYesNo) {
		add(mods.withAlt("Y")+" / "+mods.withAlt("N"), "keys.yes_no")
		if rec := v.recommended(); rec != "" && !v.hasSubmit() {
			add("Enter", "keys.enter_"+rec)
		}
	}
	if v.att != nil {
		if v.opts.PasteImage != nil {
			add(mods.withPrimary("V"), "keys.paste")
		}
		add(mods.withPrimary("O"), "keys.attach")
	}
	if v.cd.On() {
		add(mods.withAlt("T"), "keys.extend", map[string]any{"Duration": describeExtend(v.opts.Extend)})
		add(mods.withAlt("P"), "keys.pin")
	}
	if v.quick.btn != nil {
		add(mods.withAlt("R"), "keys.quick")
	}
	if v.snooze.btn != nil {
		add(mods.withAlt("Z"), "keys.snooze")
	}
	if v.allow != nil { // approve.go
		add(mods.withAlt("PgDn")+" / "+mods.withAlt("PgUp")+" / "+mods.withAlt("End"), "keys.page")
	}
	add("Ctrl+PgDn / Ctrl+PgUp", "keys.cycle")
	if v.hint.bring != "" {
		add(v.hint.bring, "keys.bring")
	}
	add("F1", "keys.help")
	return rows
}

// helpButton is the "?" at the start of the hint line: it shows the keys.
func (v *View) helpButton() *keyButton {
	b := newKeyButton("", theme.QuestionIcon(), v, v.showKeys)
	b.Importance = widget.LowImportance
	b.tip = i18n.T("keys.tip")
	return b
}

// help implements keyHandler: F1.
func (v *View) help() { v.showKeys() }

// showKeys shows the window's keys (F1, the "?" button); outside a Window
// it does nothing.
func (v *View) showKeys() {
	if v.hooks.onHelp != nil && !v.ended() {
		v.hooks.onHelp()
	}
}

// keysContent is the keys dialog's table.
func (v *View) keysContent() fyne.CanvasObject {
	grid := container.New(layout.NewFormLayout())
	for _, r := range v.keyRows() {
		key := widget.NewLabelWithStyle(r.key, fyne.TextAlignTrailing, fyne.TextStyle{Monospace: true})
		does := widget.NewLabel(r.does)
		does.Wrapping = fyne.TextWrapWord
		grid.Add(key)
		grid.Add(does)
	}
	return grid
}

// showKeys shows the keys dialog over the window; Escape, Enter or Close
// closes it.
func (w *Window) showKeys() {
	var d *dialog.CustomDialog
	closeB := modal.NewButton(i18n.T("keys.close"), theme.CancelIcon(), func() { d.Hide() }, heavy)
	closeB.Cancel = closeB.OnTapped
	table := w.view.keysContent()
	d = dialog.NewCustomWithoutButtons(i18n.T("keys.title"), container.NewVScroll(table), w.win)
	d.SetButtons([]fyne.CanvasObject{closeB})
	d.SetOnClosed(func() {
		if !w.closed {
			w.focusContent()
		}
	})
	size := w.win.Canvas().Size()
	width := min(560, size.Width*0.95)
	table.Resize(fyne.NewSize(width, table.MinSize().Height)) // wrapped rows report their height once laid out
	chrome := 4*theme.Padding() + 2*theme.TextSubHeadingSize() + closeB.MinSize().Height
	d.Resize(fyne.NewSize(width, min(size.Height*0.9, table.MinSize().Height+chrome)))
	d.Show()
	w.win.Canvas().Focus(closeB)
}
