package markdown

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// variantTheme is fyne's default theme in one variant whatever the system says.
type variantTheme struct {
	fyne.Theme
	v fyne.ThemeVariant
}

func (t variantTheme) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return t.Theme.Color(n, t.v)
}

// showIn lays src out in a test window of the given width in fyne's default
// theme, variant v, and returns the widget and the window's image.
func showIn(t *testing.T, src string, width float32, v fyne.ThemeVariant) (*Widget, image.Image) {
	t.Helper()
	a := test.NewTempApp(t)
	a.Settings().SetTheme(variantTheme{theme.DefaultTheme(), v})
	md := New(src, Options{})
	w := test.NewTempWindow(t, container.NewVScroll(md))
	w.Resize(fyne.NewSize(width, 400))
	w.Content().Refresh()
	return md, w.Canvas().Capture()
}

// objectsOf returns every canvas object drawn for md, renderers included,
// with its absolute position.
func objectsOf(md *Widget) map[fyne.CanvasObject]fyne.Position {
	out := map[fyne.CanvasObject]fyne.Position{}
	d := fyne.CurrentApp().Driver()
	var walk func(fyne.CanvasObject)
	walk = func(o fyne.CanvasObject) {
		out[o] = d.AbsolutePositionForObject(o)
		switch c := o.(type) {
		case *fyne.Container:
			for _, ch := range c.Objects {
				walk(ch)
			}
		case fyne.Widget:
			for _, ch := range test.WidgetRenderer(c).Objects() {
				walk(ch)
			}
		}
	}
	walk(md)
	return out
}

// textObject returns the canvas.Text showing exactly s, and where it is.
func textObject(t *testing.T, md *Widget, s string) (*canvas.Text, fyne.Position) {
	t.Helper()
	for o, pos := range objectsOf(md) {
		if c, ok := o.(*canvas.Text); ok && strings.TrimSpace(c.Text) == s {
			return c, pos
		}
	}
	t.Fatalf("no text %q drawn", s)
	return nil, fyne.Position{}
}

// Struck text is drawn in the normal text colour with a line through it in
// that colour: "~~optional~~ required" must not read "optional required"
// (the disabled colour was ~1.5:1 against the background).
func TestStrikethroughIsALineThroughTextInTheTextColour(t *testing.T) {
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		md, img := showIn(t, "~~optional~~ required", 400, v)
		fg := theme.DefaultTheme().Color(theme.ColorNameForeground, v)
		bg := theme.DefaultTheme().Color(theme.ColorNameBackground, v)
		struck, at := textObject(t, md, "optional")
		plain, plainAt := textObject(t, md, "required")
		if struck.Color != fg || plain.Color != fg {
			t.Fatalf("variant %d: struck text colour %v, plain %v; want the foreground %v", v, struck.Color, plain.Color, fg)
		}
		if c := contrastOf(fg, bg); c < 4.5 {
			t.Fatalf("variant %d: text contrast %.1f:1", v, c)
		}
		// The line: a rectangle in the text colour across the word, inside its lower-case letters.
		var line *canvas.Rectangle
		for o := range objectsOf(md) {
			if r, ok := o.(*canvas.Rectangle); ok && r.FillColor == fg {
				line = r
			}
		}
		if line == nil {
			t.Fatalf("variant %d: no line drawn through the struck text", v)
		}
		wordW := struck.MinSize().Width
		size := struck.TextSize
		if math.Abs(float64(line.Position().X-struck.Position().X)) > 1 || math.Abs(float64(line.Size().Width-wordW)) > 2 {
			t.Errorf("variant %d: line x %v width %v; want x %v width %v (the word)", v, line.Position().X, line.Size().Width, struck.Position().X, wordW)
		}
		_, baseline := fyne.CurrentApp().Driver().RenderedTextSize("x", size, fyne.TextStyle{}, nil)
		mid := line.Position().Y + line.Size().Height/2 - struck.Position().Y // from the top of the text
		if mid < baseline-0.55*size || mid > baseline-0.15*size {
			t.Errorf("variant %d: line at %.1f below the text's top, baseline %.1f: not through the lower-case letters", v, mid, baseline)
		}
		// In the image: the row of the line is the text colour across the struck word, and
		// not across the plain word.
		// In the image: a row of the struck word is the text colour from end to end, and the
		// same row of the plain word is not.
		covered := func(row int, x0, x1 float32) float64 {
			n, hit := 0, 0
			for x := int(x0) + 1; x < int(x1)-1; x++ {
				n++
				if nearer(img.At(x, row), fg, bg) {
					hit++
				}
			}
			return float64(hit) / float64(n)
		}
		best, row := 0.0, 0
		for r := int(at.Y); r < int(at.Y+struck.MinSize().Height)+8; r++ {
			if c := covered(r, at.X, at.X+wordW); c > best {
				best, row = c, r
			}
		}
		if best < 0.9 {
			t.Errorf("variant %d: the line covers %.0f%% of the struck word's row, want 90%%", v, 100*best)
		}
		if c := covered(row, plainAt.X, plainAt.X+plain.MinSize().Width); c > 0.6 {
			t.Errorf("variant %d: the plain word's row is %.0f%% text colour: struck too?", v, 100*c)
		}
	}
}

