package uiprocess

import (
	"os"
	"runtime"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/lang"

	"feedback/assets"
	"feedback/internal/i18n"
)

// useLanguage makes language (one of i18n.Languages) the UI process's: our
// words through package i18n, and Fyne's own (a text field's Copy, Paste,
// Undo, …) through Fyne's lang, fed the same files. Call it on the Fyne
// goroutine once the app runs: Fyne's localizer is not guarded.
func useLanguage(language string) {
	i18n.Use(language)
	fyneLanguage(language)
}

// fyneTags are the tags the files are given to Fyne's lang under, and the
// locale the environment names while they are: Fyne's lang (v2.8.1) cannot
// be told a language — it reads the OS locale each time translations are
// added — and it finds Traditional Chinese only as zh-TW (a zh-Hant match
// is looked up as plain "zh", Simplified).
var fyneTags = map[string]struct{ tag, env string }{
	i18n.English:            {"en", "en_US.UTF-8"},
	i18n.SimplifiedChinese:  {"zh-Hans", "zh_CN.UTF-8"}, // merged with Fyne's own zh-Hans words
	i18n.TraditionalChinese: {"zh-TW", "zh_TW.UTF-8"},
}

// fyneLanguage gives the translation files to Fyne's lang, its localizer
// ending on language's. On Unix, where Fyne reads the locale from the
// environment, the environment names language while the files are added,
// and is restored after; on Windows and macOS Fyne's own words follow the
// OS's language (ours follow the setting everywhere).
func fyneLanguage(language string) {
	if runtime.GOOS != "windows" && runtime.GOOS != "darwin" {
		if t, ok := fyneTags[language]; ok {
			defer setEnvFor(map[string]string{"LC_ALL": t.env, "LANGUAGE": t.env})()
		}
	}
	for _, l := range i18n.Languages {
		data, err := assets.Translations.ReadFile(i18n.File(l))
		if err == nil {
			err = lang.AddTranslationsForLocale(data, fyne.Locale(fyneTags[l].tag))
		}
		if err != nil {
			fyne.LogError("adding the "+l+" translations", err)
		}
	}
}

// setEnvFor sets the variables and returns what puts them back.
func setEnvFor(vars map[string]string) (restore func()) {
	type old struct {
		v  string
		ok bool
	}
	saved := map[string]old{}
	for k, v := range vars {
		was, ok := os.LookupEnv(k)
		saved[k] = old{was, ok}
		os.Setenv(k, v)
	}
	return func() {
		for k, o := range saved {
			if o.ok {
				os.Setenv(k, o.v)
			} else {
				os.Unsetenv(k)
			}
		}
	}
}
