//go:build headless

package main

import (
	"context"
	"log/slog"
	"os"

	"feedback/ipc/launch"
)

// hasApp: this build has no window app.
const hasApp = false

// This binary cannot start the window app itself. Installed beside one (the
// shim that feedback setup writes in the clients' configs: the tarball and
// the .deb ship feedback-headless next to feedback), it starts that app;
// alone, the shim and feedback ask only use an app that already runs, else
// fall back (elicitation, chat).
func init() { launch.Starter = appBeside() }

// appBeside starts the window app installed beside this executable, or is
// nil when there is none.
func appBeside() func() error {
	exe, err := os.Executable()
	if err != nil {
		return nil
	}
	app := launch.Beside(exe, launch.AppName)
	if app == "" {
		return nil
	}
	return func() error { return launch.StartExe(app) }
}

// runApp: a headless build (go build -tags headless) carries only the MCP
// shim and feedback ask, for machines that reach an app elsewhere (an SSH
// forwarded socket, FEEDBACK_SOCKET) or fall back to elicitation or chat.
func runApp(_ context.Context, log *slog.Logger) int {
	log.Error("this feedback is a headless build: it has no window app; run feedback on the desktop, " +
		"or point FEEDBACK_SOCKET at a forwarded socket")
	return 2
}

// runUI: a headless build has no windows.
func runUI(log *slog.Logger) int {
	log.Error("this feedback is a headless build: it has no windows")
	return 2
}
