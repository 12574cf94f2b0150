// Package historywin is the History window of the UI process ("History…"
// in the tray): every question the app kept and its outcome, grouped by
// loop (objective; each question's phase and iteration), then by client and
// project (package history's grouping), a search over question and reply
// text, one question read in full (its rendered Markdown, the options
// chosen, the reply, the attached images), and an export of the selection
// as Markdown or JSON, the output of `feedback history`.
//
// The database is read through a read-only store (the resident app keeps
// writing it) and never on the Fyne goroutine: every read runs on a
// goroutine of its own and hands its result back with fyne.Do. It imports
// neither package app nor ui, so fyne.io/fyne/v2/test drives it whole.
package historywin

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	_ "image/jpeg" // the attachments are PNG or JPEG
	_ "image/png"
	"strconv"
	"strings"
	"sync"
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
	"feedback/history"
	"feedback/i18n"
	"feedback/store"
	"feedback/wire"
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
	MaxSearchBytes = 256
	// MaxReplyShown is how much of one reply the detail shows (Export has all).
	MaxReplyShown = 64 << 10
	// searchSettle lets typing settle before the database is searched.
	searchSettle = 250 * time.Millisecond
)

// Options configure a History window.
type Options struct {
	// DBPath is the app's database ($FEEDBACK_DB, else store.DefaultPath());
	// "" when the app keeps none (FEEDBACK_DB=off), which the window says.
	DBPath string
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
	search  *widget.Entry
	refresh *widget.Button
	status  *widget.Label
	tree    *widget.Tree
	detail  *fyne.Container // the selected node, in detailScroll
	scroll  *container.Scroll
	export  [2]*widget.Button // Markdown, JSON

	// The database handle, opened on first use off the Fyne goroutine.
	dbMu   sync.Mutex // guards db
	db     *store.Store
	closed atomic.Bool // the window closed: no more reads

	// Fyne goroutine only:
	loops    []history.Loop
	entries  map[string]store.Entry // by question id, as listed
	gen      int                    // of the latest query: older results are dropped
	typed    int                    // of the latest keystroke in the search box
	selected string                 // tree node shown in the detail ("" none)

	// do runs a function on the Fyne goroutine: fyne.Do (tests run them on
	// the test's goroutine instead: fyne's test driver runs fyne.Do at once,
	// on the calling goroutine).
	do func(func())
	// loaded, when set (tests), is called on the Fyne goroutine after a
	// list or the images of a question were shown.
	loaded func(what string)
}

// New builds the History window over the database at o.DBPath and starts
// reading it; the caller Shows it. Call it on the Fyne goroutine.
func New(a fyne.App, o Options) *Window { return newWindow(a, o, fyne.Do, nil) }

func newWindow(a fyne.App, o Options, do func(func()), loaded func(string)) *Window {
	if o.Now == nil {
		o.Now = time.Now
	}
	w := &Window{win: a.NewWindow(lang.L(Title)), opts: o, entries: map[string]store.Entry{}, do: do, loaded: loaded}
	w.search = widget.NewEntry()
	w.search.SetPlaceHolder(lang.L("Search questions and replies"))
	w.search.OnChanged = w.typedSearch
	w.status = widget.NewLabel("")
	w.status.Truncation = fyne.TextTruncateEllipsis
	w.tree = widget.NewTree(w.childUIDs, w.isBranch, w.newRow, w.updateRow)
	w.tree.OnSelected = w.show
	w.tree.OnUnselected = func(widget.TreeNodeID) { w.show("") }
	w.detail = container.NewVBox()
	w.scroll = container.NewVScroll(w.detail)
	w.export[0] = widget.NewButtonWithIcon(lang.L("Export Markdown…"), theme.DocumentSaveIcon(), func() { w.Export(FormatMarkdown) })
	w.export[1] = widget.NewButtonWithIcon(lang.L("Export JSON…"), theme.DocumentSaveIcon(), func() { w.Export(FormatJSON) })
	w.refresh = widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), w.reload) // questions asked since it opened
	left := container.NewBorder(container.NewBorder(nil, nil, nil, w.refresh, w.search), nil, nil, nil, w.tree)
	split := container.NewHSplit(left, w.scroll)
	split.Offset = 0.42
	bottom := container.NewBorder(nil, nil, nil, container.NewHBox(w.export[0], w.export[1]), w.status)
	w.win.SetContent(container.NewBorder(nil, bottom, nil, nil, split))
	w.win.Resize(fyne.NewSize(1000, 640))
	w.win.SetOnClosed(func() {
		w.closeDB()
		if o.OnClosed != nil {
			o.OnClosed()
		}
	})
	w.show("")
	w.reload()
	return w
}

