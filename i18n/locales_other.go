//go:build windows || darwin

package i18n

import (
	"os"

	"github.com/jeandeaual/go-locale"
)

// Locales is the OS's locales, most preferred first: the environment's
// when it names any (a terminal's LANG), else the system's (the user's
// language list on macOS, the user's locale on Windows), as Fyne reads
// them.
func Locales() []string {
	if l := FromEnv(os.Getenv); len(l) > 0 {
		return l
	}
	l, _ := locale.GetLocales()
	return l
}
