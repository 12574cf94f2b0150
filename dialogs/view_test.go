package dialogs

import (
	"bytes"
	"context"
	"image"
	"image/color"
	"image/png"
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"

	"feedback/dialogs/imagepipe"
	"feedback/ipc/wire"
)

// clock is a settable time source, and runs the view's timers by hand.
type clock struct {
	now     time.Time
	pending []func() // View.after's timers, in order
}

func (c *clock) Now() time.Time { return c.now }

func (c *clock) after(_ time.Duration, f func()) func() bool {
	c.pending = append(c.pending, f)
	return func() bool { return true }
}

// fire runs every timer started so far, as if its delay had passed.
func (c *clock) fire() {
	p := c.pending
	c.pending = nil
	for _, f := range p {
		f()
	}
}

// recorder collects the answers a view reports.
type recorder struct{ answers []wire.Answer }

func (r *recorder) done(a wire.Answer) { r.answers = append(r.answers, a) }

func (r *recorder) only(t *testing.T) wire.Answer {
	t.Helper()
	if len(r.answers) != 1 {
		t.Fatalf("got %d answers, want exactly 1: %+v", len(r.answers), r.answers)
	}
	return r.answers[0]
}

func question(p ...wire.Prompt) wire.Question {
	return wire.Question{ID: "q1", Title: "Plan", Prompts: p}
}

func newTestView(t *testing.T, q wire.Question, opts Options) (*View, *recorder, *clock) {
	t.Helper()
	test.NewTempApp(t)
	c := &clock{now: t0}
	if opts.Now == nil {
		opts.Now = c.Now
	}
	r := &recorder{}
	v := NewView(q, opts, r.done)
	v.hooks.after = c.after
	return v, r, c
}

var (
	ctrlEnter = &desktop.CustomShortcut{KeyName: fyne.KeyReturn, Modifier: fyne.KeyModifierControl}
	altY      = &desktop.CustomShortcut{KeyName: fyne.KeyY, Modifier: fyne.KeyModifierAlt}
	altN      = &desktop.CustomShortcut{KeyName: fyne.KeyN, Modifier: fyne.KeyModifierAlt}
)

func alt(d string) *desktop.CustomShortcut {
	return &desktop.CustomShortcut{KeyName: fyne.KeyName(d), Modifier: fyne.KeyModifierAlt}
}

func TestSubmitCollectsOptionsAndReply(t *testing.T) {
	v, r, c := newTestView(t, question(wire.Prompt{
		Markdown: "Refactor?",
		Options:  []wire.Option{{Label: "Refactor", Default: true}, {Label: "Add tests"}, {Label: "Leave it"}},
	}), Options{})
	entry := v.prompts[0].entry
	test.Type(entry, "keep the API")
	entry.TypedShortcut(alt("2"))
	entry.TypedShortcut(alt("1")) // un-ticks the pre-checked default
	entry.TypedShortcut(alt("3"))
	c.now = t0.Add(1500 * time.Millisecond)
	entry.TypedShortcut(ctrlEnter)

	want := wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, ElapsedMS: 1500,
		Replies: []wire.Reply{{Selected: []string{"Add tests", "Leave it"}, Text: "keep the API"}}}
	if got := r.only(t); !reflect.DeepEqual(got, want) {
		t.Errorf("answer = %+v, want %+v", got, want)
	}
	if entry.Text != "keep the API" {
		t.Errorf("Ctrl+Enter changed the reply box: %q", entry.Text)
	}
}

func TestAltDigitWithoutSuchOptionIsNotConsumed(t *testing.T) {
	v, _, _ := newTestView(t, question(wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A"}}}), Options{})
	if v.shortcut(alt("2")) {
		t.Error("Alt+2 consumed with one option")
	}
	if !v.shortcut(alt("1")) || !v.options[0].selected() {
		t.Error("Alt+1 did not tick option 1")
	}
}

func TestSubmitOnlyOnce(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{})
	v.Submit()
	v.Submit()
	v.RequestDismiss()
	v.Tick(t0.Add(time.Hour))
	r.only(t)
}

func TestYesNo(t *testing.T) {
	for _, tc := range []struct {
		name string
		key  fyne.Shortcut
		want string
	}{{"alt+y", altY, "yes"}, {"alt+n", altN, "no"}} {
		t.Run(tc.name, func(t *testing.T) {
			v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "Deploy?", Kind: wire.KindYesNo}), Options{})
			if v.prompts[0].entry != nil {
				t.Fatal("a yes/no question has a reply box")
			}
			if !v.shortcut(tc.key) {
				t.Fatal("shortcut not handled")
			}
			if got := r.only(t); got.Replies[0].Text != tc.want {
				t.Errorf("reply = %q, want %q", got.Replies[0].Text, tc.want)
			}
		})
	}
}

