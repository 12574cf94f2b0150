//go:build !linux

package app

// trayHostReachable: outside Linux the tray needs no session bus.
func trayHostReachable() error { return nil }
