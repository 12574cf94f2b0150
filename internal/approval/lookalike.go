package approval

import (
	"fmt"
	"regexp"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/mtibben/confusables"
	"golang.org/x/net/idna"
	"golang.org/x/text/unicode/runenames"
)

// Lookalikes, after Unicode's UTS #39: a character that reads as another
// one is marked where it stands ("[… і U+0456 Cyrillic, looks like i …]")
// and named under the call, and no rule is offered for a call holding
// one (a rule would name what the window showed as something else). What
// is marked:
//
//   - in a word (letters, marks and digits in a row) of more than one
//     script, the letters of the scripts other than Latin (Latin may mix
//     with Han, Kana, Bopomofo and Hangul, as UTS #39 allows): "gіthub";
//   - a word of one script other than Latin whose every letter looks like
//     an ASCII one (a whole-script confusable): Cyrillic "аррӏе";
//   - a character other than ASCII that looks like an ASCII one (its
//     UTS #39 skeleton is ASCII) in a run of non-blank characters that
//     holds ASCII letters or digits: a fullwidth "ｇ", a division slash
//     "∕" in an address.
//
// An address's host that is not ASCII is also named as a browser shows
// it: in punycode (golang.org/x/net/idna).

// lookalike is one marked character and what it looks like ("" when it
// looks like no ASCII character, only out of place).
type lookalike struct {
	r      rune
	script string
	like   string
}

// scriptOf is the script of r's Unicode Script property ("Common" for
// punctuation and symbols).
func scriptOf(r rune) string {
	if r < utf8.RuneSelf {
		if unicode.IsLetter(r) {
			return "Latin"
		}
		return "Common"
	}
	for name, t := range unicode.Scripts {
		if unicode.Is(t, r) {
			return name
		}
	}
	return "Unknown"
}

// scriptGroup is the group of scripts a word may mix: Latin with the
// scripts written beside it in Chinese, Japanese and Korean.
func scriptGroup(script string) string {
	switch script {
	case "Latin", "Han", "Hiragana", "Katakana", "Bopomofo", "Hangul":
		return "Latin"
	}
	return script
}

// asciiLike is what r looks like in ASCII (its skeleton), or "" when it
// is ASCII itself or looks like nothing in ASCII.
func asciiLike(r rune) string {
	if r < utf8.RuneSelf {
		return ""
	}
	sk := confusables.Skeleton(string(r))
	if sk == "" || sk == string(r) {
		return ""
	}
	for i := 0; i < len(sk); i++ {
		if sk[i] < 0x21 || sk[i] > 0x7E {
			return ""
		}
	}
	return sk
}

// findLookalikes returns, for the runes of line, which are lookalikes
// (nil when none).
func findLookalikes(line []rune) map[int]lookalike {
	var out map[int]lookalike
	mark := func(i int) {
		if out == nil {
			out = map[int]lookalike{}
		}
		out[i] = lookalike{r: line[i], script: scriptOf(line[i]), like: asciiLike(line[i])}
	}
	inWord := func(r rune) bool { return unicode.IsLetter(r) || unicode.IsMark(r) || unicode.IsDigit(r) }
	for i := 0; i < len(line); {
		if !inWord(line[i]) {
			i++
			continue
		}
		j := i
		groups := map[string]int{}
		for j < len(line) && inWord(line[j]) {
			if unicode.IsLetter(line[j]) {
				if g := scriptGroup(scriptOf(line[j])); g != "Common" && g != "Inherited" {
					groups[g]++
				}
			}
			j++
		}
		switch {
		case len(groups) > 1:
			keep := "Latin"
			if groups[keep] == 0 {
				for g, n := range groups {
					if n > groups[keep] || n == groups[keep] && g < keep {
						keep = g
					}
				}
			}
			for k := i; k < j; k++ {
				if unicode.IsLetter(line[k]) {
					if g := scriptGroup(scriptOf(line[k])); g != keep && g != "Common" && g != "Inherited" {
						mark(k)
					}
				}
			}
		case len(groups) == 1 && groups["Latin"] == 0:
			all := true
			for k := i; k < j && all; k++ {
				all = !unicode.IsLetter(line[k]) || asciiLike(line[k]) != ""
			}
			if all {
				for k := i; k < j; k++ {
					if unicode.IsLetter(line[k]) {
						mark(k)
					}
				}
			}
		}
		i = j
	}
	// Characters that look like ASCII beside ASCII letters or digits.
	for i := 0; i < len(line); {
		if unicode.IsSpace(line[i]) {
			i++
			continue
		}
		j, ascii := i, false
		for j < len(line) && !unicode.IsSpace(line[j]) {
			r := line[j]
			ascii = ascii || r < utf8.RuneSelf && (unicode.IsLetter(r) || unicode.IsDigit(r))
			j++
		}
		if ascii {
			for k := i; k < j; k++ {
				// The ellipsis is the window's own marker (markerOpen), flagged
				// on its own; as "..." it misleads no one.
				if _, done := out[k]; !done && asciiLike(line[k]) != "" && !invisible(line[k]) && line[k] != '…' {
					mark(k)
				}
			}
		}
		i = j
	}
	return out
}

