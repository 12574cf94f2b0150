package dialogs

import (
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// In a one-choice prompt choosing replaces, by every way of choosing:
// Alt+digit, a click on the label, Space and Enter on the radio button;
// choosing the chosen option again keeps it. Up and Down move between the
// options. (Before: Alt+1 beside a pre-selected default sent both.)
func TestOneChoiceReplaces(t *testing.T) {
	a := test.NewTempApp(t)
	r := &recorder{}
	q := question(wire.Prompt{Kind: wire.KindChoice, Single: true, Markdown: "Deploy?",
		Options: []wire.Option{{Label: "yes"}, {Label: "no", Default: true}, {Label: "later"}}})
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, r.done)
	w.Show()
	defer w.Close()
	v := w.View()
	chosen := func() []string { return v.prompts[0].reply().Selected }
	radio := func(i int) *optionRadio { return v.options[i].(radioOption).r }
	c := w.Fyne().Canvas()
	if c.Focused() != radio(1) { // the pre-selected one (radio_test.go)
		t.Fatalf("focused %T, want the pre-selected radio button", c.Focused())
	}
	press := func(d string) { // as the keys go down in the window (the input guard)
		v.keyDown(&fyne.KeyEvent{Name: desktop.KeyAltLeft})
		v.keyDown(&fyne.KeyEvent{Name: fyne.KeyName(d)})
		v.shortcut(alt(d))
		v.keyUp(&fyne.KeyEvent{Name: fyne.KeyName(d)})
		v.keyUp(&fyne.KeyEvent{Name: desktop.KeyAltLeft})
	}
	press("1")
	if got := chosen(); !reflect.DeepEqual(got, []string{"yes"}) {
		t.Fatalf("after Alt+1: %v, want [yes]", got)
	}
	press("1")
	if got := chosen(); !reflect.DeepEqual(got, []string{"yes"}) {
		t.Errorf("Alt+1 again: %v, want [yes] still", got)
	}
	radio(0).TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	if c.Focused() != radio(1) {
		t.Fatalf("Down from the first option: focused %T", c.Focused())
	}
	radio(1).TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
	if got := chosen(); !reflect.DeepEqual(got, []string{"no"}) {
		t.Errorf("Space on no: %v, want [no]", got)
	}
	test.Tap(radio(2))
	if got := chosen(); !reflect.DeepEqual(got, []string{"later"}) {
		t.Errorf("a click on later: %v, want [later]", got)
	}
	radio(1).TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	radio(0).TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	v.Submit()
	if got := r.only(t).Replies[0].Selected; !reflect.DeepEqual(got, []string{"yes"}) {
		t.Errorf("sent %v, want [yes]", got)
	}
}

// The Sending line says what Submit sends, as it changes; a recommended
// option still ticked beside the user's pick is called out in a warning
// line; long labels and many picks are shown whole.
func TestSendingLine(t *testing.T) {
	v, _, _ := newTestView(t, question(wire.Prompt{Markdown: "How far?", Options: []wire.Option{
		{Label: "Go ahead with all three steps", Default: true}, {Label: "Do steps 1–2 only"},
		{Label: strings.Repeat("a very long option ", 10)}, {Label: "d"}, {Label: "e"}}}), Options{})
	line := func() (string, string, bool) {
		return v.sending.what.String(), v.sending.warn.String(), v.sending.warn.Visible()
	}
	what, _, warned := line()
	if what != "Sending: Go ahead with all three steps" || warned {
		t.Errorf("at first: %q, warning shown %v", what, warned)
	}
	v.ToggleOption(2)
	what, warn, warned := line()
	if what != "Sending: Go ahead with all three steps, Do steps 1–2 only" || !warned ||
		!strings.Contains(warn, "still ticked") || !strings.Contains(warn, "Go ahead with all three steps") {
		t.Errorf("after a pick beside the recommendation: %q / %q (shown %v)", what, warn, warned)
	}
	v.ToggleOption(1)
	if what, _, warned = line(); what != "Sending: Do steps 1–2 only" || warned {
		t.Errorf("recommendation unticked: %q, warning shown %v", what, warned)
	}
	v.ToggleOption(3)
	v.ToggleOption(4)
	v.ToggleOption(5)
	test.Type(v.prompts[0].entry, "and   mind the tests please, all of them")
	what, _, _ = line()
	want := "Sending: Do steps 1–2 only, " + strings.Repeat("a very long option ", 10) + ", d, e, “and mind the tests please, all of them”" // whole, never cut
	if what != want {
		t.Errorf("many picks:\n got %q\nwant %q", what, want)
	}
}

// A window of several prompts says what each sends, numbered.
func TestSendingLineSeveralPrompts(t *testing.T) {
	v, _, _ := newTestView(t, wire.Question{ID: "q", Prompts: []wire.Prompt{
		{Markdown: "1?", Kind: wire.KindChoice, Single: true, Options: []wire.Option{{Label: "A"}, {Label: "B"}}},
		{Markdown: "2?", Kind: wire.KindChoice, Single: true, Options: []wire.Option{{Label: "C"}}},
	}}, Options{})
	v.ToggleOption(2)
	if got := v.sending.what.String(); got != "Sending: 1: B · 2: no answer" {
		t.Errorf("line = %q", got)
	}
}

// A prompt below the fold is never declined for the user: Submit goes to
// it and says so; Submit again declines it. The pager says where the
// user is and moves between prompts.
func TestSubmitGoesToAnUnseenPrompt(t *testing.T) {
	a := test.NewTempApp(t)
	r := &recorder{}
	long := strings.Repeat("A long paragraph of the first question. ", 40)
	q := wire.Question{ID: "q", Prompts: []wire.Prompt{
		{Header: "One", Markdown: long, Kind: wire.KindChoice, Single: true, Options: []wire.Option{{Label: "A"}, {Label: "B"}}},
		{Header: "Two", Markdown: long, Kind: wire.KindChoice, Single: true, Options: []wire.Option{{Label: "C"}, {Label: "D"}}},
	}}
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, r.done)
	w.Fyne().Resize(fyne.NewSize(500, 420))
	w.Show()
	defer w.Close()
	v := w.View()
	w.heartbeat()
	if got := v.pages.bar.label.Text; got != "Question 1 of 2" {
		t.Errorf("pager = %q", got)
	}
	v.ToggleOption(1)
	v.Submit()
	if len(r.answers) != 0 {
		t.Fatalf("Submit sent %+v with question 2 never seen", r.answers)
	}
	if got := v.sending.warn.String(); !v.sending.warn.Visible() || !strings.Contains(got, "Question 2 has no answer") {
		t.Errorf("warning = %q (shown %v)", got, v.sending.warn.Visible())
	}
	if v.pages.current != 1 || v.pages.bar.label.Text != "Question 2 of 2" || w.Fyne().Canvas().Focused() != v.prompts[1].options[0].focusable() {
		t.Errorf("after Submit: on question %d (%q), focused %T", v.pages.current+1, v.pages.bar.label.Text, w.Fyne().Canvas().Focused())
	}
	test.Tap(v.pages.bar.prev)
	if v.pages.current != 0 || v.panes.scroll.Offset.Y > 20 {
		t.Errorf("‹ went to question %d, offset %v", v.pages.current+1, v.panes.scroll.Offset.Y)
	}
	v.Submit() // question 2 was shown: an empty answer is now the user's choice
	if got := r.only(t).Replies; len(got) != 2 || !reflect.DeepEqual(got[0].Selected, []string{"A"}) || len(got[1].Selected) != 0 {
		t.Errorf("replies = %+v", got)
	}
}
