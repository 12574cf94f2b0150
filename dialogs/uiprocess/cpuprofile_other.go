//go:build !unix

package uiprocess

import "log/slog"

// profileOnSignal does nothing where there is no SIGUSR1 (see the unix
// version).
func profileOnSignal(*slog.Logger) (stop func()) { return func() {} }
