package relay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"feedback/internal/mqtttest"
	"feedback/ipc/wire"
)

// fakeAsker answers each question by its function; it records the
// questions it was asked.
type fakeAsker struct {
	answer func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error)
	mu     sync.Mutex
	asked  []wire.Ask
}

func (f *fakeAsker) Ask(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
	f.mu.Lock()
	f.asked = append(f.asked, a)
	f.mu.Unlock()
	return f.answer(ctx, a, emit)
}

func echo(_ context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
	emit(wire.Event{Type: wire.EventShown})
	return wire.Answer{QuestionID: a.Question.ID, Status: wire.StatusAnswered,
		Replies: []wire.Reply{{Text: "re: " + a.Question.Prompts[0].Markdown}}}, nil
}

// desk is a desktop of the test: its files in a temporary directory,
// its Desktop running until the test ends (or stop).
type desk struct {
	log   *slog.Logger // nil: the test's log
	grace time.Duration
	dir   string
	d     *Desktop
	stop  func()
	store string
}

func startDesk(t *testing.T, b *mqtttest.Broker, asker wire.Asker) *desk {
	t.Helper()
	return startDeskGrace(t, b, asker, 0)
}

// startDeskGrace is startDesk with DesktopOptions.GoneGrace.
func startDeskGrace(t *testing.T, b *mqtttest.Broker, asker wire.Asker, grace time.Duration) *desk {
	t.Helper()
	return startDeskWith(t, b, asker, grace, nil)
}

// startDeskWith is startDesk with DesktopOptions.GoneGrace and Logger
// (nil: the test's log).
func startDeskWith(t *testing.T, b *mqtttest.Broker, asker wire.Asker, grace time.Duration, log *slog.Logger) *desk {
	t.Helper()
	dir := t.TempDir()
	ds := &desk{dir: dir, store: filepath.Join(dir, StoreFile), grace: grace, log: log}
	st, _ := LoadState(ds.store)
	if st.Broker == "" {
		if err := st.SetBroker(b.URL("desk")); err != nil {
			t.Fatal(err)
		}
		if err := st.Save(ds.store); err != nil {
			t.Fatal(err)
		}
		if err := WritePassword(filepath.Join(dir, PasswordFile), b.Password("desk")); err != nil {
			t.Fatal(err)
		}
	}
	ds.run(t, asker)
	return ds
}

func (ds *desk) run(t *testing.T, asker wire.Asker) {
	log := ds.log
	if log == nil {
		log = testLogger(t)
	}
	ds.d = NewDesktop(DesktopOptions{Asker: asker, StorePath: ds.store, PasswordPath: filepath.Join(ds.dir, PasswordFile),
		StatusPath: filepath.Join(ds.dir, StatusFile), Poll: 100 * time.Millisecond, Logger: log, GoneGrace: ds.grace})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { ds.d.Run(ctx); close(done) }()
	ds.stop = func() { cancel(); <-done }
	t.Cleanup(ds.stop)
	waitFor(t, "the desktop to connect", func() bool { return ds.d.Status().Connected })
}

func (ds *desk) pair(t *testing.T, name string) Token {
	t.Helper()
	st, err := LoadState(ds.store)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := st.Pair(name)
	if err != nil {
		t.Fatal(err)
	}
	if err := st.Save(ds.store); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "the desktop to take the pairing", func() bool { return ds.d.Status().Pairings == len(st.Pairings) })
	return tok
}

func (ds *desk) revoke(t *testing.T, name string) {
	t.Helper()
	st, _ := LoadState(ds.store)
	if err := st.Revoke(name); err != nil {
		t.Fatal(err)
	}
	if err := st.Save(ds.store); err != nil {
		t.Fatal(err)
	}
}

// testLogger logs to the test's log.
func testLogger(t *testing.T) *slog.Logger {
	return slog.New(slog.NewTextHandler(tWriter{t}, &slog.HandlerOptions{Level: slog.LevelDebug}))
}

type tWriter struct{ t *testing.T }

