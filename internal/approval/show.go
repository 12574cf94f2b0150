package approval

import (
	"bytes"
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/pmezard/go-difflib/difflib"

	"feedback/internal/i18n"
)

// What the window shows of a call: every field literally, in code blocks
// or code spans. Nothing is dropped or cut; what a reader could not see is
// replaced by a marker that says what is there:
//
//   - a run of markRun or more blank lines: one line "[… 120 blank lines …]";
//   - a run of markRun or more spaces or tabs inside a line or at its end,
//     or of more than maxIndent at its start: "[… 300 spaces …]";
//   - an invisible or control character (a carriage return, a zero-width
//     space, a bidirectional override…): "[… U+202E …]".
//
// Every marker begins with markerOpen, and dialogs/markdown draws each
// marker of a code block on a band of its own, in the accent colour, and a
// wrapped line's continuation with a bar beside the text: the agent cannot
// forge either. Its text sits in a code block whose fence it cannot close,
// its own "[…" is shown with the "…" marked, and when the text imitates
// the window's marks (imitatesMark), the window says so below the call
// and offers no rule.
const (
	markerOpen = "[…"
	markRun    = 8  // spaces or tabs in a row, inside or at the end of a line
	maxIndent  = 24 // spaces or tabs a line may begin with, shown as they are
	markBlank  = 3  // blank lines in a row
	diffLines  = 3  // lines of context around a change
)

// shower writes the literal blocks of one window.
type shower struct {
	l *i18n.Localizer
	// preview, when > 0, cuts each text to that many bytes (a call too
	// big to be shown whole).
	preview int
	// forged: a text shown holds markerOpen.
	forged bool
	// looks are the lookalikes shown, hosts the addresses' hosts that
	// are not ASCII with their punycode (lookalike.go).
	looks []lookalike
	hosts [][2]string
}

// describe writes the Markdown that shows r and returns the window's title.
func describe(b *strings.Builder, s *shower, r Request) string {
	l := s.l
	who := r.Client
	if who == "" {
		who = l.T("approval.the_agent")
	}
	who = "**" + escape(who) + "**"
	var title string
	var known []string
	switch r.Tool {
	case "Bash":
		b.WriteString(l.T("approval.bash", map[string]any{"Who": who}) + "\n\n")
		s.fence(b, "sh", r.str("command"))
		if d := r.str("description"); d != "" {
			b.WriteString("\n" + l.T("approval.bash.description") + "\n\n")
			s.fence(b, "", d)
		}
		title, known = l.T("approval.title.bash"), []string{"command", "description"}
	case "Edit", "MultiEdit":
		path := r.rel(r.str("file_path"))
		b.WriteString(l.T("approval.edit", map[string]any{"Who": who}) + "\n\n")
		s.field(b, path)
		s.showLink(b, r, r.str("file_path"))
		edits := []map[string]any{r.Input}
		known = []string{"file_path", "old_string", "new_string", "replace_all"}
		if r.Tool == "MultiEdit" {
			edits, known = nil, []string{"file_path", "edits"}
			list, _ := r.Input["edits"].([]any)
			for _, e := range list {
				m, ok := e.(map[string]any)
				if !ok { // shown with the other fields
					known = []string{"file_path"}
					continue
				}
				edits = append(edits, m)
			}
		}
		for i, e := range edits {
			b.WriteString("\n")
			if len(edits) > 1 {
				b.WriteString(l.T("approval.edit.number", map[string]any{"N": i + 1, "Of": len(edits)}) + "\n\n")
			}
			old, _ := e["old_string"].(string)
			nu, _ := e["new_string"].(string)
			if all, _ := e["replace_all"].(bool); all {
				b.WriteString(l.T("approval.edit.replace_all") + "\n\n")
			}
			s.diff(b, old, nu)
			if r.Tool == "MultiEdit" {
				s.extras(b, e, "old_string", "new_string", "replace_all")
			}
		}
		title = l.T("approval.title.edit", map[string]any{"File": filepath.Base(path)})
	case "Write":
		path := r.rel(r.str("file_path"))
		b.WriteString(l.T("approval.write", map[string]any{"Who": who}) + "\n\n")
		s.field(b, path)
		s.showLink(b, r, r.str("file_path"))
		b.WriteString("\n")
		s.fence(b, "", r.str("content"))
		title, known = l.T("approval.title.write", map[string]any{"File": filepath.Base(path)}), []string{"file_path", "content"}
	case "WebFetch":
		b.WriteString(l.T("approval.fetch", map[string]any{"Who": who}) + "\n\n")
		s.field(b, r.str("url"))
		if p := r.str("prompt"); p != "" {
			b.WriteString("\n" + l.T("approval.fetch.prompt") + "\n\n")
			s.fence(b, "", p)
		}
		title, known = l.T("approval.title.fetch"), []string{"url", "prompt"}
	default:
		b.WriteString(l.T("approval.tool", map[string]any{"Who": who}) + "\n\n")
		s.field(b, r.Tool)
		b.WriteString("\n")
		s.fence(b, "json", jsonText(r.Input))
		return l.T("approval.title.tool", map[string]any{"Tool": oneLine(r.Tool)})
	}
	s.extras(b, r.Input, known...)
	return oneLine(title)
}

