package dialogs

import (
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

type snoozed struct {
	minutes int
	back    bool
}

// The window offers Snooze beside the countdown's buttons when its owner
// takes snoozes: its menu (the button or Alt+Z) has 10 minutes, 1 hour and
// until I'm back, each handed to OnSnooze; the window itself stays for its
// owner to close, and does nothing once it has ended.
func TestSnoozeMenu(t *testing.T) {
	a := test.NewTempApp(t)
	var got []snoozed
	opts := Options{Now: (&clock{now: t0}).Now, OnSnooze: func(m int, b bool) { got = append(got, snoozed{m, b}) }}
	w := NewWindow(a, timed(600, wire.Prompt{Markdown: "Deploy the **staging** build now?"}), opts, func(wire.Answer) {})
	w.Fyne().Resize(fyne.NewSize(480, 300))
	w.Show()
	defer w.Close()
	v := w.view
	if v.snooze.btn == nil || v.snooze.btn.Text != "Snooze" {
		t.Fatal("no Snooze button")
	}
	test.Tap(v.snooze.btn)
	menu := v.snooze.menu.Menu
	test.AssertImageMatches(t, "question/snooze-menu.png", w.Fyne().Canvas().Capture())
	if n := len(menu.Items); n != 3 {
		t.Fatalf("%d entries", n)
	}
	test.Tap(menu.Items[1].(fyne.Tappable)) // "For 1 hour"
	if !v.shortcut(alt("Z")) {
		t.Error("Alt+Z not handled")
	}
	test.Tap(v.snooze.menu.Items[2].(fyne.Tappable))
	if want := []snoozed{{60, false}, {0, true}}; len(got) != 2 || got[0] != want[0] || got[1] != want[1] {
		t.Errorf("snoozed %v, want %v", got, want)
	}
	v.Tick(t0.Add(time.Hour)) // the countdown ends the window
	v.Snooze(10, false)
	if len(got) != 2 {
		t.Error("an ended window snoozed")
	}

	plain, _, _ := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{})
	if plain.snooze.btn != nil || plain.shortcut(alt("Z")) {
		t.Error("Snooze without an owner that takes it")
	}
}
