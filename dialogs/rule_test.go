package dialogs

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"feedback/ipc/wire"
)

// submitButton is v's Submit button.
func submitButton(t *testing.T, v *View) *keyButton {
	t.Helper()
	for _, b := range findAll[*keyButton](v.Content()) {
		if b.Text == "Submit" {
			return b
		}
	}
	t.Fatal("no Submit button")
	return nil
}

// shownTexts are the texts of the rich texts under o that are shown:
// neither they nor a container above them hidden.
func shownTexts(o fyne.CanvasObject) string {
	var out []string
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if !o.Visible() {
			return
		}
		switch c := o.(type) {
		case *widget.RichText:
			out = append(out, c.String())
		case *fyne.Container:
			for _, ch := range c.Objects {
				walk(ch)
			}
		case *container.Scroll:
			walk(c.Content)
		}
	}
	walk(o)
	return strings.Join(out, "\n")
}

// ask_multi_select with max 2: a third tick is refused in place, at once
// ("Pick at most 2 (3 ticked)"), and neither Submit nor Ctrl+Enter sends
// it; the ticks stay; back within the bound the line goes and Submit
// sends.
func TestWindowRefusesTooManyTicks(t *testing.T) {
	opts := []wire.Option{{Label: "unit tests"}, {Label: "go vet"}, {Label: "staticcheck"}, {Label: "race detector"}}
	v, r, _ := newTestView(t, question(wire.Prompt{Kind: wire.KindChoice, Markdown: "Which checks?", Options: opts, MinSelected: 1, MaxSelected: 2}), Options{})
	test.NewWindow(v.Content()).Resize(fyne.NewSize(560, 420))
	submit := submitButton(t, v)
	if !strings.Contains(shownTexts(v.Content()), "Pick at least 1 (none ticked)") || !submit.Disabled() {
		t.Errorf("nothing ticked: texts %q, Submit disabled %v", shownTexts(v.Content()), submit.Disabled())
	}
	for n := 1; n <= 3; n++ {
		v.ToggleOption(n)
	}
	if got := shownTexts(v.Content()); !strings.Contains(got, "Pick at most 2 (3 ticked)") ||
		strings.Contains(got, "Sending:") || !strings.Contains(got, "Not sent yet: unit tests, go vet, staticcheck") {
		t.Errorf("three ticked: the window says %q", got)
	}
	if !submit.Disabled() {
		t.Error("Submit is enabled with three ticked")
	}
	test.Tap(submit)
	v.shortcut(ctrlEnter)
	v.Submit()
	if len(r.answers) != 0 {
		t.Fatalf("sent %+v with three ticked", r.answers)
	}
	if got := v.collect().Replies[0].Selected; len(got) != 3 {
		t.Errorf("ticks after the refusal: %v", got)
	}
	v.ToggleOption(2)
	if got := shownTexts(v.Content()); strings.Contains(got, "Pick at") || submit.Disabled() {
		t.Errorf("two ticked: texts %q, Submit disabled %v", got, submit.Disabled())
	}
	v.shortcut(ctrlEnter)
	if a := r.only(t); strings.Join(a.Replies[0].Selected, ",") != "unit tests,staticcheck" {
		t.Errorf("sent %+v", a)
	}
}

// ask_text with an empty box: Submit waits for text.
func TestWindowRefusesAnEmptyRequiredReply(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{Kind: wire.KindText, Markdown: "What should the new branch be called?", Required: true}), Options{})
	test.NewWindow(v.Content()).Resize(fyne.NewSize(560, 420))
	submit := submitButton(t, v)
	e := v.prompts[0].entry
	test.Type(e, "   ")
	if got := shownTexts(v.Content()); !strings.Contains(got, "Type an answer") || !submit.Disabled() {
		t.Errorf("blank box: texts %q, Submit disabled %v", got, submit.Disabled())
	}
	v.shortcut(ctrlEnter)
	v.Submit()
	if len(r.answers) != 0 {
		t.Fatalf("sent %+v with a blank box", r.answers)
	}
	test.Type(e, "feature/rules")
	if got := shownTexts(v.Content()); strings.Contains(got, "Type an answer") || submit.Disabled() {
		t.Errorf("typed: texts %q, Submit disabled %v", got, submit.Disabled())
	}
	v.Submit()
	if a := r.only(t); a.Replies[0].Text != "   feature/rules" {
		t.Errorf("sent %+v", a)
	}
}

