package dialogs

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// BenchmarkReplyKeyAfterToken is one key typed into a reply box that holds
// a 10,000-character token.
func BenchmarkReplyKeyAfterToken(b *testing.B) {
	test.NewTempApp(b)
	v := NewView(question(wire.Prompt{Markdown: "Paste it"}), Options{}, func(wire.Answer) {})
	w := test.NewTempWindow(b, v.Content())
	w.Resize(fyne.NewSize(560, 500))
	e := v.prompts[0].entry
	e.SetText(strings.Repeat("x", 10000))
	w.Canvas().Focus(e)
	for b.Loop() {
		e.TypedRune('a')
	}
}
