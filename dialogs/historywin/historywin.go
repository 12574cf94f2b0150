// Package historywin is the History window of the UI process ("History…"
// in the tray): every ask the app kept, newest first, one line each (its
// outcome as a badge, title, age, client, project and loop), a search over
// question and reply text, client and project, one ask read in full (its
// rendered Markdown, the options chosen, the reply, the attached images),
// a tool-call approval listed by its call and shown with what it decided
// (wire.Question.Verdict: allowed, always allowed and the rule, denied and
// the reason the agent was given, timed out, denied while away), and an export of the selection as Markdown or JSON, the output of
// `feedback history`.
//
// It opens no database: the entries come from Options.Source, page by page
// (the UI process asks the app, which alone reads the database:
// uiproto.HistoryQuery and HistoryImagesQuery), and never on the Fyne
// goroutine: every request runs on a goroutine of its own and hands its
// result back with fyne.Do. It imports neither package app, the store nor
// uiprocess, so fyne.io/fyne/v2/test drives it whole.
package historywin

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	_ "image/jpeg" // the attachments are PNG or JPEG
	_ "image/png"
	"slices"
	"strings"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/dialogs/markdown"
	"feedback/internal/history"
	"feedback/internal/i18n"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// Title is the window's title (ASCII, so that xdotool can anchor on it).
const Title = "feedback history"

// Bounds of what one window reads and shows.
const (
	// MaxListed is how many questions the list holds, newest first.
	MaxListed = 500
	// MaxListedBytes bounds the text (prompts and replies) of the questions
	// listed: past it, the older ones are left out as past MaxListed.
	MaxListedBytes = 32 << 20
	// MaxSearchBytes is the longest search text used.
	MaxSearchBytes = uiproto.MaxHistorySearchBytes
	// MaxReplyShown is how much of one reply the detail shows (Export has all).
	MaxReplyShown = 64 << 10
	// searchSettle lets typing settle before the database is searched.
	searchSettle = 250 * time.Millisecond
)

// Source is where the window's entries come from: the app, asked over the
// UI process's channel, or a test's fake. Both calls block; the window
// makes them off the Fyne goroutine, one list or one question's images at
// a time.
type Source interface {
	// Page is up to limit (at most uiproto.MaxHistoryPage) of the asks
	// whose text holds search, newest first, from offset: the app's
	// answer to a uiproto.HistoryQuery, or why there is none.
	Page(search string, offset, limit int) (uiproto.HistoryPage, error)
	// Images are the images of the answer of one ask (its Record).
	Images(record string) (uiproto.HistoryImages, error)
}

// Options configure a History window.
type Options struct {
	// Source gives the entries (the app's database, through the app).
	Source Source
	// OnClosed, when set, is called on the Fyne goroutine once the window
	// has closed (the window sets its own OnClosed: use this instead).
	OnClosed func()
	// Now gives the ages shown; nil means time.Now.
	Now func() time.Time
}

// Window is one History window.
type Window struct {
	win     fyne.Window
	opts    Options
	search  *closingEntry
	refresh *widget.Button
	status  *widget.Label
	list    *closingList
	detail  *fyne.Container // the selected question, in scroll
	scroll  *container.Scroll
	export  [2]*widget.Button // Markdown, JSON

	closed atomic.Bool // the window closed: no more requests

	// Fyne goroutine only:
	loops    []history.Loop // every row, grouped as feedback history prints them (Export)
	rows     []row          // the list, newest first
	gen      int            // of the latest query: older results are dropped
	typed    int            // of the latest keystroke in the search box
	selected int            // index in rows of the question shown (-1 none)

	// do runs a function on the Fyne goroutine: fyne.Do (tests run them on
	// the test's goroutine instead: fyne's test driver runs fyne.Do at once,
	// on the calling goroutine).
	do func(func())
	// loaded, when set (tests), is called on the Fyne goroutine after a
	// list or the images of a question were shown.
	loaded func(what string)
}

// row is one ask in the list: the entry as read and as package history
// groups it (its loop and its client and project).
type row struct {
	entry history.Entry
	loop  history.Loop  // with the one group below
	group history.Group // with the one question below
	q     history.Question
}

