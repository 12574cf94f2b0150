package wire

import (
	"regexp"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Summary is a one-line label for q, at most max runes: its Title, else the
// first line of its first prompt without Markdown block marks. Window titles
// and the tray menu use it.
func (q *Question) Summary(max int) string {
	if t := strings.TrimSpace(q.Title); t != "" || len(q.Prompts) == 0 {
		return shorten(plain(t), max)
	}
	return q.Prompts[0].Summary(max)
}

// Summary is the first line of p's Markdown without block marks, at most
// max runes, or "" when the Markdown is blank.
func (p *Prompt) Summary(max int) string {
	return shorten(plain(firstLine(p.Markdown)), max)
}

// inlineLink is a Markdown link or image: [text](target).
var inlineLink = regexp.MustCompile(`!?\[([^\]]*)\]\([^)]*\)`)

// plain is s without Markdown's inline marks: emphasis, code spans,
// strikethrough, heading marks and link targets (a link keeps its text).
// Window titles and tray labels are plain text.
func plain(s string) string {
	s = inlineLink.ReplaceAllString(s, "$1")
	s = strings.NewReplacer("**", "", "~~", "", "`", "").Replace(s)
	s = strings.TrimLeft(s, "# ")
	// A single * or a run of _ (one or two: emphasis, strong) at the edge
	// of a word is emphasis. Inside a word (snake_case, 2*3, an MCP tool's
	// name mcp__feedback__ask_choice) it stays.
	var b strings.Builder
	r := []rune(s)
	for i := 0; i < len(r); {
		c := r[i]
		if c != '*' && c != '_' {
			b.WriteRune(c)
			i++
			continue
		}
		j := i
		for j < len(r) && r[j] == c {
			j++
		}
		before := i > 0 && isWordRune(r[i-1])
		after := j < len(r) && isWordRune(r[j])
		if before == after {
			b.WriteString(string(r[i:j]))
		}
		i = j
	}
	return strings.Join(strings.Fields(b.String()), " ")
}

func isWordRune(c rune) bool { return unicode.IsLetter(c) || unicode.IsDigit(c) }

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

// RecommendedYesNo is the answer the caller recommends for a yes/no
// question ("yes", "no"), read from its "Recommended" context line
// (ask_confirm's default), or "" when it recommends none.
func (q *Question) RecommendedYesNo() string {
	for _, f := range q.Context {
		if strings.EqualFold(f.Label, "Recommended") {
			switch strings.ToLower(strings.TrimSpace(f.Value)) {
			case "yes":
				return "yes"
			case "no":
				return "no"
			}
		}
	}
	return ""
}
