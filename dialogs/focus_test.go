package dialogs

import (
	"fmt"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// The first control that takes text has the keyboard when the window
// opens, in every dialect; without one, the first option (a checkbox or a
// radio button).
func TestFirstControlIsFocused(t *testing.T) {
	opts := []wire.Option{{Label: "a"}, {Label: "b"}}
	for _, tc := range []struct {
		name string
		q    wire.Question
		want func(v *View) fyne.Focusable
	}{
		{"four questions", question(
			wire.Prompt{Kind: wire.KindChoice, Markdown: "1", Options: opts},
			wire.Prompt{Markdown: "2", Options: opts},
			wire.Prompt{Markdown: "3"},
			wire.Prompt{Kind: wire.KindYesNo, Markdown: "4"}),
			func(v *View) fyne.Focusable { return v.prompts[1].entry }},
		{"choice only", question(wire.Prompt{Kind: wire.KindChoice, Markdown: "?", Options: opts}),
			func(v *View) fyne.Focusable { return v.options[0].(checkOption).c }},
		{"one choice", question(wire.Prompt{Kind: wire.KindChoice, Single: true, Markdown: "?", Options: opts},
			wire.Prompt{Kind: wire.KindChoice, Single: true, Markdown: "?", Options: opts}),
			func(v *View) fyne.Focusable { return v.options[0].(radioOption).r }},
		{"text", question(wire.Prompt{Markdown: "?"}),
			func(v *View) fyne.Focusable { return v.prompts[0].entry }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			w := NewWindow(a, tc.q, Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
			w.Show()
			defer w.Close()
			if got, want := w.Fyne().Canvas().Focused(), tc.want(w.View()); got != want || want == nil {
				t.Errorf("focused %T %p, want %T %p", got, got, want, want)
			}
		})
	}
}

// Tab leaves the reply box (it types no tab), and Tab reaches every
// option; Up and Down move along the checkboxes.
func TestKeyboardReachesEveryOption(t *testing.T) {
	var many []wire.Option
	for i := range 12 {
		many = append(many, wire.Option{Label: string(rune('a' + i))})
	}
	a := test.NewTempApp(t)
	w := NewWindow(a, question(wire.Prompt{Markdown: "?", Options: many}), Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
	w.Show()
	defer w.Close()
	v := w.View()
	if v.prompts[0].entry.AcceptsTab() {
		t.Error("the reply box takes Tab")
	}
	c := w.Fyne().Canvas()
	reached := map[fyne.Focusable]bool{}
	for range 40 {
		c.FocusNext()
		reached[c.Focused()] = true
	}
	for i, o := range v.options {
		if !reached[o.(checkOption).c] {
			t.Errorf("Tab never reaches option %d", i+1)
		}
	}
	c.Focus(v.options[0].(checkOption).c)
	for range 11 {
		c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyDown})
	}
	if c.Focused() != v.options[11].(checkOption).c {
		t.Errorf("11 Downs from the first option: focused %T, want the twelfth option", c.Focused())
	}
	c.Focused().TypedRune(' ')
	if !v.options[11].selected() {
		t.Error("Space did not select the focused twelfth option")
	}
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyUp})
	if c.Focused() != v.options[10].(checkOption).c {
		t.Error("Up did not move to the eleventh option")
	}
}

// Moving along a long option list with the keyboard keeps the focused
// option in view: its key-up lands on it and scrolls the options pane.
func TestKeyboardScrollsTheFocusedOptionIntoView(t *testing.T) {
	var many []wire.Option
	for i := range 25 {
		many = append(many, wire.Option{Label: fmt.Sprintf("option %d", i+1)})
	}
	a := test.NewTempApp(t)
	w := NewWindow(a, question(wire.Prompt{Kind: wire.KindChoice, Markdown: "?", Options: many}),
		Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, func(wire.Answer) {})
	w.Fyne().Resize(fyne.NewSize(500, 400))
	w.Show()
	defer w.Close()
	v, c := w.View(), w.Fyne().Canvas()
	down := &fyne.KeyEvent{Name: fyne.KeyDown}
	for range 24 {
		f := c.Focused().(*optionCheck)
		f.KeyDown(down)
		f.TypedKey(down)
		c.Focused().(*optionCheck).KeyUp(down) // X sends the release to the widget now focused
	}
	last := v.options[24].(checkOption).c
	if c.Focused() != last {
		t.Fatalf("focused %T, want the 25th option", c.Focused())
	}
	d := a.Driver()
	top := d.AbsolutePositionForObject(last).Y - d.AbsolutePositionForObject(v.panes.choices).Y
	if v.panes.choices.Offset.Y == 0 || top < 0 || top+last.Size().Height > v.panes.choices.Size().Height+0.5 {
		t.Errorf("the 25th option at %v..%v of a %v high pane scrolled to %v: out of view",
			top, top+last.Size().Height, v.panes.choices.Size().Height, v.panes.choices.Offset.Y)
	}
}

// Tab to a radio option below the fold (a radio's keys do not reach the
// view): the window's heartbeat sees the focus move and scrolls the page
// to it. The focus the window gives on opening moves nothing.
func TestFocusMovedToARadioIsRevealed(t *testing.T) {
	a := test.NewTempApp(t)
	q := fourLongPrompts()
	q.Prompts[3].Single = true // radio buttons
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
	w.Fyne().Resize(fyne.NewSize(600, 500))
	w.Show()
	defer w.Close()
	v := w.View()
	w.heartbeat()
	if v.panes.scroll.Offset.Y != 0 {
		t.Fatalf("the opening focus scrolled the page to %v", v.panes.scroll.Offset.Y)
	}
	radio := v.prompts[3].options[5].(radioOption).r // Q4's last option
	w.Fyne().Canvas().Focus(radio)
	w.heartbeat()
	d := a.Driver()
	top := d.AbsolutePositionForObject(radio).Y - d.AbsolutePositionForObject(v.panes.scroll).Y
	if top < 0 || top+radio.Size().Height > v.panes.scroll.Size().Height+0.5 {
		t.Errorf("the focused radio at %v..%v of a %v high page (offset %v): out of view", top, top+radio.Size().Height, v.panes.scroll.Size().Height, v.panes.scroll.Offset.Y)
	}
}
