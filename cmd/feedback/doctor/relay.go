package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"

	"feedback/internal/userdirs"
	"feedback/ipc/relay"
)

// checkRelay reports the relay through a broker (docs/remote.md): on the
// desktop, the broker's state as the app last wrote it; on a remote host
// (FEEDBACK_RELAY set), whether the token is good and the broker answers.
// Nothing when neither is set up.
func checkRelay(ctx context.Context, e Env) []Result {
	var out []Result
	if tok := e.Getenv(relay.EnvToken); tok != "" {
		out = append(out, checkRelayRemote(ctx, e, tok))
	}
	d, err := userdirs.For(e.GOOS, e.Getenv, e.Setup.Home)
	if err != nil {
		return out
	}
	st, err := relay.LoadState(filepath.Join(d.Config, relay.StoreFile))
	switch {
	case err != nil:
		return append(out, Result{Level: Fail, Check: "relay", Msg: err.Error(), Fix: "fix or remove the file, then feedback relay pair again"})
	case st.Broker == "":
		return out
	}
	r := Result{Check: "relay"}
	s, err := relay.LoadStatus(filepath.Join(d.State, relay.StatusFile))
	switch {
	case err != nil || !s.Running():
		r.Level, r.Msg = Warn, fmt.Sprintf("broker %s, %d pairing(s): the app is not connected to it (not running?)", st.Broker, len(st.Pairings))
		r.Fix = "start feedback: it connects to the broker when it starts"
	case s.Connected:
		r.Msg = fmt.Sprintf("connected to %s since %s, %d pairing(s)", s.Broker, s.Since.Local().Format("2006-01-02 15:04"), len(st.Pairings))
	default:
		r.Level, r.Msg = Warn, fmt.Sprintf("not connected to %s: %s", st.Broker, orNone(s.LastError))
		r.Fix = "check the broker's address and that it runs; the password is in " + filepath.Join(d.Config, relay.PasswordFile)
	}
	return append(out, r)
}

func orNone(s string) string {
	if s == "" {
		return "connecting"
	}
	return s
}

// checkRelayRemote checks a remote host's token and broker.
func checkRelayRemote(ctx context.Context, e Env, s string) Result {
	r := Result{Check: "relay"}
	tok, err := relay.ParseToken(s)
	if err != nil {
		r.Level, r.Msg, r.Fix = Fail, "FEEDBACK_RELAY: "+err.Error(), "copy the token again from `feedback relay pair` on the desktop"
		return r
	}
	pwPath := e.Getenv(relay.EnvPasswordFile)
	if pwPath == "" {
		if d, err := userdirs.For(e.GOOS, e.Getenv, e.Setup.Home); err == nil {
			pwPath = filepath.Join(d.Config, relay.PasswordFile)
		}
	}
	pw, err := relay.ReadPassword(pwPath)
	if err != nil && !errors.Is(err, fs.ErrNotExist) {
		r.Level, r.Msg, r.Fix = Fail, err.Error(), "chmod 600 the file"
		return r
	}
	rem, err := relay.Dial(ctx, tok, relay.RemoteOptions{Password: pw, ConnectTimeout: e.Timeout})
	if err != nil {
		r.Level, r.Msg = Warn, err.Error()
		r.Fix = "check that the broker runs and that " + pwPath + " holds this host's broker password; questions fall back to the client's form or the chat meanwhile"
		return r
	}
	rem.Shutdown()
	r.Msg = fmt.Sprintf("FEEDBACK_RELAY: pairing %q, broker %s answers", tok.Name, tok.Broker)
	return r
}