func newRow(e history.Entry) row {
	l := history.ByLoop([]history.Entry{e})[0]
	g := l.Groups[0]
	return row{entry: e, loop: l, group: g, q: g.Questions[0]}
}

// New builds the History window over o.Source and starts listing; the
// caller Shows it. Call it on the Fyne goroutine.
func New(a fyne.App, o Options) *Window { return newWindow(a, o, fyne.Do, nil) }

func newWindow(a fyne.App, o Options, do func(func()), loaded func(string)) *Window {
	if o.Now == nil {
		o.Now = time.Now
	}
	w := &Window{win: a.NewWindow(lang.L(Title)), opts: o, selected: -1, do: do, loaded: loaded}
	w.search = newClosingEntry(w.win.Close)
	w.search.SetPlaceHolder(lang.L("Search questions, replies, clients, projects"))
	w.search.OnChanged = w.typedSearch
	w.search.ActionItem = widget.NewIcon(theme.SearchIcon())
	w.status = widget.NewLabel("")
	w.status.Truncation = fyne.TextTruncateEllipsis
	w.list = newClosingList(func() int { return len(w.rows) }, w.newListRow, w.updateListRow, w.win.Close)
	w.list.OnSelected = func(i widget.ListItemID) { w.show(i) }
	w.list.OnUnselected = func(widget.ListItemID) { w.show(-1) }
	w.detail = container.NewVBox()
	w.scroll = container.NewVScroll(container.NewPadded(w.detail))
	w.export[0] = widget.NewButtonWithIcon(lang.L("Export Markdown…"), theme.DocumentSaveIcon(), func() { w.Export(FormatMarkdown) })
	w.export[1] = widget.NewButtonWithIcon(lang.L("Export JSON…"), theme.DocumentSaveIcon(), func() { w.Export(FormatJSON) })
	w.refresh = widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), w.reload) // questions asked since it opened
	left := container.NewBorder(container.NewBorder(nil, nil, nil, w.refresh, w.search), nil, nil, nil, w.list)
	split := container.NewHSplit(left, w.scroll)
	split.Offset = 0.5
	bottom := container.NewBorder(nil, nil, nil, container.NewHBox(w.export[0], w.export[1]), w.status)
	w.win.SetContent(container.NewBorder(nil, bottom, nil, nil, split))
	w.win.Resize(fyne.NewSize(1000, 640))
	w.win.CenterOnScreen()
	closeKeys(w.win) // Escape and Ctrl+W close it, wherever the focus is
	w.win.SetOnClosed(func() {
		w.closed.Store(true)
		if o.OnClosed != nil {
			o.OnClosed()
		}
	})
	w.show(-1)
	w.reload()
	return w
}

// Fyne is the window, for the caller to Show, RequestFocus or Close.
func (w *Window) Fyne() fyne.Window { return w.win }

// errNoHistory: the app keeps no database (FEEDBACK_DB=off); errNoDatabase:
// it has kept none yet.
var (
	errNoHistory  = errors.New("the app keeps no history (FEEDBACK_DB=off)")
	errNoDatabase = errors.New("no history yet")
)

// fetch asks the source for the asks search selects, page after page, up
// to MaxListed of them and MaxListedBytes of their text (at least one);
// full when more were left out. Off the Fyne goroutine only; it stops
// early when the window closed.
func (w *Window) fetch(search string) (entries []history.Entry, full bool, err error) {
	if w.opts.Source == nil {
		return nil, false, errors.New("the window has no source of history")
	}
	seen := map[string]bool{} // an ask listed on one page may move to the next as new ones come
	total := 0
	for len(entries) < MaxListed {
		if w.closed.Load() {
			return entries, full, nil
		}
		page, err := w.opts.Source.Page(search, len(seen), min(uiproto.MaxHistoryPage, MaxListed-len(entries)))
		if err != nil {
			return entries, full, err
		}
		switch page.Problem {
		case uiproto.HistoryOff:
			return nil, false, errNoHistory
		case uiproto.HistoryNone:
			return nil, false, errNoDatabase
		case uiproto.HistoryFailed:
			return entries, full, errors.New(page.Error)
		}
		for _, he := range page.Entries {
			if seen[he.Record] {
				continue
			}
			seen[he.Record] = true
			total += he.TextBytes()
			if total > MaxListedBytes && len(entries) > 0 {
				return entries, true, nil
			}
			entries = append(entries, history.Entry(he))
		}
		if !page.More || len(page.Entries) == 0 {
			return entries, false, nil
		}
		full = len(entries) >= MaxListed
	}
	return entries, full, nil
}

