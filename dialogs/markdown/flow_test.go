package markdown

import (
	"strings"
	"testing"
	"unicode/utf8"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
)

// prose returns n bytes of ordinary words.
func prose(n int) string {
	w := []string{"lorem", "ipsum", "dolor", "sit", "amet,", "consectetur", "adipiscing", "elit", "sed", "do", "eiusmod."}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(w[(i*7)%len(w)])
	}
	return b.String()[:n]
}

// countMeasures counts the text measurements made until the returned stop
// is called, and records the longest string measured.
func countMeasures(t *testing.T) (stop func() (calls, longest int)) {
	t.Helper()
	runeWidths.Lock()
	runeWidths.m = map[runeKey]float32{}
	runeWidths.Unlock()
	calls, longest := 0, 0
	measureText = func(s string, size float32, st fyne.TextStyle) fyne.Size {
		calls++
		longest = max(longest, utf8.RuneCountInString(s))
		return fyne.MeasureText(s, size, st)
	}
	t.Cleanup(func() { measureText = fyne.MeasureText })
	return func() (int, int) { measureText = fyne.MeasureText; return calls, longest }
}

// showMarkdown lays src out in a test window of the given width.
func showMarkdown(t *testing.T, src string, width float32) *Widget {
	t.Helper()
	md := newWidget(src, Options{Pictures: newTestPictures(t.TempDir()).Pictures})
	w := test.NewTempWindow(t, container.NewVScroll(md))
	w.Resize(fyne.NewSize(width, 600))
	w.Content().Refresh()
	return md
}

// flows returns the paragraphs of a rendered Markdown.
func flows(md *Widget) []*flowText {
	var out []*flowText
	for _, rt := range md.texts {
		for _, o := range test.WidgetRenderer(rt).Objects() {
			if f, ok := o.(*flowText); ok {
				out = append(out, f)
			}
		}
	}
	return out
}

// TestFlowCostDoesNotGrowWithLength is the regression test of the
// quadratic wrapping: a paragraph is measured one character at a time,
// each distinct character once, so a 50 KB paragraph costs no more
// measurements than a 1 KB one of the same words (fyne's RichText measured
// the whole rest of the paragraph for every row).
func TestFlowCostDoesNotGrowWithLength(t *testing.T) {
	test.NewTempApp(t)
	var counts []int
	for _, n := range []int{1 << 10, 10 << 10, 40 << 10} {
		stop := countMeasures(t)
		md := showMarkdown(t, prose(n), 400)
		calls, longest := stop()
		if longest > 1 {
			t.Errorf("%d bytes: a string of %d characters was measured; want single characters", n, longest)
		}
		if f := flows(md); len(f) != 1 || len(f[0].lines) < n/100 {
			t.Fatalf("%d bytes: want one paragraph of many lines", n)
		}
		counts = append(counts, calls)
	}
	if counts[0] != counts[1] || counts[1] != counts[2] {
		t.Errorf("measurements for 1, 10 and 40 KB: %v; want the same number", counts)
	}
}

// TestFlowLinesFitTheWidth wraps prose, a 2,500-character token and CJK
// text: no line is wider than the widget, and no character is lost.
func TestFlowLinesFitTheWidth(t *testing.T) {
	test.NewTempApp(t)
	token := strings.Repeat("x", 2500)
	src := prose(600) + " " + token + " end **bold** 中文的句子没有空格也要换行中文的句子没有空格也要换行 `code`"
	for _, width := range []float32{120, 300, 560} {
		md := showMarkdown(t, src, width)
		f := flows(md)[0]
		var text strings.Builder
		for i, l := range f.lines {
			for _, p := range l.pieces {
				if p.x+p.width > f.Size().Width+1 && !strings.HasSuffix(f.seg.runs[p.run].text[p.start:p.end], " ") {
					t.Errorf("width %v, line %d: a piece ends at %v, beyond %v", width, i, p.x+p.width, f.Size().Width)
				}
				text.WriteString(f.seg.runs[p.run].text[p.start:p.end])
			}
		}
		if got, want := strings.ReplaceAll(text.String(), " ", ""), strings.ReplaceAll(f.seg.Textual(), " ", ""); got != want {
			t.Errorf("width %v: characters lost in wrapping", width)
		}
		// the objects drawn stay inside the widget
		for _, o := range test.WidgetRenderer(f).Objects() {
			if o.Position().X+o.MinSize().Width > f.Size().Width+1 {
				t.Errorf("width %v: %q drawn to x=%v in a widget %v wide", width, o.(*canvas.Text).Text, o.Position().X+o.MinSize().Width, f.Size().Width)
			}
		}
		if min := md.MinSize().Width; min > 100 {
			t.Errorf("width %v: the text asks for %v px; wrapped text must not force the window wider", width, min)
		}
	}
}

// TestLongMessageInSections: a message of the accepted maximum shows its
// first section at once and the rest behind "Show all", which adds one
// section per turn of the Fyne loop.
func TestLongMessageInSections(t *testing.T) {
	test.NewTempApp(t)
	var src strings.Builder
	for src.Len() < 1<<20-400 {
		src.WriteString(prose(350) + "\n\n")
	}
	tp := newTestPictures(t.TempDir())
	md := newWidget(src.String(), Options{Pictures: tp.Pictures})
	if len(md.texts) != 1 || md.more == nil {
		t.Fatalf("want one section and a Show all button, got %d sections", len(md.texts))
	}
	if n := len(md.String()); n > mdSectionBytes {
		t.Errorf("first section shows %d bytes, want at most %d", n, mdSectionBytes)
	}
	sections := 1 + len(md.pending)
	test.Tap(md.more)
	if md.more == nil || !md.more.Disabled() || len(md.texts) != 2 {
		t.Fatalf("Show all must add one section and wait for the next turn (%d sections)", len(md.texts))
	}
	for md.more != nil {
		tp.settle(t, 1)
	}
	if len(md.texts) != sections {
		t.Errorf("%d sections shown, want %d", len(md.texts), sections)
	}
	if got, want := strings.Count(md.String(), "eiusmod"), strings.Count(src.String(), "eiusmod"); got != want {
		t.Errorf("%d paragraphs' words shown, want %d", got, want)
	}
}

func TestSplitMarkdownKeepsFencesWhole(t *testing.T) {
	src := "para one\n\n```\ncode\n\nmore code\n```\n\npara two\n"
	for limit := 12; limit < len(src); limit++ {
		secs := splitMarkdown(src, limit)
		if strings.Join(secs, "") != src {
			t.Fatalf("limit %d: sections do not add up to the source", limit)
		}
		for _, s := range secs {
			if len(s) > limit {
				t.Fatalf("limit %d: a section of %d bytes", limit, len(s))
			}
		}
	}
	// the blank line inside the fence is no place to cut when one outside is
	if got := cutPoint(src[:strings.Index(src, "more")]); got != len("para one\n\n") {
		t.Errorf("cut at %d: %q", got, src[:got])
	}
}