func (w tWriter) Write(b []byte) (int, error) {
	w.t.Log(strings.TrimSpace(string(b)))
	return len(b), nil
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func dial(t *testing.T, b *mqtttest.Broker, tok Token) *Remote {
	t.Helper()
	r, err := Dial(context.Background(), tok, RemoteOptions{Password: b.Password("desk"), Host: "ci-runner-7", Logger: testLogger(t)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(r.Shutdown)
	return r
}

func question(id, text string, wait time.Duration) wire.Ask {
	return wire.Ask{Wait: wait, Question: wire.Question{ID: id, Client: "claude-code", Project: "shop",
		Prompts: []wire.Prompt{{Markdown: text}}}}
}

// outcome is what a remote's Ask returned.
type outcome struct {
	a   wire.Answer
	err error
}

// askAsync has r ask a on a goroutine of its own; the channel gets what
// Ask returned.
func askAsync(r *Remote, a wire.Ask) <-chan outcome {
	c := make(chan outcome, 1)
	go func() {
		ans, err := r.Ask(context.Background(), a, nil)
		c <- outcome{ans, err}
	}()
	return c
}

// within is the first value c gives (or its closing), waited for up to d;
// the test fails, saying missing, when none came.
func within[T any](t *testing.T, c <-chan T, d time.Duration, missing string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(d):
		t.Fatal(missing)
		var zero T
		return zero
	}
}

// hold is an Asker's answer that keeps the window open, unanswered, until
// its caller goes: opened hears it open, withdrawn (unless nil) is closed
// when it goes.
func hold(ctx context.Context, opened chan<- struct{}, withdrawn chan struct{}) (wire.Answer, error) {
	opened <- struct{}{}
	<-ctx.Done()
	if withdrawn != nil {
		close(withdrawn)
	}
	return wire.Answer{}, ctx.Err()
}

// refused says whether err is a refusal (a wire.Error) whose message
// holds each of words.
func refused(err error, words ...string) bool {
	var we *wire.Error
	if !errors.As(err, &we) {
		return false
	}
	for _, w := range words {
		if !strings.Contains(we.Message, w) {
			return false
		}
	}
	return true
}

func TestRelayAsksAndAnswersThroughTheBroker(t *testing.T) {
	b := startBroker(t)
	seen := b.Capture(t, "desk")
	fa := &fakeAsker{answer: echo}
	ds := startDesk(t, b, fa)
	tok := ds.pair(t, "build-box")
	r := dial(t, b, tok)

	var events []wire.EventType
	ans, err := r.Ask(context.Background(), question("q-1", "Deploy the unicorn-7731 release?", time.Minute), func(e wire.Event) { events = append(events, e.Type) })
	if err != nil {
		t.Fatal(err)
	}
	if ans.QuestionID != "q-1" || ans.Replies[0].Text != "re: Deploy the unicorn-7731 release?" {
		t.Fatalf("answer %+v", ans)
	}
	if fmt.Sprint(events) != "[queued shown answer]" {
		t.Fatalf("events %v", events)
	}
	q := fa.asked[0].Question
	if !strings.Contains(q.Client, "build-box") || q.Context[0].Label != "Remote" || !strings.Contains(q.Context[0].Value, "ci-runner-7") ||
		!strings.HasPrefix(q.ID, "relay-") || q.Project != "shop" {
		t.Fatalf("the desktop's question does not say where it comes from: %+v", q)
	}
	// What anyone on the broker saw: opaque topics, ciphertext.
	waitFor(t, "the capture to hold the answer's frames", func() bool { return strings.Count(seen(), "fbr/") >= 4 })
	for _, secret := range []string{"unicorn-7731", "Deploy", "re: ", "shop", "claude-code", "build-box", "ci-runner-7"} {
		if strings.Contains(seen(), secret) {
			t.Errorf("the broker saw %q", secret)
		}
	}
}

// revokedErr reports whether err is the refusal of a revoked pairing: its
// own code (never no_display: the desktop shows windows, not to it) and
// words that say what to do.
func revokedErr(err error) bool {
	return errors.Is(err, &wire.Error{Code: wire.CodeRevoked}) && refused(err, "revoked on the desktop", "pair again")
}

func TestRelayRevokedPairingIsRefusedAtOnce(t *testing.T) {
	b := startBroker(t)
	opened, withdrawn := make(chan struct{}, 1), make(chan struct{})
	fa := &fakeAsker{answer: func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		if a.Question.Prompts[0].Markdown == "block" {
			return hold(ctx, opened, withdrawn) // the window stays until withdrawn
		}
		return echo(ctx, a, emit)
	}}
	ds := startDesk(t, b, fa)
	tok := ds.pair(t, "laptop")
	keep := ds.pair(t, "other")
	r, other := dial(t, b, tok), dial(t, b, keep)

	res := askAsync(r, question("q-open", "block", time.Minute))
	<-opened
	ds.revoke(t, "laptop")
	within(t, withdrawn, 10*time.Second, "the revoked pairing's open question was not withdrawn")
	if err := within(t, res, 10*time.Second, "the open call was not told of the revocation").err; !revokedErr(err) {
		t.Fatalf("the open call ended with %v, want a refusal naming the revocation", err)
	}
	start := time.Now()
	_, err := r.Ask(context.Background(), question("q-2", "after revoke", time.Minute), nil)
	if !revokedErr(err) {
		t.Fatalf("after revoke: got %v, want a refusal naming the revocation", err)
	}
	if time.Since(start) > 5*time.Second {
		t.Fatalf("the refusal took %v", time.Since(start))
	}
	for _, a := range fa.asked {
		if a.Question.Prompts[0].Markdown == "after revoke" {
			t.Fatal("a revoked pairing's question reached the inbox")
		}
	}
	if _, err := other.Ask(context.Background(), question("q-3", "still paired", time.Minute), nil); err != nil {
		t.Fatalf("another pairing stopped too: %v", err)
	}
}

// A remote whose token holds another secret is told at once: the
// refusal's key comes from the pairing id and the desktop's public key,
// which such a token still holds right.
func TestRelayTamperedTokenIsRefused(t *testing.T) {
	b := startBroker(t)
	fa := &fakeAsker{answer: echo}
	ds := startDesk(t, b, fa)
	tok := ds.pair(t, "box")
	bad := tok
	bad.RemotePrivate[3] ^= 0x40 // a valid token (checksum recomputed) with another secret
	bad2, err := ParseToken(bad.String())
	if err != nil {
		t.Fatal(err)
	}
	r := dial(t, b, bad2)
	_, err = r.Ask(context.Background(), question("q", "hello", time.Minute), nil)
	if !refused(err, "do not open") {
		t.Fatalf("got %v, want a refusal", err)
	}
	if len(fa.asked) != 0 {
		t.Fatal("a tampered pairing's question reached the inbox")
	}
}

// A second will, of a later connection, that comes while the first
// will's grace runs (the remote reconnected, and that connection died
// too) is remembered as well: a late "back" of that connection is not a
// return; only a still later connection's is.
func TestRelayLateBackOfASecondVanishedConnection(t *testing.T) {
	b := startBroker(t)
	opened, seen := make(chan string, 1), make(chan string, 8)
	fa := &fakeAsker{answer: func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		if !a.AttachOnly {
			opened <- "open"
		} else {
			seen <- "attach"
		}
		<-ctx.Done()
		if a.AttachOnly {
			return wire.Answer{QuestionID: a.Question.ID}, wire.ErrPending
		}
		return wire.Answer{}, ctx.Err()
	}}
	const grace = 3 * time.Second
	ds := startDeskGrace(t, b, fa, grace)
	r := dial(t, b, ds.pair(t, "box"))
	say := func(kind string, conn uint64) {
		f, err := r.seal.seal(envelope{Stream: newStreamID(), Kind: kind, Reply: r.reply, Conn: conn}, r.reply, func() uint64 { return 0 })
		if err != nil {
			t.Fatal(err)
		}
		if tk := r.client.Publish(r.topics.Questions, 1, false, f[0]); !tk.WaitTimeout(5*time.Second) || tk.Error() != nil {
			t.Fatalf("publish: %v", tk.Error())
		}
	}
	go r.Ask(context.Background(), question("q-x", "x", time.Minute), nil)
	<-opened
	say(kindGone, 1)
	if got := within(t, seen, 5*time.Second, "the will handed nothing off"); got != "attach" {
		t.Fatalf("saw %q, want the hand-off's attach", got)
	}
	say(kindGone, 2) // connection 2 vanished as well, within the grace
	say(kindBack, 2) // late: connection 2 said it was back before it died
	select {
	case got := <-seen:
		t.Fatalf("saw %q after a back of connection 2, whose will came", got)
	case <-time.After(grace / 3):
	}
	say(kindBack, 3) // a connection that is alive: its call goes on
	if got := within(t, seen, 5*time.Second, "connection 3's back did not resume the call"); got != "attach" {
		t.Fatalf("saw %q, want the call attached again for connection 3", got)
	}
}

