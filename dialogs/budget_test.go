package dialogs

import (
	"context"
	"encoding/base64"
	"fmt"
	"image"
	"image/color"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"feedback/dialogs/markdown"
	"feedback/internal/i18n"
	"feedback/ipc/wire"
)

// screenshotQuestion is the README's screenshot question (e2e
// TestScreenshot): a heading, a list, a code block, a table, three options
// and a reply box, with a context block.
func screenshotQuestion() wire.Question {
	return wire.Question{ID: "shot", Title: "Auth", Context: []wire.Field{{Label: "Success", Value: "pytest all green, no new warnings"}},
		Prompts: []wire.Prompt{{
			Markdown: "## Migrate `auth/session.py` to PyJWT 2.x?\n\n" +
				"The tests are green on a branch. Two things changed:\n\n" +
				"1. `jwt.decode` now **requires** `algorithms=[...]`\n" +
				"2. tokens are `str`, not `bytes`\n\n" +
				"```python\njwt.decode(token, key, algorithms=[\"HS256\"])\n```\n\n" +
				"| Check | Result |\n|---|---|\n| unit tests | 214 passed |\n| integration | 12 passed |\n",
			Options:     []wire.Option{{Label: "Merge it", Default: true}, {Label: "Add a migration note first"}, {Label: "Hold off"}},
			Placeholder: "Anything the agent should know?",
		}}}
}

// withPaste gives o a clipboard that holds no image: Ctrl+V is offered.
func (o Options) withPaste() Options {
	o.PasteImage = func(context.Context) ([]byte, bool, error) { return nil, false, nil }
	return o
}

// openAt opens q in a window sized as the app sizes it for limit (the
// work area at a scale, in Fyne units), with slow work run inline.
func openAt(t *testing.T, a fyne.App, q wire.Question, limit fyne.Size) *Window {
	t.Helper()
	a.Settings().SetTheme(Theme()) // the test theme has no bold monospace font (a heading's code)
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now}.withPaste(), func(wire.Answer) {})
	v := w.View()
	v.hooks.async = func(f func()) { f() }
	v.hooks.post = func(f func()) { f() }
	w.Fyne().Resize(v.fitSize(limit))
	w.Show()
	t.Cleanup(w.Close)
	return w
}

// At 1280x800 with FYNE_SCALE=1.5 the message comes first: the empty
// reply box is replyMinRows rows (it was 5, and the message got ~200 px,
// ~133 units, with its third line cut), so the README's question gets
// more than 190 units (205 before text lines grew 6% to hold their
// glyphs' ink, fontbox.go: 196), over half of what it needs, and more than
// the options and the reply box together, while the options stay whole.
func TestMessageComesFirstAtScale15(t *testing.T) {
	a := test.NewTempApp(t)
	limit := fyne.NewSize((1280-2*ScreenMargin)/1.5, (800-2*ScreenMargin)/1.5)
	w := openAt(t, a, screenshotQuestion(), limit)
	v := w.View()
	e := v.prompts[0].entry
	rowH := (e.MinSize().Height) / float32(e.rows)
	msg, msgNeed := v.panes.scroll.Size().Height, v.panes.scroll.Content.MinSize().Height
	opts, optsNeed := v.panes.choices.Size().Height, v.panes.choices.Content.MinSize().Height
	t.Logf("window %v; message pane %v of %v; options %v of %v; reply box %v",
		w.Fyne().Canvas().Size(), msg, msgNeed, opts, optsNeed, e.Size().Height)
	if e.rows != replyMinRows || e.Size().Height > rowH*(replyMinRows+1) {
		t.Errorf("the empty reply box is %v high (%d rows), want %d rows", e.Size().Height, e.rows, replyMinRows)
	}
	if msg < 190 || msg < msgNeed/2 || msg < opts+e.Size().Height {
		t.Errorf("the message pane is %v high (it needs %v; options %v, reply box %v): want the message first", msg, msgNeed, opts, e.Size().Height)
	}
	if opts+0.5 < optsNeed {
		t.Errorf("the options pane is %v high, the options need %v: one is cut off", opts, optsNeed)
	}

	// Typing grows the reply box, row by row, up to replyMaxRows.
	test.Type(e, "one")
	for i := range 9 {
		e.TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
		test.Type(e, fmt.Sprintf("line %d", i))
	}
	if e.rows != replyMaxRows {
		t.Errorf("after 10 lines the reply box has %d rows, want %d", e.rows, replyMaxRows)
	}
}

