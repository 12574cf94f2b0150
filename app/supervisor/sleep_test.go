package supervisor

import (
	"feedback/app/core/coretest"
	"testing"
	"time"

	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// askAndAnswer shows question id in ui and answers it there.
func askAndAnswer(t *testing.T, u *UIProcess, ui *fakeProc, id string) {
	t.Helper()
	l, h := newHooks()
	showDraft(t, u, wire.Question{ID: id, Prompts: []wire.Prompt{{Markdown: id}}}, nil, h)
	if m := expect[uiproto.Show](t, ui); m.Question.ID != id {
		t.Fatalf("showed %q, want %q", m.Question.ID, id)
	}
	ui.send(t, uiproto.Done{ID: id, Answer: wire.Answer{Status: wire.StatusAnswered}})
	receive(t, l.done, "answer")
}

// With Sleep, the linger time ends in a stopped UI process, not an ended
// one: the heartbeat leaves it alone, and the next window goes to it,
// woken first, with no new process; idle again, it sleeps again.
func TestUIProcessSleepsAfterTheLingerAndWakesForTheNextWindow(t *testing.T) {
	f := newFakeProcs()
	f.sleeps = true
	idle := make(chan struct{}, 4)
	u := New(Options{Start: f.start, Linger: 20 * time.Millisecond, Sleep: true,
		Heartbeat: 20 * time.Millisecond, HeartbeatMisses: 2, OnIdle: func() { idle <- struct{}{} }})
	defer u.Close(time.Second)
	u.Prewarm()
	ui := f.next(t)
	expect[uiproto.Warm](t, ui)
	askAndAnswer(t, u, ui, "a")
	expect[uiproto.Sleep](t, ui)
	ui.send(t, uiproto.Sleeping{})
	coretest.Eventually(t, "it", func() bool { return ui.stops.Load() == 1 })
	receive(t, idle, "OnIdle")
	if !u.Running() {
		t.Error("a sleeping UI process counts as not running")
	}
	pings := ui.pings.Load()
	time.Sleep(150 * time.Millisecond) // 7 heartbeats
	select {
	case <-ui.killed:
		t.Fatal("the heartbeat killed the sleeping UI process")
	default:
	}
	if got := ui.pings.Load(); got != pings {
		t.Errorf("%d pings answered while asleep", got-pings)
	}

	askAndAnswer(t, u, ui, "b")
	if ui.conts.Load() != 1 {
		t.Errorf("continued %d times, want once", ui.conts.Load())
	}
	select {
	case <-f.started:
		t.Error("a new UI process was started for a window while one slept")
	default:
	}
	expect[uiproto.Sleep](t, ui) // lingers, then sleeps again
	ui.send(t, uiproto.Sleeping{})
	coretest.Eventually(t, "it", func() bool { return ui.stops.Load() == 2 })

	// Closing the app wakes it to exit: no stopped process is left.
	u.Close(time.Second)
	expect[uiproto.Exit](t, ui)
	if ui.conts.Load() != 2 {
		t.Errorf("continued %d times before the exit, want 2", ui.conts.Load())
	}
}

// askedToSleep starts a UI process that can sleep, with a 20 ms linger
// time and no window, and returns it once the core asked it to sleep.
func askedToSleep(t *testing.T) (*UIProcess, *fakeProc) {
	t.Helper()
	f := newFakeProcs()
	f.sleeps = true
	u := New(Options{Start: f.start, Linger: 20 * time.Millisecond, Sleep: true})
	t.Cleanup(func() { u.Close(time.Second) })
	u.Prewarm()
	ui := f.next(t)
	expect[uiproto.Warm](t, ui)
	expect[uiproto.Sleep](t, ui)
	return u, ui
}

// A UI process that refuses to sleep (its window holds the clipboard)
// exits as it would without Sleep.
func TestUIProcessThatRefusesToSleepExits(t *testing.T) {
	_, ui := askedToSleep(t)
	ui.send(t, uiproto.Sleeping{Refused: "a window of it holds the clipboard"})
	expect[uiproto.Exit](t, ui)
	if ui.stops.Load() != 0 {
		t.Error("stopped a UI process that refused to sleep")
	}
}

// A window asked for between the Sleep and its answer keeps the process
// awake: the Sleeping that comes after it stops nothing.
func TestUIProcessWindowBetweenSleepAndSleepingKeepsItAwake(t *testing.T) {
	u, ui := askedToSleep(t)
	_, h := newHooks()
	showDraft(t, u, wire.Question{ID: "late", Prompts: []wire.Prompt{{Markdown: "late"}}}, nil, h)
	expect[uiproto.Show](t, ui)
	ui.send(t, uiproto.Sleeping{})
	ui.send(t, uiproto.Pong{}) // handled after the Sleeping: the core has read it
	time.Sleep(50 * time.Millisecond)
	if ui.stops.Load() != 0 {
		t.Error("stopped the UI process with a window open")
	}
}

// Sleeping turned off while the UI process sleeps ends it; where a
// process cannot be stopped (no Child.Stop), Sleep changes nothing: it
// exits after the linger time.
func TestUIProcessSleepOffOrUnsupportedExits(t *testing.T) {
	t.Run("turned off", func(t *testing.T) {
		u, ui := askedToSleep(t)
		ui.send(t, uiproto.Sleeping{})
		coretest.Eventually(t, "it", func() bool { return ui.stops.Load() == 1 })
		u.SetSleep(false)
		expect[uiproto.Exit](t, ui)
		if ui.conts.Load() != 1 {
			t.Errorf("continued %d times, want once (to exit)", ui.conts.Load())
		}
	})
	t.Run("unsupported", func(t *testing.T) {
		f := newFakeProcs()
		u := New(Options{Start: f.start, Linger: 20 * time.Millisecond, Sleep: true})
		defer u.Close(time.Second)
		u.Prewarm()
		ui := f.next(t)
		expect[uiproto.Warm](t, ui)
		expect[uiproto.Exit](t, ui)
	})
}