// A frame of another version of the relay (a remote of an older or newer
// feedback release) is refused, not dropped: the remote's call ends at
// once with an error that says to install the same release on both
// machines, instead of waiting as for a desktop that is away.
func TestRelayOtherVersionIsRefusedAndSaysWhy(t *testing.T) {
	b := startBroker(t)
	opened := make(chan struct{}, 1)
	fa := &fakeAsker{answer: func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		return hold(ctx, opened, nil)
	}}
	ds := startDesk(t, b, fa)
	r := dial(t, b, ds.pair(t, "box"))
	res := askAsync(r, question("q-open", "waits", time.Minute))
	<-opened
	// A frame of the same remote as a release speaking version 9 sends it.
	f, err := r.seal.seal(envelope{Stream: newStreamID(), Kind: kindAsk, Reply: r.reply}, r.reply, func() uint64 { return 1 << 40 })
	if err != nil {
		t.Fatal(err)
	}
	f[0][0] = 9
	r.mu.Lock() // sent by the waiting call, as a release of version 9 would have sent it
	for _, c := range r.calls {
		c.mu.Lock()
		c.nonces[[nonceSize]byte(frameNonce(f[0]))] = true
		c.mu.Unlock()
	}
	r.mu.Unlock()
	if tk := r.client.Publish(r.topics.Questions, 1, false, f[0]); !tk.WaitTimeout(5*time.Second) || tk.Error() != nil {
		t.Fatalf("publish: %v", tk.Error())
	}
	err = within(t, res, 10*time.Second, "a frame of another version was dropped: the remote's call was not told").err
	if !refused(err, "speaks version 1 of the relay", "install the same feedback release") {
		t.Fatalf("the call ended with %v, want a refusal naming the versions", err)
	}
	t.Logf("the remote's error: %v", err)
}

