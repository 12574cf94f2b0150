package dialogs

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// Attach… opens the file picker over most of the window (Fyne 2.8.1's
// FileDialog dereferences nil when it is resized before it is shown).
func TestAttachOpensThePicker(t *testing.T) {
	a := test.NewTempApp(t)
	w := openAt(t, a, question(wire.Prompt{Markdown: "Which image?"}), fyne.NewSize(800, 600))
	w.pickImages()
	top := w.Fyne().Canvas().Overlays().Top()
	if top == nil {
		t.Fatal("no file picker over the window")
	}
	c := w.Fyne().Canvas().Size()
	if s := top.Size(); s.Width < c.Width*0.9 || s.Height < c.Height*0.85 {
		t.Errorf("the picker is %v in a window of %v: want about 95%% by 90%%", s, c)
	}
}
