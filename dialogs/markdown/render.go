package markdown

import (
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/extension"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/text"
)

// Segments converts GitHub-flavoured Markdown into rich-text segments for widget.RichText.
//
// The source is parsed with goldmark and its GFM extension (tables, strikethrough, autolinks and
// task lists) and the syntax tree is walked with a text style carried down, so nested emphasis
// combines (bold inside italic is bold italic). Conversion never fails: anything that is not
// understood is shown as text. Raw HTML is shown literally, never interpreted, and only http,
// https and mailto destinations become clickable links. It does no I/O: a local image becomes a
// PictureSegment that NewMarkdown loads.
//
// Segments are fresh on every call and must not be shared between two RichText widgets.
func Segments(src string) []widget.RichTextSegment {
	return newMDRenderer(src, &Pictures{}, nil).document()
}

// newMDRenderer returns the renderer of src; pictures counts the question's images and page
// is the scroll that wide blocks hand the wheel to (see Options).
func newMDRenderer(src string, pictures *Pictures, page func() *container.Scroll) *mdRenderer {
	return &mdRenderer{src: []byte(src), pictures: pictures, page: page}
}

// newMDRendererFor returns the renderer of src for a widget with opts.
func newMDRendererFor(src string, opts Options) *mdRenderer {
	r := newMDRenderer(src, opts.Pictures, opts.Page)
	r.wrapCode = opts.WrapCode
	return r
}

// document parses and renders the whole source.
func (r *mdRenderer) document() []widget.RichTextSegment {
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	doc := md.Parser().Parse(text.NewReader(r.src))
	attachIndentedCode(doc, r.src)
	return r.node(doc, widget.RichTextStyleInline)
}

// attachIndentedCode puts a fenced code block that follows a list, with its fence indented but
// by less than the item's text (CommonMark then ends the list: "1. Run:" needs three spaces
// before the fence, agents often write two), into the list's last item, where its writer meant
// it; a list of the same kind that follows it continues the first one ("2." after the code
// stays item 2, not a new list). Work is linear in the blocks.
func attachIndentedCode(n ast.Node, src []byte) {
	for c := n.FirstChild(); c != nil; {
		next := c.NextSibling()
		list, ok := c.PreviousSibling().(*ast.List)
		if code, isCode := c.(*ast.FencedCodeBlock); isCode && ok && list.LastChild() != nil && fenceIndent(code, src) > 0 {
			n.RemoveChild(n, code)
			list.LastChild().AppendChild(list.LastChild(), code)
			if more, ok := next.(*ast.List); ok && sameList(list, more) {
				next = more.NextSibling()
				for item := more.FirstChild(); item != nil; {
					after := item.NextSibling()
					more.RemoveChild(more, item)
					list.AppendChild(list, item)
					attachIndentedCode(item, src)
					item = after
				}
				n.RemoveChild(n, more)
			}
		} else if c.Type() == ast.TypeBlock && c.HasChildren() {
			attachIndentedCode(c, src)
		}
		c = next
	}
}

// fenceIndent returns the spaces before the opening fence of code, or 0 when they are not known
// (a block without lines).
func fenceIndent(code *ast.FencedCodeBlock, src []byte) int {
	var start int
	switch {
	case code.Info != nil:
		start = code.Info.Segment.Start
	case code.Lines().Len() > 0:
		// the fence is the line before the first line of code
		start = code.Lines().At(0).Start
		for start > 0 && src[start-1] != '\n' {
			start--
		}
		start-- // the fence line's end
		if start <= 0 {
			return 0
		}
	default:
		return 0
	}
	for start > 0 && src[start-1] != '\n' {
		start--
	}
	indent := 0
	for start+indent < len(src) && src[start+indent] == ' ' {
		indent++
	}
	return indent
}

// sameList reports whether b continues a: both bullet lists with the same marker, or both
// ordered with b numbered on from a's last item.
func sameList(a, b *ast.List) bool {
	if a.IsOrdered() != b.IsOrdered() || a.Marker != b.Marker {
		return false
	}
	return !a.IsOrdered() || b.Start == a.Start+a.ChildCount()
}

// mdRenderer walks one parsed document. It is used once, by one goroutine.
type mdRenderer struct {
	src []byte
	// listDepth is the number of lists enclosing the node being rendered,
	// counted within the current RichText (a quote starts a new one).
	listDepth int
	// pictures makes the image segments and caps their number.
	pictures *Pictures
	// page is the message's scroll, for the code blocks and tables (see Options.Page).
	page func() *container.Scroll
	// wrapCode wraps code blocks (see Options.WrapCode).
	wrapCode bool
}

