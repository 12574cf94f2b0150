package dialogs

import (
	"fmt"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// Ticking an option beside the recommended one adds a warning line; the
// window grows for it (within the work area) instead of squeezing the
// message pane by the line, since the message's last line is the ask.
func TestWindowGrowsForTheWarningLine(t *testing.T) {
	for name, first := range map[string]string{
		"line by Submit":  "Go ahead",
		"line in its row": "Go ahead with all three steps and the rollback plan the team agreed on",
	} {
		t.Run(name, func(t *testing.T) { windowGrowsForTheWarningLine(t, first) })
	}
}

func windowGrowsForTheWarningLine(t *testing.T, first string) {
	a := test.NewTempApp(t)
	limit := fyne.NewSize(1600-2*ScreenMargin, 1000-2*ScreenMargin)
	q := question(wire.Prompt{Markdown: strings.Repeat("The migration touches three services. ", 6) + "\n\nShould I go ahead?",
		Options: []wire.Option{{Label: first, Default: true}, {Label: "Keep the old schema for a week"}, {Label: "Stop"}}})
	w := openAt(t, a, q, limit)
	v := w.View()
	h0, msg0 := w.Fyne().Canvas().Size().Height, v.panes.scroll.Size().Height
	if need := v.panes.scroll.Content.MinSize().Height; msg0+0.5 < need {
		t.Fatalf("at open the message pane is %v, it needs %v: the test's window is too small", msg0, need)
	}
	v.ToggleOption(2)
	if !v.sending.warn.Visible() {
		t.Fatal("no warning beside the recommended option")
	}
	h1, msg1 := w.Fyne().Canvas().Size().Height, v.panes.scroll.Size().Height
	if h1 <= h0 || msg1+0.5 < msg0 {
		t.Errorf("after the warning the window is %v high (was %v), the message pane %v (was %v): want the window grown, the message whole", h1, h0, msg1, msg0)
	}
}

// When the window cannot grow (it is as tall as the work area allows), the
// room for a warning line comes out of the options pane, not the message:
// the message pane keeps its height, and with it its last lines in view,
// while the options, which scroll, yield. A message pane shrunk by the
// line would put its last line, the ask, out of view.
func TestOptionsYieldBeforeTheMessage(t *testing.T) {
	a := test.NewTempApp(t)
	limit := maxWindowSize(a) // what refit may grow to
	var lines []string
	for i := 1; i <= 16; i++ {
		lines = append(lines, fmt.Sprintf("Step %d of the plan changes a service and its tests.", i))
	}
	lines = append(lines, "Should I go ahead?")
	q := question(wire.Prompt{Markdown: strings.Join(lines, "\n\n"),
		Options: []wire.Option{{Label: "Go ahead", Default: true}, {Label: "Keep the old schema for a week"}, {Label: "Stop"}}})
	w := openAt(t, a, q, limit)
	v := w.View()
	relayout(w.Fyne().Content())
	h0, msg0, opt0 := w.Fyne().Canvas().Size().Height, v.panes.scroll.Size().Height, v.panes.choices.Size().Height
	if h0+0.5 < limit.Height {
		t.Fatalf("the window is %v high, below the %v allowed: the test wants one that cannot grow", h0, limit.Height)
	}
	v.ToggleOption(2)
	if !v.sending.warn.Visible() {
		t.Fatal("no warning beside the recommended option")
	}
	relayout(w.Fyne().Content()) // a frame: the window lays its content out again
	if h := w.Fyne().Canvas().Size().Height; h > h0+0.5 {
		t.Fatalf("the window grew from %v to %v beyond what it may", h0, h)
	}
	msg1, opt1 := v.panes.scroll.Size().Height, v.panes.choices.Size().Height
	if msg1+0.5 < msg0 || opt1 >= opt0 {
		t.Errorf("after the warning the message pane is %v (was %v), the options %v (were %v): want the options to yield", msg1, msg0, opt1, opt0)
	}
}

// relayout lays o out again, and everything under it, as a frame of the
// driver does after a minimum size changed.
func relayout(o fyne.CanvasObject) {
	if c, ok := o.(*fyne.Container); ok {
		if c.Layout != nil {
			c.Layout.Layout(c.Objects, c.Size())
		}
		for _, ch := range c.Objects {
			relayout(ch)
		}
	}
}
