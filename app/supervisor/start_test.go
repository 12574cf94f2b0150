package supervisor

import (
	"feedback/app/core/coretest"
	"testing"
	"time"

	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// A UI process starting (fork/exec, which may take long on a loaded
// machine) holds up neither the callers nor the events of the process
// before it: while a new one's start blocks, the last draft of a window
// the exiting one closes still reaches the inbox, and another question's
// window is handed over at once; both windows then open in the new one.
func TestUIProcessStartHoldsUpNothing(t *testing.T) {
	f := newFakeProcs()
	f.exitLate = true
	gate := make(chan struct{})
	starting := make(chan struct{}, 4)
	blocking := false
	u := New(Options{Linger: -1, Start: func() (Child, error) {
		if blocking {
			starting <- struct{}{}
			<-gate
		}
		return f.start()
	}})
	defer u.Close(time.Second)
	defer close(gate)
	la, ha := newHooks()
	showDraft(t, u, wire.Question{ID: "a", Prompts: []wire.Prompt{{Markdown: "A"}}}, nil, ha)
	ui := f.next(t)
	expect[uiproto.Show](t, ui)
	withdraw(u, "a") // closing: its last draft may still come
	expect[uiproto.Withdraw](t, ui)
	expect[uiproto.Exit](t, ui) // no window: it exits at once (Linger < 0) — but reads on (exitLate)

	blocking = true // (read by the next start, which the next question causes)
	_, hb := newHooks()
	showDraft(t, u, wire.Question{ID: "b", Prompts: []wire.Prompt{{Markdown: "B"}}}, nil, hb)
	receive(t, starting, "the second UI process's start")
	ui.send(t, draftEvent("a", draftOf("the last keys")))
	if d := receive(t, la.drafts, "the closing window's last draft, during the start"); d.Replies[0].Text != "the last keys" {
		t.Errorf("draft = %+v", d)
	}
	_, hc := newHooks()
	showDraft(t, u, wire.Question{ID: "c", Prompts: []wire.Prompt{{Markdown: "C"}}}, nil, hc)
	if !u.Running() {
		t.Error("a UI process starting does not count as running")
	}

	gate <- struct{}{}
	ui2 := f.next(t)
	for _, id := range []string{"b", "c"} {
		if m := expect[uiproto.Show](t, ui2); m.Question.ID != id || m.Quiet {
			t.Errorf("show = %+v, want %s taking the focus", m, id)
		}
	}
	ui.crash()
}

// Waking a sleeping UI process (SIGCONT) holds up no caller either: the
// signal is given in order with the commands, outside the supervisor's
// lock.
func TestUIProcessSignalsHoldUpNothing(t *testing.T) {
	f := newFakeProcs()
	f.sleeps = true
	f.contGate, f.conting = make(chan struct{}), make(chan struct{}, 4)
	u := New(Options{Start: f.start, Linger: 20 * time.Millisecond, Sleep: true})
	defer u.Close(time.Second)
	defer close(f.contGate)
	u.Prewarm()
	ui := f.next(t)
	expect[uiproto.Warm](t, ui)
	expect[uiproto.Sleep](t, ui)
	ui.send(t, uiproto.Sleeping{})
	coretest.Eventually(t, "it", func() bool { return ui.stops.Load() == 1 })

	_, h := newHooks()
	showDraft(t, u, wire.Question{ID: "a", Prompts: []wire.Prompt{{Markdown: "A"}}}, nil, h)
	receive(t, f.conting, "the SIGCONT")
	_, h2 := newHooks()
	showDraft(t, u, wire.Question{ID: "b", Prompts: []wire.Prompt{{Markdown: "B"}}}, nil, h2)
	f.contGate <- struct{}{} // (the gate is closed at the end)
	for _, id := range []string{"a", "b"} {
		if m := expect[uiproto.Show](t, ui); m.Question.ID != id {
			t.Errorf("show %q, want %q", m.Question.ID, id)
		}
	}
	if n := ui.conts.Load(); n != 1 {
		t.Errorf("continued %d times, want once", n)
	}
}
