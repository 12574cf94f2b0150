package supervisor

import (
	"feedback/app/clock/clocktest"
	"feedback/app/core"
	"testing"
	"time"

	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// The core, not the UI process, owns the deadline: a UI process that never
// reports the timeout (stopped, hung) does not keep the question open. It
// ends as timed out — never as an answer — shortly after its deadline, and
// its window is withdrawn.
func TestUIProcessTimesOutWhatTheUIDoesNotEnd(t *testing.T) {
	f := newFakeProcs()
	clock := clocktest.New()
	u := New(Options{Start: f.start, Linger: time.Hour, Clock: clock})
	harnessWith(u, core.Options{TimeoutGrace: 100 * time.Millisecond})
	defer u.Close(time.Second)
	l, h := newHooks()
	showDraft(t, u, wire.Question{ID: "q", TimeoutSeconds: 1, Prompts: []wire.Prompt{{Markdown: "Q"}}}, nil, h)
	ui := f.next(t)
	expect[uiproto.Show](t, ui)
	clock.Advance(time.Second + 100*time.Millisecond - time.Millisecond)
	select {
	case a := <-l.done:
		t.Fatalf("ended %+v before the 1 s deadline and its grace", a)
	default:
	}
	clock.Advance(time.Millisecond)
	a := receive(t, l.done, "the core's timeout")
	if a.Status != wire.StatusTimeout || a.QuestionID != "q" || len(a.Replies) != 0 {
		t.Errorf("outcome = %+v, want a timeout with no reply", a)
	}
	if m := expect[uiproto.Withdraw](t, ui); m.ID != "q" {
		t.Errorf("withdraw = %+v", m)
	}
	if windowsOpen(u) != 0 {
		t.Errorf("%d windows open after the timeout", windowsOpen(u))
	}
	// The UI's own late outcome is not a second one.
	ui.send(t, uiproto.Done{ID: "q", Answer: wire.Answer{Status: wire.StatusAnswered}})
	select {
	case a := <-l.done:
		t.Errorf("a second outcome %+v", a)
	case <-time.After(100 * time.Millisecond):
	}
}

// The default countdown (settings' timeout_seconds) is the core's too.
func TestUIProcessDefaultTimeout(t *testing.T) {
	f := newFakeProcs()
	clock := clocktest.New()
	u := New(Options{Start: f.start, Linger: time.Hour, Clock: clock})
	harnessWith(u, core.Options{TimeoutGrace: 10 * time.Millisecond})
	defer u.Close(time.Second)
	harnessOf(u).in.SetDefaultTimeout(300 * time.Millisecond)
	l, h := newHooks()
	showDraft(t, u, wire.Question{ID: "q", Prompts: []wire.Prompt{{Markdown: "Q"}}}, nil, h)
	expect[uiproto.Show](t, f.next(t))
	clock.Advance(310 * time.Millisecond)
	if a := receive(t, l.done, "the core's timeout"); a.Status != wire.StatusTimeout {
		t.Errorf("outcome = %+v, want a timeout", a)
	}
	// No limit at all (negative): nothing times it out.
	_, h2 := newHooks()
	harnessOf(u).in.SetDefaultTimeout(0)
	showDraft(t, u, wire.Question{ID: "n", TimeoutSeconds: -1, Prompts: []wire.Prompt{{Markdown: "N"}}}, nil, h2)
	clock.Advance(24 * time.Hour)
	if windowsOpen(u) != 1 {
		t.Errorf("a question without a countdown ended: %d open", windowsOpen(u))
	}
}

// The countdown the UI reports moves the core's deadline: held by the
// user's edit it never times out; extended, it times out at the new
// deadline, not the first.
func TestUIProcessFollowsTheReportedCountdown(t *testing.T) {
	f := newFakeProcs()
	clock := clocktest.New()
	u := New(Options{Start: f.start, Linger: time.Hour, Clock: clock})
	harnessWith(u, core.Options{TimeoutGrace: 10 * time.Millisecond})
	defer u.Close(time.Second)
	lh, hh := newHooks()
	le, he := newHooks()
	showDraft(t, u, wire.Question{ID: "held", TimeoutSeconds: 1, Prompts: []wire.Prompt{{Markdown: "H"}}}, nil, hh)
	showDraft(t, u, wire.Question{ID: "ext", TimeoutSeconds: 1, Prompts: []wire.Prompt{{Markdown: "E"}}}, nil, he)
	ui := f.next(t)
	expect[uiproto.Show](t, ui)
	expect[uiproto.Show](t, ui)
	extended := clock.Now().Add(1500 * time.Millisecond)
	ui.send(t, uiproto.CountdownChanged{ID: "held", Countdown: wire.Countdown{Deadline: clock.Now().Add(time.Second), Held: true}})
	ui.send(t, uiproto.CountdownChanged{ID: "ext", Countdown: wire.Countdown{Deadline: extended}})
	// (One goroutine takes the UI's events in order: the held one is in
	// once the extended one is.)
	clock.WaitArmed(t, extended.Add(10*time.Millisecond), "the extended deadline")
	// The first deadline passes: neither ends.
	clock.Advance(1200 * time.Millisecond)
	select {
	case a := <-le.done:
		t.Fatalf("the extended question ended at its first deadline: %+v", a)
	case a := <-lh.done:
		t.Fatalf("the held question ended: %+v", a)
	default:
	}
	clock.Advance(400 * time.Millisecond)
	if a := receive(t, le.done, "the extended question's timeout"); a.Status != wire.StatusTimeout {
		t.Errorf("extended question ended %+v, want a timeout", a)
	}
	clock.Advance(24 * time.Hour)
	select {
	case a := <-lh.done:
		t.Errorf("the held question ended: %+v", a)
	default:
	}
}

// A UI process that stops answering (SIGSTOP) is noticed by the heartbeat:
// killed and restarted, its windows shown again quietly with their
// countdown running to the core's deadline — not from the start, even
// though the stopped process never reported one.
func TestUIProcessHeartbeatRestartsAStoppedUI(t *testing.T) {
	f := newFakeProcs()
	clock := clocktest.New()
	u := New(Options{Start: f.start, Linger: time.Hour, Heartbeat: 30 * time.Millisecond, HeartbeatMisses: 3, Clock: clock})
	defer u.Close(time.Second)
	_, h := newHooks()
	ui := func() *fakeProc {
		u.Prewarm()
		return f.next(t)
	}()
	waitUntil(t, "the heartbeat's ticker", func() bool { return clock.Tickers() == 1 })
	// It answers its pings: it runs on.
	for i := int32(1); i <= 5; i++ {
		clock.Advance(30 * time.Millisecond)
		waitUntil(t, "the ping answered", func() bool { return ui.pings.Load() >= i })
	}
	select {
	case <-ui.killed:
		t.Fatal("a UI process answering its pings was killed")
	default:
	}
	close(ui.stop)
	shown := clock.Now()
	showDraft(t, u, wire.Question{ID: "q", TimeoutSeconds: 600, Prompts: []wire.Prompt{{Markdown: "Q"}}}, nil, h)
	// Its pings go unanswered: a tick after the third it is killed.
	for deadline := time.Now().Add(5 * time.Second); ; {
		clock.Advance(30 * time.Millisecond)
		select {
		case <-ui.killed:
		case <-time.After(10 * time.Millisecond): // the heartbeat takes the tick on its own goroutine
			if time.Now().After(deadline) {
				t.Fatal("the stopped UI process was not killed")
			}
			continue
		}
		break
	}
	// Restarted at once (no backoff after a first failure).
	waitUntil(t, "the restart", func() bool { clock.Advance(0); return len(f.started) > 0 })
	ui2 := f.next(t)
	m := expect[uiproto.Show](t, ui2)
	if !m.Quiet {
		t.Error("the window came back taking the focus; want it quiet")
	}
	if want := shown.Add(600 * time.Second); m.Countdown == nil || !m.Countdown.Deadline.Equal(want) {
		t.Errorf("countdown shown again = %+v, want running to %v (the core's deadline)", m.Countdown, want)
	}
	if windowsOpen(u) != 1 {
		t.Errorf("%d windows open, want the one", windowsOpen(u))
	}
}

// waitUntil polls ok (what another goroutine does) until it holds, for up
// to 5 s.
func waitUntil(t *testing.T, what string, ok func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !ok(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited 5 s for %s", what)
		}
	}
}

// A UI process that does not exit when the app closes (stopped) is killed,
// not left behind.
func TestUIProcessCloseKillsAStoppedUI(t *testing.T) {
	f := newFakeProcs()
	u := New(Options{Start: f.start, Linger: time.Hour})
	u.Prewarm()
	ui := f.next(t)
	close(ui.stop)
	u.Close(50 * time.Millisecond)
	select {
	case <-ui.killed:
	case <-time.After(5 * time.Second):
		t.Fatal("the stopped UI process was left behind")
	}
}
