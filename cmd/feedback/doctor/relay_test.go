package doctor

import (
	"context"
	"io"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/cmd/feedback/setup"
	"feedback/internal/mqtttest"
	"feedback/ipc/relay"
	"feedback/ipc/wire"
)

// noAsker is a desktop's inbox that a ping must never reach.
type noAsker struct{ t *testing.T }

func (a noAsker) Ask(context.Context, wire.Ask, func(wire.Event)) (wire.Answer, error) {
	a.t.Error("doctor's check reached the desktop's inbox")
	return wire.Answer{}, &wire.Error{Code: wire.CodeInternal, Message: "not here"}
}

// relayLine is doctor's relay line, or the zero Result.
func relayLine(results []Result) Result {
	for _, r := range results {
		if r.Check == "relay" {
			return r
		}
	}
	return Result{}
}

// On a remote host set up as the README says (the token only in the
// client's configuration, where feedback-headless setup CLIENT --relay
// writes it; the password where feedback-headless relay password keeps
// it), doctor checks the pairing: live while the desktop answers, a
// FAIL that says to pair again once it is revoked there, a WARN when the
// desktop is away.
func TestRelayOnARemoteHost(t *testing.T) {
	b := mqtttest.Start(t, []string{"desk", "remote"})
	// The desktop: a broker, a pairing, the app's relay running.
	deskDir := t.TempDir()
	store := filepath.Join(deskDir, relay.StoreFile)
	var st relay.State
	if err := st.SetBroker(b.URL("desk")); err != nil {
		t.Fatal(err)
	}
	tok, err := st.Pair("build-box")
	if err != nil {
		t.Fatal(err)
	}
	tok.Broker, _ = relay.WithUser(tok.Broker, "remote")
	if err := st.Save(store); err != nil {
		t.Fatal(err)
	}
	pwPath := filepath.Join(deskDir, relay.PasswordFile)
	if err := relay.WritePassword(pwPath, b.Password("desk")); err != nil {
		t.Fatal(err)
	}
	d := relay.NewDesktop(relay.DesktopOptions{Asker: noAsker{t}, StorePath: store, PasswordPath: pwPath,
		StatusPath: filepath.Join(deskDir, relay.StatusFile), Poll: 100 * time.Millisecond, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	stop := func() { cancel(); <-done }
	t.Cleanup(stop)
	for deadline := time.Now().Add(20 * time.Second); d.Status().Pairings != 1; time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the desktop did not connect")
		}
	}

	// The remote: the headless build, nothing in its environment.
	h := home(t)
	e, _ := env(t, h)
	e.Headless = true
	if err := relay.WritePassword(filepath.Join(h, ".config", "feedback", relay.PasswordFile), b.Password("remote")); err != nil {
		t.Fatal(err)
	}
	if code := setup.Run([]string{"claude-code", "--relay", tok.String()}, e.Setup); code != 0 {
		t.Fatalf("feedback setup claude-code --relay: exit %d", code)
	}
	r := relayLine(Check(context.Background(), e))
	if r.Level != OK || !strings.Contains(r.Msg, `pairing "build-box"`) || !strings.Contains(r.Msg, "Claude Code") || !strings.Contains(r.Msg, "live") {
		t.Fatalf("a live pairing: %+v", r)
	}
	for _, r := range Check(context.Background(), e) {
		if r.Check == "app" && r.Level != OK {
			t.Errorf("with the relay set up, the app line asks for a forwarded socket: %+v", r)
		}
	}

	// Revoked on the desktop.
	st, _ = relay.LoadState(store)
	if err := st.Revoke("build-box"); err != nil {
		t.Fatal(err)
	}
	if err := st.Save(store); err != nil {
		t.Fatal(err)
	}
	r = relayLine(Check(context.Background(), e))
	if r.Level != Fail || !strings.Contains(r.Msg, "revoked on the desktop") || !strings.Contains(r.Fix, "pair again") ||
		!strings.Contains(r.Fix, "feedback-headless setup claude-code --relay") {
		t.Fatalf("a revoked pairing: %+v; want a FAIL saying to pair again", r)
	}

	// A wrong password here: a FAIL that says how to keep the right one.
	os.WriteFile(filepath.Join(h, ".config", "feedback", relay.PasswordFile), []byte("wrong"), 0o600)
	r = relayLine(Check(context.Background(), e))
	if r.Level != Fail || !strings.Contains(r.Fix, "feedback-headless relay password") {
		t.Fatalf("a wrong password: %+v", r)
	}

	// The desktop away: a WARN. (It is stopped before the pairing is
	// made: a desktop that took it up before it stopped kept answering
	// for a moment, 1 run in 3.)
	stop()
	st, _ = relay.LoadState(store)
	tok2, _ := st.Pair("other")
	st.Save(store)
	tok2.Broker, _ = relay.WithUser(tok2.Broker, "remote")
	relay.WritePassword(filepath.Join(h, ".config", "feedback", relay.PasswordFile), b.Password("remote"))
	e.Timeout = time.Second
	t.Setenv(relay.EnvToken, tok2.String())
	rs := Check(context.Background(), e)
	var away Result
	for _, r := range rs {
		if r.Check == "relay" && strings.Contains(r.Msg, `"other"`) {
			away = r
		}
	}
	if away.Level != Warn || !strings.Contains(away.Msg, "did not answer") {
		t.Fatalf("the desktop away: %+v", away)
	}
}
