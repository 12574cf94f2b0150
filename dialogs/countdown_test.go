package dialogs

import (
	"reflect"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"feedback/wire"
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
		{"button", func(v *View) bool { test.Tap(v.extendBtn); return true }},
		{"alt+t", func(v *View) bool { return v.shortcut(alt("T")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, r, c := newTestView(t, timed(60, wire.Prompt{Markdown: "?"}), Options{Extend: 5 * time.Minute})
			if v.extendBtn.Text != "+5 min" {
				t.Errorf("button = %q", v.extendBtn.Text)
			}
			c.now = t0.Add(30 * time.Second)
			if !tc.press(v) {
				t.Fatal("not handled")
			}
			if got := v.countdown.Text; got != "5:30 left" {
				t.Errorf("countdown = %q, want 5:30 left", got)
			}
			if v.held {
				t.Error("asking for more time held the countdown")
			}
			v.Tick(t0.Add(60 * time.Second))
			if len(r.answers) != 0 {
				t.Fatal("timed out at the old deadline")
			}
			v.Tick(t0.Add(360 * time.Second))
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
		{"button", func(v *View) bool { test.Tap(v.pinBtn); return true }},
		{"alt+p", func(v *View) bool { return v.shortcut(alt("P")) }},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, r, c := newTestView(t, timed(60, wire.Prompt{Markdown: "?"}), Options{})
			c.now = t0.Add(20 * time.Second)
			if !tc.press(v) {
				t.Fatal("not handled")
			}
			if got := v.countdown.Text; got != "Pinned · no time limit" {
				t.Errorf("countdown = %q", got)
			}
			if v.pinBtn.Text != "Unpin" || !v.extendBtn.Disabled() {
				t.Errorf("pin button %q, + time disabled %v", v.pinBtn.Text, v.extendBtn.Disabled())
			}
			v.Tick(t0.Add(1000 * time.Hour))
			if len(r.answers) != 0 {
				t.Fatal("a pinned question timed out")
			}
			// Unpinned, the countdown resumes with what was left: 40 s.
			c.now = t0.Add(2 * time.Hour)
			tc.press(v)
			if got := v.countdown.Text; got != "0:40 left · closes soon" {
				t.Errorf("after unpinning: %q, want 0:40 left · closes soon", got)
			}
			v.Tick(c.now.Add(40 * time.Second))
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
	if !v.extendBtn.Disabled() || !v.pinBtn.Disabled() {
		t.Error("+ time or the pin is enabled while the countdown is held")
	}
	if v.Extend() || v.TogglePin() {
		t.Error("extended or pinned a held countdown")
	}
	if got := v.countdown.Text; got != "Countdown held" {
		t.Errorf("countdown = %q", got)
	}
}

func TestNoCountdownNoButtons(t *testing.T) {
	v, _, _ := newTestView(t, timed(-1, wire.Prompt{Markdown: "?"}), Options{})
	if v.extendBtn != nil || v.pinBtn != nil {
		t.Error("+ time and pin shown without a countdown")
	}
	if v.shortcut(alt("T")) || v.shortcut(alt("P")) {
		t.Error("Alt+T or Alt+P consumed without a countdown")
	}
}

func TestButtonTipsShowInTheHintLine(t *testing.T) {
	v, _, _ := newTestView(t, timed(60, wire.Prompt{Markdown: "?"}), Options{Extend: 90 * time.Second})
	hint := func() string { return v.hint.String() }
	before := hint()
	v.extendBtn.MouseIn(nil)
	if got := hint(); got != "Add 90 seconds to the countdown (Alt+T)" {
		t.Errorf("tip = %q", got)
	}
	v.extendBtn.MouseOut()
	v.pinBtn.MouseIn(nil)
	test.Tap(v.pinBtn)
	if got := hint(); got != "Unpin: the countdown resumes (Alt+P)" {
		t.Errorf("tip after pinning = %q", got)
	}
	v.pinBtn.MouseOut()
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
		draft   *Draft
		want    wire.Answer
	}{
		{"text", true, &Draft{Replies: []wire.Reply{{Selected: []string{"A"}, Text: "half done"}}},
			wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, Auto: true, ElapsedMS: 60000,
				Replies: []wire.Reply{{Selected: []string{"A"}, Text: "half done"}}}},
		{"options only", true, &Draft{Replies: []wire.Reply{{Selected: []string{"B"}}}},
			wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, Auto: true, ElapsedMS: 60000,
				Replies: []wire.Reply{{Selected: []string{"B"}}}}},
		{"empty draft", true, nil, wire.Answer{QuestionID: "q1", Status: wire.StatusTimeout, ElapsedMS: 60000}},
		{"blank text", true, &Draft{Replies: []wire.Reply{{Selected: []string{"A"}, Text: "  \n"}}},
			wire.Answer{QuestionID: "q1", Status: wire.StatusTimeout, ElapsedMS: 60000}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, r, _ := newTestView(t, timed(60, prompt), Options{SubmitDraftOnTimeout: tc.setting})
			if tc.draft != nil {
				v.RestoreDraft(*tc.draft)
			}
			v.Tick(t0.Add(time.Minute))
			if got := r.only(t); !reflect.DeepEqual(got, tc.want) {
				t.Errorf("answer = %+v, want %+v", got, tc.want)
			}
		})
	}
	t.Run("images", func(t *testing.T) {
		v, r, _ := newTestView(t, timed(60, wire.Prompt{Markdown: "?"}), Options{SubmitDraftOnTimeout: true})
		v.RestoreDraft(Draft{Images: []wire.Image{{MIME: "image/png", Name: "a.png", Data: pngOf(t, 8, 8)}}})
		v.Tick(t0.Add(time.Minute))
		if got := r.only(t); !got.Auto || len(got.Images) != 1 {
			t.Errorf("answer = %+v", got)
		}
	})
}

// A window restored with a draft of the user's keeps its countdown held, as
// the typing held it before the restart (issue 14): it never times out
// under the user. With submit_draft_on_timeout the countdown runs instead,
// to send the draft at zero (TestSubmitDraftOnTimeout); a draft with
// nothing of the user's changes nothing.
func TestRestoredDraftKeepsTheCountdownHeld(t *testing.T) {
	prompt := wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A", Default: true}, {Label: "B"}}}
	for _, tc := range []struct {
		name string
		d    Draft
		held bool
	}{
		{"text", Draft{Replies: []wire.Reply{{Selected: []string{"A"}, Text: "half done"}}}, true},
		{"an option changed", Draft{Replies: []wire.Reply{{Selected: []string{"B"}}}}, true},
		{"nothing of the user's", Draft{Replies: []wire.Reply{{Selected: []string{"A"}, Text: " "}}}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, r, _ := newTestView(t, timed(60, prompt), Options{})
			v.RestoreDraft(tc.d)
			if v.held != tc.held {
				t.Fatalf("held = %v, want %v", v.held, tc.held)
			}
			v.Tick(t0.Add(time.Hour))
			if tc.held {
				if len(r.answers) != 0 || v.countdown.Text != "Countdown held" {
					t.Errorf("answers %+v, countdown %q; want none, held", r.answers, v.countdown.Text)
				}
				return
			}
			if a := r.only(t); a.Status != wire.StatusTimeout {
				t.Errorf("answer = %+v, want a timeout", a)
			}
		})
	}
}
