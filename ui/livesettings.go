package ui

import (
	"context"
	"log/slog"
	"os"
	"time"

	"feedback/dialogs"
	"feedback/i18n"
	"feedback/settings"
)

// options are the question windows' options as the settings now give them.
func (u *windows) options() dialogs.Options {
	u.optsMu.Lock()
	defer u.optsMu.Unlock()
	return u.opts
}

// setOptions changes the options of the question windows opened from now
// on; the windows already open keep theirs (a countdown does not jump).
func (u *windows) setOptions(o dialogs.Options) {
	u.optsMu.Lock()
	defer u.optsMu.Unlock()
	u.opts = o
}

// watchSettings applies the settings file at path to the windows opened
// from now on each time it changes (the Settings window saved it, or the
// user edited it by hand), without restarting the UI process; a file that
// turned bad is logged and the settings in force are kept. applied, when
// not nil, is told the options applied (tests). stop ends the watch.
func watchSettings(u *windows, path string, guard time.Duration, log *slog.Logger, applied func(dialogs.Options)) (stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	settings.Watch(ctx, path, os.Getenv, func(s settings.Settings, err error) {
		if err != nil {
			log.Warn("settings changed but not applied", "err", err)
			return
		}
		o := windowOptions(s)
		o.InputGuard = guard
		u.setOptions(o)
		language := i18n.Choose(s.Language, i18n.Locales())
		u.do(func() { useLanguage(language) }) // the words of the windows opened from now on
		log.Info("settings applied to new windows", "path", path)
		if applied != nil {
			applied(o)
		}
	})
	return cancel
}
