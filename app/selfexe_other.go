//go:build unix && !linux

package app

// selfExecutable is the file to start this very build from: exe, the
// path it was started from; after an upgrade replaced it, the UI process's
// Hello says so (supervisor.UIProcess ends it and the user is told to restart).
func selfExecutable(exe string) string { return exe }
