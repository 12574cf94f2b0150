package uiprocess

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"feedback/dialogs"
	"feedback/ipc/wire"
)

// Quitting closes every window (each reports its unreported draft first)
// and nothing runs on the Fyne goroutine through the presenter afterwards:
// no widget call after Fyne's loop has ended.
func TestStopClosesWindowsAndEndsFyneWork(t *testing.T) {
	a := test.NewTempApp(t)
	u := newWindows(a, dialogs.Options{})
	var drafts []wire.Draft
	q := wire.Question{ID: "q1", Title: "Stop", Prompts: []wire.Prompt{{Markdown: "?"}}}
	u.show(q, nil, nil, hooks{Shown: func() {}, Draft: func(d wire.Draft) { drafts = append(drafts, d) }, Done: func(wire.Answer) {
		t.Error("quitting answered the question")
	}}, nil)
	w := u.pool.Showing("q1")
	if w == nil {
		t.Fatal("no window")
	}
	test.Type(w.Fyne().Canvas().Focused(), "half a thought")
	u.stop()
	if n := u.pool.Open(); n != 0 {
		t.Errorf("%d windows still open after stop", n)
	}
	if len(drafts) != 1 || drafts[0].Replies[0].Text != "half a thought" {
		t.Errorf("drafts = %+v, want the typed text reported once", drafts)
	}
	ran := false
	u.do(func() { ran = true })
	u.show(wire.Question{ID: "q2", Prompts: []wire.Prompt{{Markdown: "?"}}}, nil, nil, hooks{Shown: func() { ran = true }, Done: func(wire.Answer) {}}, nil)
	if ran || u.pool.Open() != 0 {
		t.Error("work ran on the Fyne goroutine after stop")
	}
	if made, idle, _ := u.pool.Windows(); made != 1 || idle != 1 {
		t.Errorf("pool: made %d, idle %d; want the one window, hidden", made, idle)
	}
}

// The pool is the one record of the open windows: a question's window is
// found there while it is open and not after it ended, and showing a
// question that is already open does not open a second window.
func TestPoolIsTheRecordOfOpenWindows(t *testing.T) {
	a := test.NewTempApp(t)
	u := newWindows(a, dialogs.Options{})
	var answers []wire.Answer
	h := hooks{Shown: func() {}, Draft: func(wire.Draft) {}, Done: func(ans wire.Answer) { answers = append(answers, ans) }}
	q := wire.Question{ID: "q1", Title: "Once", Prompts: []wire.Prompt{{Markdown: "?"}}}
	u.show(q, nil, nil, h, nil)
	w := u.pool.Showing("q1")
	if w == nil {
		t.Fatal("the open question's window is not in the pool")
	}
	u.show(q, nil, nil, h, nil) // the command repeated
	if n := u.pool.Open(); n != 1 {
		t.Errorf("%d windows open after showing the question twice, want 1", n)
	}
	if u.pool.Showing("q2") != nil {
		t.Error("a question never shown has a window")
	}
	u.withdraw("q1", nil)
	if u.pool.Showing("q1") != nil || u.pool.Open() != 0 {
		t.Error("the withdrawn question's window is still open")
	}
	if len(answers) != 0 {
		t.Errorf("withdrawing answered: %+v", answers)
	}
}
