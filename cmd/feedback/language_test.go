//go:build unix

package main

import (
	"log/slog"
	"os"
	"testing"

	"feedback/internal/i18n"
	"feedback/ipc/launch"
)

// A shim started with a filtered environment (no LANG: the TypeScript
// SDK's clients) speaks the language of the desktop the app recorded, so
// an approval it builds is in the user's language.
func TestLanguageOfTheRecordedSession(t *testing.T) {
	home := t.TempDir()
	t.Setenv("HOME", home)
	t.Setenv("XDG_CONFIG_HOME", "")
	t.Setenv("LANG", "zh_TW.UTF-8")
	t.Setenv("LANGUAGE", "")
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "")
	if err := launch.RecordSession("/x/feedback.sock"); err != nil {
		t.Fatal(err)
	}
	defer i18n.Use(i18n.English)
	for _, k := range []string{"LANG", "LC_ALL", "LC_MESSAGES", "LANGUAGE"} {
		t.Setenv(k, "")
		os.Unsetenv(k)
	}
	loadSettings(slog.New(slog.DiscardHandler))
	if got := i18n.Lang(); got != i18n.TraditionalChinese {
		t.Errorf("the language with no LANG is %q, want the recorded desktop's %q", got, i18n.TraditionalChinese)
	}

	// A locale of the process's own wins over the record.
	t.Setenv("LANG", "en_US.UTF-8")
	loadSettings(slog.New(slog.DiscardHandler))
	if got := i18n.Lang(); got != i18n.English {
		t.Errorf("with LANG=en_US the language is %q", got)
	}
}
