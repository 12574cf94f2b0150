package dialogs

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"feedback/ipc/wire"
)

var replies = []string{"Looks good, continue", "Stop and wait for me", "Explain the trade-offs first"}

// A window whose one prompt is text alone shows the quick replies as
// chips above its reply box. One click is not an answer: a chip fills the
// empty reply box (or goes in at the caret of what is typed) and gives it
// the keyboard; the user sends it, or edits it first. Nothing typed is
// dropped.
func TestOneClickAnswers(t *testing.T) {
	a := test.NewTempApp(t)
	var got []wire.Answer
	w := NewWindow(a, question(wire.Prompt{Markdown: "What should the new branch be called?"}), Options{Now: (&clock{now: t0}).Now, QuickReplies: replies, InputGuard: -1},
		func(ans wire.Answer) { got = append(got, ans) })
	w.Fyne().Resize(fyne.NewSize(520, 300))
	w.Show()
	defer w.Close()
	v := w.view
	if v.quick.row == nil || len(v.quick.row.Objects) != 3 || v.quick.btn == nil {
		t.Fatal("no quick-reply chips or no Quick reply button")
	}
	test.AssertImageMatches(t, "question/quick-replies.png", w.Fyne().Canvas().Capture())
	e := v.prompts[0].entry
	test.Tap(v.quick.row.Objects[0].(*widget.Button))
	if len(got) != 0 || v.Done() {
		t.Fatalf("one click sent %+v", got)
	}
	if e.Text != "Looks good, continue" || w.Fyne().Canvas().Focused() != e {
		t.Errorf("after a click: box %q, keyboard on %T", e.Text, w.Fyne().Canvas().Focused())
	}
	test.Type(e, "!")
	v.Submit()
	if len(got) != 1 || got[0].Status != wire.StatusAnswered || got[0].Replies[0].Text != "Looks good, continue!" {
		t.Errorf("Submit sent %+v", got)
	}

	r := &recorder{}
	v2 := NewView(question(wire.Prompt{Markdown: "?"}), Options{Now: (&clock{now: t0}).Now, QuickReplies: replies}, r.done)
	test.NewWindow(v2.Content())
	test.Type(v2.prompts[0].entry, "not yet:")
	test.Tap(v2.quick.row.Objects[1].(*widget.Button))
	if len(r.answers) != 0 || v2.prompts[0].entry.Text != "not yet: Stop and wait for me" {
		t.Errorf("with text typed: sent %v, box %q", r.answers, v2.prompts[0].entry.Text)
	}
}

// A quick reply goes in where the caret is, between what was typed before
// and after it, with a space on each side where none is.
func TestQuickReplyGoesInAtTheCaret(t *testing.T) {
	r := &recorder{}
	v := NewView(question(wire.Prompt{Markdown: "?"}), Options{Now: (&clock{now: t0}).Now, QuickReplies: replies}, r.done)
	w := test.NewWindow(v.Content())
	defer w.Close()
	e := v.prompts[0].entry
	test.Type(e, "first, then")
	for range len(" then") {
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyLeft})
	}
	test.Tap(v.quick.row.Objects[1].(*widget.Button))
	if want := "first, Stop and wait for me then"; e.Text != want || len(r.answers) != 0 {
		t.Errorf("box %q, want %q; sent %v", e.Text, want, r.answers)
	}
	test.Type(e, "!")
	if want := "first, Stop and wait for me! then"; e.Text != want {
		t.Errorf("typed after it: box %q, want %q", e.Text, want)
	}
}

// The Quick reply menu (the button or Alt+R) inserts a reply into the
// reply box, beside options too; there are no one-click answers where
// options are to be chosen, nor any quick reply without a reply box.
func TestQuickReplyMenu(t *testing.T) {
	a := test.NewTempApp(t)
	q := question(wire.Prompt{Markdown: "Which?", Single: true, Options: []wire.Option{{Label: "A"}, {Label: "B"}}})
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now, QuickReplies: replies}, func(wire.Answer) {})
	w.Show()
	defer w.Close()
	v := w.view
	if v.quick.row != nil || v.quick.btn == nil {
		t.Fatalf("one-click row %v, button %v", v.quick.row != nil, v.quick.btn != nil)
	}
	if !v.shortcut(alt("R")) || v.quick.menu == nil || len(v.quick.menu.Items) != 3 {
		t.Fatal("Alt+R opened no menu of the three replies")
	}
	test.Tap(v.quick.menu.Items[2].(fyne.Tappable))
	if got := v.prompts[0].entry.Text; got != "Explain the trade-offs first" {
		t.Errorf("reply box %q", got)
	}

	yn, _, _ := newTestView(t, question(wire.Prompt{Kind: wire.KindYesNo, Markdown: "?"}), Options{QuickReplies: replies})
	if yn.quick.btn != nil || yn.quick.row != nil || yn.shortcut(alt("R")) {
		t.Error("quick replies on a window without a reply box")
	}
}

// One-click answers show their whole text when the row has room for it,
// never cut at a fixed length ("Explain the trade-offs…" with room to
// spare); when the row has not, the longest are shortened until it fits.
func TestQuickReplyChipsUseTheRoom(t *testing.T) {
	long := []string{"Explain the trade-offs first", "Go ahead", "Stop and wait for me"}
	for _, tc := range []struct {
		width float32
		whole bool
	}{{680, true}, {300, false}} {
		a := test.NewTempApp(t)
		w := NewWindow(a, question(wire.Prompt{Markdown: "Go on?"}), Options{Now: (&clock{now: t0}).Now, QuickReplies: long, InputGuard: -1}, func(wire.Answer) {})
		w.Fyne().Resize(fyne.NewSize(tc.width, 300))
		w.Show()
		row := w.view.quick.row
		var texts []string
		right := float32(0)
		for _, o := range row.Objects {
			texts = append(texts, o.(*widget.Button).Text)
			right = max(right, o.Position().X+o.Size().Width)
		}
		if tc.whole && strings.Join(texts, "|") != strings.Join(long, "|") {
			t.Errorf("at %v wide: chips %q, want the whole replies", tc.width, texts)
		}
		if right > row.Size().Width+0.5 {
			t.Errorf("at %v wide: the chips reach %v in a row %v wide", tc.width, right, row.Size().Width)
		}
		w.Close()
	}
}
