package dialogs

import (
	"reflect"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// A one-choice prompt with a pre-selected (recommended) option gives the
// keyboard to that option, at open and when the pager goes to the prompt:
// Space then keeps the selection instead of picking the first option.
// Without a selection the first option has it.
func TestRadioFocusStartsOnTheSelectedOption(t *testing.T) {
	for _, tc := range []struct {
		name    string
		def     int // the pre-selected option, -1 for none
		focused int
	}{{"second pre-selected", 1, 1}, {"third pre-selected", 2, 2}, {"none", -1, 0}} {
		t.Run(tc.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			r := &recorder{}
			opts := []wire.Option{{Label: "first"}, {Label: "second"}, {Label: "third"}}
			if tc.def >= 0 {
				opts[tc.def].Default = true
			}
			q := question(wire.Prompt{Kind: wire.KindChoice, Single: true, Markdown: "Which?", Options: opts})
			w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, r.done)
			w.Show()
			defer w.Close()
			v := w.View()
			c := w.Fyne().Canvas()
			want := v.options[tc.focused].(radioOption).r
			if c.Focused() != want {
				t.Fatalf("focused %v at open, want option %d", c.Focused(), tc.focused+1)
			}
			want.TypedKey(&fyne.KeyEvent{Name: fyne.KeySpace})
			v.Submit()
			if got := r.only(t).Replies[0].Selected; !reflect.DeepEqual(got, []string{opts[tc.focused].Label}) {
				t.Errorf("Space at open, then Submit: sent %v, want [%s]", got, opts[tc.focused].Label)
			}
		})
	}
}

// With several prompts, the pager gives the keyboard to a prompt's
// selected option too.
func TestPagerFocusesTheSelectedOption(t *testing.T) {
	a := test.NewTempApp(t)
	q := wire.Question{ID: "q", Prompts: []wire.Prompt{
		{Header: "One", Markdown: "1?", Kind: wire.KindChoice, Single: true, Options: []wire.Option{{Label: "A"}, {Label: "B", Default: true}}},
		{Header: "Two", Markdown: "2?", Kind: wire.KindChoice, Single: true, Options: []wire.Option{{Label: "C"}, {Label: "D", Default: true}}},
	}}
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, func(wire.Answer) {})
	w.Show()
	defer w.Close()
	v := w.View()
	if got, want := w.Fyne().Canvas().Focused(), v.prompts[0].options[1].focusable(); got != want {
		t.Errorf("at open: focused %v, want B", got)
	}
	v.goToPrompt(1)
	if got, want := w.Fyne().Canvas().Focused(), v.prompts[1].options[1].focusable(); got != want {
		t.Errorf("after the pager went to question 2: focused %v, want D", got)
	}
}