// nearer reports whether c is nearer to fg than to bg.
func nearer(c, fg, bg color.Color) bool {
	dist := func(a, b color.Color) float64 {
		r1, g1, b1, _ := a.RGBA()
		r2, g2, b2, _ := b.RGBA()
		return math.Abs(float64(r1)-float64(r2)) + math.Abs(float64(g1)-float64(g2)) + math.Abs(float64(b1)-float64(b2))
	}
	return dist(c, fg) < dist(c, bg)
}

// In a table cell (a plain RichText), struck text is drawn by its own
// visual, with the line too.
func TestStrikethroughInATableCell(t *testing.T) {
	md, _ := showIn(t, "| a |\n|---|\n| ~~gone~~ |", 400, theme.VariantLight)
	for o := range objectsOf(md) {
		if s, ok := o.(*struckText); ok {
			if s.text.Text != "gone" || s.line.Size().Width < s.text.MinSize().Width-1 || s.line.FillColor != s.text.Color {
				t.Errorf("struck cell: text %q, line %v in %v, text colour %v", s.text.Text, s.line.Size(), s.line.FillColor, s.text.Color)
			}
			return
		}
	}
	t.Fatal("no struck text in the table cell")
}

func contrastOf(a, b color.Color) float64 {
	lum := func(c color.Color) float64 {
		n := color.NRGBAModel.Convert(c).(color.NRGBA)
		lin := func(v uint8) float64 {
			s := float64(v) / 255
			if s <= 0.03928 {
				return s / 12.92
			}
			return math.Pow((s+0.055)/1.055, 2.4)
		}
		return 0.2126*lin(n.R) + 0.7152*lin(n.G) + 0.0722*lin(n.B)
	}
	la, lb := lum(a), lum(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// ink counts the pixels of img darker than mid-grey (light theme text).
func ink(img image.Image) int {
	n := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r, g, bl, _ := img.At(x, y).RGBA()
			if (r+g+bl)/3 < 0x8000 {
				n++
			}
		}
	}
	return n
}

// Bold CJK is visibly heavier than regular CJK although the system's CJK
// font has no bold face (fyne never picks one for fallback characters):
// the characters are drawn a second time a pixel to the right. Bold Latin
// has its own face and is drawn once.
func TestBoldCJKIsHeavier(t *testing.T) {
	_, regular := showIn(t, "需要你的决定", 300, theme.VariantLight)
	_, bold := showIn(t, "**需要你的决定**", 300, theme.VariantLight)
	r, b := ink(regular), ink(bold)
	if float64(b) < 1.2*float64(r) {
		t.Errorf("bold CJK ink %d pixels, regular %d: want at least 20%% more", b, r)
	}
	md, _ := showIn(t, "**bold** and **粗体**", 300, theme.VariantLight)
	texts := map[string]int{}
	for o := range objectsOf(md) {
		if c, ok := o.(*canvas.Text); ok {
			texts[strings.TrimSpace(c.Text)]++
		}
	}
	if texts["bold"] != 1 && texts["bold and "] != 1 {
		t.Errorf("bold Latin drawn %v", texts)
	}
	if texts["粗体"] != 2 {
		t.Errorf("bold CJK drawn %d times (texts %v), want 2", texts["粗体"], texts)
	}
	// In a table (a plain RichText per cell), the header's and emphasised CJK too.
	md, _ = showIn(t, "| 状态 | x |\n|---|---|\n| **重要** | y |", 300, theme.VariantLight)
	for _, s := range []string{"状态", "重要"} {
		if n := countTexts(md, s); n != 2 {
			t.Errorf("bold %s in a table drawn %d times, want 2", s, n)
		}
	}
}

