package i18n

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"time"
)

// Locales is the OS's locales, most preferred first: the environment's
// when it names any (a terminal's LANG), else the user's language list
// (`defaults read -g AppleLanguages`: "zh-Hant-TW", "en-US"), read without
// cgo so that the resident process links none.
func Locales() []string {
	if l := FromEnv(os.Getenv); len(l) > 0 {
		return l
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, "defaults", "read", "-g", "AppleLanguages").Output()
	if err != nil {
		return nil
	}
	return appleLanguages(string(out))
}

// appleLanguages reads the plist array `defaults` prints:
// ("zh-Hant-TW", "en-US").
func appleLanguages(out string) []string {
	var l []string
	for _, line := range strings.Split(out, "\n") {
		line = strings.Trim(strings.TrimSpace(line), `",()`)
		if line != "" {
			l = append(l, line)
		}
	}
	return l
}
