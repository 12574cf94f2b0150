//go:build headless

package main

import (
	"context"
	"log/slog"

	"feedback/launch"
)

// This binary cannot start the window app: the shim and feedback ask only
// use one that already runs, else fall back (elicitation, chat).
func init() { launch.Starter = nil }

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
