package i18n

import (
	"os"

	"golang.org/x/sys/windows"
)

// Locales is the OS's locales, most preferred first: the environment's
// when it names any (a LANG set by hand), else the user's display
// languages ("zh-TW", "en-US").
func Locales() []string {
	if l := FromEnv(os.Getenv); len(l) > 0 {
		return l
	}
	l, _ := windows.GetUserPreferredUILanguages(windows.MUI_LANGUAGE_NAME)
	return l
}
