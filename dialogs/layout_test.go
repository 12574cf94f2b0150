package dialogs

import (
	"fmt"
	"image"
	_ "image/png"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"feedback/ipc/wire"
)

// maxMinWidth is the widest minimum any question's content may have, so
// that the window fits a small screen at a large scale.
const maxMinWidth = 520

// A 200-character option label, description, header and title wrap or are
// shortened: the content's minimum width stays small, and the window opens
// no wider than the screen allows.
func TestLongLabelsWrap(t *testing.T) {
	long := strings.Repeat("choose this rather long option ", 7)[:200]
	for _, tc := range []struct {
		name string
		q    wire.Question
	}{
		{"checkbox", question(wire.Prompt{Markdown: "Which?", Options: []wire.Option{{Label: long}, {Label: "b", Description: long}}})},
		{"radio", question(wire.Prompt{Markdown: "Which?", Single: true, Options: []wire.Option{{Label: long, Description: long}, {Label: "b"}}})},
		{"header", wire.Question{ID: "q", Title: long, Prompts: []wire.Prompt{
			{Header: long, Markdown: "one", Options: []wire.Option{{Label: long}}},
			{Header: "2", Markdown: "two"}}}},
		{"context", wire.Question{ID: "q", Context: []wire.Field{{Label: "Objective", Value: long}, {Label: strings.Repeat("x", 40), Value: "y"}},
			Prompts: []wire.Prompt{{Markdown: "ok?"}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			v, _, _ := newTestView(t, tc.q, Options{})
			if w := v.Content().MinSize().Width; w > maxMinWidth {
				t.Errorf("content min width = %v, want <= %d", w, maxMinWidth)
			}
			small := fyne.NewSize(1024-2*ScreenMargin, 768-2*ScreenMargin)
			for _, scale := range []float32{1, 1.5} {
				limit := fyne.NewSize(small.Width/scale, small.Height/scale)
				got := v.fitSize(limit)
				if got.Width > limit.Width || got.Height > limit.Height {
					t.Errorf("scale %v: fit %v exceeds the work area %v", scale, got, limit)
				}
			}
		})
	}
}

// Tapping an option's label toggles it, as tapping its box does.
func TestTappingTheLabelToggles(t *testing.T) {
	v, _, _ := newTestView(t, question(
		wire.Prompt{Markdown: "a", Options: []wire.Option{{Label: "x"}}},
		wire.Prompt{Markdown: "b", Single: true, Options: []wire.Option{{Label: "p"}, {Label: "q", Default: true}}}), Options{})
	labels := findAll[*tapLabel](v.Content())
	if len(labels) != 3 {
		t.Fatalf("%d option labels, want 3", len(labels))
	}
	test.Tap(labels[0])
	test.Tap(labels[1])
	a := v.collect()
	if got := a.Replies[0].Selected; len(got) != 1 || got[0] != "x" {
		t.Errorf("first prompt selected %v, want [x]", got)
	}
	if got := a.Replies[1].Selected; len(got) != 1 || got[0] != "p" {
		t.Errorf("radio selected %v, want [p] (tapping p unselects q)", got)
	}
	test.Tap(labels[0])
	if got := v.collect().Replies[0].Selected; len(got) != 0 {
		t.Errorf("after a second tap selected %v, want none", got)
	}
}

// Small questions open small; long ones take the whole work area and scroll.
func TestWindowFitsItsContent(t *testing.T) {
	limit := fyne.NewSize(1280-2*ScreenMargin, 1024-2*ScreenMargin)
	confirm, _, _ := newTestView(t, question(wire.Prompt{Kind: wire.KindYesNo, Markdown: "Deploy to staging?"}), Options{})
	got := confirm.fitSize(limit)
	if got.Height > 320 || got.Width > WindowSize.Width {
		t.Errorf("one-line yes/no opens at %v, want at most %vx320", got, WindowSize.Width)
	}
	if got.Height < MinWindowHeight {
		t.Errorf("one-line yes/no opens at %v, want at least %d high", got, MinWindowHeight)
	}
	var md strings.Builder
	for i := range 300 {
		md.WriteString("Line ")
		md.WriteString(strings.Repeat("x", i%40))
		md.WriteString("\n\n")
	}
	long, _, _ := newTestView(t, question(wire.Prompt{Markdown: md.String(), Options: []wire.Option{{Label: "a"}}}), Options{})
	got = long.fitSize(limit)
	if got.Height != limit.Height {
		t.Errorf("300-line question opens at %v, want the work area's height %v", got, limit.Height)
	}
	small := fyne.NewSize(600, 400)
	if got := long.fitSize(small); got.Width > small.Width || got.Height > small.Height {
		t.Errorf("fit in %v = %v", small, got)
	}
}

// findAll returns the objects of type T in the tree under o.
func findAll[T fyne.CanvasObject](o fyne.CanvasObject) []T {
	var out []T
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		if t, ok := o.(T); ok {
			out = append(out, t)
		}
		switch c := o.(type) {
		case *fyne.Container:
			for _, ch := range c.Objects {
				walk(ch)
			}
		case *container.Scroll:
			walk(c.Content)
		}
	}
	walk(o)
	return out
}

