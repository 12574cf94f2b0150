package dialogs

import (
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/ipc/wire"
)

// The size a window opens with is decided at the width it is given, never
// remembered from an earlier layout of its content at another size: Fyne's
// desktop driver lays new content out at its minimum size first (GLFW's
// SetContent), and a pooled window at the size of its last question. The
// Sending line's place (in the hint slot by Submit, or in a row of its
// own) counts in the height: decided at a narrow width, the row was
// counted where the line fits the slot, and the first question window
// opened 36 units taller than its content, an empty band under its
// options (the same question asked again opened right).
func TestFitIsDecidedAtTheWindowsWidth(t *testing.T) {
	msg := "Deploy the **staging** build now?\n\n| Check | Result |\n|---|---|\n| unit tests | 214 passed |\n| integration | 12 passed |\n"
	for _, tc := range []struct {
		name string
		yes  string // the recommended option: the Sending line says it
		row  bool   // the line needs a row of its own at the window's width
	}{
		{"line by Submit", "Yes", false},
		{"line in its row", "Go ahead with all three steps and the rollback plan the team agreed on", true},
	} {
		q := question(wire.Prompt{Markdown: msg, Options: []wire.Option{{Label: tc.yes, Default: true}, {Label: "No"}}})
		for _, before := range []struct {
			name string
			size func(v *View) fyne.Size // the earlier layout's size; zero: none
		}{
			{"fresh", func(*View) fyne.Size { return fyne.Size{} }},
			{"laid out at its minimum", func(v *View) fyne.Size { return v.Content().MinSize() }},
			{"laid out narrow", func(*View) fyne.Size { return fyne.NewSize(420, 300) }},
			{"laid out wide", func(*View) fyne.Size { return fyne.NewSize(1600, 900) }},
		} {
			t.Run(tc.name+"/"+before.name, func(t *testing.T) {
				a := test.NewTempApp(t)
				a.Settings().SetTheme(Theme())
				limit := fyne.NewSize(1280-2*ScreenMargin, 1024-2*ScreenMargin)
				ref := NewView(q, Options{}, func(wire.Answer) {}) // laid out at the width the window gets, then fitted
				ref.Content().Resize(fyne.NewSize(WindowSize.Width-2*theme.Padding(), 600))
				want := ref.fitSize(limit)

				v := NewView(q, Options{}, func(wire.Answer) {})
				if s := before.size(v); !s.IsZero() {
					v.Content().Resize(s)
				}
				got := v.fitSize(limit)
				if got != want {
					t.Errorf("fit %v, want %v (the fit of a view laid out at the window's width)", got, want)
				}
				// In a window of that size the content takes the height
				// exactly: the panes get what they need, no band under
				// the options, and the Sending line where it was counted.
				w := test.NewWindow(v.Content())
				defer w.Close()
				w.Resize(got)
				if v.sending.row.Visible() != tc.row {
					t.Errorf("the Sending line's row shown %v, want %v", v.sending.row.Visible(), tc.row)
				}
				relayout(v.Content())
				msgNeed := naturalHeight(v.panes.scroll, v.panes.scroll.Size().Width)
				optNeed := naturalHeight(v.panes.choices, v.panes.choices.Size().Width)
				if m, o := v.panes.scroll.Size().Height, v.panes.choices.Size().Height; m+0.5 < msgNeed || o > optNeed+0.5 || o+0.5 < optNeed {
					t.Errorf("in a window of %v the message pane is %v high (needs %v), the options %v (need %v): want each what it needs, no band",
						got, m, msgNeed, o, optNeed)
				}
			})
		}
	}
}

// A question asked again opens at the size it opened with the first time,
// whichever window of the pool shows it: a new one or the one the first
// asking left hidden (laid out at that question's size). Before the fix
// the first opened 36 units taller (its Sending row counted).
func TestSameQuestionOpensAtTheSameSize(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(Theme())
	q := question(wire.Prompt{Markdown: "Deploy the **staging** build now?", Options: []wire.Option{{Label: "Yes", Default: true}, {Label: "No"}}})
	p := NewPool(a)
	var sizes []fyne.Size
	for range 2 {
		w := p.NewWindow(q, Options{}, func(wire.Answer) {})
		w.Show()
		sizes = append(sizes, w.Fyne().Canvas().Size())
		w.Close()
	}
	if sizes[0] != sizes[1] {
		t.Errorf("the question opened at %v, then at %v: want the same size", sizes[0], sizes[1])
	}
}

// In the last minute the countdown is larger (a warning band): the window
// grows for it, as for any content that comes after the window was sized
// (budget.go), and the panes keep what they need. Before, the options
// pane gave the room up and scrolled by a few units, its last option cut,
// for the last minute and the closing state.
func TestWindowGrowsForTheLastMinute(t *testing.T) {
	a := test.NewTempApp(t)
	c := &clock{now: t0}
	q := timed(120, wire.Prompt{Markdown: "Ship it?", Options: []wire.Option{{Label: "Ship", Default: true}, {Label: "Wait"}}})
	w := NewWindow(a, q, Options{Now: c.Now}, func(wire.Answer) {})
	w.Show()
	defer w.Close()
	v := w.View()
	h0 := w.Fyne().Canvas().Size().Height
	v.Tick(t0.Add(90 * time.Second))
	if v.clock.label.Importance != widget.WarningImportance {
		t.Fatal("no warning in the last minute")
	}
	relayout(v.Content()) // a frame
	optNeed := naturalHeight(v.panes.choices, v.panes.choices.Size().Width)
	if h, o := w.Fyne().Canvas().Size().Height, v.panes.choices.Size().Height; h <= h0 || o+0.5 < optNeed {
		t.Errorf("in the last minute the window is %v high (was %v), the options pane %v (needs %v): want the window grown, the options whole", h, h0, o, optNeed)
	}
}

// A window lays its content out 2*theme.Padding() narrower than itself
// (Fyne's padded canvas); a message whose last word wraps at that width
// but not at the window's opens with the line counted: the message whole,
// and the options too. Before, the panes were measured at the window's
// width and the window opened a line short, its options pane scrolling.
func TestFitMeasuresAtTheContentsWidth(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(Theme())
	limit := fyne.NewSize(1280-2*ScreenMargin, 1024-2*ScreenMargin)
	inner := WindowSize.Width - 2*theme.Padding()
	for n := 60; n < 160; n++ {
		md := strings.Repeat("word ", n/5) + strings.Repeat("x", n%5)
		q := question(wire.Prompt{Markdown: md, Options: []wire.Option{{Label: "Yes", Default: true}, {Label: "No"}}})
		v := NewView(q, Options{}, func(wire.Answer) {})
		if naturalHeight(v.panes.scroll, WindowSize.Width) >= naturalHeight(v.panes.scroll, inner) {
			continue // it wraps alike at both widths
		}
		v = NewView(q, Options{}, func(wire.Answer) {})
		got := v.fitSize(limit)
		w := test.NewWindow(v.Content())
		defer w.Close()
		w.Resize(got)
		relayout(v.Content())
		msgNeed := naturalHeight(v.panes.scroll, v.panes.scroll.Size().Width)
		optNeed := naturalHeight(v.panes.choices, v.panes.choices.Size().Width)
		if m, o := v.panes.scroll.Size().Height, v.panes.choices.Size().Height; m+0.5 < msgNeed || o+0.5 < optNeed {
			t.Errorf("%d characters: in a window of %v the message pane is %v high (needs %v), the options %v (need %v): want both whole",
				n, got, m, msgNeed, o, optNeed)
		}
		return
	}
	t.Fatal("no message wraps differently at the window's width and at its content's: the test needs another")
}
