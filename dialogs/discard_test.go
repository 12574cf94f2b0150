package dialogs

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"feedback/dialogs/internal/modal"
	"feedback/ipc/wire"
)

// "Discard your reply?": Keep editing is primary and focused; Enter and
// Escape keep the reply; only Discard dismisses.
func TestDiscardDialogKeepsByDefault(t *testing.T) {
	a := test.NewTempApp(t)
	r := &recorder{}
	w := NewWindow(a, question(wire.Prompt{Markdown: "?"}), Options{Now: (&clock{now: t0}).Now}, r.done)
	w.Show()
	defer w.Close()
	test.Type(w.View().prompts[0].entry, "draft")
	c := w.Fyne().Canvas()
	for i, k := range []fyne.KeyName{fyne.KeyReturn, fyne.KeyEscape} {
		w.View().RequestDismiss()
		keep, ok := c.Focused().(*modal.Button)
		if !ok || keep.Text != "Keep editing" || keep.Importance != widget.HighImportance {
			t.Fatalf("focused %T, want the primary Keep editing button", c.Focused())
		}
		if i == 0 {
			test.AssertImageMatches(t, "question/discard.png", c.Capture())
		}
		keep.TypedKey(&fyne.KeyEvent{Name: k})
		if c.Overlays().Top() != nil {
			t.Errorf("%s: the dialog is still open", k)
		}
		if len(r.answers) != 0 {
			t.Fatalf("%s dismissed the question: %+v", k, r.answers)
		}
	}
	w.View().RequestDismiss()
	for _, b := range findDeep[*modal.Button](c.Overlays().Top()) {
		if b.Text == "Discard" {
			test.Tap(b)
		}
	}
	if a := r.only(t); a.Status != wire.StatusDismissed {
		t.Errorf("Discard: status %s, want dismissed", a.Status)
	}
}

// findDeep is findAll that looks inside widgets' renderers too.
func findDeep[T fyne.CanvasObject](o fyne.CanvasObject) []T {
	var out []T
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if t, ok := o.(T); ok {
			out = append(out, t)
			return
		}
		switch c := o.(type) {
		case *fyne.Container:
			for _, ch := range c.Objects {
				walk(ch)
			}
		case fyne.Widget:
			for _, ch := range test.WidgetRenderer(c).Objects() {
				walk(ch)
			}
		}
	}
	walk(o)
	return out
}
