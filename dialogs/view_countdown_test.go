package dialogs

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"feedback/ipc/wire"
)

func timed(seconds int, p ...wire.Prompt) wire.Question {
	q := question(p...)
	q.TimeoutSeconds = seconds
	return q
}

func TestExtend(t *testing.T) {
	for _, tc := range []struct {
		name  string
		press func(v *View) bool
	}{
		{"button", func(v *View) bool { test.Tap(v.clock.extend); return true }},
		{"alt+t", func(v *View) bool { return v.shortcut(alt("T")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, r, c := newTestView(t, timed(60, wire.Prompt{Markdown: "?"}), Options{Extend: 5 * time.Minute})
			if v.clock.extend.Text != "+5 min" {
				t.Errorf("button = %q", v.clock.extend.Text)
			}
			c.now = t0.Add(30 * time.Second)
			if !tc.press(v) {
				t.Fatal("not handled")
			}
			if got := v.clock.label.Text; got != "5:30 left" {
				t.Errorf("countdown = %q, want 5:30 left", got)
			}
			if v.cd.Held() {
				t.Error("asking for more time held the countdown")
			}
			v.Tick(t0.Add(60 * time.Second))
			if len(r.answers) != 0 {
				t.Fatal("timed out at the old deadline")
			}
			v.Tick(t0.Add(360 * time.Second))
			c.fire()
			if got := r.only(t); got.Status != wire.StatusTimeout {
				t.Errorf("status = %q", got.Status)
			}
		})
	}
}

func TestPin(t *testing.T) {
	for _, tc := range []struct {
		name  string
		press func(v *View) bool
	}{
		{"button", func(v *View) bool { test.Tap(v.clock.pin); return true }},
		{"alt+p", func(v *View) bool { return v.shortcut(alt("P")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, r, c := newTestView(t, timed(60, wire.Prompt{Markdown: "?"}), Options{})
			c.now = t0.Add(20 * time.Second)
			if !tc.press(v) {
				t.Fatal("not handled")
			}
			if got := v.clock.label.Text; got != "Pinned · no time limit" {
				t.Errorf("countdown = %q", got)
			}
			if v.clock.pin.Text != "Unpin" || !v.clock.extend.Disabled() {
				t.Errorf("pin button %q, + time disabled %v", v.clock.pin.Text, v.clock.extend.Disabled())
			}
			v.Tick(t0.Add(1000 * time.Hour))
			if len(r.answers) != 0 {
				t.Fatal("a pinned question timed out")
			}
			// Unpinned, the countdown resumes with what was left: 40 s.
			c.now = t0.Add(2 * time.Hour)
			tc.press(v)
			if got := v.clock.label.Text; got != "0:40 left · closes soon" {
				t.Errorf("after unpinning: %q, want 0:40 left · closes soon", got)
			}
			v.Tick(c.now.Add(40 * time.Second))
			c.fire()
			if got := r.only(t); got.Status != wire.StatusTimeout {
				t.Errorf("status = %q", got.Status)
			}
		})
	}
}

// Typing holds the countdown for good: extending or pinning it then means
// nothing, and the buttons say so by being disabled.
func TestTypingDisablesExtendAndPin(t *testing.T) {
	v, _, _ := newTestView(t, timed(60, wire.Prompt{Markdown: "?"}), Options{})
	test.Type(v.prompts[0].entry, "x")
	if !v.clock.extend.Disabled() || !v.clock.pin.Disabled() {
		t.Error("+ time or the pin is enabled while the countdown is held")
	}
	if v.Extend() || v.TogglePin() {
		t.Error("extended or pinned a held countdown")
	}
	if got := v.clock.label.Text; got != "Countdown held" {
		t.Errorf("countdown = %q", got)
	}
}

func TestNoCountdownNoButtons(t *testing.T) {
	v, _, _ := newTestView(t, timed(-1, wire.Prompt{Markdown: "?"}), Options{})
	if v.clock.extend != nil || v.clock.pin != nil {
		t.Error("+ time and pin shown without a countdown")
	}
	if v.shortcut(alt("T")) || v.shortcut(alt("P")) {
		t.Error("Alt+T or Alt+P consumed without a countdown")
	}
}

func TestButtonTipsShowInTheHintLine(t *testing.T) {
	v, _, _ := newTestView(t, timed(60, wire.Prompt{Markdown: "?"}), Options{Extend: 90 * time.Second})
	hint := func() string { return v.hint.text.String() }
	before := hint()
	v.clock.extend.MouseIn(nil)
	if got := hint(); got != "Add 90 seconds to the countdown (Alt+T)" {
		t.Errorf("tip = %q", got)
	}
	v.clock.extend.MouseOut()
	v.clock.pin.MouseIn(nil)
	test.Tap(v.clock.pin)
	if got := hint(); got != "Unpin: the countdown resumes (Alt+P)" {
		t.Errorf("tip after pinning = %q", got)
	}
	v.clock.pin.MouseOut()
	if got := hint(); got != before {
		t.Errorf("hint = %q, want %q back", got, before)
	}
}

// At zero with submit_draft_on_timeout: a draft with something of the
// user's in it is submitted, marked Auto; an empty one, or the agent's own
// recommended options, never is.
func TestSubmitDraftOnTimeout(t *testing.T) {
	prompt := wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A", Default: true}, {Label: "B"}}}
	for _, tc := range []struct {
		name    string
		setting bool
		draft   *wire.Draft
		want    wire.Answer
	}{
		{"text", true, &wire.Draft{Replies: []wire.Reply{{Selected: []string{"A"}, Text: "half done"}}},
			wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, Auto: true, ElapsedMS: 60000,
				Replies: []wire.Reply{{Selected: []string{"A"}, Text: "half done"}}}},
		{"options only", true, &wire.Draft{Replies: []wire.Reply{{Selected: []string{"B"}}}},
			wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, Auto: true, ElapsedMS: 60000,
				Replies: []wire.Reply{{Selected: []string{"B"}}}}},
		{"empty draft", true, nil, wire.Answer{QuestionID: "q1", Status: wire.StatusTimeout, ElapsedMS: 60000}},
		{"blank text", true, &wire.Draft{Replies: []wire.Reply{{Selected: []string{"A"}, Text: "  \n"}}},
			wire.Answer{QuestionID: "q1", Status: wire.StatusTimeout, ElapsedMS: 60000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, r, c := newTestView(t, timed(60, prompt), Options{SubmitDraftOnTimeout: tc.setting})
			if tc.draft != nil {
				v.RestoreDraft(*tc.draft)
			}
			v.Tick(t0.Add(time.Minute))
			c.fire()
			if got := r.only(t); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("answer = %+v, want %+v", got, tc.want)
			}
		})
	}
	t.Run("images", func(t *testing.T) {
		v, r, c := newTestView(t, timed(60, wire.Prompt{Markdown: "?"}), Options{SubmitDraftOnTimeout: true})
		v.RestoreDraft(wire.Draft{Images: []wire.Image{{MIME: "image/png", Name: "a.png", Data: pngOf(t, 8, 8)}}})
		v.Tick(t0.Add(time.Minute))
		c.fire()
		if got := r.only(t); !got.Auto || len(got.Images) != 1 {
			t.Errorf("answer = %+v", got)
		}
	})
}

