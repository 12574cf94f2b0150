package ipc

import (
	"strings"
	"unicode/utf8"
)

// Summary is a one-line label for q, at most max runes: its Title, else the
// first line of its first prompt without Markdown block marks. Window titles
// and the tray menu use it.
func (q *Question) Summary(max int) string {
	if t := strings.TrimSpace(q.Title); t != "" || len(q.Prompts) == 0 {
		return shorten(t, max)
	}
	return q.Prompts[0].Summary(max)
}

// Summary is the first line of p's Markdown without block marks, at most
// max runes, or "" when the Markdown is blank.
func (p *Prompt) Summary(max int) string {
	return shorten(firstLine(p.Markdown), max)
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
