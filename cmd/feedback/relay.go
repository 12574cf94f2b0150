package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"path/filepath"
	"sync"

	"feedback/internal/userdirs"
	"feedback/ipc/relay"
	"feedback/ipc/wire"
)

// A remote host's shim (and `feedback ask`) with FEEDBACK_RELAY set asks
// through the broker when no local app answers (docs/remote.md). One
// connection to the broker serves every call of the process.
// relayLog is the process's logger (run sets it).
var relayLog = slog.Default()

var remote struct {
	mu sync.Mutex // guards r
	r  *relay.Remote
}

// relayAsker returns the relay's Asker when FEEDBACK_RELAY is set (nil,
// nil otherwise); local is why the local app did not answer, said in the
// error when the broker cannot be reached either.
func relayAsker(ctx context.Context, local error, log *slog.Logger) (wire.Asker, error) {
	env := os.Getenv(relay.EnvToken)
	if env == "" {
		return nil, nil
	}
	remote.mu.Lock()
	defer remote.mu.Unlock()
	if remote.r != nil {
		return remoteAsker{remote.r}, nil
	}
	tok, err := relay.ParseToken(env)
	if err != nil {
		return nil, fmt.Errorf("%s: %w (and the local app: %v)", relay.EnvToken, err, local)
	}
	pwPath := os.Getenv(relay.EnvPasswordFile)
	if pwPath == "" {
		if d, err := userdirs.Current(); err == nil {
			pwPath = filepath.Join(d.Config, relay.PasswordFile)
		}
	}
	var pw string
	if pwPath != "" {
		if pw, err = relay.ReadPassword(pwPath); err != nil && !errors.Is(err, os.ErrNotExist) {
			return nil, fmt.Errorf("the relay's broker password: %w", err)
		}
	}
	r, err := relay.Dial(ctx, tok, relay.RemoteOptions{Password: pw, Logger: log})
	if err != nil {
		return nil, fmt.Errorf("%w (the local app: %v)", err, local)
	}
	log.Info("asking through the relay", "broker", tok.Broker, "pairing", tok.Name)
	remote.r = r
	return remoteAsker{r}, nil
}

// remoteAsker hides everything of *relay.Remote but Ask, so that no caller
// closes the shared connection after a call.
type remoteAsker struct{ r *relay.Remote }

func (a remoteAsker) Ask(ctx context.Context, q wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
	return a.r.Ask(ctx, q, emit)
}
