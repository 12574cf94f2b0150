package dialogs

import (
	"reflect"
	"testing"

	"fyne.io/fyne/v2/test"

	"feedback/dialogs/internal/modal"
	"feedback/ipc/wire"
)

// Ticks are work, as text is: Escape in a window where options were ticked,
// or a recommended one unticked, asks before it discards them (the
// countdown already holds for them); a window where nothing changed
// closes at once. The confirmation is the one a typed reply gets.
func TestEscapeAsksBeforeDiscardingTicks(t *testing.T) {
	opts := []wire.Option{{Label: "Auth", Default: true}, {Label: "Search"}, {Label: "Billing"}}
	for _, tc := range []struct {
		name   string
		toggle []int
		asks   bool
	}{
		{"nothing changed", nil, false},
		{"ticked", []int{2}, true},
		{"a recommendation unticked", []int{1}, true},
		{"ticked and unticked again", []int{2, 2}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			r := &recorder{}
			w := NewWindow(a, question(wire.Prompt{Kind: wire.KindChoice, Markdown: "Which features ship first?", Options: opts}),
				Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, r.done)
			w.Show()
			defer w.Close()
			for _, n := range tc.toggle {
				w.View().ToggleOption(n)
			}
			w.View().RequestDismiss() // what Escape and the close button do
			c := w.Fyne().Canvas()
			if !tc.asks {
				if a := r.only(t); a.Status != wire.StatusDismissed {
					t.Errorf("status %s", a.Status)
				}
				return
			}
			if c.Overlays().Top() == nil || len(r.answers) != 0 {
				t.Fatalf("dismissed without asking: %+v", r.answers)
			}
			if tc.name == "ticked" {
				test.AssertImageMatches(t, "question/discard-ticks.png", c.Capture())
			}
			for _, b := range findDeep[*modal.Button](c.Overlays().Top()) {
				if b.Text == "Discard" {
					test.Tap(b)
				}
			}
			if a := r.only(t); a.Status != wire.StatusDismissed {
				t.Errorf("Discard: status %s", a.Status)
			}
		})
	}
}

// The draft that is saved (and restored after a crash) holds the ticks:
// ticking reports it, a view restored from it has them, and Escape there
// asks too.
func TestTicksAreADraft(t *testing.T) {
	q := question(wire.Prompt{Kind: wire.KindChoice, Markdown: "Which?", Options: []wire.Option{{Label: "A", Default: true}, {Label: "B"}, {Label: "C"}}})
	v, _, d := newDraftView(t, q, Options{})
	v.ToggleOption(1)
	v.ToggleOption(3)
	d.fire()
	if len(d.got) != 1 || !reflect.DeepEqual(d.got[0].Replies[0].Selected, []string{"C"}) {
		t.Fatalf("drafts reported: %+v", d.got)
	}
	back, r, _ := newDraftView(t, q, Options{})
	back.RestoreDraft(d.got[0])
	if got := back.collect().Replies[0].Selected; !reflect.DeepEqual(got, []string{"C"}) {
		t.Errorf("restored ticks %v", got)
	}
	asked := false
	back.hooks.confirm = func(_, _ string, _ func()) { asked = true }
	back.RequestDismiss()
	if !asked || len(r.answers) != 0 {
		t.Errorf("Escape on restored ticks: asked %v, answers %+v", asked, r.answers)
	}
}
