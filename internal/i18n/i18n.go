// Package i18n is the words of every process in the user's language:
// English, Simplified Chinese or Traditional Chinese, from the translation
// files embedded in package assets.
//
// Why a package of our own beside Fyne's lang: the resident process, the
// shim and `feedback ask` link no toolkit, so they cannot use
// fyne.io/fyne/v2/lang; and Fyne's lang (v2.8.1) cannot be told a language
// — it reads the system's locale once — and loses the script when it
// matches one (zh_TW matches zh-Hant and is then looked up as "zh", i.e.
// Simplified). This package uses github.com/nicksnyder/go-i18n/v2 directly,
// the library Fyne's lang is built on, over the same files, with the
// language chosen here (Choose). The UI process gives the same files to
// Fyne's lang too, so that Fyne's own words (the text field's Copy, Paste,
// …) follow (package uiprocess).
//
// The language: the `language` setting when it names one; "auto" (the
// default) follows the OS locale (Choose).
package i18n

import (
	"encoding/json"
	"io/fs"
	"path"
	"sort"
	"strings"
	"sync"
	"sync/atomic"

	goi18n "github.com/nicksnyder/go-i18n/v2/i18n"
	"golang.org/x/text/language"

	"feedback/assets"
)

// The languages; Auto is the setting that follows the OS locale.
const (
	English            = "en"
	SimplifiedChinese  = "zh-Hans"
	TraditionalChinese = "zh-Hant"
	Auto               = "auto"
)

// Languages are the languages of the translation files, English first.
var Languages = []string{English, SimplifiedChinese, TraditionalChinese}

// Dir is the directory of the translation files in assets.Translations.
const Dir = "translations"

var (
	bundleOnce sync.Once
	bundle     *goi18n.Bundle
	bundleErr  error

	current atomic.Pointer[Localizer] // Use's; nil: English
	cache   sync.Map                  // language → *Localizer
)

// Bundle is every translation file, parsed once. A broken file (a test
// catches it) leaves the bundle with the others: missing words read in
// English.
func loadBundle() *goi18n.Bundle {
	bundleOnce.Do(func() {
		bundle = goi18n.NewBundle(language.English)
		bundle.RegisterUnmarshalFunc("json", json.Unmarshal)
		for _, l := range Languages {
			data, err := assets.Translations.ReadFile(File(l))
			if err == nil {
				_, err = bundle.ParseMessageFileBytes(data, File(l))
			}
			if err != nil && bundleErr == nil {
				bundleErr = err
			}
		}
	})
	return bundle
}

// File is the path of a language's file in assets.Translations.
func File(lang string) string { return path.Join(Dir, lang+".json") }

// Check reports a translation file that does not parse.
func Check() error {
	loadBundle()
	return bundleErr
}

// Localizer gives the words of one language. Safe for concurrent use. The
// translation files are parsed at its first word, not before: a process
// that shows none (the MCP shim) never pays for them.
type Localizer struct {
	lang string
	once sync.Once
	loc  *goi18n.Localizer
}

func (l *Localizer) localizer() *goi18n.Localizer {
	l.once.Do(func() { l.loc = goi18n.NewLocalizer(loadBundle(), l.lang) })
	return l.loc
}

// For returns the localizer of lang (one of Languages; anything else is
// English). "" is the process's language (Use).
func For(lang string) *Localizer {
	if lang == "" {
		if l := current.Load(); l != nil {
			return l
		}
		lang = English
	}
	if !known(lang) {
		lang = English
	}
	if l, ok := cache.Load(lang); ok {
		return l.(*Localizer)
	}
	l := &Localizer{lang: lang}
	cache.Store(lang, l)
	return l
}

func known(lang string) bool {
	for _, l := range Languages {
		if l == lang {
			return true
		}
	}
	return false
}

// Use sets the process's language (one of Languages), which T and N use.
// The process starts in English.
func Use(lang string) { current.Store(For(lang)) }

// Lang is the process's language.
func Lang() string { return For("").lang }

// Lang is the localizer's language.
func (l *Localizer) Lang() string { return l.lang }

// T is the text of id, its template filled from data (a map or a struct);
// id itself when no file has it.
func (l *Localizer) T(id string, data ...any) string {
	return l.localize(id, nil, data)
}

// N is the plural form of id for count n (English: one/other; Chinese has
// one form); the template gets .Count = n unless data is given.
func (l *Localizer) N(id string, n int, data ...any) string {
	return l.localize(id, &n, data)
}

func (l *Localizer) localize(id string, n *int, data []any) string {
	cfg := &goi18n.LocalizeConfig{MessageID: id}
	if n != nil {
		cfg.PluralCount = *n
		cfg.TemplateData = map[string]any{"Count": *n}
	}
	if len(data) > 0 {
		cfg.TemplateData = data[0]
	}
	marked := spaceless(l.lang) // spaces.go: no stray spaces between CJK words
	if marked {
		cfg.TemplateData = markValues(cfg.TemplateData)
	}
	s, err := l.localizer().Localize(cfg)
	if s == "" && err != nil {
		return id
	}
	if marked {
		s = tidy(s)
	}
	return s
}

// T is For("").T: the process's language.
func T(id string, data ...any) string { return For("").T(id, data...) }

// N is For("").N: the process's language.
func N(id string, n int, data ...any) string { return For("").N(id, n, data...) }

// Keys lists the ids of a language's file, sorted: the test that every
// language has every word uses it.
func Keys(lang string) ([]string, error) {
	data, err := fs.ReadFile(assets.Translations, File(lang))
	if err != nil {
		return nil, err
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys, nil
}

// Choose is the language to show: setting when it names one of Languages;
// otherwise (Auto, "") the first of the OS's locales (Locales) that is
// English or Chinese — Chinese in traditional characters for Taiwan, Hong
// Kong and Macau (zh_TW, zh_HK, zh_MO, zh-Hant), simplified for the rest
// (zh_CN, zh_SG, zh, zh-Hans) — and English when none is.
func Choose(setting string, locales []string) string {
	if known(setting) {
		return setting
	}
	for _, loc := range locales {
		if l := match(loc); l != "" {
			return l
		}
	}
	return English
}

// match maps one locale ("zh_TW.UTF-8", "zh-Hant", "en_GB@euro") to one of
// Languages, or "" for another language or no locale.
func match(loc string) string {
	loc, _, _ = strings.Cut(loc, ".")
	loc, _, _ = strings.Cut(loc, "@")
	loc = strings.ReplaceAll(strings.TrimSpace(loc), "_", "-")
	if loc == "" {
		return ""
	}
	tag, err := language.Parse(loc)
	if err != nil {
		return ""
	}
	switch base, _ := tag.Base(); base.String() {
	case "en":
		return English
	case "zh":
		if script, _ := tag.Script(); script.String() == "Hant" {
			return TraditionalChinese
		}
		return SimplifiedChinese
	}
	return ""
}

// FromEnv is the OS's locales as gettext reads them from the environment:
// nothing when the locale (the first set of LC_ALL, LC_MESSAGES and LANG)
// is unset, C or POSIX; else the entries of LANGUAGE when set, else that
// locale.
func FromEnv(getenv func(string) string) []string {
	loc := ""
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if loc = getenv(name); loc != "" {
			break
		}
	}
	if loc == "" || loc == "C" || loc == "POSIX" || strings.HasPrefix(loc, "C.") {
		return nil
	}
	if l := getenv("LANGUAGE"); l != "" {
		var out []string
		for _, e := range strings.Split(l, ":") {
			if e != "" {
				out = append(out, e)
			}
		}
		if len(out) > 0 {
			return out
		}
	}
	return []string{loc}
}