// hasLookalike reports whether s holds a lookalike.
func hasLookalike(s string) bool {
	for _, line := range strings.Split(s, "\n") {
		if findLookalikes([]rune(line)) != nil {
			return true
		}
	}
	return false
}

// callHasLookalike reports whether any text of r (its tool's name, each
// string of its input, each key) holds a lookalike.
func callHasLookalike(r Request) bool { return anyText(r, hasLookalike) }

// anyText reports whether f holds for any text of r: its tool's name, a
// string of its input or a key.
func anyText(r Request, f func(string) bool) bool {
	var walk func(v any) bool
	walk = func(v any) bool {
		switch v := v.(type) {
		case string:
			return f(v)
		case []any:
			return slices.ContainsFunc(v, walk)
		case map[string]any:
			for k, e := range v {
				if f(k) || walk(e) {
					return true
				}
			}
		}
		return false
	}
	return f(r.Tool) || walk(map[string]any(r.Input))
}

// markLike are characters drawn like the mark of a wrapped line's
// continuation in other programs (and in this window before it drew a
// bar): at a line's start they make it read as part of the line above.
const markLike = "↪↩↳↲⤷⤶⮑⮐↵⏎➥➦↬⤿⤾↴⤵"

// imitatesMark reports whether s holds text that reads as one of the
// window's marks: a continuation arrow, or a marker's opening ("[…",
// "[...", "［…").
func imitatesMark(s string) bool {
	if strings.ContainsAny(s, markLike) {
		return true
	}
	for _, open := range []string{"[", "［", "⟦", "【"} {
		for _, dots := range []string{"…", "...", "⋯", "‥", "．．．", "。。。"} {
			if strings.Contains(s, open+dots) {
				return true
			}
		}
	}
	return false
}

// addressHost finds the host of each address (scheme://host) in a text.
var addressHost = regexp.MustCompile(`[A-Za-z][A-Za-z0-9+.-]*://(?:[^\s/?#@\x60]*@)?([^\s/?#:@\x60\[\]'"|;&()<>\\]+)`)

// punycodeHosts are the hosts of text's addresses that are not ASCII,
// each with its ASCII form as a browser shows it.
func punycodeHosts(text string) [][2]string {
	var out [][2]string
	for _, m := range addressHost.FindAllStringSubmatch(text, -1) {
		h := strings.TrimRight(m[1], ".,")
		if isASCII(h) || !plain(h) {
			continue
		}
		a, err := idna.ToASCII(h)
		if err != nil || a == h {
			continue
		}
		out = append(out, [2]string{h, a})
	}
	return out
}

func isASCII(s string) bool {
	for i := 0; i < len(s); i++ {
		if s[i] >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

// lookalikeMarker is the marker of a lookalike where it stands.
func (s *shower) lookalikeMarker(lk lookalike) string {
	what := fmt.Sprintf("%c U+%04X %s", lk.r, lk.r, lk.script)
	if lk.like != "" {
		what = s.l.T("approval.marker.lookalike", map[string]any{"Char": string(lk.r), "Code": fmt.Sprintf("U+%04X", lk.r), "Script": lk.script, "Like": lk.like})
	}
	return markerOpen + " " + what + " …]"
}

// noteLookalikes writes, under the call, what each lookalike shown is and
// each address's host in punycode.
func (s *shower) noteLookalikes(b *strings.Builder) {
	if len(s.looks) == 0 && len(s.hosts) == 0 {
		return
	}
	var items []string
	for _, lk := range s.looks {
		name := runenames.Name(lk.r)
		if lk.like != "" {
			items = append(items, s.l.T("approval.lookalike.char", map[string]any{"Char": string(lk.r), "Code": fmt.Sprintf("U+%04X", lk.r), "Name": name, "Script": lk.script, "Like": lk.like}))
		} else {
			items = append(items, s.l.T("approval.lookalike.script", map[string]any{"Char": string(lk.r), "Code": fmt.Sprintf("U+%04X", lk.r), "Name": name, "Script": lk.script}))
		}
	}
	if len(items) > 0 {
		b.WriteString("\n" + s.l.T("approval.lookalike", map[string]any{"List": strings.Join(items, s.l.T("approval.lookalike.sep"))}) + "\n")
	}
	for _, h := range s.hosts {
		b.WriteString("\n" + s.l.T("approval.lookalike.host", map[string]any{"Host": "`" + h[0] + "`", "ASCII": "`" + h[1] + "`"}) + "\n")
	}
}

// maxLookalikesNamed bounds the characters named under the call.
const maxLookalikesNamed = 12

// saw records the lookalike lk as shown, once per character.
func (s *shower) saw(lk lookalike) {
	if len(s.looks) >= maxLookalikesNamed || slices.ContainsFunc(s.looks, func(o lookalike) bool { return o.r == lk.r }) {
		return
	}
	s.looks = append(s.looks, lk)
}

// sawHosts records the hosts of text's addresses that are not ASCII.
func (s *shower) sawHosts(text string) {
	for _, h := range punycodeHosts(text) {
		if len(s.hosts) < maxLookalikesNamed && !slices.Contains(s.hosts, h) {
			s.hosts = append(s.hosts, h)
		}
	}
}