func TestAltYOnTextQuestionIsNotConsumed(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{})
	if v.shortcut(altY) || len(r.answers) != 0 {
		t.Error("Alt+Y answered a question that is not yes/no")
	}
}

func TestEscape(t *testing.T) {
	t.Run("no draft dismisses at once", func(t *testing.T) {
		v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{})
		v.prompts[0].entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if got := r.only(t); got.Status != wire.StatusDismissed || got.Replies != nil {
			t.Errorf("answer = %+v", got)
		}
	})
	t.Run("a draft asks first", func(t *testing.T) {
		v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{})
		var asked func()
		v.hooks.confirm = func(_, _ string, ok func()) { asked = ok }
		test.Type(v.prompts[0].entry, "half a thought")
		v.prompts[0].entry.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if asked == nil {
			t.Fatal("Escape with a draft did not ask")
		}
		if len(r.answers) != 0 {
			t.Fatal("dismissed before the user confirmed")
		}
		asked()
		if got := r.only(t); got.Status != wire.StatusDismissed {
			t.Errorf("status = %q", got.Status)
		}
	})
}

func TestCountdown(t *testing.T) {
	t.Run("reaches zero: timeout, no reply", func(t *testing.T) {
		q := question(wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A", Default: true}}})
		q.TimeoutSeconds = 90
		v, r, c := newTestView(t, q, Options{})
		if got := v.clock.label.Text; got != "1:30 left" {
			t.Errorf("countdown = %q", got)
		}
		v.Tick(t0.Add(31 * time.Second))
		if got := v.clock.label.Text; got != "0:59 left · closes soon" {
			t.Errorf("countdown = %q", got)
		}
		if len(r.answers) != 0 {
			t.Fatal("ended early")
		}
		v.Tick(t0.Add(90 * time.Second))
		c.fire() // the closing state's end
		want := wire.Answer{QuestionID: "q1", Status: wire.StatusTimeout, ElapsedMS: 90000}
		if got := r.only(t); !reflect.DeepEqual(got, want) {
			t.Errorf("answer = %+v, want %+v", got, want)
		}
	})
	t.Run("typing holds it", func(t *testing.T) {
		q := question(wire.Prompt{Markdown: "?"})
		q.TimeoutSeconds = 10
		v, r, _ := newTestView(t, q, Options{})
		test.Type(v.prompts[0].entry, "x")
		v.Tick(t0.Add(time.Hour))
		if len(r.answers) != 0 {
			t.Fatal("the countdown ended a question the user was typing into")
		}
		if got := v.clock.label.Text; got != "Countdown held" {
			t.Errorf("countdown = %q", got)
		}
	})
	t.Run("ticking an option holds it", func(t *testing.T) {
		q := question(wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A"}}})
		q.TimeoutSeconds = 10
		v, r, _ := newTestView(t, q, Options{})
		v.ToggleOption(1)
		v.Tick(t0.Add(time.Hour))
		if len(r.answers) != 0 {
			t.Fatal("the countdown ended a question the user was answering")
		}
	})
	t.Run("a recommended option does not hold it", func(t *testing.T) {
		q := question(wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A", Default: true}}})
		q.TimeoutSeconds = 10
		v, r, c := newTestView(t, q, Options{})
		v.Tick(t0.Add(10 * time.Second))
		c.fire()
		if got := r.only(t); got.Status != wire.StatusTimeout {
			t.Errorf("status = %q", got.Status)
		}
	})
	for _, tc := range []struct {
		name     string
		question int
		def      time.Duration
		want     string
	}{
		{"the app default", 0, 5 * time.Minute, "5:00 left"},
		{"the question's own", 7200, 5 * time.Minute, "2:00:00 left"},
		{"none by the question", -1, 5 * time.Minute, "No time limit"},
		{"none by the settings", 0, 0, "No time limit"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			q := question(wire.Prompt{Markdown: "?"})
			q.TimeoutSeconds = tc.question
			v, r, _ := newTestView(t, q, Options{DefaultTimeout: tc.def})
			if v.clock.label.Text != tc.want {
				t.Errorf("countdown = %q, want %q", v.clock.label.Text, tc.want)
			}
			if tc.want == "No time limit" {
				v.Tick(t0.Add(1000 * time.Hour))
				if len(r.answers) != 0 {
					t.Error("a question without a time limit timed out")
				}
			}
		})
	}
}

func TestSingleChoiceWithFreeText(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{
		Kind: wire.KindChoice, Single: true, Markdown: "Which layout?",
		Options: []wire.Option{{Label: "By type", Default: true}, {Label: "By date"}, {Label: "Other", FreeText: true}},
	}), Options{})
	p := v.prompts[0]
	if p.entry.Visible() {
		t.Error("the free-text field shows before Other is chosen")
	}
	v.ToggleOption(3)
	if !p.entry.Visible() {
		t.Fatal("choosing Other did not reveal the free-text field")
	}
	if p.options[0].selected() {
		t.Error("a single choice kept two options selected")
	}
	test.Type(p.entry, "by project")
	v.Submit()
	want := []wire.Reply{{Selected: []string{"Other"}, Text: "by project"}}
	if got := r.only(t).Replies; !reflect.DeepEqual(got, want) {
		t.Errorf("replies = %+v, want %+v", got, want)
	}
}

