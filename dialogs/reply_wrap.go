package dialogs

import (
	"fyne.io/fyne/v2"
)

// The reply box wraps words, except while it holds a line longer than
// longLineRunes (a pasted token, a log line): then it scrolls sideways.
//
// Fyne's Entry wraps with the same per-row measurement of the rest of the
// line as RichText (see markdown_flow.go): for one 10,000-character line
// every key press cost about a second of shaping, all of it on the Fyne
// goroutine. Without wrapping a key press measures the line once: linear,
// ~16 ms of CPU for 10,000 characters here. The switch happens before the
// text changes, so the expensive layout is never done even once.
const longLineRunes = 1000

// longestLine returns the length in characters of the longest line of s.
func longestLine(s string) int {
	longest, n := 0, 0
	for _, r := range s {
		if r == '\n' {
			n = 0
			continue
		}
		n++
		longest = max(longest, n)
	}
	return longest
}

// fitWrapping sets the wrapping for text whose longest line is longest
// characters long.
func (e *replyEntry) fitWrapping(longest int) {
	want := fyne.TextWrapWord
	if longest > longLineRunes {
		want = fyne.TextWrapOff
	}
	if e.Wrapping != want {
		e.Wrapping = want
		e.Refresh()
	}
}

// TypedRune fits the wrapping to the text as it will be, then types r.
func (e *replyEntry) TypedRune(r rune) {
	e.keys.wrote() // the input guard: the user is at work in this window
	e.fitWrapping(longestLine(e.Text) + 1)
	e.Entry.TypedRune(r)
}

// SetText fits the wrapping to s, then sets it.
func (e *replyEntry) SetText(s string) {
	e.fitWrapping(longestLine(s))
	e.Entry.SetText(s)
}

// fitPaste fits the wrapping to the text as it may be after the paste s:
// the pasted text may join the longest line.
func (e *replyEntry) fitPaste(s fyne.Shortcut) {
	if p, ok := s.(*fyne.ShortcutPaste); ok && p.Clipboard != nil {
		e.fitWrapping(longestLine(e.Text) + longestLine(p.Clipboard.Content()))
	}
}
