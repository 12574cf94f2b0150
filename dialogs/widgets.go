package dialogs

import (
	"image/color"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// keyHandler is implemented by View: the focused widgets forward the keys
// of the keyboard contract to it.
type keyHandler interface {
	// shortcut handles s and reports whether it was one of ours.
	shortcut(s fyne.Shortcut) bool
	// escape requests a dismissal.
	escape()
	// help shows the window's keys (F1).
	help()
	// pasteInto handles a paste into e and reports whether it did.
	pasteInto(e *replyEntry, s fyne.Shortcut) bool
	// showHint shows a button's tip in the hint line; "" restores the hint.
	showHint(tip string)
	// keyDown and keyUp report a key going down or up (the input guard).
	keyDown(k *fyne.KeyEvent)
	keyUp(k *fyne.KeyEvent)
	// wrote reports that typing put text into the reply box (the input guard).
	wrote()
	// allowKey reports whether the key k may act now (the input guard).
	allowKey(k fyne.KeyName) bool
	// focusGained reports that the reply box took the keyboard.
	focusGained()
	// reveal scrolls o into view: a key went down or up in it.
	reveal(o fyne.CanvasObject)
}

// replyEntry is the multi-line reply box. Focused multi-line entries receive
// Ctrl+Enter and Alt+digit as desktop.CustomShortcut, so it hands those to
// the view before falling back to the ordinary Entry behaviour.
type replyEntry struct {
	widget.Entry
	keys keyHandler
	// endOnFocus: the first focus puts the cursor after the text (a
	// prefilled answer); the entry is laid out by then.
	endOnFocus bool
	rows       int  // the rows it shows now (budget.go)
	focused    bool // it has the keyboard: the focus ring shows
}

// CreateRenderer is the Entry's, with the focus ring drawn over its border
// (focusring.go): Fyne marks a focused entry by the hue of its 1 px border
// alone, 2:1 against a dark background.
func (e *replyEntry) CreateRenderer() fyne.WidgetRenderer {
	e.ExtendBaseWidget(e)
	ring := newFocusRing()
	ring.CornerRadius = theme.InputRadiusSize() // the border's own
	return &ringRenderer{WidgetRenderer: e.Entry.CreateRenderer(), ring: ring, around: onBorder,
		focused: func() bool { return e.focused }}
}

// FocusGained moves the cursor after a prefilled text the first time.
func (e *replyEntry) FocusGained() {
	if e.endOnFocus {
		e.endOnFocus = false
		e.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown})
	}
	e.focused = true
	e.Entry.FocusGained()
	e.keys.focusGained() // the input guard: the window or the user gave it the keyboard
}

// FocusLost hides the focus ring.
func (e *replyEntry) FocusLost() {
	e.focused = false
	e.Entry.FocusLost()
}

func newReplyEntry(keys keyHandler, placeholder string) *replyEntry {
	e := &replyEntry{keys: keys}
	e.MultiLine = true
	e.Wrapping = fyne.TextWrapWord
	e.PlaceHolder = placeholder
	e.rows = replyMinRows // it grows as the user types (budget.go)
	e.SetMinRowsVisible(replyMinRows)
	e.ExtendBaseWidget(e)
	return e
}

// TypedShortcut gives the view the first look at a shortcut.
func (e *replyEntry) TypedShortcut(s fyne.Shortcut) {
	e.fitPaste(s) // before the text changes: see reply_wrap.go
	if e.keys.shortcut(s) || e.keys.pasteInto(e, s) {
		return
	}
	e.Entry.TypedShortcut(s)
}

// AcceptsTab is false: Tab moves the focus on to the options and buttons
// (Shift+Tab back) instead of typing a tab into the reply.
func (e *replyEntry) AcceptsTab() bool { return false }

// TypedKey turns Escape into a dismissal request.
func (e *replyEntry) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyEscape:
		e.keys.escape()
		return
	case HelpKey:
		e.keys.help()
		return
	}
	e.Entry.TypedKey(k)
}

// KeyDown tells the input guard, then the Entry.
func (e *replyEntry) KeyDown(k *fyne.KeyEvent) {
	e.keys.keyDown(k)
	e.keys.reveal(e) // typed text is seen where it goes
	e.Entry.KeyDown(k)
}

// KeyUp tells the input guard, then the Entry.
func (e *replyEntry) KeyUp(k *fyne.KeyEvent) {
	e.keys.keyUp(k)
	e.keys.reveal(e)
	e.Entry.KeyUp(k)
}

