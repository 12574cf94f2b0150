package markdown

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// The -update flag rewrites the goldens. Other tests of the package may define the same flag
// (fyne-style goldens often do), so it is registered only if absent and read by name.
func init() {
	if flag.Lookup("update") == nil {
		flag.Bool("update", false, "rewrite golden files from the current output")
	}
}

func updateGoldens() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// TestMarkdownGolden converts every testdata/<name>.md and compares the segment tree,
// dumped by dumpSegments, with testdata/<name>.golden.
//
// Golden format: one line per segment, children indented two spaces under their parent.
//
//	text {FLAGS} "TEXT"      a widget.TextSegment; TEXT is Go-quoted (CJK stays readable)
//	rowend                   the empty paragraph TextSegment that ends a row (see rowEnd)
//	rowend tight             the end of a tight list item's text (see tightRowEnd)
//	link "TEXT" URL          a widget.HyperlinkSegment (with align=… when not leading)
//	link {FLAGS} "TEXT" URL  a LinkSegment: a link with a style of its own (in a heading)
//	strike {FLAGS} "TEXT"    a StrikeSegment
//	task [ ] / task [x]      a TaskSegment
//	list bullet|ordered start=N [depth=N]   a ListSegment (depth: an indentedList)
//	  item                   one list item (a ParagraphSegment) and its segments
//	paragraph                any other widget.ParagraphSegment
//	separator                a widget.SeparatorSegment
//	quote                    a QuoteSegment and its content
//	table columns=N align=A,B,…   a TableSegment; then "header" and "row" lines holding
//	  cell                   one line per cell, with the cell's segments under it
//
// FLAGS: "inline" or "block"; "=name" when the style is exactly one of fyne's predefined
// RichTextStyles; then size=…/color=…/align=… when not the default body size, foreground
// colour and leading alignment; then bold, italic, mono.
func TestMarkdownGolden(t *testing.T) {
	inputs, err := filepath.Glob(filepath.Join("testdata", "*.md"))
	if err != nil || len(inputs) == 0 {
		t.Fatalf("no golden inputs: %v", err)
	}
	for _, in := range inputs {
		name := strings.TrimSuffix(filepath.Base(in), ".md")
		t.Run(name, func(t *testing.T) {
			src, err := os.ReadFile(in)
			if err != nil {
				t.Fatal(err)
			}
			got := dumpSegments(Segments(string(src)))
			goldenPath := strings.TrimSuffix(in, ".md") + ".golden"
			if updateGoldens() {
				if err := os.WriteFile(goldenPath, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(goldenPath)
			if err != nil {
				t.Fatalf("%v (run go test ./dialogs/markdown -update)", err)
			}
			if got != string(want) {
				t.Errorf("%s differs from the golden (-want +got):\n%s", in, lineDiff(string(want), got))
			}
		})
	}
}

func TestMarkdownLinkSafety(t *testing.T) {
	tests := []struct {
		name      string
		src       string
		clickable bool
	}{
		{"http", "[site](http://example.com/a?b=c)", true},
		{"https", "[site](https://example.com)", true},
		{"https upper-case scheme", "[site](HTTPS://example.com)", true},
		{"mailto", "[mail](mailto:dev@example.com)", true},
		{"autolink https", "<https://example.com>", true},
		{"autolink email", "<dev@example.com>", true},
		{"bare www autolink", "see www.example.com now", true},
		{"javascript", "[click](javascript:alert(1))", false},
		{"javascript mixed case", "[click](JaVaScRiPt:alert(1))", false},
		{"javascript autolink", "<javascript:alert(1)>", false},
		{"file", "[passwd](file:///etc/passwd)", false},
		{"data", "[x](data:text/html;base64,PHNjcmlwdD4=)", false},
		{"relative", "[readme](docs/README.md)", false},
		{"scheme-relative", "[x](//example.com/a)", false},
		{"http without host", "[x](http:/path)", false},
		{"mailto without address", "[x](mailto:)", false},
		{"ftp", "[x](ftp://example.com)", false},
		{"image https", "![logo](https://example.com/a.png)", true},
		{"image data", "![logo](data:image/png;base64,AAAA)", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			segs := Segments(tt.src)
			links := collectLinks(segs)
			if tt.clickable != (len(links) > 0) {
				t.Fatalf("%q: clickable = %v, want %v\n%s", tt.src, len(links) > 0, tt.clickable, dumpSegments(segs))
			}
			if !tt.clickable && !strings.Contains(plainTextOf(segs), firstWordOfLabel(tt.src)) {
				t.Errorf("%q: the link text is not shown:\n%s", tt.src, dumpSegments(segs))
			}
		})
	}
}

// firstWordOfLabel returns the link text of "[text](…)" / "![text](…)", or the whole source.
func firstWordOfLabel(src string) string {
	if i := strings.Index(src, "["); i >= 0 {
		if j := strings.Index(src[i:], "]"); j > 0 {
			return src[i+1 : i+j]
		}
	}
	return strings.Trim(src, "<>")
}

func TestMarkdownCJKUntouched(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"plain", "你好，世界！这是一个问题。", "你好，世界！这是一个问题。"},
		{"soft break between Han joins", "第一行\n第二行", "第一行第二行"},
		{"soft break after Latin keeps a space", "使用 Go\n语言", "使用 Go 语言"},
		{"emphasis", "请选择**方案一**或*方案二*", "请选择方案一或方案二"},
		{"full-width punctuation", "「引号」、（括号）：完成。", "「引号」、（括号）：完成。"},
		{"korean keeps spaces", "안녕\n하세요", "안녕 하세요"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := plainTextOf(Segments(tt.src)); got != tt.want {
				t.Errorf("got %q, want %q", got, tt.want)
			}
		})
	}
}

