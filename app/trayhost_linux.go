package app

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/godbus/dbus/v5"
)

// trayHostReachable reports why the tray cannot be used, or nil. On Linux
// the tray speaks StatusNotifierItem over the session D-Bus; without a bus,
// Fyne's tray panics on quit (fyne issue 6403), so the app must know first.
// With DBUS_SESSION_BUS_ADDRESS unset godbus would auto-launch a daemon that
// outlives the app, so only the standard per-user bus socket is tried then.
func trayHostReachable() error {
	if os.Getenv("DBUS_SESSION_BUS_ADDRESS") == "" {
		bus := filepath.Join(os.Getenv("XDG_RUNTIME_DIR"), "bus")
		if fi, err := os.Stat(bus); os.Getenv("XDG_RUNTIME_DIR") == "" || err != nil || fi.Mode()&os.ModeSocket == 0 {
			return errors.New("no session D-Bus (DBUS_SESSION_BUS_ADDRESS is unset)")
		}
		os.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+bus)
	}
	conn, err := dbus.ConnectSessionBus()
	if err != nil {
		return err
	}
	return conn.Close()
}
