package supervisor

import (
	"errors"
	"feedback/app/clock/clocktest"
	"reflect"
	"testing"
	"time"

	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// A UI process of another build than the app — its binary was replaced
// under the running app by an upgrade — or of another protocol, or one
// that does not say hello first (a build from before the handshake), is
// sent no command: it is ended, the app is told once (OnMismatch), and no
// other is started, however many questions come; the questions stay open.
func TestUIProcessOtherBuildIsEndedNotRestarted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		hello uiproto.Event
		raw   string
	}{
		{name: "other build", hello: uiproto.Hello{Protocol: uiproto.Version, Build: "2.0.0"}},
		{name: "other protocol", hello: uiproto.Hello{Protocol: uiproto.Version + 1, Build: "1.0.0"}},
		{name: "no hello", hello: uiproto.Pong{}},
		{name: "before the handshake", raw: `{"type":"ready"}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := newFakeProcs()
			f.hello, f.raw = tc.hello, tc.raw
			mismatch := make(chan error, 4)
			clock := clocktest.New()
			u := New(Options{Start: f.start, Linger: time.Hour, Build: "1.0.0",
				OnMismatch: func(err error) { mismatch <- err }, Clock: clock})
			defer u.Close(time.Second)
			_, h := newHooks()
			showDraft(t, u, wire.Question{ID: "a", Prompts: []wire.Prompt{{Markdown: "A"}}}, nil, h)
			ui := f.next(t)
			err := receive(t, mismatch, "mismatch")
			var m *uiproto.MismatchError
			var unknown *uiproto.UnknownTypeError
			if !errors.As(err, &m) && !errors.As(err, &unknown) {
				t.Errorf("OnMismatch(%v), want a MismatchError or an UnknownTypeError", err)
			}
			receive(t, ui.killed, "kill of the UI process")
			for deadline := time.Now().Add(5 * time.Second); u.Running(); time.Sleep(time.Millisecond) {
				if time.Now().After(deadline) {
					t.Fatal("the UI process of another build still counts as running")
				}
			}
			select {
			case c := <-ui.cmds:
				t.Errorf("the UI process of another build was sent %s", c.Type())
			default:
			}
			// More questions, a prewarm, time for any restart's backoff
			// (30 s at most): nothing starts it again.
			showDraft(t, u, wire.Question{ID: "b", Prompts: []wire.Prompt{{Markdown: "B"}}}, nil, h)
			u.Prewarm()
			clock.Advance(time.Hour)
			select {
			case <-f.started:
				t.Error("a UI process was started again after a mismatch")
			default:
			}
			if windowsOpen(u) != 2 {
				t.Errorf("%d questions open, want both kept", windowsOpen(u))
			}
			select {
			case err := <-mismatch:
				t.Errorf("OnMismatch called again: %v", err)
			default:
			}
		})
	}
}

// A UI process of the app's own build is greeted and sent its commands.
func TestUIProcessSameBuildIsGreeted(t *testing.T) {
	f := newFakeProcs()
	f.hello = uiproto.Hello{Protocol: uiproto.Version, Build: "1.0.0"}
	u := New(Options{Start: f.start, Linger: time.Hour, Build: "1.0.0",
		OnMismatch: func(err error) { t.Errorf("OnMismatch(%v) for the same build", err) }})
	defer u.Close(time.Second)
	_, h := newHooks()
	showDraft(t, u, wire.Question{ID: "a", Prompts: []wire.Prompt{{Markdown: "A"}}}, nil, h)
	if m := expect[uiproto.Show](t, f.next(t)); m.Question.ID != "a" {
		t.Errorf("show %+v", m)
	}
}

// The settings go first to each UI process, before any window, and again
// to the running one when they change: the UI process reads no settings
// file of its own.
func TestUIProcessSendsTheSettings(t *testing.T) {
	f := newFakeProcs()
	first := uiproto.Settings{Language: "zh-Hans", Extend: time.Minute}
	u := New(Options{Start: f.start, Linger: time.Hour, Settings: &first})
	defer u.Close(time.Second)
	_, h := newHooks()
	showDraft(t, u, wire.Question{ID: "a", Prompts: []wire.Prompt{{Markdown: "A"}}}, nil, h)
	ui := f.next(t)
	if s := expect[uiproto.Settings](t, ui); !reflect.DeepEqual(s, first) {
		t.Errorf("settings %+v, want %+v", s, first)
	}
	expect[uiproto.Show](t, ui)
	changed := uiproto.Settings{Language: "en", Extend: 2 * time.Minute}
	u.SetSettings(changed)
	if s := expect[uiproto.Settings](t, ui); !reflect.DeepEqual(s, changed) {
		t.Errorf("settings %+v after the change, want %+v", s, changed)
	}
	// A new UI process (after a crash) gets the settings in force first.
	ui.crash()
	ui2 := f.next(t)
	if s := expect[uiproto.Settings](t, ui2); !reflect.DeepEqual(s, changed) {
		t.Errorf("the restarted UI process got settings %+v, want %+v", s, changed)
	}
	expect[uiproto.Show](t, ui2)
}
