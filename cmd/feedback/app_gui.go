//go:build !headless

package main

import (
	"context"
	"log/slog"

	"feedback/app"
	// Before Fyne reads the locale in its init: no "Fyne error" under LANG=C.UTF-8.
	_ "feedback/cmd/feedback/internal/quietlocale"
)

// runApp runs the tray-resident app.
func runApp(ctx context.Context, log *slog.Logger) int {
	if err := app.Run(ctx, app.Config{Version: version, Settings: loadSettings(log), Logger: log}); err != nil {
		log.Error("feedback stopped", "err", err)
		return 1
	}
	return 0
}
