package ui

import (
	"testing"

	"fyne.io/fyne/v2/test"

	"feedback/dialogs"
	"feedback/wire"
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
	w := u.open["q1"]
	if w == nil {
		t.Fatal("no window")
	}
	test.Type(w.Fyne().Canvas().Focused(), "half a thought")
	u.stop()
	if len(u.open) != 0 {
		t.Errorf("%d windows still open after stop", len(u.open))
	}
	if len(drafts) != 1 || drafts[0].Replies[0].Text != "half a thought" {
		t.Errorf("drafts = %+v, want the typed text reported once", drafts)
	}
	ran := false
	u.do(func() { ran = true })
	u.show(wire.Question{ID: "q2", Prompts: []wire.Prompt{{Markdown: "?"}}}, nil, nil, hooks{Shown: func() { ran = true }, Done: func(wire.Answer) {}}, nil)
	if ran || len(u.open) != 0 {
		t.Error("work ran on the Fyne goroutine after stop")
	}
	if made, idle, _ := u.pool.Windows(); made != 1 || idle != 1 {
		t.Errorf("pool: made %d, idle %d; want the one window, hidden", made, idle)
	}
}