// A 300-line message never pushes the options out of view: they have a
// pane of their own under the message, which scrolls.
func TestLongMessageKeepsOptionsInView(t *testing.T) {
	var md strings.Builder
	for i := range 300 {
		md.WriteString("Line of the message\n\n")
		_ = i
	}
	for _, tc := range []struct {
		name string
		p    wire.Prompt
	}{
		{"text", wire.Prompt{Markdown: md.String(), Options: []wire.Option{{Label: "Ship it", Default: true}, {Label: "Wait"}}}},
		{"choice", wire.Prompt{Kind: wire.KindChoice, Single: true, Markdown: md.String(), Options: []wire.Option{{Label: "Ship it"}, {Label: "Other", FreeText: true}}}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			w := NewWindow(a, question(tc.p), Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
			w.Fyne().Resize(fyne.NewSize(560, 420))
			w.Show()
			defer w.Close()
			size := w.Fyne().Canvas().Size()
			for _, l := range findAll[*tapLabel](w.View().Content()) {
				pos := a.Driver().AbsolutePositionForObject(l)
				if pos.Y < 0 || pos.Y+l.Size().Height > size.Height || l.Size().Height == 0 {
					t.Errorf("option %q at y=%v..%v, outside the %v window", l.Text, pos.Y, pos.Y+l.Size().Height, size)
				}
			}
			if tc.name == "text" {
				assertImageSettles(t, "question/long-message.png", w.Fyne().Canvas().Capture)
			}
		})
	}
}

// The recommended answer of a yes/no question is the primary button, No
// with default false; Dismiss is worded and drawn unlike No.
func TestRecommendedAnswerIsPrimary(t *testing.T) {
	for _, tc := range []struct{ rec, primary string }{{"No", "No"}, {"Yes", "Yes"}, {"", ""}} {
		q := question(wire.Prompt{Kind: wire.KindYesNo, Markdown: "Deploy?"})
		if tc.rec != "" {
			q.Context = []wire.Field{{Label: "Recommended", Value: tc.rec}}
		}
		v, _, _ := newTestView(t, q, Options{})
		var primary []string
		var no, dismiss *keyButton
		for _, b := range findAll[*keyButton](v.Content()) {
			if b.Importance == widget.HighImportance {
				primary = append(primary, b.Text)
			}
			switch b.Text {
			case "No":
				no = b
			case "Don't answer":
				dismiss = b
			}
		}
		if want := []string{tc.primary}; (tc.primary == "" && len(primary) != 0) || (tc.primary != "" && !reflect.DeepEqual(primary, want)) {
			t.Errorf("recommended %q: primary buttons %v, want %q", tc.rec, primary, tc.primary)
		}
		if no == nil || dismiss == nil || no.Icon == dismiss.Icon {
			t.Errorf("No and Don't answer: %v, %v: want both, with different icons", no, dismiss)
		}
	}
}