// extras shows the fields of in that are not among known, as JSON: a
// field the window does not describe is still shown.
func (s *shower) extras(b *strings.Builder, in map[string]any, known ...string) {
	rest := map[string]any{}
	for k, v := range in {
		if slices.Contains(known, k) {
			switch v.(type) {
			case string, bool, []any: // shown above (edits: each one a map, checked there)
				continue
			}
		}
		rest[k] = v
	}
	if len(rest) == 0 {
		return
	}
	b.WriteString("\n" + s.l.T("approval.other_fields") + "\n\n")
	s.fence(b, "json", jsonText(rest))
}

// jsonText is v as indented JSON, with <, > and & as they are.
func jsonText(v any) string {
	var buf bytes.Buffer
	e := json.NewEncoder(&buf)
	e.SetEscapeHTML(false)
	e.SetIndent("", "  ")
	if err := e.Encode(v); err != nil {
		return "{}"
	}
	return strings.TrimSuffix(buf.String(), "\n")
}

// field writes a one-line value (a path, a URL, a tool's name): as a code
// span when it reads unambiguously there, else as a code block with its
// markers.
func (s *shower) field(b *strings.Builder, v string) {
	if plain(v) && s.preview == 0 && !hasLookalike(v) && !imitatesMark(v) {
		s.sawHosts(v)
		b.WriteString("`" + v + "`\n")
		return
	}
	s.fence(b, "", v)
}

// plain reports whether v shows exactly as a code span: printable, no
// backtick, no leading, trailing or doubled space, not too long.
func plain(v string) bool {
	if v == "" || len(v) > 300 || strings.Contains(v, "`") || strings.Contains(v, "  ") ||
		strings.TrimSpace(v) != v || strings.Contains(v, markerOpen) {
		return false
	}
	for _, r := range v {
		if r != ' ' && (!unicode.IsGraphic(r) || invisible(r) || unicode.IsSpace(r)) {
			return false
		}
	}
	return true
}

// fence writes text as a fenced code block, its fence longer than any run
// of backticks in it, each line made visible.
func (s *shower) fence(b *strings.Builder, lang, text string) {
	lines := s.cut(text)
	s.block(b, lang, lines, func(string) string { return "" })
}

// cut splits text into lines (without a last empty one), cut to
// s.preview bytes when set.
func (s *shower) cut(text string) []string {
	more := 0
	if s.preview > 0 && len(text) > s.preview {
		more = len(text) - s.preview
		text = cutUTF8(text, s.preview)
	}
	ls := splitLines(text)
	for i, l := range ls {
		ls[i] = s.show(l)
	}
	if more > 0 {
		ls = append(ls, markerOpen+" "+s.l.N("approval.marker.cut", more)+" …]")
	}
	return ls
}