// typedSearch waits for typing to settle, then searches.
func (w *Window) typedSearch(string) {
	w.typed++
	n := w.typed
	time.AfterFunc(searchSettle, func() {
		w.do(func() {
			if n == w.typed {
				w.reload()
			}
		})
	})
}

// reload lists the questions the search box selects, off the Fyne goroutine.
func (w *Window) reload() {
	w.gen++
	gen := w.gen
	text := strings.TrimSpace(w.search.Text)
	if len(text) > MaxSearchBytes {
		text = text[:MaxSearchBytes]
		for !utf8.ValidString(text) {
			text = text[:len(text)-1]
		}
	}
	w.status.SetText(lang.L("Reading…"))
	go func() {
		entries, full, err := w.fetch(text)
		loops := history.ByLoop(entries)
		w.do(func() {
			if gen != w.gen {
				return // a newer query is on its way
			}
			w.apply(entries, loops, text, full, err)
		})
	}()
}

func (w *Window) apply(entries []history.Entry, loops []history.Loop, text string, full bool, err error) {
	w.loops = loops
	w.rows = make([]row, 0, len(entries))
	for _, e := range entries { // newest first, as the store lists them
		w.rows = append(w.rows, newRow(e))
	}
	w.list.UnselectAll()
	w.list.Refresh()
	w.list.ScrollToTop()
	w.show(-1)
	switch {
	case errors.Is(err, errNoHistory):
		w.status.SetText(lang.L("The app keeps no history: FEEDBACK_DB is off."))
	case errors.Is(err, errNoDatabase):
		w.status.SetText(lang.L("No history yet: the app has kept no question."))
	case err != nil:
		w.status.SetText(fmt.Sprintf(lang.L("The history could not be read: %v"), err))
	case len(entries) == 0 && text != "":
		w.status.SetText(fmt.Sprintf(lang.L("Nothing matches %q."), text))
	case len(entries) == 0:
		w.status.SetText(lang.L("No questions."))
	case full:
		w.status.SetText(fmt.Sprintf(lang.L("The newest %d questions; search to find older ones."), len(entries)))
	default:
		w.status.SetText(countRows(w.rows))
	}
	if w.loaded != nil {
		w.loaded("list")
	}
}

// listRow is the template of a line in the list: the outcome badge, the
// title over the client, project and loop, and the age.
type listRow struct {
	badge *badge
	title *widget.Label
	meta  *widget.Label
	age   *widget.Label
	box   *fyne.Container
}

func (w *Window) newListRow() fyne.CanvasObject {
	r := &listRow{badge: newBadge(), title: widget.NewLabel(""), meta: hint(""), age: widget.NewLabel("")}
	r.title.Truncation = fyne.TextTruncateEllipsis
	r.title.TextStyle = fyne.TextStyle{Bold: true}
	r.meta.Wrapping = fyne.TextWrapOff
	r.meta.Truncation = fyne.TextTruncateEllipsis
	r.age.Alignment = fyne.TextAlignTrailing
	text := container.New(&tightVBox{}, r.title, r.meta)
	r.box = container.NewBorder(nil, nil, container.NewCenter(r.badge), r.age, text)
	h := &rowHolder{row: r}
	h.ExtendBaseWidget(h)
	return h
}

// rowHolder lets updateListRow find the parts of a template.
type rowHolder struct {
	widget.BaseWidget
	row *listRow
}

func (h *rowHolder) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(h.row.box)
}

func (w *Window) updateListRow(i widget.ListItemID, o fyne.CanvasObject) {
	h, ok := o.(*rowHolder)
	if !ok || i < 0 || i >= len(w.rows) {
		return
	}
	r := w.rows[i]
	h.row.badge.set(r.q)
	h.row.title.SetText(listTitle(r.q))
	h.row.meta.SetText(w.MetaText(r))
	h.row.age.SetText(Age(w.opts.Now().Sub(r.q.AskedAt)))
}

