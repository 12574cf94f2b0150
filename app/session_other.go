//go:build !((linux || freebsd || netbsd || openbsd) && !wayland)

package app

import "log/slog"

// watchDisplay watches no display here (Windows, macOS, Wayland): the
// session bus, where there is one, says when the session ends.
func watchDisplay(*slog.Logger, func(error)) (stop func()) { return func() {} }
