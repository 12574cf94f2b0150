//go:build !((linux || freebsd || netbsd || openbsd) && !wayland)

package app

import "log/slog"

// openIdle: no X server to ask here (the screen saver services on the
// session bus still count).
func openIdle(*slog.Logger) idleSource { return nil }