func TestSeveralPrompts(t *testing.T) {
	v, r, _ := newTestView(t, wire.Question{ID: "q", Prompts: []wire.Prompt{
		{Header: "Lib", Markdown: "Library?", Kind: wire.KindChoice, Single: true, Options: []wire.Option{{Label: "A"}, {Label: "B"}}},
		{Header: "Notes", Markdown: "Anything else?", Options: []wire.Option{{Label: "Docs"}}},
	}}, Options{})
	v.ToggleOption(2) // B, numbered through the window
	v.ToggleOption(3) // Docs
	test.Type(v.prompts[1].entry, "thanks")
	v.Submit()
	want := []wire.Reply{{Selected: []string{"B"}}, {Selected: []string{"Docs"}, Text: "thanks"}}
	if got := r.only(t).Replies; !reflect.DeepEqual(got, want) {
		t.Errorf("replies = %+v, want %+v", got, want)
	}
}

func TestWindowTitle(t *testing.T) {
	for _, tc := range []struct {
		name string
		q    wire.Question
		want string
	}{
		{"title", wire.Question{Title: "Auth", Prompts: []wire.Prompt{{Markdown: "x"}}}, "Auth — feedback"},
		{"first line", wire.Question{Prompts: []wire.Prompt{{Markdown: "\n## Deploy now?\nmore"}}}, "Deploy now? — feedback"},
		{"chinese", wire.Question{Title: "审批"}, "审批 — feedback"},
		{"long", wire.Question{Prompts: []wire.Prompt{{Markdown: "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}}},
			"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa… — feedback"},
		{"empty", wire.Question{}, "feedback"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := WindowTitle(tc.q); got != tc.want {
				t.Errorf("WindowTitle = %q, want %q", got, tc.want)
			}
		})
	}
}

// The window as the user sees it, compared with a golden image.
func TestWindowLooks(t *testing.T) {
	loop := []wire.Field{{Label: "Loop", Value: "auth-refactor"}, {Label: "Phase", Value: "verify"},
		{Label: "Success criteria", Value: "all tests green, no new warnings"}}
	for _, tc := range []struct {
		name  string
		q     wire.Question
		setup func(w *Window)
	}{
		{"options", wire.Question{ID: "1", Title: "Plan", Prompts: []wire.Prompt{{
			Markdown:    "## Refactor the auth module?\n\nI would move `session.go` to **PyJWT 2.x**.",
			Options:     []wire.Option{{Label: "Refactor", Default: true}, {Label: "Add tests first", Description: "slower, safer"}},
			Placeholder: "Anything to add?",
		}}}, nil},
		{"yesno", wire.Question{ID: "2", Title: "Deploy", Prompts: []wire.Prompt{{Kind: wire.KindYesNo, Markdown: "Deploy to **staging**?"}}}, nil},
		// ask_confirm with default false: No is the primary button.
		{"confirm-no", wire.Question{ID: "5", Context: []wire.Field{{Label: "Recommended", Value: "No"}},
			Prompts: []wire.Prompt{{Kind: wire.KindYesNo, Markdown: "Force-push to `main`?"}}}, nil},
		{"context", wire.Question{ID: "3", Context: loop, Prompts: []wire.Prompt{{Markdown: "Is the evidence enough?"}}}, nil},
		// A draft restored after a restart, the question pinned.
		{"pinned", wire.Question{ID: "4", Title: "Migrate", Prompts: []wire.Prompt{{
			Markdown: "Drop the legacy `users_v1` table?",
			Options:  []wire.Option{{Label: "Drop it"}, {Label: "Keep a backup first", Default: true}},
		}}}, func(w *Window) {
			w.View().RestoreDraft(wire.Draft{Replies: []wire.Reply{{Selected: []string{"Keep a backup first"},
				Text: "Only after the export has been verified."}}})
			w.View().TogglePin()
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			c := &clock{now: t0}
			w := NewWindow(a, tc.q, Options{DefaultTimeout: 10 * time.Minute, Now: c.Now}, func(wire.Answer) {})
			w.Fyne().Resize(fyne.NewSize(560, 420))
			w.Show()
			if tc.setup != nil {
				tc.setup(w)
			}
			w.Fyne().Content().Refresh()
			test.AssertImageMatches(t, "question/"+tc.name+".png", w.Fyne().Canvas().Capture())
			w.Close()
		})
	}
}

func TestWindowFocusesReplyBox(t *testing.T) {
	a := test.NewTempApp(t)
	w := NewWindow(a, question(wire.Prompt{Markdown: "?"}), Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
	w.Show()
	defer w.Close()
	if got := w.Fyne().Canvas().Focused(); got != w.View().prompts[0].entry {
		t.Errorf("focused = %T, want the reply box", got)
	}
}

func TestWindowAsksBeforeDiscardingADraft(t *testing.T) {
	a := test.NewTempApp(t)
	r := &recorder{}
	w := NewWindow(a, question(wire.Prompt{Markdown: "?"}), Options{Now: (&clock{now: t0}).Now}, r.done)
	w.Show()
	defer w.Close()
	test.Type(w.View().prompts[0].entry, "draft")
	w.View().RequestDismiss()
	if w.Fyne().Canvas().Overlays().Top() == nil {
		t.Fatal("no confirmation dialog")
	}
	if len(r.answers) != 0 {
		t.Fatal("dismissed without confirmation")
	}
}

// pngOf encodes a w×h image with a gradient, so it is not trivially compressible.
func pngOf(t *testing.T, w, h int) []byte {
	t.Helper()
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			m.Set(x, y, color.RGBA{uint8(x), uint8(y), uint8(x + y), 255})
		}
	}
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// inline runs slow work, and the hand-back of its result, inline.
func inline(v *View) {
	v.hooks.async = func(f func()) { f() }
	v.hooks.post = func(f func()) { f() }
}

func TestAttachmentsGoIntoTheAnswer(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "Look at this"}), Options{})
	inline(v)
	v.AttachImage("wide.png", pngOf(t, 3000, 1000))
	v.AttachImage("small.png", pngOf(t, 40, 30))
	if !v.HasDraft() {
		t.Error("attachments are not a draft")
	}
	v.Submit()
	a := r.only(t)
	if len(a.Images) != 2 {
		t.Fatalf("%d images, want 2", len(a.Images))
	}
	m, err := png.Decode(bytes.NewReader(a.Images[0].Data))
	if err != nil {
		t.Fatal(err)
	}
	if b := m.Bounds(); b.Dx() != 1568 || b.Dy() != 523 {
		t.Errorf("downscaled to %v, want 1568×523", b.Size())
	}
	if a.Images[1].Name != "small.png" || a.Images[1].MIME != "image/png" {
		t.Errorf("second image = %s %s", a.Images[1].Name, a.Images[1].MIME)
	}
}