// Fyne is the window, for the caller to Show, RequestFocus or Close.
func (w *Window) Fyne() fyne.Window { return w.win }

// closeDB releases the database once the window has closed; a read in
// flight finishes first.
func (w *Window) closeDB() {
	w.closed.Store(true)
	go func() {
		w.dbMu.Lock()
		defer w.dbMu.Unlock()
		if w.db != nil {
			w.db.Close()
			w.db = nil
		}
	}()
}

// errNoHistory: the app keeps no database (FEEDBACK_DB=off).
var errNoHistory = errors.New("the app keeps no history (FEEDBACK_DB=off)")

// withDB runs f with the read-only database, opening it on first use. Off
// the Fyne goroutine only.
func (w *Window) withDB(f func(*store.Store) error) error {
	w.dbMu.Lock()
	defer w.dbMu.Unlock()
	if w.closed.Load() {
		return errors.New("the window is closed")
	}
	if w.opts.DBPath == "" {
		return errNoHistory
	}
	if w.db == nil {
		db, err := store.OpenReadOnly(w.opts.DBPath)
		if err != nil {
			return err
		}
		w.db = db
	}
	return f(w.db)
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
		var entries []store.Entry
		err := w.withDB(func(db *store.Store) error {
			var err error
			entries, err = db.Find(store.Filter{Search: text, Limit: MaxListed})
			return err
		})
		full := len(entries) == MaxListed
		if n := withinBytes(entries, MaxListedBytes); n < len(entries) {
			entries, full = entries[:n], true
		}
		loops := history.ByLoop(entries)
		w.do(func() {
			if gen != w.gen {
				return // a newer query is on its way
			}
			w.apply(entries, loops, text, full, err)
		})
	}()
}

// withinBytes is how many of entries, from the first, hold at most max
// bytes of prompts and replies (at least one).
func withinBytes(entries []store.Entry, max int) int {
	total := 0
	for i, e := range entries {
		for _, p := range e.Question.Prompts {
			total += len(p.Markdown) + len(p.Prefill)
		}
		if e.Answer != nil {
			for _, r := range e.Answer.Replies {
				total += len(r.Text)
			}
		}
		if total > max && i > 0 {
			return i
		}
	}
	return len(entries)
}

func (w *Window) apply(entries []store.Entry, loops []history.Loop, text string, full bool, err error) {
	w.loops = loops
	w.entries = make(map[string]store.Entry, len(entries))
	for _, e := range entries {
		w.entries[e.Question.ID] = e
	}
	w.tree.UnselectAll()
	w.selected = ""
	w.tree.Refresh()
	w.tree.OpenAllBranches()
	w.show("")
	switch {
	case errors.Is(err, errNoHistory):
		w.status.SetText(lang.L("The app keeps no history: FEEDBACK_DB is off."))
	case errors.Is(err, store.ErrNoDatabase):
		w.status.SetText(lang.L("No history yet: the app has kept no question."))
	case err != nil:
		w.status.SetText(fmt.Sprintf(lang.L("The history could not be read: %v"), err))
	case len(entries) == 0 && text != "":
		w.status.SetText(fmt.Sprintf(lang.L("No question or reply contains %q."), text))
	case len(entries) == 0:
		w.status.SetText(lang.L("No questions."))
	case full:
		w.status.SetText(fmt.Sprintf(lang.L("The newest %d questions; search to find older ones."), len(entries)))
	default:
		// No space between the two in Chinese (i18n.JoinWords).
		w.status.SetText(i18n.JoinWords(count(len(entries), "%d question", "%d questions"), count(len(loops), "in %d loop.", "in %d loops.")))
	}
	if w.loaded != nil {
		w.loaded("list")
	}
}

// node is a tree node: a loop, a group in it or a question in that.
type node struct{ loop, group, question int } // -1 where the node stops