// Headings differ by size as well as weight, so they stay headings where
// bold does not show: each level from 1 to 3 is larger than the next, level
// 3 clearly larger than the body, levels 4 to 6 bold body text; a link in a
// heading has the heading's size and weight.
func TestHeadingSizes(t *testing.T) {
	md, _ := showIn(t, "# 一级 one\n\n## 二级 two\n\n### 三级 three\n\n#### 四级 four\n\nbody 正文\n\n## A [link](https://example.com)", 500, theme.VariantLight)
	size := func(s string) (float32, bool) {
		c, _ := textObject(t, md, s)
		return c.TextSize, c.TextStyle.Bold
	}
	h1, _ := size("one")
	h2, _ := size("two")
	h3, b3 := size("three")
	h4, b4 := size("four")
	for _, cjk := range []string{"一级", "二级", "三级", "四级"} {
		if n := countTexts(md, cjk); n != 2 {
			t.Errorf("bold %s drawn %d times, want 2", cjk, n)
		}
	}
	body, bb := size("body 正文")
	if !(h1 > h2 && h2 > h3 && h3 >= body*1.1 && h4 == body) || !b3 || !b4 || bb {
		t.Errorf("sizes h1 %v h2 %v h3 %v (bold %v) h4 %v (bold %v) body %v (bold %v)", h1, h2, h3, b3, h4, b4, body, bb)
	}
	link, _ := textObject(t, md, "link")
	if link.TextSize != h2 || !link.TextStyle.Bold {
		t.Errorf("a link in a level 2 heading: size %v bold %v, want %v bold", link.TextSize, link.TextStyle.Bold, h2)
	}
}

// Emoji are drawn at the text's size: as wide as the text size and no
// taller than a line of text, in a paragraph and in a heading.
func TestEmojiAtTextSize(t *testing.T) {
	test.NewTempApp(t)
	m := newMeasurer()
	for _, size := range []float32{theme.TextSize(), theme.TextHeadingSize()} {
		for _, e := range []rune{'🚀', '✅', '🎉'} {
			w := m.width(e, size, fyne.TextStyle{})
			h := measureText(string(e), size, fyne.TextStyle{}).Height
			if w < 0.8*size || w > 1.3*size || h > m.lineHeight(size, fyne.TextStyle{}) {
				t.Errorf("%c at %v: %v wide, %v high (a line is %v)", e, size, w, h, m.lineHeight(size, fyne.TextStyle{}))
			}
		}
	}
}

// A task-list item shows a check box icon the size of the text in place of
// its bullet (no "•" and no small glyph beside it); a numbered task keeps
// its number beside the box.
func TestTaskItemsShowACheckBox(t *testing.T) {
	md, _ := showIn(t, "- [ ] open\n- [x] done\n- plain\n\n3. [ ] numbered", 400, theme.VariantLight)
	var lists []*listView
	for o := range objectsOf(md) {
		if l, ok := o.(*listView); ok {
			lists = append(lists, l)
		}
	}
	if len(lists) != 2 {
		t.Fatalf("%d lists", len(lists))
	}
	if len(lists[0].b.bullets) != 3 {
		lists[0], lists[1] = lists[1], lists[0]
	}
	bullets := lists[0].bullets
	want := []fyne.Resource{theme.CheckButtonIcon(), theme.CheckButtonCheckedIcon()}
	for i := range 2 {
		box, ok := bullets[i].(*taskBox)
		if !ok {
			t.Fatalf("task %d: bullet %T, want the check box icon", i, bullets[i])
		}
		if box.img.Resource.Name() != want[i].Name() {
			t.Errorf("task %d: icon %s, want %s", i, box.img.Resource.Name(), want[i].Name())
		}
		if s := box.img.Size().Height; s < theme.TextSize() || s > 1.5*theme.TextSize() {
			t.Errorf("task %d: box %v high, text size %v", i, s, theme.TextSize())
		}
	}
	if c, ok := bullets[2].(*canvas.Text); !ok || c.Text != "•" {
		t.Errorf("plain item's bullet: %#v", bullets[2])
	}
	for o := range objectsOf(md) {
		if c, ok := o.(*canvas.Text); ok && strings.ContainsAny(c.Text, "☐☑•") && c.Text != "•" {
			t.Errorf("a glyph drawn as text beside the check box: %q", c.Text)
		}
	}
	numbered, ok := lists[1].bullets[0].(*fyne.Container)
	if !ok || len(numbered.Objects) != 2 || numbered.Objects[0].(*canvas.Text).Text != "3." {
		t.Fatalf("numbered task's bullet: %#v", lists[1].bullets[0])
	}
	if _, ok := numbered.Objects[1].(*taskBox); !ok {
		t.Errorf("numbered task: no check box beside the number")
	}
}