func TestUnescapeText(t *testing.T) {
	tests := []struct {
		name, in, want string
	}{
		{"plain", "abc 中文", "abc 中文"},
		{"escaped punctuation", `\*a\* \_b\_ \\`, `*a* _b_ \`},
		{"backslash before letter stays", `\a\中`, `\a\中`},
		{"named entity", "&copy; &amp; &lt;", "© & <"},
		{"numeric entities", "&#x4E2D;&#25991;", "中文"},
		{"escaped entity stays", `\&copy;`, "&copy;"},
		{"resolved once", "&amp;copy; &#x26;amp;", "&copy; &amp;"},
		{"unknown entity stays", "&nosuch; & alone &", "&nosuch; & alone &"},
		{"trailing backslash", `a\`, `a\`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := unescapeText([]byte(tt.in)); got != tt.want {
				t.Errorf("unescapeText(%q) = %q, want %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestMarkdownRendering(t *testing.T) {
	tests := []struct {
		name string
		file string // under testdata
		size fyne.Size
	}{
		{"table", "table.md", fyne.NewSize(400, 200)},
		{"mixed document", "render_mixed.md", fyne.NewSize(560, 420)},
		{"nested lists and quotes", "render_blocks.md", fyne.NewSize(480, 430)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			test.NewTempApp(t)
			src, err := os.ReadFile(filepath.Join("testdata", tt.file))
			if err != nil {
				t.Fatal(err)
			}
			w := test.NewWindow(New(string(src), Options{}))
			defer w.Close()
			w.Resize(tt.size)
			// A quote wraps its text in a nested RichText whose height is known only once it
			// has a width. The GL driver re-lays out the parent on the next frame when a child's
			// MinSize changes (common.Canvas.EnsureMinSize); the test canvas has no frames, so
			// emulate that second pass.
			w.Content().Refresh()
			png := strings.TrimSuffix(tt.file, ".md") + ".png"
			test.AssertImageMatches(t, png, w.Canvas().Capture())
		})
	}
}

func TestNewMarkdownShowsText(t *testing.T) {
	test.NewTempApp(t)
	md := New("hello", Options{})
	if len(md.texts) != 1 || md.texts[0].Wrapping != fyne.TextWrapWord {
		t.Fatalf("want one word-wrapping RichText, got %d", len(md.texts))
	}
	if got := md.String(); got != "hello" {
		t.Errorf("String() = %q, want %q", got, "hello")
	}
}

// collectLinks returns every hyperlink in the segment tree.
func collectLinks(segs []widget.RichTextSegment) []*widget.HyperlinkSegment {
	var out []*widget.HyperlinkSegment
	walkSegments(segs, func(s widget.RichTextSegment) {
		switch l := s.(type) {
		case *widget.HyperlinkSegment:
			out = append(out, l)
		case *LinkSegment:
			out = append(out, l.HyperlinkSegment)
		}
	})
	return out
}

// plainTextOf concatenates the text of every text and link segment in the tree.
func plainTextOf(segs []widget.RichTextSegment) string {
	var b strings.Builder
	walkSegments(segs, func(s widget.RichTextSegment) {
		switch s := s.(type) {
		case *widget.TextSegment:
			b.WriteString(s.Text)
		case *widget.HyperlinkSegment:
			b.WriteString(s.Text)
		case *LinkSegment:
			b.WriteString(s.Text)
		case *StrikeSegment:
			b.WriteString(s.Text)
		case *PictureSegment:
			b.WriteString(s.Alt)
		}
	})
	return b.String()
}

// walkSegments calls f for every segment in the tree, parents first.
func walkSegments(segs []widget.RichTextSegment, f func(widget.RichTextSegment)) {
	for _, s := range segs {
		f(s)
		switch s := s.(type) {
		case *widget.ListSegment:
			walkSegments(s.Items, f)
		case *indentedList:
			walkSegments(s.Items, f)
		case *widget.ParagraphSegment:
			walkSegments(s.Texts, f)
		case *QuoteSegment:
			walkSegments(s.Content, f)
		case *TableSegment:
			for _, row := range s.allRows() {
				for _, c := range row {
					walkSegments(c.Content, f)
				}
			}
		}
	}
}

// dumpSegments renders the segment tree in the golden format documented on TestMarkdownGolden.
func dumpSegments(segs []widget.RichTextSegment) string {
	var b strings.Builder
	dumpInto(&b, segs, 0)
	return b.String()
}

func dumpInto(b *strings.Builder, segs []widget.RichTextSegment, depth int) {
	for _, s := range segs {
		dumpSegment(b, s, depth)
	}
}

func dumpSegment(b *strings.Builder, s widget.RichTextSegment, depth int) {
	pad := strings.Repeat("  ", depth)
	switch s := s.(type) {
	case *widget.TextSegment:
		if s.Text == "" && s.Style == widget.RichTextStyleParagraph {
			fmt.Fprintf(b, "%srowend\n", pad)
			return
		}
		if s.Text == "" && s.Style == tightRowEnd {
			fmt.Fprintf(b, "%srowend tight\n", pad)
			return
		}
		fmt.Fprintf(b, "%stext {%s} %s\n", pad, styleFlags(s.Style), strconv.Quote(s.Text))
	case *StrikeSegment:
		fmt.Fprintf(b, "%sstrike {%s} %s\n", pad, styleFlags(s.Style), strconv.Quote(s.Text))
	case *TaskSegment:
		box := "[ ]"
		if s.Checked {
			box = "[x]"
		}
		fmt.Fprintf(b, "%stask %s\n", pad, box)
	case *LinkSegment:
		fmt.Fprintf(b, "%slink {%s} %s %s\n", pad, styleFlags(s.Style), strconv.Quote(s.Text), s.URL)
	case *widget.HyperlinkSegment:
		align := ""
		if s.Alignment != fyne.TextAlignLeading {
			align = " align=" + alignName(s.Alignment)
		}
		fmt.Fprintf(b, "%slink %s %s%s\n", pad, strconv.Quote(s.Text), s.URL, align)
	case *widget.ListSegment:
		dumpList(b, s, 0, depth)
	case *indentedList:
		dumpList(b, s.ListSegment, s.depth, depth)
	case *widget.ParagraphSegment:
		fmt.Fprintf(b, "%sparagraph\n", pad)
		dumpInto(b, s.Texts, depth+1)
	case *widget.SeparatorSegment:
		fmt.Fprintf(b, "%sseparator\n", pad)
	case *QuoteSegment:
		fmt.Fprintf(b, "%squote\n", pad)
		dumpInto(b, s.Content, depth+1)
	case *TableSegment:
		dumpTable(b, s, depth)
	case *CodeSegment:
		fmt.Fprintf(b, "%scode %s\n", pad, strconv.Quote(s.Code))
	case *PictureSegment:
		fmt.Fprintf(b, "%spicture %q %q\n", pad, s.Alt, shortText(s.Dest, 40))
	default:
		fmt.Fprintf(b, "%sUNKNOWN %T\n", pad, s)
	}
}

func dumpList(b *strings.Builder, l *widget.ListSegment, indent, depth int) {
	pad := strings.Repeat("  ", depth)
	kind := "bullet"
	if l.Ordered {
		kind = fmt.Sprintf("ordered start=%d", l.StartNumber())
	}
	if indent > 0 {
		kind += fmt.Sprintf(" depth=%d", indent)
	}
	fmt.Fprintf(b, "%slist %s\n", pad, kind)
	for _, item := range l.Items {
		fmt.Fprintf(b, "%s  item\n", pad)
		if p, ok := item.(*widget.ParagraphSegment); ok {
			dumpInto(b, p.Texts, depth+2)
		} else {
			dumpSegment(b, item, depth+2)
		}
	}
}

func dumpTable(b *strings.Builder, t *TableSegment, depth int) {
	pad := strings.Repeat("  ", depth)
	aligns := make([]string, len(t.Alignments))
	for i, a := range t.Alignments {
		aligns[i] = alignName(a)
	}
	fmt.Fprintf(b, "%stable columns=%d align=%s\n", pad, len(t.Alignments), strings.Join(aligns, ","))
	row := func(label string, cells []TableCell) {
		fmt.Fprintf(b, "%s  %s\n", pad, label)
		for _, c := range cells {
			fmt.Fprintf(b, "%s    cell\n", pad)
			dumpInto(b, c.Content, depth+3)
		}
	}
	if t.Header != nil {
		row("header", t.Header)
	}
	for _, r := range t.Rows {
		row("row", r)
	}
}

var namedStyles = []struct {
	name  string
	style widget.RichTextStyle
}{
	{"blockquote", widget.RichTextStyleBlockquote},
	{"codeblock", widget.RichTextStyleCodeBlock},
	{"codeinline", widget.RichTextStyleCodeInline},
	{"emphasis", widget.RichTextStyleEmphasis},
	{"heading", widget.RichTextStyleHeading},
	{"inline", widget.RichTextStyleInline},
	{"paragraph", widget.RichTextStyleParagraph},
	{"strong", widget.RichTextStyleStrong},
	{"subheading", widget.RichTextStyleSubHeading},
}

func styleFlags(st widget.RichTextStyle) string {
	flags := []string{"block"}
	if st.Inline {
		flags[0] = "inline"
	}
	for _, n := range namedStyles {
		if n.style == st {
			flags = append(flags, "="+n.name)
		}
	}
	if st.SizeName != "" && st.SizeName != theme.SizeNameText {
		flags = append(flags, "size="+string(st.SizeName))
	}
	if st.ColorName != "" && st.ColorName != theme.ColorNameForeground {
		flags = append(flags, "color="+string(st.ColorName))
	}
	if st.Alignment != fyne.TextAlignLeading {
		flags = append(flags, "align="+alignName(st.Alignment))
	}
	ts := st.TextStyle
	for _, f := range []struct {
		on   bool
		name string
	}{{ts.Bold, "bold"}, {ts.Italic, "italic"}, {ts.Monospace, "mono"}, {ts.Symbol, "symbol"}, {ts.Underline, "underline"}} {
		if f.on {
			flags = append(flags, f.name)
		}
	}
	return strings.Join(flags, " ")
}

func alignName(a fyne.TextAlign) string {
	switch a {
	case fyne.TextAlignCenter:
		return "center"
	case fyne.TextAlignTrailing:
		return "right"
	default:
		return "left"
	}
}

// lineDiff returns a minimal line diff of want and got: "-" lines only in want, "+" only in got.
func lineDiff(want, got string) string {
	a, b := strings.Split(want, "\n"), strings.Split(got, "\n")
	// lcs[i][j] is the length of the longest common subsequence of a[i:] and b[j:].
	lcs := make([][]int, len(a)+1)
	for i := range lcs {
		lcs[i] = make([]int, len(b)+1)
	}
	for i := len(a) - 1; i >= 0; i-- {
		for j := len(b) - 1; j >= 0; j-- {
			if a[i] == b[j] {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	var out strings.Builder
	i, j := 0, 0
	for i < len(a) || j < len(b) {
		switch {
		case i < len(a) && j < len(b) && a[i] == b[j]:
			out.WriteString("  " + a[i] + "\n")
			i, j = i+1, j+1
		case j < len(b) && (i == len(a) || lcs[i][j+1] >= lcs[i+1][j]):
			out.WriteString("+ " + b[j] + "\n")
			j++
		default:
			out.WriteString("- " + a[i] + "\n")
			i++
		}
	}
	return out.String()
}

func TestMarkdownRemoteImagesAreNotFetched(t *testing.T) {
	segs := Segments("![chart](https://example.com/chart.png)")
	walkSegments(segs, func(s widget.RichTextSegment) {
		if _, ok := s.(*PictureSegment); ok {
			t.Fatal("a remote image was drawn")
		}
	})
	if !strings.Contains(dumpSegments(segs), `link "https://example.com/chart.png"`) {
		t.Errorf("no link to the remote image: %s", dumpSegments(segs))
	}
}
