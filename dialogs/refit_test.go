package dialogs

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// Issue 30: ticking an option beside the recommended one adds a warning
// line; the window grows for it (within the work area) instead of
// squeezing the message, whose last line is the ask. Before the fix the
// window kept its height and the message pane shrank by the line.
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