// Paragraphs are apart: the space between two paragraphs' lines is at
// least half a line more than between two lines of one paragraph, and a
// heading after a list is kept apart from it as well.
func TestParagraphsAreApart(t *testing.T) {
	md, _ := showIn(t, "First one.\nstill first\n\nSecond.\n\n- item\n\n## After the list", 400, theme.VariantLight)
	_, l1 := textObject(t, md, "First one. still first")
	_, p2 := textObject(t, md, "Second.")
	lineH := measureText("M", theme.TextSize(), fyne.TextStyle{}).Height
	if gap := p2.Y - l1.Y - lineH; gap < 0.5*theme.TextSize() {
		t.Errorf("paragraphs %.1f px apart beyond a line, want at least %.1f", gap, 0.5*theme.TextSize())
	}
	_, item := textObject(t, md, "item")
	_, h := textObject(t, md, "After the list")
	if gap := h.Y - item.Y - lineH; gap < 0.5*theme.TextSize() {
		t.Errorf("heading %.1f px below the list's last line, want at least %.1f", gap, 0.5*theme.TextSize())
	}
}

// A code block in a list item is indented with the item's text, also when
// its fence is indented less than the text (two spaces under "1. "), and
// the list goes on numbering after it.
func TestCodeInAListItemIsIndentedWithIt(t *testing.T) {
	md, _ := showIn(t, "1. Install:\n  ```\n  make install\n  ```\n2. Test\n\n```\ntop level\n```", 400, theme.VariantLight)
	_, item := textObject(t, md, "Install:")
	var codes []fyne.Position
	for o, pos := range objectsOf(md) {
		if rt, ok := o.(*widget.RichText); ok && len(rt.Segments) == 1 && rt.Segments[0].Textual() == "make install" {
			codes = append(codes, pos)
		}
	}
	if len(codes) != 1 {
		t.Fatalf("%d code texts", len(codes))
	}
	if codes[0].X < item.X {
		t.Errorf("the item's code at x %v, left of the item's text at %v", codes[0].X, item.X)
	}
	if _, ok := lookupText(md, "2."); !ok {
		t.Errorf("the item after the code is not numbered 2")
	}
}

// countTexts returns how many texts drawn for md read s, spaces aside.
func countTexts(md *Widget, s string) int {
	n := 0
	for o := range objectsOf(md) {
		if c, ok := o.(*canvas.Text); ok && strings.TrimSpace(c.Text) == s {
			n++
		}
	}
	return n
}

func lookupText(md *Widget, s string) (*canvas.Text, bool) {
	for o := range objectsOf(md) {
		if c, ok := o.(*canvas.Text); ok && c.Text == s {
			return c, true
		}
	}
	return nil, false
}

// The question window's Markdown in fyne's theme, light and dark, at scale
// 1 and 1.5: headings by level (CJK too), bold CJK, struck text, a task
// list, code in a list item, a link in a heading, a quote and a table.
func TestMarkdownLooks(t *testing.T) {
	src, err := os.ReadFile(filepath.Join("testdata", "looks.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name  string
		v     fyne.ThemeVariant
		scale float32
	}{
		{"light-1", theme.VariantLight, 1}, {"dark-1", theme.VariantDark, 1},
		{"light-1.5", theme.VariantLight, 1.5}, {"dark-1.5", theme.VariantDark, 1.5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			a := test.NewTempApp(t)
			a.Settings().SetTheme(variantTheme{theme.DefaultTheme(), tc.v})
			w := test.NewTempWindow(t, container.NewVScroll(New(string(src), Options{})))
			w.Canvas().(interface{ SetScale(float32) }).SetScale(tc.scale)
			w.Resize(fyne.NewSize(480, 560))
			w.Content().Refresh()
			test.AssertImageMatches(t, "looks-"+tc.name+".png", w.Canvas().Capture())
		})
	}
}

