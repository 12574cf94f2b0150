package uiprocess

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// The note window offers the clients that asked (the latest first, with
// its project), takes a typed client too, and sends the note on Send or
// Ctrl+Enter; a bad note is refused in the window with its reason.
func TestNoteWindow(t *testing.T) {
	a := test.NewTempApp(t)
	choices := &uiproto.NoteChoices{Targets: []wire.NoteTarget{{Client: "codex", Project: "web"}, {Client: "claude-code"}, {Client: "codex", Project: "api"}}}
	var sent []uiproto.Note
	closed := false
	w := noteWindow(a, choices, func(n uiproto.Note) { sent = append(sent, n) }, func() { closed = true })
	w.Show()
	f := formOf(t, w)
	if f.client.Text != "codex" || f.project.Text != "web" {
		t.Errorf("preselected %q / %q, want the latest asker codex / web", f.client.Text, f.project.Text)
	}
	if got := f.clients; strings.Join(got, ",") != "codex,claude-code" {
		t.Errorf("client choices %q", got)
	}
	if got := f.projects[f.client.Text]; strings.Join(got, ",") != "web,api" {
		t.Errorf("codex's projects %q", got)
	}

	test.Tap(f.send) // empty
	if len(sent) != 0 || !f.problem.Visible() || !strings.Contains(f.problem.Text, "empty") {
		t.Fatalf("an empty note: sent %v, problem %q", sent, f.problem.Text)
	}
	f.text.SetText(strings.Repeat("x", wire.MaxNoteBytes+1))
	test.Tap(f.send)
	if len(sent) != 0 || !strings.Contains(f.problem.Text, "4096") {
		t.Fatalf("an overlong note: sent %v, problem %q", sent, f.problem.Text)
	}

	f.client.SetText("  gemini-cli ")
	f.project.SetText("")
	f.text.SetText("Stop after the tests pass.")
	f.text.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl})
	want := uiproto.Note{Client: "gemini-cli", Text: "Stop after the tests pass."}
	if len(sent) != 1 || sent[0] != want {
		t.Fatalf("sent %+v, want %+v", sent, want)
	}
	if !closed {
		t.Error("the window stayed open after Send")
	}
}

// With wire.MaxPendingNotes waiting, Send says so and sends nothing.
func TestNoteWindowFull(t *testing.T) {
	a := test.NewTempApp(t)
	c := &uiproto.NoteChoices{}
	for range wire.MaxPendingNotes {
		c.Waiting = append(c.Waiting, wire.Note{Client: "codex", Text: "n"})
	}
	sent := 0
	w := noteWindow(a, c, func(uiproto.Note) { sent++ }, func() {})
	w.Show()
	f := formOf(t, w)
	f.client.SetText("codex")
	f.text.SetText("one more")
	test.Tap(f.send)
	if sent != 0 || !strings.Contains(f.problem.Text, "32 notes already wait") {
		t.Fatalf("sent %d, problem %q", sent, f.problem.Text)
	}
	if got := waitingSummary(c.Waiting); got != "Waiting for their agents: 32 notes (codex 32)" {
		t.Errorf("summary %q", got)
	}
}

// formOf finds the note form of w through its focused entry.
func formOf(t *testing.T, w fyne.Window) *noteForm {
	t.Helper()
	e, ok := w.Canvas().Focused().(*noteEntry)
	if !ok {
		t.Fatalf("the focus is on %T, want the note's entry", w.Canvas().Focused())
	}
	return e.form
}

// Escape closes the note window, as it closes History and the questions;
// with a note typed it asks first, and Keep editing keeps it.
func TestNoteWindowEscape(t *testing.T) {
	a := test.NewTempApp(t)
	closed := false
	w := noteWindow(a, nil, func(uiproto.Note) {}, func() { closed = true })
	w.Show()
	f := formOf(t, w)
	f.text.SetText("Stop after the tests pass.")
	f.text.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if closed || f.keep == nil {
		t.Fatalf("Escape with a note typed: closed %v, asked %v", closed, f.keep != nil)
	}
	test.Tap(f.keep) // Keep editing
	if closed || f.text.Text != "Stop after the tests pass." {
		t.Fatalf("Keep editing: closed %v, text %q", closed, f.text.Text)
	}
	f.text.SetText("")
	f.text.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if !closed {
		t.Error("Escape with nothing typed left the window open")
	}
}
