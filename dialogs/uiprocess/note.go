package uiprocess

import (
	"fmt"
	"sort"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/lang"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/dialogs/internal/modal"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// The note window ("Note for an agent…" in the tray): the user writes a
// note for a client, and a project of it or any; the core keeps it until
// the next result that client receives (the app's app/core/notes).

// NoteTitle is the note window's title (ASCII, so that xdotool anchors on it).
const NoteTitle = "Note for an agent"

// The note window's words, in one place (English; lang.L looks each up in
// the translation files, assets/translations).
const (
	noteIntro = "The agent reads this note after the answer to its next question, marked as a note from you " +
		"(not an answer). It waits until then, across restarts, and is then gone. " +
		"Client names are whatever clients call themselves: any client using exactly this name receives it."
	noteClientHint     = "Client, e.g. claude-code"
	noteProjectHint    = "Any project"
	noteTextHint       = "What should the agent know? (Ctrl+Enter sends)"
	noteFor            = "For"
	noteProject        = "Project"
	noteSend           = "Send"
	noteCancel         = "Cancel"
	noteFull           = "%d notes already wait for their agents, the most kept: wait until one is delivered."
	noteSize           = "%d of %d bytes"
	noteWaiting        = "Waiting for their agents: %s (%s)"
	noteDiscardTitle   = "Discard this note?"
	noteDiscardMessage = "The note you typed has not been sent."
	noteOne            = "1 note"
	noteMany           = "%d notes"
)

// noteWindow opens the note window with c's choices: send gets the note
// the user sent, closed is called once the window has closed. On the Fyne
// goroutine.
func noteWindow(a fyne.App, c *uiproto.NoteChoices, send func(uiproto.Note), closed func()) fyne.Window {
	if c == nil {
		c = &uiproto.NoteChoices{}
	}
	w := a.NewWindow(lang.L(NoteTitle))
	n := newNoteForm(*c, func(note uiproto.Note) {
		send(note)
		w.Close()
	}, w.Close)
	// Escape closes it, as it closes History and the questions; a note
	// typed and not sent is asked about first.
	n.escape = func() {
		if strings.TrimSpace(n.text.Text) == "" {
			w.Close()
			return
		}
		n.keep, _ = modal.AskDiscard(w, modal.Discard{Title: lang.L(noteDiscardTitle), Message: lang.L(noteDiscardMessage),
			Keep: lang.L("Keep editing"), Discard: lang.L("Discard")}, w.Close, nil)
	}
	w.Canvas().SetOnTypedKey(func(k *fyne.KeyEvent) {
		if k.Name == fyne.KeyEscape {
			n.escape()
		}
	})
	w.SetContent(n.content)
	w.SetOnClosed(closed)
	w.Resize(fyne.NewSize(520, 360))
	w.CenterOnScreen()
	w.Canvas().Focus(n.text)
	return w
}

// noteForm is the note window's content, testable without a window.
type noteForm struct {
	content fyne.CanvasObject
	client  *widget.SelectEntry
	project *widget.SelectEntry
	text    *noteEntry
	problem *widget.Label
	size    *widget.Label
	send    *widget.Button
	submit  func()
	escape  func()        // Escape: close, asking first about a typed note
	keep    *modal.Button // the discard question's Keep editing, once asked
	// clients are the client choices; projects the project choices of each.
	clients  []string
	projects map[string][]string
}

func newNoteForm(c uiproto.NoteChoices, send func(uiproto.Note), cancel func()) *noteForm {
	f := &noteForm{}
	projects := map[string][]string{} // by client, as listed
	var clients []string
	for _, t := range c.Targets {
		if _, seen := projects[t.Client]; !seen {
			clients = append(clients, t.Client)
			projects[t.Client] = nil
		}
		if t.Project != "" {
			projects[t.Client] = append(projects[t.Client], t.Project)
		}
	}
	f.clients, f.projects = clients, projects
	f.client = widget.NewSelectEntry(clients)
	f.client.SetPlaceHolder(lang.L(noteClientHint))
	f.project = widget.NewSelectEntry(nil)
	f.project.SetPlaceHolder(lang.L(noteProjectHint))
	f.client.OnChanged = func(s string) { f.project.SetOptions(projects[strings.TrimSpace(s)]) }
	if len(c.Targets) > 0 { // the most recent asker
		f.client.SetText(c.Targets[0].Client)
		f.project.SetText(c.Targets[0].Project)
	}

	f.problem = widget.NewLabel("")
	f.problem.Importance = widget.DangerImportance
	f.problem.Wrapping = fyne.TextWrapWord
	f.problem.Hide()
	f.size = widget.NewLabel(fmt.Sprintf(lang.L(noteSize), 0, wire.MaxNoteBytes))
	f.size.Importance = widget.LowImportance

	f.submit = func() {
		note := uiproto.Note{Client: strings.TrimSpace(f.client.Text), Project: strings.TrimSpace(f.project.Text), Text: f.text.Text}
		err := wire.CheckNote(wire.Note{Client: note.Client, Project: note.Project, Text: note.Text})
		if err == nil && len(c.Waiting) >= wire.MaxPendingNotes {
			err = fmt.Errorf(lang.L(noteFull), len(c.Waiting))
		}
		if err != nil {
			f.problem.SetText(capitalize(err.Error()) + ".")
			f.problem.Show()
			return
		}
		send(note)
	}
	f.text = newNoteEntry(f.submit)
	f.text.form = f
	f.text.SetPlaceHolder(lang.L(noteTextHint))
	f.text.Wrapping = fyne.TextWrapWord
	f.text.SetMinRowsVisible(6)
	f.text.OnChanged = func(s string) {
		f.size.SetText(fmt.Sprintf(lang.L(noteSize), len(s), wire.MaxNoteBytes))
		if len(s) > wire.MaxNoteBytes {
			f.size.Importance = widget.DangerImportance
		} else {
			f.size.Importance = widget.LowImportance
		}
		f.size.Refresh()
	}

	intro := widget.NewLabel(lang.L(noteIntro))
	intro.Wrapping = fyne.TextWrapWord
	form := widget.NewForm(widget.NewFormItem(lang.L(noteFor), f.client), widget.NewFormItem(lang.L(noteProject), f.project))
	top := container.NewVBox(intro, form)
	if s := waitingSummary(c.Waiting); s != "" {
		waiting := widget.NewLabel(s)
		waiting.Wrapping = fyne.TextWrapWord
		waiting.Importance = widget.LowImportance
		top.Add(waiting)
	}
	f.send = widget.NewButtonWithIcon(lang.L(noteSend), theme.MailSendIcon(), f.submit)
	f.send.Importance = widget.HighImportance
	cancelB := widget.NewButtonWithIcon(lang.L(noteCancel), theme.CancelIcon(), cancel)
	bottom := container.NewVBox(f.problem, container.NewHBox(f.size, layout.NewSpacer(), cancelB, f.send))
	f.content = container.NewPadded(container.NewBorder(top, bottom, nil, nil, f.text))
	return f
}

// waitingSummary names the notes still waiting: "Waiting: 2 notes (codex 1,
// claude-code · web 1)"; "" for none.
func waitingSummary(ns []wire.Note) string {
	if len(ns) == 0 {
		return ""
	}
	count := map[string]int{}
	for _, n := range ns {
		k := n.Client
		if n.Project != "" {
			k += " · " + n.Project
		}
		count[k]++
	}
	keys := make([]string, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, count[k])
	}
	what := lang.L(noteOne)
	if len(ns) != 1 {
		what = fmt.Sprintf(lang.L(noteMany), len(ns))
	}
	return fmt.Sprintf(lang.L(noteWaiting), what, strings.Join(parts, ", "))
}

func capitalize(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

// noteEntry is the note's multi-line entry: Ctrl+Enter (which reaches a
// focused multi-line entry as a shortcut) sends; Enter is a new line.
type noteEntry struct {
	widget.Entry
	submit func()
	form   *noteForm
}

func newNoteEntry(submit func()) *noteEntry {
	e := &noteEntry{submit: submit}
	e.MultiLine = true
	e.ExtendBaseWidget(e)
	return e
}

// TypedKey closes the window on Escape (noteForm.escape) and passes every
// other key on.
func (e *noteEntry) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.form != nil && e.form.escape != nil {
		e.form.escape()
		return
	}
	e.Entry.TypedKey(k)
}

// TypedShortcut sends on Ctrl+Enter and passes every other shortcut on.
func (e *noteEntry) TypedShortcut(s fyne.Shortcut) {
	if cs, ok := s.(*desktop.CustomShortcut); ok && cs.Modifier == fyne.KeyModifierControl &&
		(cs.KeyName == fyne.KeyReturn || cs.KeyName == fyne.KeyEnter) {
		e.submit()
		return
	}
	e.Entry.TypedShortcut(s)
}
