package dialogs

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// Warm draws the sample question into a window of the pool without
// showing it and leaves it hidden and empty for the next question, which
// takes it; with a window open or hidden it makes none.
func TestWarmPreparesTheNextQuestionsWindow(t *testing.T) {
	a := test.NewTempApp(t)
	p := NewPool(a)
	var drawn fyne.Window
	warmNative = func(_ fyne.App, w fyne.Window) bool {
		drawn = w
		// what the native window would draw: the sample, laid out
		if _, ok := w.Content().(*canvas.Rectangle); ok || w.Content().Size().Width == 0 {
			t.Errorf("the window to warm holds %T of size %v, want the sample question laid out", w.Content(), w.Content().Size())
		}
		return true
	}
	t.Cleanup(func() { warmNative = func(fyne.App, fyne.Window) bool { return false } })

	if !p.Warm(SampleQuestion(), Options{}) {
		t.Fatal("Warm reported nothing warmed")
	}
	if made, idle, _ := p.Windows(); made != 1 || idle != 1 {
		t.Fatalf("after Warm: %d windows made, %d hidden; want 1 and 1", made, idle)
	}
	if drawn.Content() == nil {
		t.Fatal("no content left")
	}
	if _, ok := drawn.Content().(*canvas.Rectangle); !ok {
		t.Errorf("the warmed window keeps %T, want an empty rectangle: the sample's widgets let go", drawn.Content())
	}
	w := p.NewWindow(question(wire.Prompt{Markdown: "the real question"}), Options{}, func(wire.Answer) {})
	w.Show()
	if w.Fyne() != drawn {
		t.Error("the first question did not take the warmed window")
	}
	if made, idle, _ := p.Windows(); made != 1 || idle != 0 {
		t.Errorf("after the first question: %d windows made, %d hidden; want 1 and 0", made, idle)
	}
	drawn = nil
	if p.Warm(SampleQuestion(), Options{}) || drawn != nil {
		t.Error("Warm warmed a window with a question open")
	}
	w.Close()
	if p.Warm(SampleQuestion(), Options{}) || drawn != nil {
		t.Error("Warm warmed a window with one hidden, ready")
	}
	if made, _, _ := p.Windows(); made != 1 {
		t.Errorf("%d windows made, want 1", made)
	}
}

// The sample question holds what a question window draws with: Markdown
// of every text style, options with a recommended one and a free-text
// one, a reply box and a countdown.
func TestSampleQuestionIsValid(t *testing.T) {
	q := SampleQuestion()
	if err := q.Validate(); err != nil {
		t.Fatalf("the sample question is not valid: %v", err)
	}
	if q.TimeoutSeconds == 0 || len(q.Prompts) < 2 || len(q.Prompts[0].Options) < 2 {
		t.Errorf("sample = %+v, want a countdown, options and a reply box", q)
	}
}