func TestAttachmentProblemsAreShownNotDropped(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{Images: imagepipe.Limits{MaxCount: 1}})
	inline(v)
	v.AttachImage("broken.png", []byte("\x89PNG\r\n\x1a\nnot really"))
	if !v.att.problem.Visible() || !strings.Contains(v.att.problem.Text, "broken.png") {
		t.Errorf("problem = %q (visible %v)", v.att.problem.Text, v.att.problem.Visible())
	}
	v.AttachImage("one.png", pngOf(t, 10, 10))
	v.AttachImage("two.png", pngOf(t, 10, 10))
	if !strings.Contains(v.att.problem.Text, "two.png") || !strings.Contains(v.att.problem.Text, "at most 1") {
		t.Errorf("problem = %q", v.att.problem.Text)
	}
	v.Submit()
	if got := len(r.only(t).Images); got != 1 {
		t.Errorf("%d images in the answer, want the 1 accepted", got)
	}
}

func TestRemoveAttachment(t *testing.T) {
	v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{})
	inline(v)
	v.AttachImage("a.png", pngOf(t, 10, 10))
	v.AttachImage("b.png", pngOf(t, 12, 12))
	v.att.remove(v.att.cards[0])
	v.Submit()
	if imgs := r.only(t).Images; len(imgs) != 1 || imgs[0].Name != "b.png" {
		t.Errorf("images = %+v", imgs)
	}
}