// Pasting an image makes the window grow by the attachments' strip
// instead of squeezing the message (the window was 392 px on a 1000 px
// screen, the question a sliver and an option cut off); a second image
// beside it in the strip leaves it as it is.
func TestWindowGrowsForAnAttachment(t *testing.T) {
	a := test.NewTempApp(t)
	limit := fyne.NewSize(1600-2*ScreenMargin, 1000-2*ScreenMargin)
	q := question(wire.Prompt{Markdown: "Which layout?\n\nThe sidebar moved; see the screenshot.", Options: []wire.Option{{Label: "Keep it"}, {Label: "Revert"}}})
	w := openAt(t, a, q, limit)
	v := w.View()
	h0, msg0, opt0 := w.Fyne().Canvas().Size().Height, v.panes.scroll.Size().Height, v.panes.choices.Size().Height
	v.AttachImage("shot.png", pngOf(t, 400, 300))
	h1 := w.Fyne().Canvas().Size().Height
	box := v.att.box.MinSize().Height
	if h1+0.5 < h0+box {
		t.Errorf("after a paste the window is %v high, was %v: want it grown by the strip's %v", h1, h0, box)
	}
	if msg, opt := v.panes.scroll.Size().Height, v.panes.choices.Size().Height; msg+0.5 < msg0 || opt+0.5 < opt0 {
		t.Errorf("after a paste the message pane is %v (was %v), the options %v (were %v): squeezed", msg, msg0, opt, opt0)
	}
	v.AttachImage("second.png", pngOf(t, 400, 300))
	if h2 := w.Fyne().Canvas().Size().Height; h2 != h1 {
		t.Errorf("a second image in the strip changed the window's height %v → %v", h1, h2)
	}
}

// An image of the Markdown loads after the window was sized (in the app
// always: the window is sized on the Fyne goroutine before any load can
// report back; e2e TestLateMarkdownImageGrowsTheWindow): the window grows
// to show it, within the work area. The test holds the load until the
// window is as small as the placeholder left it.
func TestWindowGrowsForALateMarkdownImage(t *testing.T) {
	loaded := make(chan func(), 1)
	newPictures = func() *markdown.Pictures { return markdown.NewPicturesOn(func(f func()) { loaded <- f }) }
	t.Cleanup(func() { newPictures = markdown.NewPictures })
	a := test.NewTempApp(t)
	limit := fyne.NewSize(1600-2*ScreenMargin, 1000-2*ScreenMargin)
	img := base64.StdEncoding.EncodeToString(pngOf(t, 400, 300))
	q := question(wire.Prompt{Markdown: "Does this look right?\n\n![the chart](data:image/png;base64," + img + ")\n\nLast line.", Options: []wire.Option{{Label: "Yes"}, {Label: "No"}}})
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now}, func(wire.Answer) {})
	v := w.View()
	w.Show()
	defer w.Close()
	small := fyne.NewSize(WindowSize.Width, 300)
	w.Fyne().Resize(small)
	select {
	case settle := <-loaded:
		settle() // what fyne.Do runs: the picture settles and Pictures.Changed re-fits
	case <-time.After(10 * time.Second):
		t.Fatal("the image never loaded")
	}
	want := v.heightAt(WindowSize.Width, maxWindowSize(a))
	if h := w.Fyne().Canvas().Size().Height; h+0.5 < want || h <= small.Height {
		t.Errorf("after the image loaded the window is %v high, want the %v its content needs", h, want)
	}
	if h := w.Fyne().Canvas().Size().Height; h > limit.Height {
		t.Errorf("the window grew to %v, beyond the work area's %v", h, limit.Height)
	}
}