// mdNodeFunc renders one node kind. st is the style for inline text at this point of the
// tree: it always has Inline set and blocks end their rows themselves (see rowEnd).
type mdNodeFunc func(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment

// mdNodeFuncs registers a renderer for every goldmark node kind we produce, GFM included.
// Kinds not listed fall back to rendering their children (see mdRenderer.node).
var mdNodeFuncs map[ast.NodeKind]mdNodeFunc

func init() {
	mdNodeFuncs = map[ast.NodeKind]mdNodeFunc{
		// blocks
		ast.KindDocument:                (*mdRenderer).children,
		ast.KindParagraph:               renderParagraph,
		ast.KindTextBlock:               renderTextBlock,
		ast.KindHeading:                 renderHeading,
		ast.KindThematicBreak:           renderThematicBreak,
		ast.KindCodeBlock:               renderCodeBlock,
		ast.KindFencedCodeBlock:         renderCodeBlock,
		ast.KindBlockquote:              renderBlockquote,
		ast.KindList:                    renderList,
		ast.KindListItem:                (*mdRenderer).children,
		ast.KindHTMLBlock:               renderHTMLBlock,
		ast.KindLinkReferenceDefinition: renderNothing,
		east.KindTable:                  renderTable,
		// inlines
		ast.KindText:           renderText,
		ast.KindString:         renderString,
		ast.KindCodeSpan:       renderCodeSpan,
		ast.KindEmphasis:       renderEmphasis,
		ast.KindLink:           renderLink,
		ast.KindAutoLink:       renderAutoLink,
		ast.KindImage:          renderImage,
		ast.KindRawHTML:        renderRawHTML,
		east.KindStrikethrough: renderStrikethrough,
		east.KindTaskCheckBox:  renderTaskCheckBox,
	}
}

// node renders n and its subtree.
func (r *mdRenderer) node(n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	if f, ok := mdNodeFuncs[n.Kind()]; ok {
		return f(r, n, st)
	}
	return r.children(n, st)
}

// children renders the children of n in order, merging adjacent text of the same style.
func (r *mdRenderer) children(n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	var out []widget.RichTextSegment
	for c := n.FirstChild(); c != nil; c = c.NextSibling() {
		out = appendSegments(out, r.node(c, st)...)
	}
	return out
}

// appendSegments appends segs to dst, merging a text segment into the previous one when both
// are inline and share a style, so "a" "b" with one style becomes "ab"; struck text likewise.
func appendSegments(dst []widget.RichTextSegment, segs ...widget.RichTextSegment) []widget.RichTextSegment {
	for _, s := range segs {
		if len(dst) > 0 {
			switch next := s.(type) {
			case *widget.TextSegment:
				if prev, ok := dst[len(dst)-1].(*widget.TextSegment); ok && next.Style.Inline && prev.Style == next.Style {
					prev.Text += next.Text
					continue
				}
			case *StrikeSegment:
				if prev, ok := dst[len(dst)-1].(*StrikeSegment); ok && prev.Style == next.Style {
					prev.Text += next.Text
					continue
				}
			}
		}
		dst = append(dst, s)
	}
	return dst
}

// textSegment returns inline text in style st.
func textSegment(s string, st widget.RichTextStyle) *widget.TextSegment {
	st.Inline = true
	return &widget.TextSegment{Text: s, Style: st}
}

// rowEnd returns the empty block segment that ends a row of inline segments.
//
// widget.RichText starts a new row after every non-inline segment, so a block of inline text
// ends with this terminator, as fyne's own Markdown renderer does. Making the last text
// segment non-inline instead would change that segment's style (and fyne 2.7 indented any row
// whose first segment was exactly RichTextStyleBlockquote, which a plain italic row would then
// have been; 2.8 indents by a style's QuotingDepth, which ours never set).
func rowEnd() *widget.TextSegment {
	return &widget.TextSegment{Style: widget.RichTextStyleParagraph}
}

// inlineBlock renders the inline children of n followed by a row end.
func (r *mdRenderer) inlineBlock(n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	return append(r.children(n, st), rowEnd())
}

func renderNothing(*mdRenderer, ast.Node, widget.RichTextStyle) []widget.RichTextSegment {
	return nil
}

func renderParagraph(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	return r.inlineBlock(n, st)
}

// tightRowEnd ends the text of an item of a tight list (a TextBlock): the paragraph gap is not
// kept after it (see displaySegments). It is rowEnd's style without its colour name.
var tightRowEnd = widget.RichTextStyle{SizeName: widget.RichTextStyleParagraph.SizeName}

// renderTextBlock renders the text of a tight list's item, ended by a tightRowEnd.
func renderTextBlock(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	return append(r.children(n, st), &widget.TextSegment{Style: tightRowEnd})
}

// Heading sizes beyond fyne's two. A theme may define them; one that does not (a size of 0) gets
// the text size times headingScale.
const (
	// SizeNameHeading3 is the text size of a level 3 heading.
	SizeNameHeading3 fyne.ThemeSizeName = "markdownHeading3"
)

// headingScale is the size of a heading level's text in body text sizes, for the size names a
// theme does not define. Level 3 must stand out from bold body text where bold does not show
// (a CJK fallback font without a bold face), so it is a size of its own.
var headingScale = map[fyne.ThemeSizeName]float32{
	SizeNameHeading3: 8.0 / 7, // 16 beside fyne's 14, 18 and 24
}

// renderHeading sizes a heading by level: fyne's heading size for level 1, the sub-heading
// size for level 2, SizeNameHeading3 for level 3, the body size for levels 4 to 6; every level
// is bold. Nested styles (emphasis, code) combine with it, and links in it keep its style.
func renderHeading(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	switch n.(*ast.Heading).Level {
	case 1:
		st.SizeName = widget.RichTextStyleHeading.SizeName
	case 2:
		st.SizeName = widget.RichTextStyleSubHeading.SizeName
	case 3:
		st.SizeName = SizeNameHeading3
	}
	st.TextStyle.Bold = true
	segs := r.inlineBlock(n, st)
	for i, s := range segs {
		if l, ok := s.(*widget.HyperlinkSegment); ok {
			segs[i] = &LinkSegment{HyperlinkSegment: l, Style: st}
		}
	}
	return segs
}

func renderThematicBreak(*mdRenderer, ast.Node, widget.RichTextStyle) []widget.RichTextSegment {
	return []widget.RichTextSegment{&widget.SeparatorSegment{}}
}

// codeLabelStyle is the small caption shown above a fenced code block naming its language. It
// is text, so it has the text colour: the placeholder colour is ~3.5:1 in the light theme, below
// the 4.5:1 small text needs.
var codeLabelStyle = widget.RichTextStyle{
	ColorName: theme.ColorNameForeground,
	SizeName:  theme.SizeNameCaptionText,
	TextStyle: fyne.TextStyle{Monospace: true},
}

// renderCodeBlock renders fenced and indented code exactly as written (minus the final newline)
// on a shaded panel (CodeSegment); the language of a fenced block, if any, is a caption above it.
func renderCodeBlock(r *mdRenderer, n ast.Node, _ widget.RichTextStyle) []widget.RichTextSegment {
	var out []widget.RichTextSegment
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		if lang := string(f.Language(r.src)); lang != "" {
			out = append(out, &widget.TextSegment{Text: lang, Style: codeLabelStyle})
		}
	}
	code := strings.TrimSuffix(r.lines(n), "\n")
	diff := false
	if f, ok := n.(*ast.FencedCodeBlock); ok {
		diff = string(f.Language(r.src)) == "diff"
	}
	return append(out, &CodeSegment{Code: code, Wrap: r.wrapCode, Diff: diff, page: r.page})
}