func (e *replyEntry) reportsKeys() {}

// optionCheck is a checkbox that keeps Escape working while it has focus.
type optionCheck struct {
	widget.Check
	keys    keyHandler
	move    func(from fyne.Focusable, by int) // Up/Down: focus the option by away
	focused bool                              // it has the keyboard: the focus ring shows
}

// CreateRenderer adds the focus ring (focusring.go) to the check's own.
func (c *optionCheck) CreateRenderer() fyne.WidgetRenderer {
	return &ringRenderer{WidgetRenderer: c.Check.CreateRenderer(), ring: newFocusRing(), around: iconBox,
		focused: func() bool { return c.focused }}
}

// FocusGained shows the focus ring.
func (c *optionCheck) FocusGained() { c.focused = true; c.Check.FocusGained(); c.Refresh() }

// FocusLost hides the focus ring.
func (c *optionCheck) FocusLost() { c.focused = false; c.Check.FocusLost(); c.Refresh() }

func newOptionCheck(label string, keys keyHandler, changed func(bool)) *optionCheck {
	c := &optionCheck{keys: keys}
	c.Text = label
	c.OnChanged = changed
	c.ExtendBaseWidget(c)
	return c
}

// TypedKey turns Escape into a dismissal request, and Up and Down into a
// move to the previous or next option.
func (c *optionCheck) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyEscape:
		c.keys.escape()
		return
	case HelpKey:
		c.keys.help()
		return
	case fyne.KeyUp, fyne.KeyDown:
		if c.move != nil {
			c.move(c, map[fyne.KeyName]int{fyne.KeyUp: -1, fyne.KeyDown: 1}[k.Name])
		}
		return
	}
	c.Check.TypedKey(k)
}

// KeyDown tells the input guard.
func (c *optionCheck) KeyDown(k *fyne.KeyEvent) { c.keys.keyDown(k); c.keys.reveal(c) }

// KeyUp tells the input guard, and shows the option (Tab moved here).
func (c *optionCheck) KeyUp(k *fyne.KeyEvent) { c.keys.keyUp(k); c.keys.reveal(c) }

func (c *optionCheck) reportsKeys() {}

// keyButton is a button that keeps Escape working while it has focus and,
// when it has a tip, shows it in the window's hint line while the pointer
// is over it (Fyne has no tooltips, and an overlay would take the focus).
type keyButton struct {
	widget.Button
	keys    keyHandler
	tip     string
	focused bool // it has the keyboard: the focus ring shows
}

// CreateRenderer adds the focus ring (focusring.go) to the button's own,
// and draws a CJK label heavier (heavy.go): Fyne draws bold CJK like
// regular.
func (b *keyButton) CreateRenderer() fyne.WidgetRenderer {
	return heavy(b, &ringRenderer{WidgetRenderer: b.Button.CreateRenderer(), ring: newFocusRing(), around: whole,
		focused: func() bool { return b.focused }})
}

// FocusGained shows the focus ring.
func (b *keyButton) FocusGained() { b.focused = true; b.Button.FocusGained(); b.Refresh() }

// FocusLost hides the focus ring.
func (b *keyButton) FocusLost() { b.focused = false; b.Button.FocusLost(); b.Refresh() }

func newKeyButton(label string, icon fyne.Resource, keys keyHandler, tapped func()) *keyButton {
	b := &keyButton{keys: keys}
	b.Text = label
	b.Icon = icon
	b.OnTapped = tapped
	b.ExtendBaseWidget(b)
	return b
}

// TypedKey turns Escape into a dismissal request; Space and Enter press
// the button.
func (b *keyButton) TypedKey(k *fyne.KeyEvent) {
	switch k.Name {
	case fyne.KeyEscape:
		b.keys.escape()
		return
	case HelpKey:
		b.keys.help()
		return
	case fyne.KeySpace, fyne.KeyReturn, fyne.KeyEnter:
		// Space, and Enter as on other desktops, press the focused
		// button (Fyne's own takes Space only), under the input guard.
		if b.keys.allowKey(k.Name) && !b.Disabled() {
			b.Button.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
		}
		return
	}
	b.Button.TypedKey(k)
}

// KeyDown tells the input guard.
func (b *keyButton) KeyDown(k *fyne.KeyEvent) { b.keys.keyDown(k); b.keys.reveal(b) }