// RowText is a question's line in the list as text: its outcome, title,
// age, and its client, project and loop.
func (w *Window) RowText(i int) string {
	r := w.rows[i]
	return fmt.Sprintf("[%s] %s · %s · %s", outcome(r.q), listTitle(r.q), Age(w.opts.Now().Sub(r.q.AskedAt)), w.MetaText(r))
}

// listTitle is a question's title in the list: an approval is named by its
// call ("Bash `rm -rf build`"), which its title ("Run a command?") is not.
func listTitle(q history.Question) string {
	if q.Call != nil {
		if b := q.Call.Brief(120); b != "" {
			return b
		}
	}
	return oneLine(q.Title)
}

// MetaText is the second line of a row: what was answered (so that asks
// of one question differ), client, project, and the loop with its phase
// and iteration when the question was asked in one.
func (w *Window) MetaText(r row) string {
	var parts []string
	if p := answerPreview(r); p != "" {
		parts = append(parts, p)
	}
	parts = append(parts, groupName(r.group))
	if r.loop.ID != "" {
		parts = append(parts, fmt.Sprintf(lang.L("loop %s"), oneLine(r.loop.ID)))
	}
	if extra := phaseIteration(r.q); extra != "" {
		parts = append(parts, extra)
	}
	return strings.Join(parts, " · ")
}

// previewRunes bounds the reply text a row previews.
const previewRunes = 60

