package ipc

import (
	"strings"
	"unicode/utf8"
)

// Summary is a one-line label for q, at most max runes: its Title, else the
// first line of its first prompt without Markdown block marks. Window titles
// and the tray menu use it.
func (q *Question) Summary(max int) string {
	t := strings.TrimSpace(q.Title)
	if t == "" && len(q.Prompts) > 0 {
		t = firstLine(q.Prompts[0].Markdown)
	}
	return shorten(t, max)
}

// firstLine is the first non-blank line of md, without heading, quote and list marks.
func firstLine(md string) string {
	for _, line := range strings.Split(md, "\n") {
		line = strings.TrimSpace(strings.TrimLeft(strings.TrimSpace(line), "#>*-+ "))
		if line != "" {
			return line
		}
	}
	return ""
}

// shorten cuts s to at most n runes, ending with "…" when cut.
func shorten(s string, n int) string {
	if n <= 0 || utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return strings.TrimSpace(string(r[:n-1])) + "…"
}