// KeyUp tells the input guard, and shows the button (Tab moved here).
func (b *keyButton) KeyUp(k *fyne.KeyEvent) { b.keys.keyUp(k); b.keys.reveal(b) }

func (b *keyButton) reportsKeys() {}

// MouseIn shows the tip.
func (b *keyButton) MouseIn(e *desktop.MouseEvent) {
	b.Button.MouseIn(e)
	if b.tip != "" {
		b.keys.showHint(b.tip)
	}
}

// MouseOut hides the tip.
func (b *keyButton) MouseOut() {
	b.Button.MouseOut()
	if b.tip != "" {
		b.keys.showHint("")
	}
}

// tapLabel is an option's label: it wraps, and a tap on it toggles the
// option.
type tapLabel struct {
	widget.Label
	onTap func()
}

func newTapLabel(text string, onTap func()) *tapLabel {
	l := &tapLabel{onTap: onTap}
	l.Text = text
	l.Wrapping = fyne.TextWrapWord
	l.ExtendBaseWidget(l)
	return l
}

// Tapped toggles the option.
func (l *tapLabel) Tapped(*fyne.PointEvent) { l.onTap() }

// maxChipRunes caps a chip's text: a chip does not wrap, so a long header
// or title would force the window wider than the screen.
const maxChipRunes = 48

// newChip is a small rounded tag, used for header labels.
func newChip(text string) fyne.CanvasObject {
	if r := []rune(text); len(r) > maxChipRunes {
		text = string(r[:maxChipRunes-1]) + "…"
	}
	bg := canvas.NewRectangle(theme.Color(theme.ColorNamePrimary))
	bg.CornerRadius = theme.Size(theme.SizeNameInputRadius) * 2
	label := canvas.NewText(text, color.White)
	label.TextStyle = fyne.TextStyle{Bold: true}
	label.TextSize = theme.Size(theme.SizeNameCaptionText)
	pad := theme.Padding()
	return container.NewHBox(container.NewStack(bg, newHeavyText(label, pad*2, pad/2))) // heavy.go: bold CJK
}

// caption is secondary text: smaller and in the disabled colour.
func caption(text string) *widget.RichText {
	rt := widget.NewRichText(&widget.TextSegment{
		Text:  text,
		Style: widget.RichTextStyle{ColorName: theme.ColorNamePlaceHolder, SizeName: theme.SizeNameCaptionText, Inline: true},
	})
	rt.Wrapping = fyne.TextWrapWord
	return rt
}

// paddedLayout insets its objects by h horizontally and v vertically.
type paddedLayout struct{ h, v float32 }

func (l *paddedLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(l.h, l.v))
		o.Resize(fyne.NewSize(size.Width-2*l.h, size.Height-2*l.v))
	}
}

func (l *paddedLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var min fyne.Size
	for _, o := range objects {
		min = min.Max(o.MinSize())
	}
	return min.Add(fyne.NewSize(2*l.h, 2*l.v))
}

// insetLayout indents its objects from the left.
type insetLayout struct{ left float32 }

func (l *insetLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objects {
		o.Move(fyne.NewPos(l.left, 0))
		o.Resize(fyne.NewSize(size.Width-l.left, size.Height))
	}
}

func (l *insetLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var min fyne.Size
	for _, o := range objects {
		min = min.Max(o.MinSize())
	}
	return min.Add(fyne.NewSize(l.left, 0))
}

// optionRowLayout lays out an option: its box (objects[0]) on the left,
// centred on the first line, and its wrapping label (objects[1]) filling
// the rest of the width, drawn as close to the box as a check's own label
// would be (the label's own inner padding stands in for the gap).
type optionRowLayout struct{}

func (optionRowLayout) labelX(fyne.CanvasObject) float32 {
	// An empty check is its icon between two inner paddings; a radio
	// group's " " is a little wider, so both use the check's measure.
	return theme.IconInlineSize() + theme.InnerPadding()
}

func (l optionRowLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	box, label := objects[0], objects[1]
	x := l.labelX(box)
	label.Move(fyne.NewPos(x, 0))
	label.Resize(fyne.NewSize(size.Width-x, size.Height))
	bm := box.MinSize()
	line := min(size.Height, bm.Height)
	box.Move(fyne.NewPos(0, 0))
	box.Resize(fyne.NewSize(bm.Width, line))
}

func (l optionRowLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	box, label := objects[0].MinSize(), objects[1].MinSize()
	return fyne.NewSize(l.labelX(objects[0])+label.Width, max(box.Height, label.Height))
}