func TestPaste(t *testing.T) {
	t.Run("an image is attached", func(t *testing.T) {
		img := pngOf(t, 20, 20)
		v, r, _ := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{
			PasteImage: func(context.Context) ([]byte, bool, error) { return img, true, nil }})
		inline(v)
		e := v.prompts[0].entry
		e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: test.NewClipboard()})
		if e.Text != "" {
			t.Errorf("the reply box got %q", e.Text)
		}
		v.Submit()
		if len(r.only(t).Images) != 1 {
			t.Error("the pasted image is not in the answer")
		}
	})
	t.Run("text is pasted as text", func(t *testing.T) {
		v, _, _ := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{
			PasteImage: func(context.Context) ([]byte, bool, error) { return nil, false, nil }})
		inline(v)
		cb := test.NewClipboard()
		cb.SetContent("hello")
		e := v.prompts[0].entry
		e.TypedShortcut(&fyne.ShortcutPaste{Clipboard: cb})
		if e.Text != "hello" {
			t.Errorf("reply box = %q, want the pasted text", e.Text)
		}
	})
}

func TestAttachmentsLook(t *testing.T) {
	a := test.NewTempApp(t)
	c := &clock{now: t0}
	w := NewWindow(a, question(wire.Prompt{Markdown: "Which screenshot shows the bug?"}),
		Options{DefaultTimeout: time.Minute, Now: c.Now}, func(wire.Answer) {})
	inline(w.View())
	w.Fyne().Resize(fyne.NewSize(560, 420))
	w.Show()
	w.View().AttachImage("gradient.png", pngOf(t, 256, 128))
	w.View().AttachImage("broken.png", []byte("GIF89a broken"))
	w.Fyne().Content().Refresh()
	test.AssertImageMatches(t, "question/attachments.png", w.Fyne().Canvas().Capture())
	w.Close()
}

func TestChoosingOtherFocusesItsField(t *testing.T) {
	a := test.NewTempApp(t)
	q := question(wire.Prompt{Kind: wire.KindChoice, Single: true, Markdown: "Which?",
		Options: []wire.Option{{Label: "A"}, {Label: "Other", FreeText: true}}})
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
	w.Show()
	defer w.Close()
	w.View().ToggleOption(2)
	if got := w.Fyne().Canvas().Focused(); got != w.View().prompts[0].entry {
		t.Errorf("focused = %T, want the free-text field", got)
	}
}