// In a window with options the Sending line takes the hint's place by the
// buttons while it fits there whole (the keys are behind "?" and F1), so
// the message keeps the height a row of its own would take; a button's
// tip, the input guard's cue and the closing words still show there, and
// the Sending line comes back after them. (A longer line has a row of its
// own: sending_test.go.)
func TestSendingLineTakesTheHintSlot(t *testing.T) {
	a := test.NewTempApp(t)
	q := question(wire.Prompt{Markdown: "Refactor?", Options: []wire.Option{{Label: "a"}, {Label: "b"}}})
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now}.withPaste(), func(wire.Answer) {})
	w.Fyne().Resize(fyne.NewSize(WindowSize.Width, 500))
	w.Show()
	defer w.Close()
	v := w.View()
	if v.hint.text.Visible() || !v.sending.inline.Visible() || v.sending.inline.Size().Width < 100 {
		t.Fatalf("hint shown %v, Sending line shown %v (%v wide): want the Sending line in the hint's place",
			v.hint.text.Visible(), v.sending.inline.Visible(), v.sending.inline.Size().Width)
	}
	if v.sending.row.Visible() {
		t.Error("the Sending line's row is shown with the line in the hint's place and nothing to warn of")
	}
	v.showHint("a tip")
	if !v.hint.text.Visible() || v.sending.inline.Visible() || v.hint.text.String() != "a tip" {
		t.Errorf("a tip: hint shown %v (%q), Sending line shown %v", v.hint.text.Visible(), v.hint.text.String(), v.sending.inline.Visible())
	}
	v.showHint("")
	if v.hint.text.Visible() || !v.sending.inline.Visible() {
		t.Error("the Sending line did not come back after the tip")
	}
}

// The hint line fits beside the buttons in a window of the usual width, in
// every language, for a window with a reply box, options and paste, and
// for a yes/no window; in a narrow window it shows the parts that fit,
// never a part cut off. The whole list of keys is behind F1 and "?".
func TestHintLineFits(t *testing.T) {
	defer i18n.Use(i18n.English)
	for _, lang := range i18n.Languages {
		i18n.Use(lang)
		for _, tc := range []struct {
			name string
			q    wire.Question
		}{
			{"reply", question(wire.Prompt{Markdown: "Refactor?"})},
			{"yesno", wire.Question{ID: "yn", Context: []wire.Field{{Label: "Recommended", Value: "no"}}, Prompts: []wire.Prompt{{Kind: wire.KindYesNo, Markdown: "Deploy?"}}}},
		} {
			for _, width := range []float32{WindowSize.Width, 520} {
				t.Run(fmt.Sprintf("%s/%s/%v", lang, tc.name, width), func(t *testing.T) {
					a := test.NewTempApp(t)
					w := NewWindow(a, tc.q, Options{Now: (&clock{now: t0}).Now}.withPaste(), func(wire.Answer) {})
					w.Fyne().Resize(fyne.NewSize(width, 500))
					w.Show()
					defer w.Close()
					v := w.View()
					shown := v.hint.text.String()
					need := fyne.MeasureText(shown, theme.Size(theme.SizeNameCaptionText), fyne.TextStyle{}).Width + 2*theme.InnerPadding()
					if need > v.hint.text.Size().Width+0.5 {
						t.Errorf("hint %q needs %v, has %v: cut off", shown, need, v.hint.text.Size().Width)
					}
					if width == WindowSize.Width && shown != v.shortHint() {
						t.Errorf("hint %q at the usual width, want the whole %q", shown, v.shortHint())
					}
					if !strings.HasPrefix(v.shortHint(), shown) {
						t.Errorf("hint %q is not a run of the hint's parts %q", shown, v.shortHint())
					}
				})
			}
		}
	}
}

