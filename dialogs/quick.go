package dialogs

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// Quick replies (Options.QuickReplies): the user's saved answers. A window
// with a reply box has a "Quick reply" button (Alt+R) whose menu puts one
// into the reply box of the current prompt; a window whose one prompt is
// text alone also shows them as chips above its reply box. Either way a
// quick reply is text for the user to send, never an answer by itself:
// it fills an empty box, or goes in at the caret of what is typed, and
// the box takes the keyboard; Submit sends it. (A click that sent the
// chip at once would let "Looks good, continue" answer "What should the
// new branch be called?")

// Limits of what a quick reply shows: a menu entry and a button. A button
// shows as much of its reply as the row has room for (chipsLayout), at
// most maxQuickButtonRunes characters and never fewer than
// minQuickButtonRunes.
const (
	maxQuickMenuRunes   = 60
	maxQuickButtonRunes = 60
	minQuickButtonRunes = 8
	maxQuickButtons     = 3
)

// quickReplies are the replies worth showing: non-blank ones.
func (v *View) quickReplies() []string {
	var out []string
	for _, r := range v.opts.QuickReplies {
		if strings.TrimSpace(r) != "" {
			out = append(out, r)
		}
	}
	return out
}

// quickButton is the footer's "Quick reply" button, or nil without
// replies or a reply box.
func (v *View) quickButton() fyne.CanvasObject {
	if len(v.quickReplies()) == 0 || v.quickTarget() == nil || v.q.IsApproval() {
		return nil
	}
	v.quick.btn = newKeyButton(i18n.T("question.quick"), theme.ContentPasteIcon(), v, v.OpenQuickReplies)
	v.quick.btn.tip = i18n.T("question.quick.tip", map[string]any{"Key": mods.withAlt("R")})
	return v.quick.btn
}

// quickTarget is the reply box a quick reply goes into: the current
// prompt's, else the first one.
func (v *View) quickTarget() *replyEntry {
	if v.pages.current < len(v.prompts) && v.prompts[v.pages.current].entry != nil {
		return v.prompts[v.pages.current].entry
	}
	for _, p := range v.prompts {
		if p.entry != nil {
			return p.entry
		}
	}
	return nil
}

// OpenQuickReplies shows the Quick reply menu under its button; choosing
// an entry inserts that reply (InsertQuickReply).
func (v *View) OpenQuickReplies() {
	if v.quick.btn == nil || v.ended() {
		return
	}
	c := fyne.CurrentApp().Driver().CanvasForObject(v.quick.btn)
	if c == nil {
		return
	}
	var items []*fyne.MenuItem
	for _, r := range v.quickReplies() {
		items = append(items, fyne.NewMenuItem(shorten(oneLine(r), maxQuickMenuRunes), func() { v.InsertQuickReply(r) }))
	}
	m := widget.NewPopUpMenu(fyne.NewMenu("", items...), c)
	v.quick.menu = m
	m.ShowAtRelativePosition(fyne.NewPos(0, -m.MinSize().Height), v.quick.btn)
	c.Focus(m)
}

// InsertQuickReply puts reply into the reply box: as its text when it is
// blank, else at the caret (replacing a selection), with a space on
// either side where the text has none; the caret ends after it and the
// box takes the keyboard. It is an edit, as typing is, and never submits.
func (v *View) InsertQuickReply(reply string) {
	e := v.quickTarget()
	if e == nil || v.ended() {
		return
	}
	if strings.TrimSpace(e.Text) == "" {
		e.SetText(reply)
		// The caret goes after the reply, so what the user types next
		// follows it. CursorRow counts the rows as wrapped, not the lines:
		// Page Down is Fyne's own way to the end of the last of them.
		e.Entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyPageDown})
	} else {
		text := []rune(e.Text)
		at := min(e.CursorTextOffset(), len(text))
		if at > 0 && !unicode.IsSpace(text[at-1]) {
			reply = " " + reply
		}
		if at < len(text) && !unicode.IsSpace(text[at]) {
			reply += " "
		}
		// Fyne's paste inserts at the caret, replaces a selection, moves
		// the caret after what it put and is one step of undo.
		paste := &fyne.ShortcutPaste{Clipboard: textClipboard(reply)}
		e.fitPaste(paste) // reply_wrap.go
		e.Entry.TypedShortcut(paste)
	}
	// The box takes the keyboard once the key that chose the reply is
	// done with: Space on a chip is followed by its character, which went
	// to the newly focused box (a chip pressed with Space put "reply !"
	// for "reply!"). fyne.Do runs after the events of this one.
	fyne.Do(func() {
		if c := fyne.CurrentApp().Driver().CanvasForObject(e); c != nil && !v.done {
			c.Focus(e)
		}
	})
}