// show is one line of the agent's text made visible (visible), its
// imitated marks and addresses noted for below the call.
func (s *shower) show(line string) string {
	if imitatesMark(line) {
		s.forged = true
	}
	s.sawHosts(line)
	return s.visible(line)
}

// block writes lines, made visible (show) with the window's own markers
// added, as a fenced code block of lang: runs of blank lines (after a
// diff's prefix) collapsed.
func (s *shower) block(b *strings.Builder, lang string, lines []string, prefix func(string) string) {
	ticks := "```"
	for _, l := range lines {
		for strings.Contains(l, ticks) {
			ticks += "`"
		}
	}
	b.WriteString(ticks + lang + "\n")
	for i := 0; i < len(lines); {
		l := lines[i]
		p, body := prefix(l), l[len(prefix(l)):]
		if strings.TrimLeft(body, " \t") == "" {
			n := 1
			for i+n < len(lines) && prefix(lines[i+n]) == p && strings.TrimLeft(lines[i+n][len(p):], " \t") == "" {
				n++
			}
			if n >= markBlank {
				b.WriteString(p + markerOpen + " " + s.l.N("approval.marker.blank_lines", n) + " …]\n")
				i += n
				continue
			}
		}
		b.WriteString(l + "\n")
		i++
	}
	b.WriteString(ticks + "\n")
}

