package app

import (
	"context"
	"log/slog"
	"path/filepath"

	"feedback/internal/userdirs"
	"feedback/ipc/relay"
	"feedback/ipc/wire"
)

// startRelay runs the relay's desktop side (package relay) until ctx
// ends: it follows relay.json (written by `feedback relay pair`),
// connects to its broker and hands the remote hosts' questions to asker,
// the inbox the socket feeds too. It returns a func that stops it and
// waits until it has.
func startRelay(ctx context.Context, asker wire.Asker, log *slog.Logger) func() {
	d, err := userdirs.Current()
	if err != nil {
		log.Warn("relay: no config directory; remote agents cannot reach this app", "err", err)
		return func() {}
	}
	r := relay.NewDesktop(relay.DesktopOptions{Asker: asker, Logger: log,
		StorePath:    filepath.Join(d.Config, relay.StoreFile),
		PasswordPath: filepath.Join(d.Config, relay.PasswordFile),
		StatusPath:   relayStatusPath(),
		SeenPath:     filepath.Join(d.State, relay.SeenFile)})
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() { r.Run(ctx); close(done) }()
	return func() { cancel(); <-done }
}

// relayStatusPath is the relay's status file (relay.StatusFile in the
// state directory), which the relay writes and the Settings window's
// values carry (windowreq); "" without a state directory.
func relayStatusPath() string {
	d, err := userdirs.Current()
	if err != nil {
		return ""
	}
	return filepath.Join(d.State, relay.StatusFile)
}