// F1 and the "?" button show every key of the window in a dialog, which
// Escape closes, giving the keyboard back to the reply box.
func TestF1ShowsTheKeys(t *testing.T) {
	a := test.NewTempApp(t)
	q := question(wire.Prompt{Markdown: "Refactor?", Options: []wire.Option{{Label: "a"}, {Label: "b"}}})
	w := NewWindow(a, q, Options{Now: (&clock{now: t0}).Now, DefaultTimeout: time.Hour, InputGuard: -1}.withPaste(), func(wire.Answer) {})
	w.Fyne().Resize(fyne.NewSize(680, 600))
	w.Show()
	defer w.Close()
	v := w.View()
	c := w.Fyne().Canvas()
	v.prompts[0].entry.TypedKey(&fyne.KeyEvent{Name: HelpKey})
	if c.Overlays().Top() == nil {
		t.Fatal("F1 showed nothing")
	}
	var listed []string
	for _, r := range v.keyRows() {
		listed = append(listed, r.key)
	}
	for _, want := range []string{"Ctrl+Enter", "Esc", "Alt+1 … 2", "Ctrl+V", "Ctrl+O", "Alt+T", "Alt+P", "Ctrl+PgDn / Ctrl+PgUp", "F1"} {
		found := false
		for _, l := range listed {
			found = found || l == want
		}
		if !found {
			t.Errorf("the keys dialog lacks %q: %q", want, listed)
		}
	}
	test.AssertImageMatches(t, "question/keys.png", c.Capture())
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
	if c.Overlays().Top() != nil {
		t.Error("Escape left the keys dialog open")
	}
	if c.Focused() != v.prompts[0].entry {
		t.Errorf("after the keys dialog %T has the keyboard, want the reply box", c.Focused())
	}
	test.Tap(findAll[*keyButton](v.Content())[func() int {
		for i, b := range findAll[*keyButton](v.Content()) {
			if b.Text == "" && b.Icon == theme.QuestionIcon() {
				return i
			}
		}
		t.Fatal("no ? button")
		return 0
	}()])
	if c.Overlays().Top() == nil {
		t.Error("the ? button showed nothing")
	}
}

// The last minute turns the countdown's row into a warning band: the time
// large and bold, in colours of high contrast in both themes (the band
// against the window's background, the time against the band), and the
// window asks for attention once (never the focus).
func TestLastMinuteIsAWarningBand(t *testing.T) {
	for _, variant := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		bg, fg := WarningBand(variant)
		window := Theme().Color(theme.ColorNameBackground, variant)
		if got := contrast(bg, window); got < MinBandContrast {
			t.Errorf("variant %d: the band has %.2f:1 against the window, want >= %v", variant, got, MinBandContrast)
		}
		if got := contrast(fg, bg); got < MinTextContrast {
			t.Errorf("variant %d: the time has %.2f:1 on the band, want >= %v", variant, got, MinTextContrast)
		}
		// Fyne's own warning text on the window (the old warning) is what
		// the band replaces: it does not reach the text contrast in light.
		if old := contrast(theme.DefaultTheme().Color(theme.ColorNameWarning, variant), window); old >= MinTextContrast && variant == theme.VariantLight {
			t.Logf("variant %d: Fyne's warning text already had %.2f:1", variant, old)
		}
	}

	a := test.NewTempApp(t)
	c := &clock{now: t0}
	q := question(wire.Prompt{Markdown: "Deploy?"})
	w := NewWindow(a, q, Options{Now: c.Now, DefaultTimeout: 2 * time.Minute}, func(wire.Answer) {})
	urged := 0
	w.View().hooks.onUrgent = func() { urged++ }
	w.Show()
	defer w.Close()
	v := w.View()
	if v.clock.band.Visible() {
		t.Fatal("the band shows with two minutes left")
	}
	normal := v.clock.label.MinSize().Height
	for range 3 {
		c.now = c.now.Add(25 * time.Second)
		v.Tick(c.now)
	}
	if !v.clock.band.Visible() || v.clock.band.Size().Width < v.clock.label.MinSize().Width || v.clock.band.Size().Height <= 0 {
		t.Errorf("45 s left: band visible %v, size %v", v.clock.band.Visible(), v.clock.band.Size())
	}
	if v.clock.label.SizeName != theme.SizeNameSubHeadingText || !v.clock.label.TextStyle.Bold || v.clock.label.MinSize().Height <= normal {
		t.Errorf("45 s left: the time is %q, bold %v, %v high (was %v): want it large and bold",
			v.clock.label.SizeName, v.clock.label.TextStyle.Bold, v.clock.label.MinSize().Height, normal)
	}
	if urged != 1 {
		t.Errorf("the window asked for attention %d times in its last minute, want once", urged)
	}
	test.AssertImageMatches(t, "question/last-minute.png", w.Fyne().Canvas().Capture())
	v.Extend()
	if v.clock.band.Visible() {
		t.Error("after + time the band still shows")
	}
}