// Texts sit on whole device pixels of the canvas they are shown on, also
// when the canvas gets its scale after the layout (a window gets it when it
// is first shown): they are placed again for the new scale.
func TestTextsFollowTheCanvasScale(t *testing.T) {
	test.NewTempApp(t)
	md := New("Some **bold 加粗** text and 中文 mixed, ~~gone~~, a [link](https://example.com) and more words.", Options{})
	w := test.NewTempWindow(t, container.NewVScroll(md))
	w.Resize(fyne.NewSize(333, 200))
	w.Content().Refresh()
	w.Canvas().(interface{ SetScale(float32) }).SetScale(1.5)
	var texts int
	for _, f := range flows(md) {
		for _, o := range test.WidgetRenderer(f).Objects() {
			if _, ok := o.(*canvas.Rectangle); ok {
				continue
			}
			texts++
			x := float64(o.Position().X * 1.5)
			if math.Abs(x-math.Round(x)) > 0.01 {
				t.Errorf("%T at x %v: %v device pixels at scale 1.5", o, o.Position().X, x)
			}
		}
	}
	if texts == 0 {
		t.Fatal("no texts")
	}
}

// A piece of text starting with a character of a fallback font (CJK) is
// drawn after a space of the text's own font, moved left by the space, so
// that Fyne puts its baseline where it puts the Latin text's beside it.
func TestCJKPiecesShareTheBaseline(t *testing.T) {
	md, _ := showIn(t, "Latin *中文* end", 400, theme.VariantLight)
	c, _ := textObject(t, md, "中文")
	latin, _ := textObject(t, md, "Latin")
	if !strings.HasPrefix(c.Text, " ") || strings.HasPrefix(latin.Text, " ") {
		t.Errorf("texts %q and %q: want the CJK one led by a space, the Latin one not", c.Text, latin.Text)
	}
	sp := newMeasurer().width(' ', c.TextSize, c.TextStyle)
	want := latin.Position().X + latin.MinSize().Width - sp // "Latin " then the CJK piece
	if d := math.Abs(float64(c.Position().X - want)); d > 2 {
		t.Errorf("CJK piece at x %v, want %v (its space left of its place)", c.Position().X, want)
	}
}

// Two blocks other than paragraphs in a row are kept apart; a code block's
// language label is not kept apart from its block.
func TestBlocksInARowAreApart(t *testing.T) {
	segs := displaySegments(Segments("- a\n\n```go\nx\n```\n\n> q\n\nend"), newMeasurer())
	var kinds []string
	for _, s := range segs {
		switch s := s.(type) {
		case gapSegment:
			kinds = append(kinds, "gap")
		case *listBlock:
			kinds = append(kinds, "list")
		case *CodeSegment:
			kinds = append(kinds, "code")
		case *QuoteSegment:
			kinds = append(kinds, "quote")
		case *flowSegment:
			k := "text"
			if s.gapAfter {
				k += "+gap"
			}
			kinds = append(kinds, k)
		default:
			kinds = append(kinds, fmt.Sprintf("%T", s))
		}
	}
	if got, want := strings.Join(kinds, " "), "list text code gap quote text"; got != want {
		t.Errorf("blocks %q, want %q (the label \"go\" is the text before the code)", got, want)
	}
}

// A code block's language label is small text and has the text colour
// (at least 4.5:1): the placeholder colour was ~3.5:1 in the light theme.
func TestCodeLabelContrast(t *testing.T) {
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		md, _ := showIn(t, "```golang\nx\n```", 300, v)
		label, _ := textObject(t, md, "golang")
		bg := theme.DefaultTheme().Color(theme.ColorNameBackground, v)
		if c := contrastOf(label.Color, bg); c < 4.5 {
			t.Errorf("variant %d: the code label's contrast is %.1f:1", v, c)
		}
	}
}

// Struck CJK is struck through the middle of its characters, which stand
// taller on the baseline than lower-case letters.
func TestStrikethroughThroughCJK(t *testing.T) {
	md, _ := showIn(t, "~~删除线~~", 300, theme.VariantLight)
	struck, _ := textObject(t, md, "删除线")
	var line *canvas.Rectangle
	for o := range objectsOf(md) {
		if r, ok := o.(*canvas.Rectangle); ok && r.FillColor == struck.Color {
			line = r
		}
	}
	if line == nil {
		t.Fatal("no line")
	}
	size := struck.TextSize
	_, baseline := fyne.CurrentApp().Driver().RenderedTextSize("M", size, fyne.TextStyle{}, nil)
	mid := line.Position().Y + line.Size().Height/2 - struck.Position().Y
	if mid < baseline-0.5*size || mid > baseline-0.33*size {
		t.Errorf("line at %.1f below the top, baseline %.1f: not through the middle of CJK", mid, baseline)
	}
}