// ask_choice needs an option (or its own words); ask_confirm without a
// default needs Yes or No: Ctrl+Enter answers neither.
func TestWindowRefusesNoChoice(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{Kind: wire.KindChoice, Single: true, Markdown: "Which DB?", Required: true,
		Options: []wire.Option{{Label: "Postgres"}, {Label: "SQLite"}}}), Options{})
	test.NewWindow(v.Content()).Resize(fyne.NewSize(560, 420))
	if got := shownTexts(v.Content()); !strings.Contains(got, "Choose an option") {
		t.Errorf("nothing chosen: texts %q", got)
	}
	v.Submit()
	v.Submit() // a second Submit is no decline either
	if len(r.answers) != 0 {
		t.Fatalf("sent %+v with nothing chosen", r.answers)
	}
	v.ToggleOption(2)
	v.Submit()
	if a := r.only(t); a.Replies[0].Selected[0] != "SQLite" {
		t.Errorf("sent %+v", a)
	}

	yn, r2, _ := newTestView(t, question(wire.Prompt{Kind: wire.KindYesNo, Markdown: "Deploy?", Required: true}), Options{})
	test.NewWindow(yn.Content())
	if got := shownTexts(yn.Content()); strings.Contains(got, "Yes or No") {
		t.Errorf("a window of one yes/no question says %q: its buttons are the answers", got)
	}
	yn.shortcut(ctrlEnter)
	if len(r2.answers) != 0 {
		t.Fatalf("Ctrl+Enter sent %+v without yes or no", r2.answers)
	}
	yn.shortcut(alt("Y"))
	if a := r2.only(t); a.Replies[0].Text != "yes" {
		t.Errorf("sent %+v", a)
	}
}

// With submit_draft_on_timeout, a draft its caller would refuse is not
// sent at zero: the question times out, as nobody answered it.
func TestTimeoutSendsNoDraftThatBreaksTheRule(t *testing.T) {
	opts := []wire.Option{{Label: "a"}, {Label: "b"}, {Label: "c"}}
	v, r, c := newTestView(t, timed(60, wire.Prompt{Kind: wire.KindChoice, Markdown: "?", Options: opts, MaxSelected: 2}), Options{SubmitDraftOnTimeout: true})
	v.RestoreDraft(wire.Draft{Replies: []wire.Reply{{Selected: []string{"a", "b", "c"}}}})
	v.Tick(t0.Add(time.Minute))
	c.fire()
	if got := r.only(t); got.Status != wire.StatusTimeout || got.Auto {
		t.Errorf("answer = %+v, want a timeout", got)
	}
}

// How the refusals look: the line under the options, and under the reply
// box, with Submit off.
func TestRuleLinesLook(t *testing.T) {
	opts := []wire.Option{{Label: "unit tests"}, {Label: "go vet"}, {Label: "staticcheck"}}
	for _, tc := range []struct {
		golden string
		p      wire.Prompt
		act    func(v *View)
	}{
		{"question/rule-too-many.png", wire.Prompt{Kind: wire.KindChoice, Markdown: "Which checks should run before the release?", Options: opts, MinSelected: 1, MaxSelected: 2},
			func(v *View) { v.ToggleOption(1); v.ToggleOption(2); v.ToggleOption(3) }},
		{"question/rule-empty.png", wire.Prompt{Kind: wire.KindText, Markdown: "What should the new branch be called?", Required: true}, func(*View) {}},
	} {
		a := test.NewTempApp(t)
		w := NewWindow(a, question(tc.p), Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, func(wire.Answer) {})
		w.Fyne().Resize(fyne.NewSize(520, 320))
		w.Show()
		tc.act(w.view)
		test.AssertImageMatches(t, tc.golden, w.Fyne().Canvas().Capture())
		w.Close()
	}
}