func TestRelayBrokerDownIsAnErrorNotAWait(t *testing.T) {
	b := startBroker(t)
	ds := startDesk(t, b, &fakeAsker{answer: echo})
	tok := ds.pair(t, "box")
	b.Stop()
	start := time.Now()
	_, err := Dial(context.Background(), tok, RemoteOptions{Password: b.Password("desk"), ConnectTimeout: 3 * time.Second})
	if !errors.Is(err, ErrBrokerDown) {
		t.Fatalf("got %v, want ErrBrokerDown", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("took %v", d)
	}
	if _, err := Dial(context.Background(), tok, RemoteOptions{Password: "wrong"}); err == nil {
		// the broker is down; a wrong password is checked once it is up
	}
	b.Start()
	if _, err := Dial(context.Background(), tok, RemoteOptions{Password: "wrong", ConnectTimeout: 3 * time.Second}); !errors.Is(err, ErrBrokerDown) {
		t.Fatalf("a wrong broker password: got %v", err)
	}
}

func TestRelayBrokerRestartMidQuestionLosesNothing(t *testing.T) {
	b := startBroker(t)
	release := make(chan struct{})
	opened := make(chan struct{}, 1)
	fa := &fakeAsker{answer: func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		opened <- struct{}{}
		select {
		case <-release:
		case <-ctx.Done():
			return wire.Answer{}, ctx.Err()
		}
		return echo(ctx, a, emit)
	}}
	ds := startDesk(t, b, fa)
	tok := ds.pair(t, "box")
	r := dial(t, b, tok)
	res := askAsync(r, question("q-r", "across a restart", time.Minute))
	<-opened
	b.Stop()
	waitFor(t, "the desktop to see the broker gone", func() bool { return !ds.d.Status().Connected })
	close(release) // answered while the broker is down: the desktop's client keeps it
	b.Start()
	if got := within(t, res, 30*time.Second, "the answer was lost across the broker's restart"); got.err != nil || got.a.Replies[0].Text != "re: across a restart" {
		t.Fatalf("got %+v, %v", got.a, got.err)
	}
}

