package uiprocess

import (
	"log/slog"
	"time"

	"feedback/dialogs"
	"feedback/internal/i18n"
	"feedback/ipc/uiproto"
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

// applySettings applies the app's settings (uiproto.Settings, sent again
// whenever the settings file changed: the app watches it) to the windows
// opened from now on and to the words, without restarting the UI process;
// the windows already open keep theirs.
func (u *windows) applySettings(set uiproto.Settings, guard time.Duration, log *slog.Logger) {
	u.setOptions(windowOptions(set, guard))
	language := i18n.Choose(set.Language, i18n.Locales())
	u.do(func() {
		useLanguage(language) // the words of the windows opened from now on
		u.setShortcut(set.FocusShortcut, log)
	})
	log.Info("settings applied to new windows")
}

// setShortcut sets the global shortcut that brings a waiting question;
// one the settings' check let through but the pool cannot read is logged
// and the last one kept. On the Fyne goroutine.
func (u *windows) setShortcut(sc string, log *slog.Logger) {
	if err := u.pool.SetShortcut(sc); err != nil {
		log.Warn("focus_shortcut ignored", "value", sc, "err", err)
	}
}