// Under a minute left the countdown turns to the warning colour and says
// so; an extension takes it back.
func TestCountdownWarnsInTheLastMinute(t *testing.T) {
	v, _, c := newTestView(t, question(wire.Prompt{Markdown: "?"}), Options{DefaultTimeout: 2 * time.Minute, Extend: time.Minute})
	if v.clock.label.Importance == widget.WarningImportance {
		t.Fatal("warning with two minutes left")
	}
	c.now = c.now.Add(61 * time.Second)
	v.Tick(c.now)
	if v.clock.label.Importance != widget.WarningImportance || !strings.Contains(v.clock.label.Text, "closes soon") {
		t.Errorf("59 s left: %q, importance %v, want the warning", v.clock.label.Text, v.clock.label.Importance)
	}
	v.Extend()
	if v.clock.label.Importance == widget.WarningImportance || strings.Contains(v.clock.label.Text, "soon") {
		t.Errorf("after +1 min: %q still warns", v.clock.label.Text)
	}
}

// The context bar says who asks: the MCP client's name.
func TestContextNamesTheClient(t *testing.T) {
	q := question(wire.Prompt{Markdown: "?"})
	q.Client = "claude-code"
	v, _, _ := newTestView(t, q, Options{})
	var text string
	for _, rt := range findAll[*widget.RichText](v.panes.body) {
		text += rt.String()
	}
	for _, rt := range findAll[*heavyRichText](v.panes.body) { // the context bar (heavy.go)
		text += rt.String()
	}
	if !strings.Contains(text, "From claude-code") {
		t.Errorf("context bar %q does not name the client", text)
	}
}

// Radio options line up with checkbox options: label beside the button,
// description under the label.
func TestRadioOptionsLook(t *testing.T) {
	a := test.NewTempApp(t)
	q := question(
		wire.Prompt{Kind: wire.KindChoice, Single: true, Header: "DB", Markdown: "Which database?",
			Options: []wire.Option{{Label: "Postgres", Description: "A server"}, {Label: "Other", FreeText: true, Default: true}}},
		wire.Prompt{Kind: wire.KindChoice, Header: "Features", Markdown: "Which first?", Options: []wire.Option{{Label: "Auth", Description: "Login"}}})
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
	w.Fyne().Resize(fyne.NewSize(420, 460))
	w.Show()
	defer w.Close()
	test.AssertImageMatches(t, "question/radio.png", w.Fyne().Canvas().Capture())
}

// fourLongPrompts is ask_user_question at its largest: four prompts, each
// a long message and six options (some with descriptions); the third takes
// text too (a reply box beside its options).
func fourLongPrompts() wire.Question {
	var md strings.Builder
	md.WriteString("## Trade-offs\n\n")
	for i := range 30 {
		fmt.Fprintf(&md, "Paragraph %d of a long message, far taller than any window.\n\n", i)
	}
	q := wire.Question{ID: "q4", Title: "Four"}
	for n := range 4 {
		p := wire.Prompt{Header: fmt.Sprintf("Q%d", n+1), Markdown: md.String(), Kind: wire.KindChoice, Single: n%2 == 0}
		if n == 2 {
			p.Kind, p.Single = wire.KindText, false
		}
		for j := range 6 {
			o := wire.Option{Label: fmt.Sprintf("Option %d.%d", n+1, j+1)}
			if j%2 == 0 {
				o.Description = "what choosing it means"
			}
			p.Options = append(p.Options, o)
		}
		q.Prompts = append(q.Prompts, p)
	}
	return q
}

