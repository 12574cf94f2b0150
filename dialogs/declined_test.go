package dialogs

import (
	"reflect"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// Nothing is declined by one keystroke: one Ctrl+Enter never declines both
// prompts in view. With two prompts both in view and nothing chosen,
// Submit sends nothing: it goes to the first prompt without an answer and
// says so; Submit again goes to the next one; only a Submit after each was
// asked about declines them. Answering only the first then Submit asks
// about the second once.
func TestSubmitAsksOnceAboutEachUnansweredPrompt(t *testing.T) {
	two := wire.Question{ID: "q", Prompts: []wire.Prompt{
		{Header: "Auth", Markdown: "Which auth?", Kind: wire.KindChoice, Single: true, Options: []wire.Option{{Label: "JWT"}, {Label: "Sessions"}}},
		{Header: "Mode", Markdown: "Offline mode?", Kind: wire.KindChoice, Single: true, Options: []wire.Option{{Label: "Yes"}, {Label: "Later"}}},
	}}
	open := func(t *testing.T) (*Window, *recorder) {
		a := test.NewTempApp(t)
		r := &recorder{}
		w := NewWindow(a, two, Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, r.done)
		w.Fyne().Resize(fyne.NewSize(520, 700)) // both prompts in view
		w.Show()
		t.Cleanup(w.Close)
		w.heartbeat()
		return w, r
	}
	asked := func(t *testing.T, w *Window, r *recorder, n int) {
		t.Helper()
		v := w.View()
		if len(r.answers) != 0 {
			t.Fatalf("Submit sent %+v with question %d unanswered and never asked about", r.answers, n)
		}
		if got := v.sending.warn.String(); !v.sending.warn.Visible() || !strings.Contains(got, "Question "+string(rune('0'+n))+" has no answer") {
			t.Errorf("warning = %q (shown %v), want question %d named", got, v.sending.warn.Visible(), n)
		}
		if got, want := w.Fyne().Canvas().Focused(), v.prompts[n-1].keyControl(); got != want {
			t.Errorf("focused %T, want question %d's first option", got, n)
		}
	}
	t.Run("nothing chosen", func(t *testing.T) {
		w, r := open(t)
		v := w.View()
		for _, p := range v.prompts {
			if !p.seen {
				t.Fatal("a prompt is not in view: the test's window is too small")
			}
		}
		v.Submit()
		asked(t, w, r, 1)
		v.Submit()
		asked(t, w, r, 2)
		v.Submit() // each was asked about: now declining them is the user's act
		if got := r.only(t).Replies; len(got) != 2 || len(got[0].Selected) != 0 || len(got[1].Selected) != 0 {
			t.Errorf("replies = %+v, want both declined", got)
		}
	})
	t.Run("first answered", func(t *testing.T) {
		w, r := open(t)
		v := w.View()
		v.ToggleOption(1)
		v.Submit()
		asked(t, w, r, 2)
		v.ToggleOption(4)
		v.Submit()
		if got := r.only(t).Replies; len(got) != 2 || !reflect.DeepEqual(got[0].Selected, []string{"JWT"}) || !reflect.DeepEqual(got[1].Selected, []string{"Later"}) {
			t.Errorf("replies = %+v", got)
		}
	})
	t.Run("all answered", func(t *testing.T) {
		w, r := open(t)
		v := w.View()
		v.ToggleOption(2)
		v.ToggleOption(3)
		v.Submit() // one keystroke: nothing to ask about
		if got := r.only(t).Replies; len(got) != 2 || !reflect.DeepEqual(got[1].Selected, []string{"Yes"}) {
			t.Errorf("replies = %+v", got)
		}
	})
}

// One prompt with options and nothing chosen: Submit asks once too.
func TestSubmitAsksAboutAnUnansweredChoice(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "Which?", Kind: wire.KindChoice, Single: true,
		Options: []wire.Option{{Label: "A"}, {Label: "B"}}}), Options{})
	v.Submit()
	if len(r.answers) != 0 || !v.sending.warn.Visible() {
		t.Fatalf("Submit with nothing chosen sent %+v (warning shown %v)", r.answers, v.sending.warn.Visible())
	}
	v.Submit()
	if got := r.only(t).Replies; len(got) != 1 || len(got[0].Selected) != 0 {
		t.Errorf("replies = %+v", got)
	}
}

// Images attached to a one-prompt window with options are its answer
// (the Sending line says so): Submit sends them at once and asks nothing
// about the unanswered prompt (e2e TestPasteGrowsTheWindow sends its
// pasted images so).
func TestSubmitSendsImagesAsTheAnswer(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "Which layout?", Options: []wire.Option{{Label: "Keep it"}, {Label: "Revert"}}}), Options{})
	v.hooks.async = func(f func()) { f() }
	v.hooks.post = func(f func()) { f() }
	v.AttachImage("1.png", pngOf(t, 20, 20))
	v.Submit()
	if got := r.only(t); len(got.Images) != 1 {
		t.Errorf("Submit with an image attached sent %d images", len(got.Images))
	}
}
