package dialogs

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"feedback/ipc/wire"
)

// The Sending line shows the whole of what will be sent. When it does not
// fit by the Submit button it is in a row of its own above the footer,
// wrapped over lines within the window, with every prompt and every label
// in full: a line cut after some twenty characters, "Sending: 1: JWT
// bearer tokens · 2: Offline mode…", never shows question 3.
func TestSendingLineShowsItAll(t *testing.T) {
	a := test.NewTempApp(t)
	labels := []string{"JWT bearer tokens with refresh rotation", "Offline mode with a local queue", "Keep the current REST endpoints"}
	q := wire.Question{ID: "q", Prompts: []wire.Prompt{
		{Header: "Auth", Markdown: "Auth?", Kind: wire.KindChoice, Single: true, Options: []wire.Option{{Label: labels[0], Default: true}, {Label: "Sessions"}}},
		{Header: "Mode", Markdown: "Mode?", Kind: wire.KindChoice, Single: true, Options: []wire.Option{{Label: labels[1], Default: true}, {Label: "Online"}}},
		{Header: "API", Markdown: "API?", Kind: wire.KindChoice, Single: true, Options: []wire.Option{{Label: labels[2], Default: true}, {Label: "GraphQL"}}},
	}}
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
	w.Fyne().Resize(fyne.NewSize(480, 600))
	w.Show()
	defer w.Close()
	w.Fyne().Content().Refresh()
	s := w.View().sending
	got := s.what.String()
	for i, l := range labels {
		if !strings.Contains(got, l) || !strings.Contains(got, string(rune('1'+i))+": ") {
			t.Errorf("the line lacks question %d's %q: %q", i+1, l, got)
		}
	}
	if !s.what.Visible() || !s.row.Visible() || s.inline.Visible() {
		t.Fatalf("row line shown %v (row %v), inline shown %v: a long line wants its own row", s.what.Visible(), s.row.Visible(), s.inline.Visible())
	}
	one := fyne.MeasureText("Sending", theme.CaptionTextSize(), fyne.TextStyle{}).Height
	pos := a.Driver().AbsolutePositionForObject(s.what)
	if s.what.Size().Height < 1.5*one || pos.X+s.what.Size().Width > w.Fyne().Canvas().Size().Width {
		t.Errorf("the line is %v at %v in a %v window: want it wrapped within the window", s.what.Size(), pos, w.Fyne().Canvas().Size())
	}
}

// Images attached are counted; with nothing else the images are the
// answer, never "no answer".
func TestSendingLineCountsImages(t *testing.T) {
	v, _, _ := newTestView(t, question(wire.Prompt{Markdown: "Which?", Options: []wire.Option{{Label: "A"}, {Label: "B"}}}), Options{})
	v.hooks.async = func(f func()) { f() }
	v.hooks.post = func(f func()) { f() }
	for _, name := range []string{"1.png", "2.png", "3.png", "4.png"} {
		v.AttachImage(name, pngOf(t, 20, 20))
	}
	if got, want := v.sending.what.String(), "Sending: 4 attached images"; got != want {
		t.Errorf("four images, nothing ticked: %q, want %q", got, want)
	}
	v.ToggleOption(1)
	if got, want := v.sending.what.String(), "Sending: A · 4 attached images"; got != want {
		t.Errorf("four images and A: %q, want %q", got, want)
	}
}

// An approval names its decision by its effect: with nothing to allow,
// Submit denies, and the line says "Deny", not "no answer".
func TestSendingLineNamesADecision(t *testing.T) {
	q := approvalOf(longCommand(250))
	q.Prompts[0].Options = q.Prompts[0].Options[2:] // Deny alone
	w, _ := openApproval(t, q, fyne.NewSize(600, 420), Options{})
	v := w.View()
	if v.sending == nil {
		t.Fatal("no Sending line")
	}
	if got := v.sending.what.String(); got != "Sending: Deny" {
		t.Errorf("line = %q, want %q", got, "Sending: Deny")
	}
}

// The options ["Yes","No"] of interactive_feedback are checkboxes
// (seed 000 allows several); ticking both is said plainly: the Sending
// line lists "Yes, No" and a warning says that both contradictory answers
// are sent. One of them alone warns of nothing.
func TestSendingLineWarnsOfYesAndNo(t *testing.T) {
	v, _, _ := newTestView(t, question(wire.Prompt{Markdown: "Deploy now?", Options: []wire.Option{{Label: "Yes"}, {Label: "No"}}}), Options{})
	v.ToggleOption(1)
	if v.sending.warn.Visible() {
		t.Errorf("Yes alone: warning %q", v.sending.warn.String())
	}
	v.ToggleOption(2)
	if got := v.sending.what.String(); got != "Sending: Yes, No" {
		t.Errorf("line = %q", got)
	}
	if got := v.sending.warn.String(); !v.sending.warn.Visible() || !strings.Contains(got, "Yes") || !strings.Contains(got, "No") || !strings.Contains(got, "both") {
		t.Errorf("Yes and No ticked: warning %q (shown %v), want both named", got, v.sending.warn.Visible())
	}
}