func parseUID(uid widget.TreeNodeID) (node, bool) {
	n := node{-1, -1, -1}
	if uid == "" {
		return n, true
	}
	parts := strings.Split(uid, "/")
	dst := []*int{&n.loop, &n.group, &n.question}
	if len(parts) > len(dst) {
		return n, false
	}
	for i, p := range parts {
		v, err := strconv.Atoi(p)
		if err != nil || v < 0 {
			return n, false
		}
		*dst[i] = v
	}
	return n, true
}

// at resolves n against the list shown; ok false when it is gone.
func (w *Window) at(n node) (l *history.Loop, g *history.Group, q *history.Question, ok bool) {
	if n.loop < 0 {
		return nil, nil, nil, true
	}
	if n.loop >= len(w.loops) {
		return nil, nil, nil, false
	}
	l = &w.loops[n.loop]
	if n.group < 0 {
		return l, nil, nil, true
	}
	if n.group >= len(l.Groups) {
		return nil, nil, nil, false
	}
	g = &l.Groups[n.group]
	if n.question < 0 {
		return l, g, nil, true
	}
	if n.question >= len(g.Questions) {
		return nil, nil, nil, false
	}
	return l, g, &g.Questions[n.question], true
}

func (w *Window) childUIDs(uid widget.TreeNodeID) []widget.TreeNodeID {
	n, ok := parseUID(uid)
	if !ok {
		return nil
	}
	l, g, q, ok := w.at(n)
	var count int
	switch {
	case !ok || q != nil:
		return nil
	case g != nil:
		count = len(g.Questions)
	case l != nil:
		count = len(l.Groups)
	default:
		count = len(w.loops)
	}
	ids := make([]widget.TreeNodeID, count)
	for i := range ids {
		if uid == "" {
			ids[i] = strconv.Itoa(i)
		} else {
			ids[i] = uid + "/" + strconv.Itoa(i)
		}
	}
	return ids
}

func (w *Window) isBranch(uid widget.TreeNodeID) bool {
	n, ok := parseUID(uid)
	return ok && n.question < 0
}

func (w *Window) newRow(bool) fyne.CanvasObject {
	l := widget.NewLabel("")
	l.Truncation = fyne.TextTruncateEllipsis
	return l
}

func (w *Window) updateRow(uid widget.TreeNodeID, _ bool, o fyne.CanvasObject) {
	label := o.(*widget.Label)
	label.TextStyle = fyne.TextStyle{}
	n, _ := parseUID(uid)
	l, g, q, ok := w.at(n)
	switch {
	case !ok:
		label.SetText("")
	case q != nil:
		label.SetText(w.RowText(*q))
	case g != nil:
		label.SetText(groupName(*g))
	case l != nil:
		label.TextStyle = fyne.TextStyle{Bold: true}
		label.SetText(loopName(*l))
	}
}

// RowText is a question's line in the list: its title, outcome and age,
// and its phase and iteration when it has them.
func (w *Window) RowText(q history.Question) string {
	s := fmt.Sprintf("%s — %s · %s", oneLine(q.Title), outcome(q), Age(w.opts.Now().Sub(q.AskedAt)))
	if extra := phaseIteration(q); extra != "" {
		s += " · " + extra
	}
	return s
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
	o := lang.L(q.Outcome)
	if q.Auto {
		o += " " + lang.L("(draft sent at timeout)")
	}
	return o
}

func loopName(l history.Loop) string {
	name := lang.L("Outside any loop")
	if l.ID != "" {
		name = fmt.Sprintf(lang.L("Loop %s"), oneLine(l.ID))
	}
	if l.Objective != "" {
		name += ": " + oneLine(l.Objective)
	}
	return name
}

func groupName(g history.Group) string {
	name := oneLine(g.Client)
	if name == "" {
		name = "—"
	}
	if g.Project != "" {
		name += " · " + oneLine(g.Project)
	}
	return name
}

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