// A window restored with a draft of the user's keeps its countdown held, as
// the typing held it before the restart: it never times out
// under the user. With submit_draft_on_timeout the countdown runs instead,
// to send the draft at zero (TestSubmitDraftOnTimeout); a draft with
// nothing of the user's changes nothing.
func TestRestoredDraftKeepsTheCountdownHeld(t *testing.T) {
	prompt := wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A", Default: true}, {Label: "B"}}}
	for _, tc := range []struct {
		name string
		d    wire.Draft
		held bool
	}{
		{"text", wire.Draft{Replies: []wire.Reply{{Selected: []string{"A"}, Text: "half done"}}}, true},
		{"an option changed", wire.Draft{Replies: []wire.Reply{{Selected: []string{"B"}}}}, true},
		{"nothing of the user's", wire.Draft{Replies: []wire.Reply{{Selected: []string{"A"}, Text: " "}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, r, c := newTestView(t, timed(60, prompt), Options{})
			v.RestoreDraft(tc.d)
			if v.cd.Held() != tc.held {
				t.Fatalf("held = %v, want %v", v.cd.Held(), tc.held)
			}
			v.Tick(t0.Add(time.Hour))
			c.fire()
			if tc.held {
				if len(r.answers) != 0 || v.clock.label.Text != "Countdown held" {
					t.Errorf("answers %+v, countdown %q; want none, held", r.answers, v.clock.label.Text)
				}
				return
			}
			if a := r.only(t); a.Status != wire.StatusTimeout {
				t.Errorf("answer = %+v, want a timeout", a)
			}
		})
	}
}

// A window restored with the state its countdown had before a restart
// carries on from it: the deadline where it was, held or pinned as it was.
func TestRestoredCountdown(t *testing.T) {
	q := timed(600, wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A"}}})
	t.Run("30 s left", func(t *testing.T) {
		v, r, c := newTestView(t, q, Options{Countdown: &wire.Countdown{Deadline: t0.Add(30 * time.Second)}})
		if got := v.clock.label.Text; got != "0:30 left · closes soon" {
			t.Errorf("countdown = %q, want 0:30 left · closes soon", got)
		}
		if v.clock.label.Importance != widget.WarningImportance {
			t.Error("30 s left does not warn")
		}
		v.Tick(t0.Add(30 * time.Second))
		c.fire()
		if got := r.only(t); got.Status != wire.StatusTimeout {
			t.Errorf("status = %q, want a timeout at the restored deadline", got.Status)
		}
	})
	t.Run("held", func(t *testing.T) {
		v, r, c := newTestView(t, q, Options{Countdown: &wire.Countdown{Deadline: t0.Add(-time.Hour), Held: true}})
		if got := v.clock.label.Text; got != "Countdown held" {
			t.Errorf("countdown = %q", got)
		}
		if !v.clock.extend.Disabled() || !v.clock.pin.Disabled() {
			t.Error("+ time or the pin is enabled on a held countdown")
		}
		v.Tick(t0.Add(time.Hour))
		c.fire()
		if len(r.answers) != 0 {
			t.Errorf("a held countdown ended the question: %+v", r.answers)
		}
	})
	t.Run("pinned", func(t *testing.T) {
		v, r, c := newTestView(t, q, Options{Countdown: &wire.Countdown{Pinned: true, Left: 45 * time.Second}})
		if got := v.clock.label.Text; got != "Pinned · no time limit" || v.clock.pin.Text != "Unpin" {
			t.Errorf("countdown = %q, pin button %q", got, v.clock.pin.Text)
		}
		v.Tick(t0.Add(time.Hour))
		if len(r.answers) != 0 {
			t.Fatal("a pinned countdown ended the question")
		}
		c.now = t0.Add(time.Hour)
		v.TogglePin()
		if got := v.clock.label.Text; got != "0:45 left · closes soon" {
			t.Errorf("unpinned: %q, want the 45 s that were left", got)
		}
	})
	t.Run("none", func(t *testing.T) {
		v, _, _ := newTestView(t, q, Options{Countdown: &wire.Countdown{}})
		if got := v.clock.label.Text; got != "No time limit" || v.clock.extend != nil {
			t.Errorf("countdown = %q, + time %v", got, v.clock.extend)
		}
	})
	t.Run("past its deadline", func(t *testing.T) {
		v, r, c := newTestView(t, q, Options{Countdown: &wire.Countdown{Deadline: t0.Add(-time.Second)}})
		v.Tick(t0)
		if !v.Closing() || len(r.answers) != 0 {
			t.Fatalf("closing %v, answers %+v: want the closing state first", v.Closing(), r.answers)
		}
		c.fire()
		if got := r.only(t); got.Status != wire.StatusTimeout {
			t.Errorf("status = %q", got.Status)
		}
	})
}

// OnCountdown hears every change of the countdown: the first state, "+
// time", the hold of an edit (once), pin and unpin.
func TestOnCountdown(t *testing.T) {
	var got []wire.Countdown
	v, _, c := newTestView(t, timed(60, wire.Prompt{Markdown: "?"}),
		Options{Extend: time.Minute, OnCountdown: func(s wire.Countdown) { got = append(got, s) }})
	want := []wire.Countdown{{Deadline: t0.Add(time.Minute)}}
	check := func(step string) {
		t.Helper()
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("after %s: states %+v, want %+v", step, got, want)
		}
	}
	check("the build")
	v.Tick(t0.Add(10 * time.Second))
	check("a tick") // time passing is no change of state
	v.shortcut(alt("T"))
	want = append(want, wire.Countdown{Deadline: t0.Add(2 * time.Minute)})
	check("Alt+T")
	c.now = t0.Add(30 * time.Second)
	test.Tap(v.clock.pin)
	want = append(want, wire.Countdown{Deadline: t0.Add(2 * time.Minute), Pinned: true, Left: 90 * time.Second})
	check("pinning")
	c.now = t0.Add(time.Hour)
	v.TogglePin()
	want = append(want, wire.Countdown{Deadline: t0.Add(time.Hour + 90*time.Second)})
	check("unpinning")
	test.Type(v.prompts[0].entry, "ab")
	want = append(want, wire.Countdown{Deadline: t0.Add(time.Hour + 90*time.Second), Held: true})
	check("typing")
	if v.Countdown() != want[len(want)-1] {
		t.Errorf("Countdown() = %+v", v.Countdown())
	}
}

// At zero the window does not vanish: it says why, its controls are
// disabled, and ClosingFor later it ends as timed out. Nothing pressed in
// the meantime is taken as the user's answer.
func TestClosingState(t *testing.T) {
	a := test.NewTempApp(t)
	c := &clock{now: t0}
	r := &recorder{}
	q := timed(60, wire.Prompt{Markdown: "Ship it?", Options: []wire.Option{{Label: "Ship", Default: true}, {Label: "Wait"}}})
	w := NewWindow(a, q, Options{Now: c.Now}, r.done)
	v := w.View()
	var delays []time.Duration
	v.hooks.after = func(d time.Duration, f func()) func() bool {
		delays = append(delays, d)
		return c.after(d, f)
	}
	w.Show()
	v.guard.on = false // the input guard is tested elsewhere
	v.Tick(t0.Add(time.Minute))

	if !v.Closing() || len(r.answers) != 0 {
		t.Fatalf("closing %v, answers %+v: want the closing state, no answer yet", v.Closing(), r.answers)
	}
	if got := v.clock.label.Text; got != "Time is up — closing" {
		t.Errorf("countdown = %q", got)
	}
	if !strings.Contains(v.hint.text.String(), "Time is up") {
		t.Errorf("hint = %q, want it to say why", v.hint.text.String())
	}
	if len(delays) != 1 || delays[0] != ClosingFor {
		t.Errorf("timers %v, want one of %v", delays, ClosingFor)
	}
	if !v.prompts[0].entry.Disabled() || !v.options[0].(checkOption).c.Disabled() {
		t.Error("the reply box or an option is still enabled")
	}
	for _, b := range findAll[*keyButton](v.Content()) {
		if !b.Disabled() {
			t.Errorf("button %q is still enabled", b.Text)
		}
	}
	// The user presses on regardless: none of it answers.
	e := v.prompts[0].entry
	e.TypedShortcut(alt("2"))
	e.TypedShortcut(ctrlEnter)
	e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	test.Tap(findAll[*tapLabel](v.Content())[1])
	v.Submit()
	v.RequestDismiss()
	if v.Extend() || v.TogglePin() || v.ToggleOption(2) {
		t.Error("the countdown or an option changed in the closing state")
	}
	if len(r.answers) != 0 {
		t.Fatalf("answered in the closing state: %+v", r.answers)
	}
	w.Fyne().Content().Refresh()
	test.AssertImageMatches(t, "question/closing.png", w.Fyne().Canvas().Capture())

	c.fire()
	want := wire.Answer{QuestionID: "q1", Status: wire.StatusTimeout, ElapsedMS: 60000}
	if got := r.only(t); !reflect.DeepEqual(got, want) {
		t.Errorf("answer = %+v, want %+v", got, want)
	}
}

// With submit_draft_on_timeout the draft as it stood at zero is sent,
// marked Auto, after the closing state.
func TestClosingStateSubmitsTheDraft(t *testing.T) {
	v, r, c := newTestView(t, timed(60, wire.Prompt{Markdown: "?"}), Options{SubmitDraftOnTimeout: true})
	v.RestoreDraft(wire.Draft{Replies: []wire.Reply{{Text: "half done"}}})
	v.Tick(t0.Add(time.Minute))
	if !v.Closing() || len(r.answers) != 0 {
		t.Fatal("no closing state")
	}
	if !strings.Contains(v.hint.text.String(), "draft") {
		t.Errorf("hint = %q, want it to say the draft is sent", v.hint.text.String())
	}
	c.fire()
	if got := r.only(t); got.Status != wire.StatusAnswered || !got.Auto || got.Replies[0].Text != "half done" {
		t.Errorf("answer = %+v, want the draft, auto", got)
	}
}

// The window is withdrawn (the agent went away) while it is closing: no
// answer comes after all.
func TestClosingStateWithdrawn(t *testing.T) {
	a := test.NewTempApp(t)
	c := &clock{now: t0}
	r := &recorder{}
	w := NewWindow(a, timed(60, wire.Prompt{Markdown: "?"}), Options{Now: c.Now}, r.done)
	w.Show()
	w.View().Tick(t0.Add(time.Minute))
	if len(w.timers) != 1 {
		t.Fatalf("%d timers, want the closing state's", len(w.timers))
	}
	w.Close() // the heartbeat's timers go with it (TestHeartbeatRunsPostsAndTimersUntilClose)
	if len(r.answers) != 0 {
		t.Errorf("answers %+v after the window was withdrawn", r.answers)
	}
}
