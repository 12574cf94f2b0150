package uiprocess

import (
	"os"
	"testing"

	"fyne.io/fyne/v2/lang"

	"feedback/internal/i18n"
)

// Fyne's own words (a text field's menu) follow the language chosen, not
// the OS locale, Traditional Chinese included; the environment is left as
// it was.
func TestFyneWordsFollowTheLanguage(t *testing.T) {
	t.Setenv("LANG", "fr_FR.UTF-8")
	t.Setenv("LANGUAGE", "fr")
	t.Cleanup(func() { useLanguage(i18n.English) })
	for _, tc := range []struct{ language, copy, undo, submit, search string }{
		{i18n.TraditionalChinese, "複製", "復原", "送出", "搜尋問題、回覆、用戶端、專案"},
		{i18n.SimplifiedChinese, "复制", "撤销", "提交", "搜索问题、回复、客户端、项目"},
		{i18n.English, "Copy", "Undo", "Submit", "Search questions, replies, clients, projects"},
	} {
		useLanguage(tc.language)
		if got := lang.L("Copy"); got != tc.copy {
			t.Errorf("%s: Fyne's Copy reads %q, want %q", tc.language, got, tc.copy)
		}
		if got := lang.L("Undo"); got != tc.undo {
			t.Errorf("%s: Fyne's Undo reads %q, want %q", tc.language, got, tc.undo)
		}
		// The History and Settings windows' words (lang.L, English ids).
		if got := lang.L("Search questions, replies, clients, projects"); got != tc.search {
			t.Errorf("%s: the History window's search reads %q, want %q", tc.language, got, tc.search)
		}
		if got := i18n.T("question.submit"); got != tc.submit {
			t.Errorf("%s: Submit reads %q, want %q", tc.language, got, tc.submit)
		}
	}
	if os.Getenv("LANGUAGE") != "fr" || os.Getenv("LANG") != "fr_FR.UTF-8" {
		t.Errorf("environment changed: LANGUAGE=%q LANG=%q", os.Getenv("LANGUAGE"), os.Getenv("LANG"))
	}
	if _, ok := os.LookupEnv("LC_ALL"); ok && os.Getenv("LC_ALL") != "" {
		t.Errorf("LC_ALL left set: %q", os.Getenv("LC_ALL"))
	}
}