func TestRelayQuestionAskedWhileDesktopOfflineOpensOnReconnect(t *testing.T) {
	b := startBroker(t)
	fa := &fakeAsker{answer: echo}
	ds := startDesk(t, b, fa)
	tok := ds.pair(t, "box")
	ds.stop() // the desktop sleeps; its session stays at the broker
	seen := b.Capture(t, "desk")
	r := dial(t, b, tok)
	res := askAsync(r, question("q-off", "while you slept", time.Minute))
	waitFor(t, "the question to reach the broker", func() bool { return strings.Contains(seen(), TopicsOf(tok.ID).Questions) })
	ds.run(t, fa)
	if got := within(t, res, 30*time.Second, "the question asked while the desktop was offline never opened"); got.err != nil || got.a.Replies[0].Text != "re: while you slept" {
		t.Fatalf("got %+v, %v", got.a, got.err)
	}
}

func TestRelayFiftyRemotesAtOnce(t *testing.T) {
	b := startBroker(t)
	fa := &fakeAsker{answer: func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		time.Sleep(50 * time.Millisecond) // all fifty are open at once
		return echo(ctx, a, emit)
	}}
	ds := startDesk(t, b, fa)
	tok := ds.pair(t, "fleet")
	const n = 50
	remotes := make([]*Remote, n)
	for i := range remotes {
		remotes[i] = dial(t, b, tok)
	}
	var wg sync.WaitGroup
	errs := make(chan error, n)
	for i, r := range remotes {
		wg.Add(1)
		go func() {
			defer wg.Done()
			text := fmt.Sprintf("question number %d", i)
			a, err := r.Ask(context.Background(), question(fmt.Sprintf("q-%d", i), text, time.Minute), nil)
			switch {
			case err != nil:
				errs <- fmt.Errorf("%d: %w", i, err)
			case a.QuestionID != fmt.Sprintf("q-%d", i) || a.Replies[0].Text != "re: "+text:
				errs <- fmt.Errorf("%d: crossed: got %+v", i, a)
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

func TestRelayLargeImageArrivesInParts(t *testing.T) {
	b := startBroker(t, "message_size_limit 300000")
	img := bytes.Repeat([]byte("PNGDATA-"), 200<<10) // 1.6 MB, above the broker's limit
	fa := &fakeAsker{answer: func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		return wire.Answer{QuestionID: a.Question.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "see"}},
			Images: []wire.Image{{MIME: "image/png", Data: img}}}, nil
	}}
	ds := startDesk(t, b, fa)
	r := dial(t, b, ds.pair(t, "box"))
	a, err := r.Ask(context.Background(), question("q", "screenshot?", time.Minute), nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Images) != 1 || !bytes.Equal(a.Images[0].Data, img) {
		t.Fatal("the image did not arrive whole")
	}
}

func TestRelayCancelWithdrawsTheQuestion(t *testing.T) {
	b := startBroker(t)
	withdrawn := make(chan struct{})
	opened := make(chan struct{}, 1)
	fa := &fakeAsker{answer: func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		return hold(ctx, opened, withdrawn)
	}}
	ds := startDesk(t, b, fa)
	r := dial(t, b, ds.pair(t, "box"))
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-opened; cancel() }()
	if _, err := r.Ask(ctx, question("q", "cancel me", time.Minute), nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("got %v", err)
	}
	within(t, withdrawn, 10*time.Second, "the desktop kept the cancelled question open")
}