// ink counts the pixels of img in r darker than the background by more
// than a third (light text on dark: brighter), a measure of how heavy the
// text is drawn.
func ink(img image.Image, r image.Rectangle) int {
	n := 0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			c := color.GrayModel.Convert(img.At(x, y)).(color.Gray)
			if c.Y > 0xb0 {
				n++
			}
		}
	}
	return n
}

// Chinese on the window's buttons and chips is drawn bold: heavier than
// the same text in a regular weight (Fyne draws bold CJK like regular, so
// "提交" on Submit looked like the text around it), as the Markdown
// renderer draws bold CJK.
func TestChromeBoldCJKIsHeavier(t *testing.T) {
	a := test.NewTempApp(t)
	a.Settings().SetTheme(&variantTheme{Theme(), theme.VariantDark}) // light text on dark
	measure := func(o fyne.CanvasObject) int {
		w := test.NewWindow(container.NewCenter(o))
		defer w.Close()
		w.Resize(fyne.NewSize(240, 80))
		return ink(w.Canvas().Capture(), image.Rect(0, 0, 240, 80))
	}
	for _, text := range []string{"提交", "不回答", "+5 分钟"} {
		plain := widget.NewButton(text, nil) // Fyne's: bold CJK drawn regular
		ours := newKeyButton(text, nil, nil, nil)
		regular := canvas.NewText(text, color.White)
		bold := canvas.NewText(text, color.White)
		bold.TextStyle.Bold = true
		chipBold := newHeavyText(bold, 0, 0)
		p, o, rg, cb := measure(plain), measure(ours), measure(regular), measure(chipBold)
		t.Logf("%q: Fyne's button %d, ours %d; regular text %d, our bold %d", text, p, o, rg, cb)
		if float64(o) < 1.15*float64(p) {
			t.Errorf("%q on our button has %d pixels of ink, Fyne's bold %d: not heavier", text, o, p)
		}
		if float64(cb) < 1.15*float64(rg) {
			t.Errorf("%q in a chip has %d pixels of ink, regular %d: not heavier", text, cb, rg)
		}
		// The context bar's labels ("来自 claude-code"): a bold segment
		// among others.
		segs := func() []widget.RichTextSegment {
			return []widget.RichTextSegment{
				&widget.TextSegment{Text: text + " ", Style: widget.RichTextStyle{Inline: true, TextStyle: fyne.TextStyle{Bold: true}}},
				&widget.TextSegment{Text: "x", Style: widget.RichTextStyleInline}}
		}
		fr, hr := measure(widget.NewRichText(segs()...)), measure(newHeavyRichText(segs()...))
		if float64(hr) < 1.15*float64(fr) {
			t.Errorf("%q bold in the context bar has %d pixels of ink, Fyne's %d: not heavier", text, hr, fr)
		}
	}
}
