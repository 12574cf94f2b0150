//go:build !headless

package main

import (
	"context"
	"log/slog"

	"feedback/app"
	"feedback/internal/settings/settingsfile"

	// Before Fyne reads the locale in its init: no "Fyne error" under LANG=C.UTF-8.
	"feedback/dialogs/uiprocess"
)

// hasApp: this build has the window app.
const hasApp = true

// runApp runs the tray-resident app.
func runApp(ctx context.Context, log *slog.Logger) int {
	spath, _ := settingsfile.Path() // none: nothing to watch
	if err := app.Run(ctx, app.Config{Version: version, Settings: loadSettings(log), SettingsPath: spath, Logger: log}); err != nil {
		log.Error("feedback stopped", "err", err)
		return 1
	}
	return 0
}

// runUI runs the UI process that the resident app starts for its windows.
func runUI(log *slog.Logger) int {
	log = log.With("process", "ui")
	ch, err := uiprocess.InheritedChannel()
	if err == nil {
		err = uiprocess.Serve(ch, uiprocess.Config{Logger: log, Build: version}) // the settings come from the app
	}
	if err != nil {
		log.Error("the UI process stopped", "err", err)
		return 1
	}
	return 0
}
