package doctor

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"

	"feedback/cmd/feedback/setup"
	"feedback/internal/userdirs"
	"feedback/ipc/relay"
)

// checkRelay reports the relay through a broker (docs/remote.md): on the
// desktop, the broker's state as the app last wrote it; on a remote host,
// for each token in FEEDBACK_RELAY or in a client's configuration (where
// feedback setup CLIENT --relay writes it), whether the token is good, the
// broker takes this host's login and the desktop answers for the pairing.
// Nothing when neither is set up.
func checkRelay(ctx context.Context, e Env) []Result {
	var out []Result
	for _, t := range relayTokens(e) {
		out = append(out, checkRelayRemote(ctx, e, t))
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

// relayToken is a token a shim of this host is given, and where.
type relayToken struct {
	token   string
	where   []string // "FEEDBACK_RELAY", "Claude Code's configuration (~/.claude.json)"…
	clients []string // the clients' names, for feedback setup CLIENT
	pwFile  string   // FEEDBACK_RELAY_PASSWORD_FILE beside it, if any
}

// relayTokens are the distinct tokens of this host: FEEDBACK_RELAY, then
// the clients' entries, in the order of feedback setup's clients.
func relayTokens(e Env) []relayToken {
	var out []relayToken
	add := func(tok, where, client, pwFile string) {
		tok = strings.TrimSpace(tok)
		if tok == "" {
			return
		}
		for i := range out {
			if out[i].token == tok {
				out[i].where = append(out[i].where, where)
				if client != "" {
					out[i].clients = append(out[i].clients, client)
				}
				return
			}
		}
		t := relayToken{token: tok, where: []string{where}, pwFile: pwFile}
		if client != "" {
			t.clients = []string{client}
		}
		out = append(out, t)
	}
	add(e.Getenv(relay.EnvToken), relay.EnvToken, "", e.Getenv(relay.EnvPasswordFile))
	for _, s := range setup.Statuses(e.Setup) {
		if s.Env[relay.EnvToken] != "" {
			add(s.Env[relay.EnvToken], fmt.Sprintf("%s's configuration (%s)", s.Client.Title, s.File), s.Client.Name, s.Env[relay.EnvPasswordFile])
		}
	}
	return out
}

// self is this binary's name as the user types it.
func self(e Env) string {
	if e.Headless {
		return "feedback-headless"
	}
	return "feedback"
}

// checkRelayRemote checks a remote host's token: the broker takes this
// host's login and the desktop answers for the pairing (relay.Remote.Ping).
func checkRelayRemote(ctx context.Context, e Env, t relayToken) Result {
	r := Result{Check: "relay"}
	where := strings.Join(t.where, ", ")
	setupCmd := self(e) + " setup CLIENT --relay TOKEN"
	if len(t.clients) > 0 {
		setupCmd = self(e) + " setup " + strings.Join(t.clients, " --relay TOKEN; "+self(e)+" setup ") + " --relay TOKEN"
	}
	tok, err := relay.ParseToken(t.token)
	if err != nil {
		r.Level, r.Msg = Fail, fmt.Sprintf("the token in %s: %v", where, err)
		r.Fix = "copy the token again from `feedback relay pair` on the desktop, then " + setupCmd
		return r
	}
	pwPath := t.pwFile
	if pwPath == "" {
		if d, err := userdirs.For(e.GOOS, e.Getenv, e.Setup.Home); err == nil {
			pwPath = filepath.Join(d.Config, relay.PasswordFile)
		}
	}
	pw, err := relay.ReadPassword(pwPath)
	missing := errors.Is(err, fs.ErrNotExist)
	if err != nil && !missing {
		r.Level, r.Msg, r.Fix = Fail, err.Error(), "chmod 600 the file, or keep the password again: "+self(e)+" relay password"
		return r
	}
	pairing := fmt.Sprintf("pairing %q (%s)", tok.Name, where)
	rem, err := relay.Dial(ctx, tok, relay.RemoteOptions{Password: pw, ConnectTimeout: e.Timeout})
	if err != nil {
		r.Level, r.Msg = Warn, fmt.Sprintf("%s: %v", pairing, err)
		r.Fix = "questions go to the client's form or the chat until the broker takes this host's login"
		if missing || errors.Is(err, relay.ErrLoginRefused) {
			b, _ := relay.BrokerAddress(tok.Broker)
			r.Level = Fail
			r.Fix = fmt.Sprintf("keep broker user %q's password on this host: %s relay password (it writes %s)", b.User, self(e), pwPath)
		}
		return r
	}
	defer rem.Shutdown()
	err = rem.Ping(ctx, e.Timeout)
	switch {
	case err == nil:
		r.Msg = fmt.Sprintf("%s: broker %s took the login and the desktop answered: the pairing is live", pairing, tok.Broker)
	case errors.Is(err, relay.ErrRevoked):
		r.Level, r.Msg = Fail, fmt.Sprintf("%s: this pairing was revoked on the desktop", pairing)
		r.Fix = fmt.Sprintf("pair again: on the desktop, feedback relay pair --name %s --remote-user USER; here, %s with the new token "+
			"(until then questions go to the client's form or the chat)", tok.Name, setupCmd)
	case errors.Is(err, relay.ErrNoAnswer):
		r.Level, r.Msg = Warn, fmt.Sprintf("%s: broker %s took the login, but the desktop did not answer within %v", pairing, tok.Broker, e.Timeout)
		r.Fix = "start feedback on the desktop (feedback relay list there says whether it is connected to the broker); " +
			"meanwhile a question waits at the broker until its caller's wait runs out"
	default:
		r.Level, r.Msg = Fail, fmt.Sprintf("%s: %v", pairing, err)
		r.Fix = "pair again: feedback relay pair on the desktop, then " + setupCmd + " here with the new token"
	}
	return r
}