// renderHTMLBlock shows block-level raw HTML as plain text, line breaks kept.
func renderHTMLBlock(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	h := n.(*ast.HTMLBlock)
	raw := r.lines(n)
	if h.HasClosure() {
		raw += string(h.ClosureLine.Value(r.src))
	}
	return []widget.RichTextSegment{textSegment(strings.TrimRight(raw, "\n"), st), rowEnd()}
}

// lines returns the raw source lines of a block node.
func (r *mdRenderer) lines(n ast.Node) string {
	var b strings.Builder
	lines := n.Lines()
	for i := 0; i < lines.Len(); i++ {
		seg := lines.At(i)
		b.Write(seg.Value(r.src))
	}
	return b.String()
}

// renderBlockquote renders the quoted blocks, in fyne's blockquote text style, into a
// QuoteSegment that draws them indented behind a bar, nested blocks included.
func renderBlockquote(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	st.TextStyle.Italic = widget.RichTextStyleBlockquote.TextStyle.Italic
	depth := r.listDepth
	r.listDepth = 0 // the quote is a RichText of its own
	content := r.children(n, st)
	r.listDepth = depth
	return []widget.RichTextSegment{&QuoteSegment{Content: content}}
}

// renderList renders an ordered or bullet list as a widget.ListSegment, keeping an ordered
// list's start number. Each item is a widget.ParagraphSegment holding the item's blocks.
// Lists nested in a list item are indented (see indentedList).
func renderList(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	l := n.(*ast.List)
	list := &widget.ListSegment{Ordered: l.IsOrdered()}
	if l.IsOrdered() {
		list.SetStartNumber(l.Start)
	}
	depth := r.listDepth
	r.listDepth++
	for item := n.FirstChild(); item != nil; item = item.NextSibling() {
		list.Items = append(list.Items, &widget.ParagraphSegment{Texts: r.node(item, st)})
	}
	r.listDepth = depth
	if depth == 0 {
		return []widget.RichTextSegment{list}
	}
	return []widget.RichTextSegment{&indentedList{ListSegment: list, depth: depth}}
}

// listIndent is the text put before the bullet of a list per level of nesting.
const listIndent = "    "

// indentedList is a widget.ListSegment nested in another list. Fyne draws nested lists flush
// with their parent (2.8 indents only the lists its own Markdown parser made: the level is
// unexported), so this prefixes each bullet (or number) with listIndent per level.
type indentedList struct {
	*widget.ListSegment
	depth int
}

// Segments returns the list's rows with indented bullets.
func (l *indentedList) Segments() []widget.RichTextSegment {
	rows := l.ListSegment.Segments()
	for _, row := range rows {
		p, ok := row.(*widget.ParagraphSegment)
		if !ok || len(p.Texts) == 0 {
			continue
		}
		if bullet, ok := p.Texts[0].(*widget.TextSegment); ok {
			bullet.Text = strings.Repeat(listIndent, l.depth) + bullet.Text
		}
	}
	return rows
}