// Several prompts with long messages: the first prompt's options are in
// view when the window opens, and every prompt's are once the page is
// scrolled to the prompt's header (one scroll away), at 1280x1024 and at
// 1024x768 with FYNE_SCALE=1.5. On the small screen a message keeps its
// floor of lines, so the first option (not all six) is what is promised.
func TestSeveralLongPromptsKeepTheirOptionsInView(t *testing.T) {
	for _, tc := range []struct {
		name   string
		screen fyne.Size
		scale  float32
		all    bool // every option of the prompt in view, not only its first
	}{
		{"1280x1024", fyne.NewSize(1280, 1024), 1, true},
		{"1024x768 at 1.5", fyne.NewSize(1024, 768), 1.5, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			w := NewWindow(a, fourLongPrompts(), Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
			v := w.View()
			limit := fyne.NewSize((tc.screen.Width-2*ScreenMargin)/tc.scale, (tc.screen.Height-2*ScreenMargin)/tc.scale)
			size := v.fitSize(limit)
			if size.Height != limit.Height {
				t.Errorf("window %v, want the work area's height %v", size, limit.Height)
			}
			w.Fyne().Resize(size)
			w.Show()
			defer w.Close()
			d := a.Driver()
			inView := func(o fyne.CanvasObject) bool {
				top, page := d.AbsolutePositionForObject(o).Y, d.AbsolutePositionForObject(v.panes.scroll).Y
				return o.Visible() && o.Size().Height > 0 &&
					top >= page-0.5 && top+o.Size().Height <= page+v.panes.scroll.Size().Height+0.5
			}
			check := func(when string, pv *promptView) {
				t.Helper()
				for j, row := range pv.rows {
					l := findAll[*tapLabel](row)[0]
					if (j == 0 || tc.all) && !inView(l) {
						t.Errorf("%s: option %q is out of view (y %v, height %v; page at %v, %v high)", when, l.Text,
							d.AbsolutePositionForObject(l).Y, l.Size().Height, d.AbsolutePositionForObject(v.panes.scroll).Y, v.panes.scroll.Size().Height)
					}
				}
			}
			check("at open", v.prompts[0])
			if v.panes.scroll.Offset.Y != 0 {
				t.Errorf("the page opens scrolled to %v", v.panes.scroll.Offset.Y)
			}
			panes := findAll[*promptPane](v.panes.body)
			if len(panes) != 4 {
				t.Fatalf("%d message panes, want 4", len(panes))
			}
			page := v.panes.body.(*fyne.Container).Objects[0].(*fyne.Container).Objects
			for i := 1; i < 4; i++ {
				// One scroll: the prompt's header line (the object above
				// its message) at the top of the page.
				at := slices.Index(page, fyne.CanvasObject(panes[i]))
				y := d.AbsolutePositionForObject(page[at-1]).Y - d.AbsolutePositionForObject(v.panes.body).Y
				v.panes.scroll.ScrollToOffset(fyne.NewPos(0, y))
				check(fmt.Sprintf("scrolled to Q%d", i+1), v.prompts[i])
			}
		})
	}
}