// textClipboard is a fyne.Clipboard that holds one text, for Fyne's paste.
type textClipboard string

func (c textClipboard) Content() string { return string(c) }
func (textClipboard) SetContent(string) {}

// chipRow is the quick-reply chips of a window whose one prompt is text
// alone, or nil.
func (v *View) chipRow(pv *promptView) fyne.CanvasObject {
	replies := v.quickReplies()
	if len(replies) == 0 || v.q.IsApproval() || len(v.prompts) != 1 || pv.p.EffectiveKind() != wire.KindText || len(pv.p.Options) > 0 || pv.entry == nil {
		return nil
	}
	chips := &chipsLayout{}
	row := container.New(chips)
	for _, r := range replies[:min(len(replies), maxQuickButtons)] {
		text := shorten(oneLine(r), maxQuickButtonRunes)
		chips.texts = append(chips.texts, text)
		row.Add(widget.NewButton(text, func() { v.InsertQuickReply(r) }))
	}
	v.quick.row = row
	return container.NewHScroll(row)
}

// chipsLayout lays the quick-reply chips out in a row, as an HBox does,
// each with its whole text while the row has room for it; when it has
// not, the longest text is shortened, a character at a time, until the
// row fits (or every text is down to minQuickButtonRunes). (A fixed length
// cuts "Explain the trade-offs…" with room to spare.)
type chipsLayout struct {
	texts []string // the buttons' whole texts
}

func (l *chipsLayout) Layout(objects []fyne.CanvasObject, size fyne.Size) {
	pad := theme.Padding()
	lens := make([]int, len(objects))
	for i := range objects {
		lens[i] = utf8.RuneCountInString(l.texts[i])
	}
	width := func() float32 {
		w := pad * float32(len(objects)-1)
		for i, o := range objects {
			b := o.(*widget.Button)
			text := shorten(l.texts[i], lens[i])
			if b.Text != text {
				b.SetText(text)
			}
			w += b.MinSize().Width
		}
		return w
	}
	for width() > size.Width {
		longest := -1
		for i, n := range lens {
			if n > minQuickButtonRunes && (longest < 0 || n > lens[longest]) {
				longest = i
			}
		}
		if longest < 0 {
			break
		}
		lens[longest]--
	}
	x := float32(0)
	for _, o := range objects {
		m := o.MinSize()
		o.Move(fyne.NewPos(x, 0))
		o.Resize(fyne.NewSize(m.Width, size.Height))
		x += m.Width + pad
	}
}

// MinSize is the row with every text down to minQuickButtonRunes, and the
// buttons' height.
func (l *chipsLayout) MinSize(objects []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for i, o := range objects {
		b := o.(*widget.Button)
		short := widget.NewButtonWithIcon(shorten(l.texts[i], minQuickButtonRunes), b.Icon, nil)
		m := short.MinSize()
		s.Width += m.Width
		s.Height = max(s.Height, b.MinSize().Height)
	}
	if len(objects) > 1 {
		s.Width += theme.Padding() * float32(len(objects)-1)
	}
	return s
}

// oneLine is s with its line breaks as spaces.
func oneLine(s string) string { return strings.Join(strings.Fields(s), " ") }
