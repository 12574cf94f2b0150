package uiprocess

import (
	"regexp"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"

	"feedback/dialogs/settingswin"
	"feedback/internal/i18n"
	"feedback/internal/settings"
)

// englishWords matches three English words in a row: a sentence left
// untranslated (tool names, keys and examples have no spaces).
var englishWords = regexp.MustCompile(`[A-Za-z]{3,} [A-Za-z]{2,} [A-Za-z]{3,}`)

// The Settings window in Chinese shows no English sentence on any page:
// no default text (the resubmit prompt's), placeholder, hint or message.
func TestSettingsWindowInChineseHasNoEnglish(t *testing.T) {
	t.Cleanup(func() { useLanguage(i18n.English) })
	for _, language := range []string{i18n.SimplifiedChinese, i18n.TraditionalChinese} {
		useLanguage(language)
		a := test.NewTempApp(t)
		w := settingswin.New(a, settingswin.Options{Values: settings.Default(),
			Getenv: func(string) string { return "" }, Tools: []string{"interactive_feedback", "ask_human"}})
		w.Fyne().Resize(fyne.NewSize(720, 2000))
		w.Fyne().Show()
		var tabs *container.AppTabs
		for _, o := range test.LaidOutObjects(w.Fyne().Content()) {
			if at, ok := o.(*container.AppTabs); ok {
				tabs = at
			}
		}
		pages := 1
		if tabs != nil {
			pages = len(tabs.Items)
		}
		for i := range pages {
			if tabs != nil {
				tabs.SelectIndex(i)
			}
			for _, o := range test.LaidOutObjects(w.Fyne().Content()) {
				if txt, ok := o.(*canvas.Text); ok && txt.Visible() && englishWords.MatchString(txt.Text) {
					t.Errorf("%s, page %d: English text %q", language, i+1, txt.Text)
				}
			}
		}
		w.Fyne().Close()
	}
}
