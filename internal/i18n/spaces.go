package i18n

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// Chinese (and Japanese) is written without spaces between words, English
// with them. A template such as "至 {{.Time}}" or a line put together from
// two messages joined by a space reads right in English ("until tomorrow
// 08:00") and carries a stray space in Chinese ("至 明天 08:00"). So:
//
//   - in a language without spaces (spaceless), a space of the template
//     that ends up between two CJK characters — next to a value put in
//     ("至 {{.Time}}" with Time "明天 08:00") or between two words of its
//     own — is dropped; a space inside a value (a question's title, a
//     client's name) is never touched, nor a space between CJK and a
//     Latin letter or a digit ("21 个问题" keeps it, as Chinese typesetting
//     does);
//   - JoinWords joins the parts of a line with a space only where a space
//     belongs.

// Markers around the values put into a template, so that tidy tells the
// template's spaces from theirs; values never hold them (they are control
// characters, taken out of values first).
const (
	valueStart = '\x02'
	valueEnd   = '\x03'
)

// spaceless reports whether lang is written without spaces between words.
func spaceless(lang string) bool { return strings.HasPrefix(lang, "zh") }

// markValues returns data with its string values between the markers, or
// data itself when it is not a map of values.
func markValues(data any) any {
	m, ok := data.(map[string]any)
	if !ok {
		return data
	}
	out := make(map[string]any, len(m))
	for k, v := range m {
		if s, ok := v.(string); ok && s != "" { // empty stays empty: a template may test it
			s = strings.Map(func(r rune) rune {
				if r == valueStart || r == valueEnd {
					return -1
				}
				return r
			}, s)
			v = string(valueStart) + s + string(valueEnd)
		}
		out[k] = v
	}
	return out
}

// tidy drops the template's spaces that sit between two CJK characters in
// s (rendered with markValues) and takes the markers out.
func tidy(s string) string {
	if !strings.ContainsAny(s, " \x02") {
		return s
	}
	rs := []rune(s)
	var b strings.Builder
	inValue := false
	for i, r := range rs {
		switch {
		case r == valueStart:
			inValue = true
			continue
		case r == valueEnd:
			inValue = false
			continue
		case r == ' ' && !inValue && IsCJK(visible(rs, i, -1)) && IsCJK(visible(rs, i, 1)):
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

// visible is the first rune from rs[i] in direction dir (-1, 1) that is
// not a marker; 0 at either end.
func visible(rs []rune, i, dir int) rune {
	for j := i + dir; j >= 0 && j < len(rs); j += dir {
		if rs[j] != valueStart && rs[j] != valueEnd {
			return rs[j]
		}
	}
	return 0
}

// IsCJK reports whether r is a Han character, kana, or CJK or full-width
// punctuation: of the scripts written without spaces between words.
func IsCJK(r rune) bool {
	return unicode.In(r, unicode.Han, unicode.Hiragana, unicode.Katakana) ||
		(r >= 0x3000 && r <= 0x303f) || // CJK symbols and punctuation
		(r >= 0xff00 && r <= 0xffef) // half- and full-width forms
}

// JoinWords joins the parts of a line (each a message in the user's
// language): with a space between two parts, except where the one ends
// and the next begins with a CJK character ("21 个问题" + "分属 1 个循环。"
// is "21 个问题分属 1 个循环。"; "21 questions" + "in 1 loop." keeps its
// space). Empty parts are left out.
func JoinWords(parts ...string) string {
	var b strings.Builder
	for _, p := range parts {
		if p == "" {
			continue
		}
		if b.Len() > 0 {
			last, _ := utf8.DecodeLastRuneInString(b.String())
			first, _ := utf8.DecodeRuneInString(p)
			if !IsCJK(last) || !IsCJK(first) {
				b.WriteByte(' ')
			}
		}
		b.WriteString(p)
	}
	return b.String()
}
