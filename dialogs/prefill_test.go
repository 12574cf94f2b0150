package dialogs

import (
	"reflect"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// A prompt's Prefill is the reply box's text when the window opens: sent
// unchanged it is the answer; it is no edit (the countdown runs, Escape
// does not ask, a timeout does not send it as a draft); typed on, the
// user's text is the answer.
func TestPrefilledReply(t *testing.T) {
	prompt := wire.Prompt{Markdown: "Name?", Prefill: "feedback\nsecond line", Placeholder: "e.g. fbk"}
	t.Run("submitted unchanged", func(t *testing.T) {
		v, r, _ := newTestView(t, question(prompt), Options{})
		if got := v.prompts[0].entry.Text; got != prompt.Prefill {
			t.Fatalf("reply box = %q, want the prefill", got)
		}
		if v.HasDraft() {
			t.Error("the prefill counts as the user's draft")
		}
		v.prompts[0].entry.TypedShortcut(ctrlEnter)
		want := wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: prompt.Prefill}}}
		if got := r.only(t); !reflect.DeepEqual(got, want) {
			t.Errorf("answer = %+v, want %+v", got, want)
		}
	})
	t.Run("typed on", func(t *testing.T) {
		v, r, _ := newTestView(t, question(prompt), Options{})
		w := test.NewWindow(v.Content()) // laid out, as a real window is before the focus
		defer w.Close()
		w.Resize(WindowSize)
		test.Type(v.prompts[0].entry, "-app")
		if !v.HasDraft() {
			t.Error("an edited prefill is no draft")
		}
		v.Submit()
		if got := r.only(t).Replies[0].Text; got != "feedback\nsecond line-app" {
			t.Errorf("reply = %q (the cursor starts at the end of the prefill)", got)
		}
	})
	t.Run("the countdown runs and times out", func(t *testing.T) {
		q := question(prompt)
		q.TimeoutSeconds = 10
		v, r, c := newTestView(t, q, Options{SubmitDraftOnTimeout: true})
		v.Tick(t0.Add(10 * time.Second))
		c.fire()
		if got := r.only(t); got.Status != wire.StatusTimeout || got.Auto {
			t.Errorf("answer = %+v, want a timeout: the prefill is not the user's draft", got)
		}
	})
	t.Run("escape dismisses without asking", func(t *testing.T) {
		v, r, _ := newTestView(t, question(prompt), Options{})
		v.hooks.confirm = func(_, _ string, _ func()) { t.Error("asked before discarding an untouched prefill") }
		v.RequestDismiss()
		if got := r.only(t); got.Status != wire.StatusDismissed {
			t.Errorf("answer = %+v", got)
		}
	})
}

// Enter with nothing focused answers nothing (keys.go): not in a yes/no
// window without a recommendation, where it submitted without a choice
// (which declines), nor anywhere else.
func TestEnterWithNothingFocusedAnswersNothing(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "Deploy?", Kind: wire.KindYesNo}), Options{})
	v.enter(fyne.KeyReturn)
	if len(r.answers) != 0 {
		t.Errorf("Enter answered a yes/no window without a recommendation: %+v", r.answers)
	}

	v, r, _ = newTestView(t, question(wire.Prompt{Markdown: "Deploy?", Kind: wire.KindYesNo}, wire.Prompt{Markdown: "Why?"}), Options{})
	v.enter(fyne.KeyEnter)
	if len(r.answers) != 0 {
		t.Errorf("Enter submitted a window with a reply box: %+v", r.answers)
	}
	v, r, _ = newTestView(t, question(wire.Prompt{Markdown: "Which?", Kind: wire.KindChoice, Options: []wire.Option{{Label: "A"}}}), Options{})
	v.enter(fyne.KeyReturn)
	if len(r.answers) != 0 {
		t.Errorf("Enter submitted a choice window: %+v", r.answers)
	}
}