// A remote process that vanishes (its will) is treated as a local shim
// whose wait ran out, not as a caller that cancelled: a second,
// attach-only caller joins its window before its own ask ends, so the app
// keeps the window (and its answer) for the next identical call. If it
// comes back its call attaches to the window again; a late will of an
// earlier connection is ignored. A revocation withdraws it.
func TestRelayWillOfAVanishedRemoteHandsItsQuestionsOff(t *testing.T) {
	b := startBroker(t)
	opened := make(chan string, 4)
	seen := make(chan string, 16) // "attach TEXT", "left TEXT", in order
	fa := &fakeAsker{answer: func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		text := a.Question.Prompts[0].Markdown
		if a.AttachOnly {
			seen <- "attach " + text
			emit(wire.Event{Type: wire.EventShown})
			select {
			case <-ctx.Done():
				seen <- "left " + text
				return wire.Answer{}, ctx.Err()
			case <-time.After(a.Wait):
				return wire.Answer{QuestionID: a.Question.ID}, wire.ErrPending
			}
		}
		opened <- text
		<-ctx.Done()
		seen <- "left " + text
		return wire.Answer{}, ctx.Err()
	}}
	const grace = 300 * time.Millisecond
	ds := startDeskGrace(t, b, fa, grace)
	tok := ds.pair(t, "box")
	// The frames the broker would publish for the remote: its will, and
	// its "back" of a later connection.
	say := func(r *Remote, kind string, conn uint64) {
		f, err := r.seal.seal(envelope{Stream: newStreamID(), Kind: kind, Reply: r.reply, Conn: conn}, r.reply, func() uint64 { return 0 })
		if err != nil {
			t.Fatal(err)
		}
		if tk := r.client.Publish(r.topics.Questions, 1, false, f[0]); !tk.WaitTimeout(5*time.Second) || tk.Error() != nil {
			t.Fatalf("publish: %v", tk.Error())
		}
	}
	ask := func(r *Remote, text string) {
		go r.Ask(context.Background(), question("q-"+text, text, time.Minute), nil)
		if got := <-opened; got != text {
			t.Fatalf("opened %q", got)
		}
	}
	next := func(t *testing.T, want string) {
		t.Helper()
		select {
		case got := <-seen:
			if got != want {
				t.Fatalf("saw %q, want %q", got, want)
			}
		case <-time.After(grace + 5*time.Second):
			t.Fatalf("never saw %q", want)
		}
	}

	t.Run("vanished", func(t *testing.T) {
		r := dial(t, b, tok)
		ask(r, "vanished")
		say(r, kindGone, 1)
		next(t, "attach vanished") // the window gets a caller that keeps it open
		next(t, "left vanished")   // before the vanished call's ask ends
		// A "back" of the vanished connection itself, delivered after its
		// will (the remote says it again a moment after connecting): not
		// a return, so the call is not attached again.
		say(r, kindBack, 1)
		select {
		case got := <-seen:
			t.Fatalf("saw %q after a back of the connection whose will came", got)
		case <-time.After(grace):
		}
	})
	t.Run("came back", func(t *testing.T) {
		r := dial(t, b, tok)
		ask(r, "came back")
		say(r, kindGone, 1)
		next(t, "attach came back")
		next(t, "left came back")
		say(r, kindBack, 2)
		next(t, "attach came back") // its call attaches to the window again
		say(r, kindGone, 1)         // the old will again, late: ignored
		select {
		case got := <-seen:
			t.Fatalf("saw %q though its remote came back", got)
		case <-time.After(grace * 4):
		}
		say(r, kindGone, 2) // now it vanishes for real
		next(t, "attach came back")
		next(t, "left came back")
	})
	// A question kept open for a remote that did not come back goes when
	// its pairing is revoked, as an open one does.
	t.Run("revoked", func(t *testing.T) {
		r := dial(t, b, tok)
		ask(r, "held")
		say(r, kindGone, 1)
		next(t, "attach held")
		next(t, "left held")
		waitFor(t, "the desktop to give the remote up", func() bool {
			ds.d.mu.Lock()
			defer ds.d.mu.Unlock()
			return len(ds.d.held[r.topics.Questions]) > 0 && !ds.d.hasCallsLocked(r.reply)
		})
		ds.revoke(t, "box")
		// A caller joins each window kept for the pairing and leaves:
		// withdrawn ("vanished" of the first subtest goes too).
		var attached bool
		for deadline := time.After(10 * time.Second); ; {
			select {
			case got := <-seen:
				attached = attached || got == "attach held"
				if got == "left held" {
					if !attached {
						t.Fatal("left before a caller attached")
					}
					return
				}
			case <-deadline:
				t.Fatal("the held question of the revoked pairing was not withdrawn")
			}
		}
	})
}
