package dialogs

import (
	"reflect"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"feedback/ipc/wire"
)

// drafts collects the drafts a view reports and drives its debounce timer
// by hand.
type drafts struct {
	got     []wire.Draft
	pending []func() // timers started, in order
	delays  []time.Duration
}

func (d *drafts) report(dr wire.Draft) { d.got = append(d.got, dr) }

func (d *drafts) after(delay time.Duration, f func()) func() bool {
	d.pending = append(d.pending, f)
	d.delays = append(d.delays, delay)
	return func() bool { return true }
}

// fire runs every timer started so far, as if the delay had passed; timers
// superseded by a later edit must do nothing.
func (d *drafts) fire() {
	p := d.pending
	d.pending = nil
	for _, f := range p {
		f()
	}
}

func newDraftView(t *testing.T, q wire.Question, opts Options) (*View, *recorder, *drafts) {
	t.Helper()
	d := &drafts{}
	opts.OnDraft = d.report
	v, r, _ := newTestView(t, q, opts)
	v.hooks.after = d.after
	inline(v)
	return v, r, d
}

func TestDraftIsReportedWhenTheUserPauses(t *testing.T) {
	v, _, d := newDraftView(t, question(wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A"}, {Label: "B"}}}), Options{})
	e := v.prompts[0].entry
	test.Type(e, "hal")
	v.ToggleOption(2)
	test.Type(e, "f")
	if len(d.got) != 0 {
		t.Fatal("a draft was reported while the user was still typing")
	}
	if d.delays[0] != DefaultDraftDelay {
		t.Errorf("delay = %v, want %v", d.delays[0], DefaultDraftDelay)
	}
	d.fire()
	want := []wire.Draft{{Replies: []wire.Reply{{Selected: []string{"B"}, Text: "half"}}}}
	if !reflect.DeepEqual(d.got, want) {
		t.Errorf("drafts = %+v, want one: %+v", d.got, want)
	}
	v.FlushDraft()
	if len(d.got) != 1 {
		t.Error("a draft was reported again without an edit")
	}
}

func TestDraftImagesAreReported(t *testing.T) {
	v, _, d := newDraftView(t, question(wire.Prompt{Markdown: "?"}), Options{})
	v.AttachImage("a.png", pngOf(t, 10, 10))
	d.fire()
	if len(d.got) != 1 || len(d.got[0].Images) != 1 || d.got[0].Images[0].Name != "a.png" {
		t.Fatalf("drafts = %+v", d.got)
	}
	v.att.remove(v.att.cards[0])
	d.fire()
	if len(d.got) != 2 || len(d.got[1].Images) != 0 {
		t.Errorf("after removing the image: %+v", d.got)
	}
}

// Closing the window without an answer (the caller went away) reports the
// last edit at once; an answer ends the drafts.
func TestDraftOnClose(t *testing.T) {
	t.Run("withdrawn", func(t *testing.T) {
		a := test.NewTempApp(t)
		d := &drafts{}
		w := NewWindow(a, question(wire.Prompt{Markdown: "?"}), Options{Now: (&clock{now: t0}).Now, OnDraft: d.report}, func(wire.Answer) {})
		w.View().hooks.after = d.after
		w.Show()
		test.Type(w.View().prompts[0].entry, "unsent")
		w.Close()
		if len(d.got) != 1 || d.got[0].Replies[0].Text != "unsent" {
			t.Fatalf("drafts = %+v", d.got)
		}
		d.fire()
		if len(d.got) != 1 {
			t.Error("the pending timer reported again after the close")
		}
	})
	t.Run("answered", func(t *testing.T) {
		v, r, d := newDraftView(t, question(wire.Prompt{Markdown: "?"}), Options{})
		test.Type(v.prompts[0].entry, "done")
		v.Submit()
		d.fire()
		v.FlushDraft()
		if len(d.got) != 0 {
			t.Errorf("a draft after the answer: %+v", d.got)
		}
		r.only(t)
	})
}

// A choice's free-text field is in the draft even while its option is
// unselected, so switching options back and forth loses nothing.
func TestDraftKeepsHiddenFreeText(t *testing.T) {
	v, _, d := newDraftView(t, question(wire.Prompt{Kind: wire.KindChoice, Single: true, Markdown: "?",
		Options: []wire.Option{{Label: "A"}, {Label: "Other", FreeText: true}}}), Options{})
	v.ToggleOption(2)
	test.Type(v.prompts[0].entry, "mine")
	v.ToggleOption(1)
	d.fire()
	want := wire.Reply{Selected: []string{"A"}, Text: "mine"}
	if got := d.got[len(d.got)-1].Replies[0]; !reflect.DeepEqual(got, want) {
		t.Errorf("draft = %+v, want %+v", got, want)
	}
}

func TestRestoreDraft(t *testing.T) {
	q := wire.Question{ID: "r", TimeoutSeconds: 60, Prompts: []wire.Prompt{
		{Markdown: "Which?", Options: []wire.Option{{Label: "Refactor", Default: true}, {Label: "Tests"}, {Label: "Docs"}}},
		{Kind: wire.KindChoice, Single: true, Markdown: "Layout?",
			Options: []wire.Option{{Label: "By type", Default: true}, {Label: "Other", FreeText: true}}},
	}}
	img := pngOf(t, 64, 32)
	draft := wire.Draft{
		Replies: []wire.Reply{
			{Selected: []string{"Tests", "Docs"}, Text: "keep the API"},
			{Selected: []string{"Other"}, Text: "by project"},
		},
		Images: []wire.Image{{MIME: "image/png", Name: "shot.png", Data: img}},
	}
	v, r, d := newDraftView(t, q, Options{})
	v.RestoreDraft(draft)

	if got := v.prompts[0].entry.Text; got != "keep the API" {
		t.Errorf("reply box = %q", got)
	}
	var sel []bool
	for _, o := range v.options {
		sel = append(sel, o.selected())
	}
	if want := []bool{false, true, true, false, true}; !reflect.DeepEqual(sel, want) {
		t.Errorf("options = %v, want %v", sel, want)
	}
	if p := v.prompts[1]; !p.entry.Visible() || p.entry.Text != "by project" {
		t.Errorf("free text = %q (visible %v)", p.entry.Text, p.entry.Visible())
	}
	if len(v.att.cards) != 1 || !v.att.box.Visible() {
		t.Errorf("%d attachment cards (visible %v)", len(v.att.cards), v.att.box.Visible())
	}
	// The draft is the user's answer in progress: the countdown stays held
	// as their typing held it; restoring is no new edit, so
	// nothing is reported as a draft (until the user types).
	if !v.cd.Held() || v.clock.label.Text != "Countdown held" {
		t.Errorf("countdown = %q (held %v)", v.clock.label.Text, v.cd.Held())
	}
	d.fire()
	if len(d.got) != 0 {
		t.Errorf("restoring reported a draft: %+v", d.got)
	}

	test.Type(v.prompts[0].entry, ", please") // typing carries on at the end
	v.Submit()
	a := r.only(t)
	wantReplies := []wire.Reply{{Selected: []string{"Tests", "Docs"}, Text: "keep the API, please"}, {Selected: []string{"Other"}, Text: "by project"}}
	if !reflect.DeepEqual(a.Replies, wantReplies) {
		t.Errorf("replies = %+v, want %+v", a.Replies, wantReplies)
	}
	if len(a.Images) != 1 || !reflect.DeepEqual(a.Images[0].Data, img) || a.Images[0].Name != "shot.png" {
		t.Errorf("images = %d", len(a.Images))
	}
}

func TestRestoreDraftToleratesAChangedQuestion(t *testing.T) {
	v, _, _ := newDraftView(t, question(wire.Prompt{Markdown: "?", Options: []wire.Option{{Label: "A"}}}), Options{})
	v.RestoreDraft(wire.Draft{
		Replies: []wire.Reply{{Selected: []string{"gone"}, Text: "t"}, {Text: "no such prompt"}},
		Images:  []wire.Image{{MIME: "image/png", Name: "bad.png", Data: []byte("not an image")}},
	})
	if v.prompts[0].entry.Text != "t" || v.options[0].selected() {
		t.Errorf("text %q, A selected %v", v.prompts[0].entry.Text, v.options[0].selected())
	}
	if !v.att.problem.Visible() {
		t.Error("an image that could not be restored is not explained")
	}
}

func TestRestoredMultiLineDraftContinuesAtTheEnd(t *testing.T) {
	a := test.NewTempApp(t)
	r := &recorder{}
	w := NewWindow(a, question(wire.Prompt{Markdown: "?"}), Options{Now: (&clock{now: t0}).Now}, r.done)
	w.Show()
	defer w.Close()
	long := "first line\n" + strings.Repeat("a rather long second line that wraps ", 6)
	w.View().RestoreDraft(wire.Draft{Replies: []wire.Reply{{Text: long}}})
	test.Type(w.View().prompts[0].entry, "END")
	w.View().Submit()
	if got := r.only(t).Replies[0].Text; got != long+"END" {
		t.Errorf("text = %q", got)
	}
}

// Typing on without a pause still reports the draft about once a second:
// each edit restarts the quiet-time timer, but never past MaxDraftInterval
// after the first unreported edit, so a crash loses at most that much.
func TestDraftIsReportedDuringContinuousTyping(t *testing.T) {
	v, _, d := newDraftView(t, question(wire.Prompt{Markdown: "?"}), Options{})
	c := &clock{now: t0}
	v.now = c.Now
	e := v.prompts[0].entry
	var last time.Duration
	for range 12 { // a key every 100 ms for 1.2 s
		test.Type(e, "x")
		last = d.delays[len(d.delays)-1]
		c.now = c.now.Add(100 * time.Millisecond)
	}
	// The first key was at t0, the last at t0+1.1 s: at most 1 s after t0.
	if want := time.Duration(0); last != want {
		t.Errorf("the last edit's timer waits %v, want %v (the first edit is a second old)", last, want)
	}
	for i, got := range d.delays {
		if at := time.Duration(i) * 100 * time.Millisecond; at+got > MaxDraftInterval && got != 0 {
			t.Errorf("edit %d at %v waits %v: past %v after the first", i, at, got, MaxDraftInterval)
		}
	}
	d.fire()
	if len(d.got) != 1 || d.got[0].Replies[0].Text != strings.Repeat("x", 12) {
		t.Fatalf("drafts = %+v", d.got)
	}
	// Reported: the next edit starts a new interval with the usual pause.
	test.Type(e, "y")
	if got := d.delays[len(d.delays)-1]; got != DefaultDraftDelay {
		t.Errorf("after a report the delay is %v, want %v", got, DefaultDraftDelay)
	}
}
