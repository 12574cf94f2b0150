package e2e

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"feedback/e2e/internal/fakeapp"
	"feedback/ipc"
	"feedback/ipc/relay"
	"feedback/ipc/wire"
)

// relayShims is how many remote shims ask at once through one broker (#33).
const relayShims = 50

// TestRelayFiftyShimsAtOnce: 50 real headless shims, each a remote host
// of its own (no display, no socket, FEEDBACK_RELAY), ask at the same
// moment through one real mosquitto; the desktop is the relay's real
// desktop side feeding the real inbox, with a double in place of the
// windows (fakeapp). Every question is shown once and every caller gets
// its own answer: none lost, none crossed. It needs no display.
func TestRelayFiftyShimsAtOnce(t *testing.T) {
	if bin == "" {
		t.Skip("needs FEEDBACK_BIN and FEEDBACK_HEADLESS_BIN (`make e2e` sets them)")
	}
	headless := headlessAlone(t)
	b := startMQTTBroker(t)
	dir, err := os.MkdirTemp("", "fbrl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	p := &fakeapp.Presenter{Delay: func(wire.Question) time.Duration { return 20 * time.Millisecond }}
	app, err := fakeapp.Start(dir, p, ipc.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { app.Close() })

	// The desktop: a pairing in its store, its relay side on the inbox.
	store, pwPath, statusPath := filepath.Join(dir, relay.StoreFile), filepath.Join(dir, relay.PasswordFile), filepath.Join(dir, relay.StatusFile)
	var st relay.State
	if err := st.SetBroker(b.URL("desk")); err != nil {
		t.Fatal(err)
	}
	tok, err := st.Pair("fleet")
	if err != nil {
		t.Fatal(err)
	}
	if tok.Broker, err = relay.WithUser(tok.Broker, "remote"); err != nil {
		t.Fatal(err)
	}
	if err := st.Save(store); err != nil {
		t.Fatal(err)
	}
	if err := relay.WritePassword(pwPath, b.Password("desk")); err != nil {
		t.Fatal(err)
	}
	d := relay.NewDesktop(relay.DesktopOptions{Asker: app.Inbox, StorePath: store, PasswordPath: pwPath, StatusPath: statusPath, Poll: 100 * time.Millisecond})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { d.Run(ctx); close(done) }()
	t.Cleanup(func() { cancel(); <-done })
	waitFor(t, "the desktop to subscribe", 20*time.Second, func() bool { s := d.Status(); return s.Connected && s.Pairings == 1 })

	// Fifty remote shims, started together; their environments are made
	// first, on the test's goroutine (relayShimEnv may fail the test).
	envs := make([][]string, relayShims)
	for i := range envs {
		envs[i] = relayShimEnv(t, b, tok.String())
	}
	shims := startShimsBy(t, relayShims, relayShims, func(i int) (*loadShim, error) {
		return startLoadShim(headless, fmt.Sprintf("remote-%d", i), envs[i])
	})
	var wg sync.WaitGroup
	start := make(chan struct{})
	results := make([]string, relayShims)
	callErrs := make([]error, relayShims)
	for i, s := range shims {
		wg.Go(func() {
			<-start
			cctx, ccancel := context.WithTimeout(context.Background(), 90*time.Second)
			defer ccancel()
			res, err := s.ask(cctx, fmt.Sprintf("remote question %02d of the fleet", i))
			if err == nil && res.IsError {
				err = fmt.Errorf("isError: %s (stderr: %s)", text(res), s.stderr.String())
			}
			if err == nil {
				results[i] = text(res)
			}
			callErrs[i] = err
		})
	}
	t0 := time.Now()
	close(start)
	wg.Wait()
	t.Logf("%d remote questions answered through the broker in %v", relayShims, time.Since(t0).Round(time.Millisecond))
	for i := range shims {
		if callErrs[i] != nil {
			t.Errorf("shim %d: %v", i, callErrs[i])
			continue
		}
		want := fakeapp.ReplyFor(fmt.Sprintf("remote question %02d of the fleet", i), "")
		want = strings.TrimSuffix(want, " #") // the reversed question: the id is the desktop's
		if !strings.Contains(results[i], want) {
			t.Errorf("shim %d got another's answer or none: %q", i, results[i])
		}
	}
	if st := p.Stats(); len(st.Shown) != relayShims {
		t.Errorf("%d questions shown, want %d", len(st.Shown), relayShims)
	}
}
