package core

import (
	"testing"
	"time"

	"feedback/uiproto"
	"feedback/wire"
)

// The core, not the UI process, owns the deadline: a UI process that never
// reports the timeout (stopped, hung) does not keep the question open. It
// ends as timed out — never as an answer — shortly after its deadline, and
// its window is withdrawn.
func TestUIProcessTimesOutWhatTheUIDoesNotEnd(t *testing.T) {
	f := newFakeProcs()
	u := NewUIProcess(UIProcessOptions{Start: f.start, Linger: time.Hour, TimeoutGrace: 100 * time.Millisecond})
	defer u.Close(time.Second)
	l, h := newHooks()
	start := time.Now()
	u.ShowDraft(wire.Question{ID: "q", TimeoutSeconds: 1, Prompts: []wire.Prompt{{Markdown: "Q"}}}, nil, h)
	ui := f.next(t)
	expect[uiproto.Show](t, ui)
	a := receive(t, l.done, "the core's timeout")
	if took := time.Since(start); took < time.Second || took > 3*time.Second {
		t.Errorf("timed out after %v, want just after the 1 s deadline and its grace", took)
	}
	if a.Status != wire.StatusTimeout || a.QuestionID != "q" || len(a.Replies) != 0 {
		t.Errorf("outcome = %+v, want a timeout with no reply", a)
	}
	if m := expect[uiproto.Withdraw](t, ui); m.ID != "q" {
		t.Errorf("withdraw = %+v", m)
	}
	if u.Open() != 0 {
		t.Errorf("%d windows open after the timeout", u.Open())
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
	u := NewUIProcess(UIProcessOptions{Start: f.start, Linger: time.Hour, TimeoutGrace: 10 * time.Millisecond})
	defer u.Close(time.Second)
	u.SetDefaultTimeout(300 * time.Millisecond)
	l, h := newHooks()
	u.ShowDraft(wire.Question{ID: "q", Prompts: []wire.Prompt{{Markdown: "Q"}}}, nil, h)
	expect[uiproto.Show](t, f.next(t))
	if a := receive(t, l.done, "the core's timeout"); a.Status != wire.StatusTimeout {
		t.Errorf("outcome = %+v, want a timeout", a)
	}
	// No limit at all (negative): nothing times it out.
	_, h2 := newHooks()
	u.SetDefaultTimeout(0)
	u.ShowDraft(wire.Question{ID: "n", TimeoutSeconds: -1, Prompts: []wire.Prompt{{Markdown: "N"}}}, nil, h2)
	time.Sleep(400 * time.Millisecond)
	if u.Open() != 1 {
		t.Errorf("a question without a countdown ended: %d open", u.Open())
	}
}

// The countdown the UI reports moves the core's deadline: held by the
// user's edit it never times out; extended, it times out at the new
// deadline, not the first.
func TestUIProcessFollowsTheReportedCountdown(t *testing.T) {
	f := newFakeProcs()
	u := NewUIProcess(UIProcessOptions{Start: f.start, Linger: time.Hour, TimeoutGrace: 10 * time.Millisecond})
	defer u.Close(time.Second)
	lh, hh := newHooks()
	le, he := newHooks()
	u.ShowDraft(wire.Question{ID: "held", TimeoutSeconds: 1, Prompts: []wire.Prompt{{Markdown: "H"}}}, nil, hh)
	u.ShowDraft(wire.Question{ID: "ext", TimeoutSeconds: 1, Prompts: []wire.Prompt{{Markdown: "E"}}}, nil, he)
	ui := f.next(t)
	expect[uiproto.Show](t, ui)
	expect[uiproto.Show](t, ui)
	extended := time.Now().Add(1500 * time.Millisecond)
	ui.send(t, uiproto.CountdownChanged{ID: "held", Countdown: wire.Countdown{Deadline: time.Now().Add(time.Second), Held: true}})
	ui.send(t, uiproto.CountdownChanged{ID: "ext", Countdown: wire.Countdown{Deadline: extended}})
	a := receive(t, le.done, "the extended question's timeout")
	if a.Status != wire.StatusTimeout || time.Now().Before(extended) {
		t.Errorf("extended question ended %+v at %v, want a timeout after %v", a, time.Now(), extended)
	}
	select {
	case a := <-lh.done:
		t.Errorf("the held question ended: %+v", a)
	case <-time.After(200 * time.Millisecond):
	}
}

// A UI process that stops answering (SIGSTOP) is noticed by the heartbeat:
// killed and restarted, its windows shown again quietly with their
// countdown running to the core's deadline — not from the start, even
// though the stopped process never reported one.
func TestUIProcessHeartbeatRestartsAStoppedUI(t *testing.T) {
	f := newFakeProcs()
	u := NewUIProcess(UIProcessOptions{Start: f.start, Linger: time.Hour, Heartbeat: 30 * time.Millisecond, HeartbeatMisses: 3})
	defer u.Close(time.Second)
	_, h := newHooks()
	ui := func() *fakeProc {
		u.Prewarm()
		return f.next(t)
	}()
	// It answers its pings: it runs on.
	for deadline := time.Now().Add(5 * time.Second); ui.pings.Load() < 5; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d pings answered, want the heartbeat running", ui.pings.Load())
		}
	}
	close(ui.stop)
	shown := time.Now()
	u.ShowDraft(wire.Question{ID: "q", TimeoutSeconds: 600, Prompts: []wire.Prompt{{Markdown: "Q"}}}, nil, h)
	select {
	case <-ui.killed:
	case <-time.After(5 * time.Second):
		t.Fatal("the stopped UI process was not killed")
	}
	ui2 := f.next(t)
	m := expect[uiproto.Show](t, ui2)
	if !m.Quiet {
		t.Error("the window came back taking the focus; want it quiet")
	}
	if want := shown.Add(600 * time.Second); m.Countdown == nil || m.Countdown.Deadline.Before(want.Add(-time.Second)) || m.Countdown.Deadline.After(want.Add(time.Second)) {
		t.Errorf("countdown shown again = %+v, want running to %v (the core's deadline)", m.Countdown, want)
	}
	if u.Open() != 1 {
		t.Errorf("%d windows open, want the one", u.Open())
	}
}

// A UI process that does not exit when the app closes (stopped) is killed,
// not left behind.
func TestUIProcessCloseKillsAStoppedUI(t *testing.T) {
	f := newFakeProcs()
	u := NewUIProcess(UIProcessOptions{Start: f.start, Linger: time.Hour})
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