// answerPreview is what the user answered, in brief: "→ Rebase “keep
// history linear”" (the options chosen, the start of the text typed; Yes
// or No for a yes/no prompt); ""
// for a question not answered, and for an approval (its badge says what
// it decided).
func answerPreview(r row) string {
	q := r.q
	if q.Outcome != "answered" || q.Decision != nil || r.entry.Answer == nil {
		return ""
	}
	var parts []string
	prompts := r.entry.Question.Prompts
	for i, rep := range q.Replies {
		if i < len(prompts) && prompts[i].Kind == wire.KindYesNo { // Yes or No, as the detail says it
			if yn := map[string]string{"yes": lang.L("Yes"), "no": lang.L("No")}[rep.Text]; yn != "" {
				parts = append(parts, yn)
			}
			continue
		}
		if len(rep.Selected) > 0 {
			parts = append(parts, oneLine(strings.Join(rep.Selected, i18n.T("list.sep"))))
		}
		if t := oneLine(rep.Text); t != "" {
			if rs := []rune(t); len(rs) > previewRunes {
				t = string(rs[:previewRunes-1]) + "…"
			}
			parts = append(parts, "“"+t+"”")
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "→ " + strings.Join(parts, " ")
}

func phaseIteration(q history.Question) string {
	var parts []string
	if q.Phase != "" {
		parts = append(parts, oneLine(q.Phase))
	}
	if q.Iteration != "" {
		parts = append(parts, fmt.Sprintf(lang.L("iteration %s"), oneLine(q.Iteration)))
	}
	return strings.Join(parts, " · ")
}

func outcome(q history.Question) string {
	label, _ := badgeOutcome(q)
	o := lang.L(label)
	if q.Auto {
		o += " " + lang.L("(draft sent at timeout)")
	}
	return o
}

func loopName(l history.Loop) string {
	name := fmt.Sprintf(lang.L("Loop %s"), oneLine(l.ID))
	if l.Objective != "" {
		name += ": " + oneLine(l.Objective)
	}
	return name
}

func groupName(g history.Group) string {
	name := oneLine(g.Client)
	if name == "" {
		name = lang.L("unknown client")
	}
	if g.Project != "" {
		name += " · " + oneLine(g.Project)
	}
	return name
}

// timeLayout is how the detail says when a question was asked and ended:
// to the second, as asks seconds apart differ.
const timeLayout = "2006-01-02 15:04:05"

// Age says how long ago d was, coarsely: "just now", "3 min", "2 h", "5 d".
func Age(d time.Duration) string {
	switch {
	case d < time.Minute:
		return lang.L("just now")
	case d < time.Hour:
		return fmt.Sprintf(lang.L("%d min"), int(d/time.Minute))
	case d < 48*time.Hour:
		return fmt.Sprintf(lang.L("%d h"), int(d/time.Hour))
	}
	return fmt.Sprintf(lang.L("%d d"), int(d/(24*time.Hour)))
}

// show fills the detail pane with row i of the list (-1: the help text).
func (w *Window) show(i int) {
	if i >= len(w.rows) {
		i = -1
	}
	w.selected = i
	w.detail.RemoveAll()
	if i < 0 {
		w.detail.Add(hint(lang.L("Choose a question to read it in full. Export writes the chosen question, or every question listed when none is chosen.")))
	} else {
		w.showQuestion(w.rows[i])
	}
	w.scroll.ScrollToTop()
	w.detail.Refresh()
}

// hint is secondary text, at the caption size (the theme's dimmed colours
// read poorly on the dark theme).
func hint(text string) *widget.Label {
	h := widget.NewLabel(text)
	h.Wrapping = fyne.TextWrapWord
	h.SizeName = theme.SizeNameCaptionText
	return h
}

// countRows says how many questions and how many agents' messages rows
// hold ("4 questions, 1 message"): a message is no question.
func countRows(rows []row) string {
	messages := 0
	for _, r := range rows {
		if r.q.Outcome == history.StateMessage {
			messages++
		}
	}
	var parts []string
	if n := len(rows) - messages; n > 0 || messages == 0 {
		parts = append(parts, count(n, "%d question", "%d questions"))
	}
	if messages > 0 {
		parts = append(parts, count(messages, "%d message", "%d messages"))
	}
	return strings.Join(parts, i18n.T("list.sep"))
}

// count is n with the English singular or plural noun phrase.
func count(n int, one, other string) string {
	if n == 1 {
		return fmt.Sprintf(lang.L(one), n)
	}
	return fmt.Sprintf(lang.L(other), n)
}

func heading(text string) *widget.Label {
	h := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	h.Wrapping = fyne.TextWrapWord
	return h
}

func (w *Window) showQuestion(r row) {
	hq := r.q
	title := heading(oneLine(hq.Title))
	b := newBadge()
	b.set(hq)
	w.detail.Add(container.NewBorder(nil, nil, nil, container.NewCenter(b), title))
	asked := "Asked %s"
	if hq.Outcome == history.StateMessage { // an agent's message: nothing was asked
		asked = "Sent %s"
	}
	when := fmt.Sprintf(lang.L(asked), hq.AskedAt.Local().Format(timeLayout))
	if hq.EndedAt != nil {
		when += fmt.Sprintf(lang.L(", ended %s"), hq.EndedAt.Local().Format(timeLayout))
	}
	w.detail.Add(hint(when + " · " + groupName(r.group)))
	if r.loop.ID != "" {
		line := loopName(r.loop)
		if extra := phaseIteration(hq); extra != "" {
			line += " · " + extra
		}
		w.detail.Add(hint(line))
	}
	e := r.entry
	var replies []wire.Reply
	if e.Answer != nil {
		replies = hq.Replies
	}
	pics := markdown.NewPictures()
	for i, p := range e.Question.Prompts {
		w.detail.Add(widget.NewSeparator())
		if p.Header != "" {
			w.detail.Add(heading(oneLine(p.Header)))
		}
		w.detail.Add(markdown.New(p.Markdown, markdown.Options{Pictures: pics, Page: func() *container.Scroll { return w.scroll }}))
		var rep wire.Reply
		if i < len(replies) {
			rep = replies[i]
		}
		for _, o := range p.Options {
			w.detail.Add(optionLine(o, rep))
		}
		if hq.Decision != nil && i == 0 {
			w.addDecision(*hq.Decision)
			continue
		}
		w.addReply(p, rep, hq, e.Answer != nil)
	}
	if hq.Images > 0 {
		w.detail.Add(heading(count(hq.Images, "%d attached image", "%d attached images")))
		box := container.NewGridWrap(fyne.NewSize(240, 180))
		w.detail.Add(box)
		w.loadImages(hq.Record, box)
	}
}

// addReply shows what the user answered to prompt p beside its options:
// Yes or No for a yes/no prompt (and whether it was the recommended answer
// taken without choosing), else the text typed.
func (w *Window) addReply(p wire.Prompt, r wire.Reply, hq history.Question, answered bool) {
	if !answered {
		return
	}
	if p.Kind == wire.KindYesNo {
		answer := map[string]string{"yes": lang.L("Yes"), "no": lang.L("No")}[r.Text]
		if answer == "" {
			return
		}
		l := widget.NewLabelWithStyle("✓ "+answer, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
		w.detail.Add(l)
		if hq.RecommendedTaken {
			w.detail.Add(hint(lang.L("Submitted without choosing: the recommended answer stood.")))
		}
		return
	}
	if r.Text != "" {
		w.detail.Add(heading(lang.L("Reply")))
		w.detail.Add(replyText(r.Text))
	}
}

// addDecision shows what an approval decided, as its agent was told, on a
// band of the badge's colour: allowed (and the rule allowed from now on),
// denied (and the reason the agent read), not allowed at a timeout or
// while the user was away.
func (w *Window) addDecision(v wire.Verdict) {
	var text string
	icon := theme.InfoIcon()
	t := toneNeutral
	switch v.Kind {
	case wire.VerdictAllowed:
		text, icon, t = lang.L("Allowed: this call only."), theme.NewSuccessThemedResource(theme.ConfirmIcon()), toneSuccess
	case wire.VerdictAlways:
		text, icon, t = lang.L("Always allowed in this project."), theme.NewSuccessThemedResource(theme.ConfirmIcon()), toneSuccess
		if v.Rule != "" {
			text = fmt.Sprintf(lang.L("Always allowed in this project: %s"), oneLine(v.Rule))
		}
	case wire.VerdictDenied:
		text, icon, t = lang.L("Denied."), theme.NewErrorThemedResource(theme.CancelIcon()), toneError
		if v.Closed {
			text = lang.L("Denied: the window was closed without a choice.")
		}
	case wire.VerdictTimedOut:
		text = lang.L("Not allowed: nobody answered in time.")
	case wire.VerdictAway:
		text = lang.L("Denied while you were away: no window was shown.")
	case wire.VerdictElsewhere:
		text = lang.L("Answered elsewhere: the client stopped waiting for this window (you answered in its own prompt, or it was interrupted or quit). Nothing was decided here.")
	}
	l := widget.NewLabelWithStyle(text, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	l.Wrapping = fyne.TextWrapWord
	l.Selectable = true
	fill, _ := badgeColors(t, theme.Current(), fyne.CurrentApp().Settings().ThemeVariant())
	r, g, b, _ := fill.RGBA()
	band := canvas.NewRectangle(color.NRGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8), A: 0x40})
	band.CornerRadius = theme.InputRadiusSize()
	w.detail.Add(container.NewStack(band, container.NewBorder(nil, nil, container.NewPadded(widget.NewIcon(icon)), nil, l)))
	if v.Kind == wire.VerdictDenied && v.Reason != "" {
		w.detail.Add(heading(lang.L("The reason the agent was given")))
		w.detail.Add(replyText(v.Reason))
	}
}

// optionLine shows an option: chosen ones with a check mark and bold,
// the others plain (readable, not greyed like a disabled control).
func optionLine(o wire.Option, r wire.Reply) fyne.CanvasObject {
	chosen := slices.Contains(r.Selected, o.Label)
	text := oneLine(o.Label)
	if o.Description != "" {
		text += " — " + oneLine(o.Description)
	}
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	m := widget.NewIcon(nil) // keeps the column: the labels line up
	if chosen {
		l.TextStyle = fyne.TextStyle{Bold: true}
		m.SetResource(theme.NewSuccessThemedResource(theme.ConfirmIcon()))
	}
	return container.NewBorder(nil, nil, m, nil, l)
}

// replyText is the reply as typed, selectable, its first MaxReplyShown bytes.
func replyText(text string) *widget.Label {
	if len(text) > MaxReplyShown {
		cut := text[:MaxReplyShown]
		for !utf8.ValidString(cut) {
			cut = cut[:len(cut)-1]
		}
		text = cut + "\n" + fmt.Sprintf(lang.L("… (%d more bytes: Export has the whole reply)"), len(text)-len(cut))
	}
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	l.Selectable = true
	return l
}

// loadImages reads and decodes the answer's images off the Fyne goroutine
// and puts them in box, if the question is still the one shown.
func (w *Window) loadImages(id string, box *fyne.Container) {
	shown := w.selected
	go func() {
		var imgs []wire.Image
		var omitted int
		err := errors.New("the window has no source of history")
		if w.opts.Source != nil {
			var got uiproto.HistoryImages
			got, err = w.opts.Source.Images(id)
			if err == nil && got.Error != "" {
				err = errors.New(got.Error)
			}
			imgs, omitted = got.Images, got.Omitted
		}
		var objs []fyne.CanvasObject
		for i, im := range imgs {
			decoded, _, derr := image.Decode(bytes.NewReader(im.Data))
			if derr != nil {
				objs = append(objs, hint(fmt.Sprintf(lang.L("image %d: %v"), i+1, derr)))
				continue
			}
			ci := canvas.NewImageFromImage(decoded)
			ci.FillMode = canvas.ImageFillContain
			ci.ScaleMode = canvas.ImageScaleSmooth
			objs = append(objs, ci)
		}
		if omitted > 0 {
			objs = append(objs, hint(fmt.Sprintf(lang.L("%d more images not shown"), omitted)))
		}
		if err != nil {
			objs = append(objs, hint(fmt.Sprintf(lang.L("The images could not be read: %v"), err)))
		}
		w.do(func() {
			if w.selected != shown {
				return
			}
			for _, o := range objs {
				box.Add(o)
			}
			w.detail.Refresh() // the grid was empty when the pane was laid out
			if w.loaded != nil {
				w.loaded("images")
			}
		})
	}()
}

// Formats of Export.
const (
	FormatMarkdown = "markdown"
	FormatJSON     = "json"
)

// Selection is what Export writes: the chosen question (in its group and
// loop), or every listed question when none is chosen.
func (w *Window) Selection() []history.Loop {
	if w.selected < 0 || w.selected >= len(w.rows) {
		return w.loops
	}
	r := w.rows[w.selected]
	l := r.loop
	l.Groups = []history.Group{r.group}
	return []history.Loop{l}
}

// Render is the selection in format, byte for byte what `feedback history`
// (with --json for FormatJSON) prints for the same questions.
func Render(loops []history.Loop, format string) ([]byte, error) {
	if format == FormatJSON {
		var b bytes.Buffer
		err := history.WriteJSON(&b, loops)
		return b.Bytes(), err
	}
	return []byte(history.Markdown(loops)), nil
}

// Export asks where to save the selection (a file save dialog), then
// renders and writes it there off the Fyne goroutine (the loops shown are
// never changed in place: a new list replaces them).
func (w *Window) Export(format string) {
	sel := w.Selection()
	d := dialog.NewFileSave(func(wc fyne.URIWriteCloser, err error) {
		if err != nil {
			dialog.ShowError(err, w.win)
			return
		}
		if wc == nil {
			return // cancelled
		}
		w.write(sel, format, wc)
	}, w.win)
	name := "feedback-history.md"
	if format == FormatJSON {
		name = "feedback-history.json"
	}
	d.SetFileName(name)
	d.Show()
	d.Resize(fyne.NewSize(800, 560)) // after Show: before it, Fyne 2.8.1's FileDialog.Resize dereferences nil (docs/upstream/fyne-filedialog-resize.md)
}

// write renders sel in format into wc off the Fyne goroutine and says
// where it went, or shows the error.
func (w *Window) write(sel []history.Loop, format string, wc fyne.URIWriteCloser) {
	go func() {
		data, err := Render(sel, format)
		if err == nil {
			_, err = wc.Write(data)
		}
		if cerr := wc.Close(); err == nil {
			err = cerr
		}
		w.do(func() {
			if err != nil {
				dialog.ShowError(err, w.win)
			} else {
				w.status.SetText(fmt.Sprintf(lang.L("Exported to %s."), wc.URI().Path()))
			}
			if w.loaded != nil {
				w.loaded("export")
			}
		})
	}()
}

func oneLine(s string) string {
	return strings.Join(strings.Fields(s), " ")
}