// show fills the detail pane with the tree node uid ("" the help text).
func (w *Window) show(uid widget.TreeNodeID) {
	w.selected = uid
	w.detail.RemoveAll()
	n, _ := parseUID(uid)
	l, g, q, ok := w.at(n)
	switch {
	case !ok || l == nil:
		w.detail.Add(hint(lang.L("Choose a question to read it in full. Export writes the chosen loop, group or question, or every question listed when none is chosen.")))
	case q != nil:
		w.showQuestion(*l, *g, *q)
	default:
		w.showGroup(*l, g)
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

func (w *Window) showGroup(l history.Loop, g *history.Group) {
	w.detail.Add(heading(loopName(l)))
	groups := l.Groups
	if g != nil {
		w.detail.Add(heading(groupName(*g)))
		groups = []history.Group{*g}
	}
	counts := map[string]int{}
	total := 0
	for _, g := range groups {
		for _, q := range g.Questions {
			counts[q.Outcome]++
			total++
		}
	}
	var parts []string
	for _, o := range []string{"answered", "dismissed", "timed out", "withdrawn", "open"} {
		if counts[o] > 0 {
			parts = append(parts, fmt.Sprintf("%d %s", counts[o], lang.L(o)))
		}
	}
	w.detail.Add(widget.NewLabel(count(total, "%d question", "%d questions") + ": " + strings.Join(parts, ", ")))
}

func (w *Window) showQuestion(l history.Loop, g history.Group, hq history.Question) {
	w.detail.Add(heading(oneLine(hq.Title)))
	meta := []string{groupName(g)}
	if l.ID != "" {
		meta = append(meta, loopName(l))
	}
	if extra := phaseIteration(hq); extra != "" {
		meta = append(meta, extra)
	}
	w.detail.Add(hint(strings.Join(meta, " · ")))
	when := fmt.Sprintf(lang.L("Asked %s"), hq.AskedAt.Local().Format("2006-01-02 15:04"))
	if hq.EndedAt != nil {
		when += fmt.Sprintf(lang.L(", ended %s"), hq.EndedAt.Local().Format("2006-01-02 15:04"))
	}
	w.detail.Add(hint(when + " · " + outcome(hq)))
	e, ok := w.entries[hq.ID]
	if !ok {
		return
	}
	var replies []wire.Reply
	if e.Answer != nil {
		replies = e.Answer.Replies
	}
	pics := markdown.NewPictures()
	for i, p := range e.Question.Prompts {
		w.detail.Add(widget.NewSeparator())
		if p.Header != "" {
			w.detail.Add(heading(oneLine(p.Header)))
		}
		w.detail.Add(markdown.New(p.Markdown, markdown.Options{Pictures: pics, Page: func() *container.Scroll { return w.scroll }}))
		var r wire.Reply
		if i < len(replies) {
			r = replies[i]
		}
		for _, o := range p.Options {
			w.detail.Add(optionLine(o, r))
		}
		if e.Answer != nil && (r.Text != "" || len(r.Selected) > 0) {
			w.detail.Add(heading(lang.L("Reply")))
			if r.Text != "" {
				w.detail.Add(replyText(r.Text))
			}
		}
	}
	if hq.Images > 0 {
		w.detail.Add(heading(count(hq.Images, "%d attached image", "%d attached images")))
		box := container.NewGridWrap(fyne.NewSize(240, 180))
		w.detail.Add(box)
		w.loadImages(hq.ID, box)
	}
}

// optionLine shows an option, checked when the reply chose it.
func optionLine(o wire.Option, r wire.Reply) fyne.CanvasObject {
	chosen := false
	for _, s := range r.Selected {
		chosen = chosen || s == o.Label
	}
	icon := theme.CheckButtonIcon()
	if chosen {
		icon = theme.CheckButtonCheckedIcon()
	}
	text := oneLine(o.Label)
	if o.Description != "" {
		text += " — " + oneLine(o.Description)
	}
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	if chosen {
		l.TextStyle = fyne.TextStyle{Bold: true}
	} else {
		l.Importance = widget.LowImportance
	}
	return container.NewBorder(nil, nil, widget.NewIcon(icon), nil, l)
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
		err := w.withDB(func(db *store.Store) error {
			var err error
			imgs, err = db.AnswerImages(id)
			return err
		})
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

// Selection is what Export writes: the chosen loop, group (in its loop) or
// question (in its group and loop), or every listed loop when none is
// chosen.
func (w *Window) Selection() []history.Loop {
	n, _ := parseUID(w.selected)
	l, g, q, ok := w.at(n)
	switch {
	case !ok || l == nil:
		return w.loops
	case g == nil:
		return []history.Loop{*l}
	}
	one := *l
	gg := *g
	if q != nil {
		gg.Questions = []history.Question{*q}
	}
	one.Groups = []history.Group{gg}
	return []history.Loop{one}
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
	d.Resize(fyne.NewSize(800, 560))
	d.Show()
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