// A message pane never takes the wheel: it scrolls the page. "Show all"
// lets a cut message grow to its whole height in the page, and "Show
// less" cuts it again.
func TestPromptPaneWheelAndShowAll(t *testing.T) {
	a := test.NewTempApp(t)
	w := NewWindow(a, fourLongPrompts(), Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
	v := w.View()
	w.Fyne().Resize(fyne.NewSize(600, 500))
	w.Show()
	defer w.Close()
	pane := findAll[*promptPane](v.panes.body)[0]
	if !pane.toggle.Visible() || pane.toggle.Text != "Show all" {
		t.Fatalf("a cut message has no Show all (visible %v, %q)", pane.toggle.Visible(), pane.toggle.Text)
	}
	pane.Scrolled(&fyne.ScrollEvent{Scrolled: fyne.Delta{DY: -50}})
	if pane.Offset.Y != 0 || v.panes.scroll.Offset.Y != 50 {
		t.Errorf("the wheel over a message moved it to %v and the page to %v; want the page to 50", pane.Offset.Y, v.panes.scroll.Offset.Y)
	}
	cut := pane.Size().Height
	test.Tap(pane.toggle)
	w.Fyne().Content().Refresh()
	if full := pane.Content.MinSize().Height; pane.Size().Height != full || full <= cut {
		t.Errorf("after Show all the message is %v high, want its whole %v (cut: %v)", pane.Size().Height, full, cut)
	}
	if pane.toggle.Text != "Show less" {
		t.Errorf("toggle %q, want Show less", pane.toggle.Text)
	}
	// The content grew: the window re-fits, as tall as the work area
	// allows (WindowSize's height here), not 500 as it was (budget.go).
	if h := w.Fyne().Canvas().Size().Height; h != WindowSize.Height {
		t.Errorf("after Show all the window is %v high, want %v", h, WindowSize.Height)
	}
	test.Tap(pane.toggle)
	w.Fyne().Content().Refresh()
	if got := pane.Size().Height; got != pane.limit() || got < cut || got >= pane.Content.MinSize().Height {
		t.Errorf("after Show less the message is %v high, want cut again at the cap %v of the grown page (was %v)", got, pane.limit(), cut)
	}
	// Short messages are not cut and have no button.
	short := NewWindow(a, question(wire.Prompt{Header: "A", Markdown: "short"}, wire.Prompt{Header: "B", Markdown: "short too"}),
		Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
	short.Fyne().Resize(fyne.NewSize(600, 500))
	short.Show()
	defer short.Close()
	for _, p := range findAll[*promptPane](short.View().panes.body) {
		if p.toggle.Visible() {
			t.Error("a short message has a Show all button")
		}
	}
}

// The first reply box of a window of several prompts has the keyboard,
// even below the fold, without scrolling the first prompt away; the first
// key typed into it brings it into view, so typed text is never lost from
// sight.
func TestTypingRevealsTheFocusedReplyBox(t *testing.T) {
	a := test.NewTempApp(t)
	w := NewWindow(a, fourLongPrompts(), Options{Now: (&clock{now: t0}).Now, InputGuard: -1}, func(wire.Answer) {})
	v := w.View()
	w.Fyne().Resize(fyne.NewSize(600, 500))
	w.Show()
	defer w.Close()
	e := v.prompts[2].entry
	if got := w.Fyne().Canvas().Focused(); got != e {
		t.Fatalf("focused %T, want the third prompt's reply box", got)
	}
	if v.panes.scroll.Offset.Y != 0 {
		t.Fatalf("the page opened scrolled to %v", v.panes.scroll.Offset.Y)
	}
	e.KeyDown(&fyne.KeyEvent{Name: fyne.KeyX})
	test.Type(e, "x")
	top := a.Driver().AbsolutePositionForObject(e).Y - a.Driver().AbsolutePositionForObject(v.panes.scroll).Y
	if v.panes.scroll.Offset.Y == 0 || top < 0 || top+e.Size().Height > v.panes.scroll.Size().Height+0.5 {
		t.Errorf("after a key the reply box is at %v..%v of a %v page (offset %v)", top, top+e.Size().Height, v.panes.scroll.Size().Height, v.panes.scroll.Offset.Y)
	}
	if e.Text != "x" {
		t.Errorf("reply = %q", e.Text)
	}
}

// No part of a question window sits under a theme override: Fyne caches
// the fonts of each override scope for good, so a scope per window loaded
// every font again for each question (the UI process's heap grew ~6 MiB a
// question, 475 MiB after the Markdown benchmark).
func TestNoThemeOverrideInTheWindow(t *testing.T) {
	a := test.NewTempApp(t)
	c := &clock{now: t0}
	w := NewWindow(a, question(wire.Prompt{Markdown: "Deploy?", Options: []wire.Option{{Label: "Yes"}}}),
		Options{DefaultTimeout: 50 * time.Second, Now: c.Now}, func(wire.Answer) {}) // in the last minute: the band
	w.Show()
	defer w.Close()
	for _, o := range test.LaidOutObjects(w.Fyne().Content()) {
		if _, ok := o.(*container.ThemeOverride); ok {
			t.Fatalf("a theme override in the question window: %T", o)
		}
	}
	if !w.View().clock.band.Visible() {
		t.Error("the last minute's band is not shown: the test does not see the countdown's colours")
	}
}

// assertImageSettles is test.AssertImageMatches of what capture gives once
// the window has settled: on a machine loaded with -race tests a capture
// now and then caught the window mid-refresh (its text drawn, its
// backgrounds not yet). It takes captures for up to 2 s until one equals
// the master, then asserts the last.
func assertImageSettles(t *testing.T, master string, capture func() image.Image) {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", master))
	if err == nil {
		want, _, derr := image.Decode(f)
		f.Close()
		if derr == nil {
			for deadline := time.Now().Add(2 * time.Second); time.Now().Before(deadline); time.Sleep(50 * time.Millisecond) {
				if samePixels(want, capture()) {
					return
				}
			}
		}
	}
	test.AssertImageMatches(t, master, capture())
}

// samePixels reports whether a and b have the same size and pixels.
func samePixels(a, b image.Image) bool {
	if a.Bounds().Size() != b.Bounds().Size() {
		return false
	}
	ab, bb := a.Bounds(), b.Bounds()
	for y := 0; y < ab.Dy(); y++ {
		for x := 0; x < ab.Dx(); x++ {
			r1, g1, b1, a1 := a.At(ab.Min.X+x, ab.Min.Y+y).RGBA()
			r2, g2, b2, a2 := b.At(bb.Min.X+x, bb.Min.Y+y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}
