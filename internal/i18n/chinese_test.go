package i18n

import (
	"encoding/json"
	"io/fs"
	"regexp"
	"strings"
	"testing"

	"feedback/assets"
)

// latinKept are the words that stay Latin in Chinese text: names (the
// app's and its commands', protocols, formats, the agents'), keys, units,
// and the values one writes in the settings file or on a command line.
var latinKept = map[string]bool{
	"feedback": true, "ask": true, "mcp": true, "MCP": true, "Claude": true, "Code": true, "claude-code": true,
	"AI": true, "Markdown": true, "JSON": true, "CPU": true, "git": true, "http": true, "https": true,
	"MiB": true, "KB": true, "Esc": true, "Enter": true, "Ctrl": true, "Alt": true, "Q": true, "R": true, "F1": true,
	"HH": true, "MM": true, "MM-HH": true,
	"auto": true, "en": true, "zh-Hans": true, "zh-Hant": true, "off": true, "yes": true,
}

var (
	// code is what a message holds that is not words: a template's
	// {{.Field}}, a printf verb, a placeholder ({error}), a command-line
	// flag, a file name or path, an identifier, a key chord.
	code  = regexp.MustCompile(`\{\{[^}]*\}\}|%[-+#0-9.]*[a-zA-Z%]|\{[a-z_]+\}|(?:^|[^\w-])--?[a-z][a-z-]*|[\w.-]*[._/][\w./*-]*|[A-Z][a-z]*\+[A-Z0-9]\w*`)
	latin = regexp.MustCompile(`[A-Za-z][A-Za-z0-9-]*`)
	// asciiBesideHan is ASCII punctuation written next to a Chinese
	// character, where Chinese uses its own (，：；！？（）“”「」).
	asciiBesideHan = regexp.MustCompile(`\p{Han}[,:;!?()"]|[,:;!?()"] ?\p{Han}`)
)

// chineseMessages are the texts of every message of lang, by id (each
// plural form of one).
func chineseMessages(t *testing.T, lang string) map[string][]string {
	t.Helper()
	data, err := fs.ReadFile(assets.Translations, File(lang))
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]json.RawMessage
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	out := map[string][]string{}
	for id, v := range raw {
		var s string
		if json.Unmarshal(v, &s) == nil {
			out[id] = []string{s}
			continue
		}
		var forms map[string]string
		if err := json.Unmarshal(v, &forms); err != nil {
			t.Fatalf("%s: %v", id, err)
		}
		for _, f := range forms {
			out[id] = append(out[id], f)
		}
	}
	return out
}

// Every message in both Chinese scripts is Chinese — no English word in
// the chrome (never "**Loop** L1 · **Phase** 规划", "跟随系统（auto）" or
// "可回答 "pending" 的工具") but the names, keys, units and values kept —
// with Chinese punctuation: no ASCII ", " or quotes beside Chinese words,
// and an ellipsis "…", never "..." (and none in the question window,
// whose font draws it as Latin dots: "附加…" reads "附加...").
func TestChineseIsChinese(t *testing.T) {
	for _, lang := range []string{SimplifiedChinese, TraditionalChinese} {
		for id, texts := range chineseMessages(t, lang) {
			for _, s := range texts {
				for _, w := range latin.FindAllString(code.ReplaceAllString(s, " "), -1) {
					if !latinKept[w] {
						t.Errorf("%s %q: the English word %q in %q", lang, id, w, s)
					}
				}
				if strings.Contains(s, "...") {
					t.Errorf("%s %q: three dots in %q, where Chinese writes …", lang, id, s)
				}
				// The question window draws "…" from its Latin font, as
				// three dots on the baseline, which read as "..." after
				// Chinese ("附加..."): its words carry no ellipsis.
				if strings.HasPrefix(id, "question.") && strings.Contains(s, "…") {
					t.Errorf("%s %q: an ellipsis in the question window's %q, drawn as Latin dots", lang, id, s)
				}
				if strings.HasPrefix(id, "ask.") {
					continue // a command line to type, ASCII quotes and all
				}
				if m := asciiBesideHan.FindString(s); m != "" {
					t.Errorf("%s %q: ASCII punctuation %q beside Chinese in %q", lang, id, m, s)
				}
			}
		}
	}
	for _, lang := range []string{SimplifiedChinese, TraditionalChinese} {
		if sep := For(lang).T("list.sep"); sep != "，" {
			t.Errorf("%s: the list separator is %q, want ，", lang, sep)
		}
	}
}
