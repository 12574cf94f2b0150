package dialogs

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// A window is found once: at the first key
// in it, or at the first edit made with the mouse (an option ticked). The
// app leaves a notification for a window that ends unfound (core's
// OnUnseenEnd), so a window the user never touched must never count as
// found, and one they touched must.
func TestFocusedWindowIsFoundAtTheFirstKeyOrEdit(t *testing.T) {
	newFakeDesk(t)
	a := test.NewTempApp(t)
	p := NewPool(a)
	c := &clock{now: t0}
	open := func(found *int) *Window {
		q := question(wire.Prompt{Markdown: "Deploy?", Options: []wire.Option{{Label: "yes"}, {Label: "no"}}})
		w := p.NewWindow(q, Options{Now: c.Now, OnFound: func() { *found++ }}, func(wire.Answer) {})
		w.Show()
		return w
	}

	var byKey, byClick, untouched int
	w := open(&byKey)
	if byKey != 0 {
		t.Fatalf("found %d times at opening, want 0", byKey)
	}
	w.View().prompts[0].entry.KeyDown(&fyne.KeyEvent{Name: fyne.KeyH})
	w.View().prompts[0].entry.KeyDown(&fyne.KeyEvent{Name: fyne.KeyI})
	if byKey != 1 {
		t.Errorf("found %d times after two keys, want once", byKey)
	}

	w2 := open(&byClick)
	test.Tap(findAll[*tapLabel](w2.View().Content())[1])
	if byClick != 1 {
		t.Errorf("found %d times after ticking an option, want once", byClick)
	}

	w3 := open(&untouched)
	w3.View().Tick(c.now)
	if untouched != 0 {
		t.Errorf("an untouched window was found %d times", untouched)
	}
}