// splitLines splits s into lines, without a last empty one.
func splitLines(s string) []string {
	if s == "" {
		return []string{""}
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// visible is one line with its hidden parts replaced by markers.
func (s *shower) visible(line string) string {
	var b strings.Builder
	rs := []rune(line)
	looks := findLookalikes(rs)
	for i := 0; i < len(rs); {
		r := rs[i]
		if lk, ok := looks[i]; ok {
			s.saw(lk)
			b.WriteString(s.lookalikeMarker(lk))
			i++
			continue
		}
		if r == ' ' || r == '\t' {
			j := i
			for j < len(rs) && (rs[j] == ' ' || rs[j] == '\t') {
				j++
			}
			n := j - i
			// A run at the end of a line is always marked, however short: a
			// space after a backslash ("\\ ") is no line continuation.
			if (i == 0 && n > maxIndent && j < len(rs)) || (i > 0 && j == len(rs)) || (i > 0 && n >= markRun) {
				b.WriteString(s.whitespace(rs[i:j]))
			} else {
				b.WriteString(string(rs[i:j]))
			}
			i = j
			continue
		}
		// An invisible character, or the agent's own "[…": every "[…"
		// the window shows is its marker (dialogs/markdown draws it on a
		// band of its own).
		if invisible(r) || r == '…' && i > 0 && rs[i-1] == '[' {
			fmt.Fprintf(&b, "%s U+%04X …]", markerOpen, r)
		} else {
			b.WriteRune(r)
		}
		i++
	}
	return b.String()
}

// whitespace is the marker of a run of spaces and tabs.
func (s *shower) whitespace(run []rune) string {
	spaces, tabs := 0, 0
	for _, r := range run {
		if r == ' ' {
			spaces++
		} else {
			tabs++
		}
	}
	var what string
	switch {
	case tabs == 0:
		what = s.l.N("approval.marker.spaces", spaces)
	case spaces == 0:
		what = s.l.N("approval.marker.tabs", tabs)
	default:
		what = s.l.T("approval.marker.spaces_tabs", map[string]any{"Spaces": spaces, "Tabs": tabs})
	}
	return markerOpen + " " + what + " …]"
}

// invisible reports a character a reader cannot see or that changes how
// the text around it reads: controls (a carriage return, an escape),
// format characters (zero-width spaces and joiners, bidirectional
// overrides and isolates, a byte order mark), and spaces other than the
// plain one and the tab (no-break, ideographic, …).
func invisible(r rune) bool {
	switch {
	case r == '\t' || r == '\n':
		return false
	case r == utf8.RuneError:
		return true
	case unicode.IsControl(r), unicode.Is(unicode.Cf, r), unicode.Is(unicode.Zl, r), unicode.Is(unicode.Zp, r):
		return true
	case r != ' ' && unicode.Is(unicode.Zs, r):
		return true
	case unicode.Is(unicode.Mn, r) && (r >= 0xFE00 && r <= 0xFE0F || r >= 0xE0100 && r <= 0xE01EF): // variation selectors
		return true
	case r >= 0xE0000 && r <= 0xE007F: // tags
		return true
	case unicode.Is(unicode.Other_Default_Ignorable_Code_Point, r), unicode.Is(unicode.Variation_Selector, r):
		// drawn as nothing: the combining grapheme joiner, the Hangul
		// fillers (U+3164, a letter Python and JavaScript take in a
		// name), Khmer's inherent vowels, Mongolian's variation selectors,
		// and the code points kept ignorable for the future
		return true
	case r == 0x2800: // Braille's blank pattern: a symbol drawn as a space
		return true
	case !unicode.IsGraphic(r): // unassigned, private use, surrogates
		return true
	}
	return false
}

// diff writes the change from old to nu as a minimal unified diff with
// diffLines of context (github.com/pmezard/go-difflib), each hunk after
// the first introduced by "@@".
func (s *shower) diff(b *strings.Builder, old, nu string) {
	if s.preview > 0 {
		s.fence(b, "", old)
		s.fence(b, "", nu)
		return
	}
	a, c := lines(old), lines(nu)
	for i, l := range a {
		a[i] = s.show(l)
	}
	for i, l := range c {
		c[i] = s.show(l)
	}
	// lines drops a last line's newline: where only one side ends with
	// one, the other's last line says it has none, or the diff would
	// hide a change that joins two lines.
	if oldNL, nuNL := strings.HasSuffix(old, "\n"), strings.HasSuffix(nu, "\n"); oldNL != nuNL {
		noNL := " " + markerOpen + " " + s.l.T("approval.marker.no_newline") + " …]"
		if !oldNL && len(a) > 0 {
			a[len(a)-1] += noNL
		}
		if !nuNL && len(c) > 0 {
			c[len(c)-1] += noNL
		}
	}
	var out []string
	if len(a) == 0 || len(c) == 0 {
		for _, l := range a {
			out = append(out, "-"+l)
		}
		for _, l := range c {
			out = append(out, "+"+l)
		}
	} else {
		m := difflib.NewMatcherWithJunk(a, c, false, nil)
		for g, group := range m.GetGroupedOpCodes(diffLines) {
			if g > 0 {
				out = append(out, "@@")
			}
			for _, op := range group {
				if op.Tag == 'e' {
					for _, l := range a[op.I1:op.I2] {
						out = append(out, " "+l)
					}
					continue
				}
				if op.Tag == 'r' || op.Tag == 'd' {
					for _, l := range a[op.I1:op.I2] {
						out = append(out, "-"+l)
					}
				}
				if op.Tag == 'r' || op.Tag == 'i' {
					for _, l := range c[op.J1:op.J2] {
						out = append(out, "+"+l)
					}
				}
			}
		}
	}
	if len(out) == 0 {
		out = []string{" " + s.l.T("approval.edit.no_change")}
	}
	s.block(b, "diff", out, func(l string) string {
		if l == "@@" {
			return l
		}
		return l[:1]
	})
}

// lines splits s into lines, without a last empty one; none for "".
func lines(s string) []string {
	if s == "" {
		return nil
	}
	return strings.Split(strings.TrimSuffix(s, "\n"), "\n")
}

// escape keeps Markdown in s from being read as Markdown, on one line.
func escape(s string) string {
	r := strings.NewReplacer(`\`, `\\`, "*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "<", `\<`, ">", `\>`, "#", `\#`, "|", `\|`, "~", `\~`, "!", `\!`, "&", `\&`)
	return r.Replace(oneLine(s))
}

// oneLine is s on one line, its invisible characters dropped: for a
// title and a client's name, never for what the decision depends on.
func oneLine(s string) string {
	return strings.Join(strings.FieldsFunc(s, func(r rune) bool { return unicode.IsSpace(r) || invisible(r) }), " ")
}

func cutUTF8(s string, max int) string {
	s = s[:max]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}
