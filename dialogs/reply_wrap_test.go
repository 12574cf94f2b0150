package dialogs

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// TestReplyBoxStopsWrappingALongLine: a reply holding a 10,000-character
// token is laid out without wrapping (linear: Fyne's word and character
// wrapping measure the rest of the line for every row, a second of shaping
// per key press at this length), whether it was pasted, typed or restored;
// short lines wrap again.
func TestReplyBoxStopsWrappingALongLine(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "Paste the log line"}), Options{})
	e := v.prompts[0].entry
	w := test.NewTempWindow(t, v.Content())
	w.Resize(fyne.NewSize(560, 500))
	token := strings.Repeat("x", 10000)

	if e.Wrapping != fyne.TextWrapWord {
		t.Fatalf("an empty reply box does not wrap words")
	}
	cb := test.NewClipboard()
	cb.SetContent(token)
	e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: cb})
	if e.Text != token {
		t.Fatalf("the paste did not land (%d characters)", len(e.Text))
	}
	if e.Wrapping != fyne.TextWrapOff {
		t.Error("a 10,000-character line is wrapped")
	}
	test.Type(e, "abc")
	if e.Wrapping != fyne.TextWrapOff || !strings.HasSuffix(e.Text, "abc") {
		t.Error("typing after the token wraps it again, or was lost")
	}
	if min := w.Content().MinSize().Width; min > 520 {
		t.Errorf("the window needs %v px for the unwrapped line; it must scroll instead", min)
	}

	e.SetText("short again")
	test.Type(e, "!")
	if e.Wrapping != fyne.TextWrapWord {
		t.Error("a short reply does not wrap words again")
	}
	e.SetText(strings.Repeat("word ", 100) + "\n" + strings.Repeat("y", longLineRunes+1))
	if e.Wrapping != fyne.TextWrapOff {
		t.Error("a restored draft with a long line is wrapped")
	}
	v.Submit()
	if got := r.only(t).Replies[0].Text; got != e.Text {
		t.Error("the reply sent differs from the box")
	}
}

func TestLongestLine(t *testing.T) {
	for s, want := range map[string]int{"": 0, "abc": 3, "ab\nabcd\n": 4, "中文\n": 2, "\n\n": 0} {
		if got := longestLine(s); got != want {
			t.Errorf("longestLine(%q) = %d, want %d", s, got, want)
		}
	}
}
