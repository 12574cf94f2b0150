package mcpshim

import (
	"net/url"
	"strconv"
	"strings"

	"golang.org/x/net/html"
)

// ask_human's HTML content is shown as the Markdown of its structure, never
// rendered as HTML: htmlMarkdown keeps headings, paragraphs, bold, italic,
// strikethrough, code, preformatted blocks, lists (nested, numbered from
// their start), quotes, tables, line breaks, rules and http(s)/mailto links;
// every text is escaped, so nothing in it becomes Markdown or HTML; scripts,
// styles, comments and unknown tags are dropped (their text kept, except in
// htmlHidden elements); images are their alt text in brackets. The work is
// one pass over the tokens: nesting deeper than htmlFull.depth is flattened,
// inline markers past htmlFull.marks are dropped (each line break closes and
// reopens the open ones), tables keep htmlFull.columns columns. Once the
// output passes htmlMaxMarkdown the same converter runs again with the
// htmlFlat limits, which keep every text with its paragraphs and lines but
// no nesting, inline markers or links: its output is at most about three
// times the HTML's size (an escaped or replaced character, a code fence).
//
// One converter, ours, rather than an HTML-to-Markdown library: the one we
// weighed (github.com/JohannesKaufmann/html-to-markdown/v2, MIT) fails
// outright past 512 nested elements (x/net/html's limit), pads a 5,000-column
// table to 1.3 MB from 50 KB, keeps javascript: links and turns <img src> into
// a Markdown image the window would load from a local path, and escapes only
// what it judges needed; holding it behind our caps, link and image rules and
// escaping would have kept most of this file as plugins and a fallback, and
// moved golang.org/x/net and x/text ahead for the whole app.

const htmlMaxMarkdown = 256 * 1024 // the converted Markdown

// htmlLimits bound one conversion.
type htmlLimits struct {
	depth   int // nested lists and quotes
	marks   int // inline markers open at once (bold in italic in a link…)
	columns int // columns of a table
}

var (
	// htmlFull keeps the structure.
	htmlFull = htmlLimits{depth: 6, marks: 8, columns: 16}
	// htmlFlat keeps the text, paragraphs, lines, headings, rules and code.
	htmlFlat = htmlLimits{depth: 0, marks: 0, columns: 1}
)

// htmlBlocks end a line of text.
var htmlBlocks = map[string]bool{
	"address": true, "article": true, "aside": true, "blockquote": true, "dd": true, "div": true,
	"dl": true, "dt": true, "fieldset": true, "figcaption": true, "figure": true, "footer": true,
	"form": true, "h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true,
	"header": true, "hr": true, "main": true, "nav": true, "ol": true, "p": true, "pre": true,
	"section": true, "table": true, "tr": true, "ul": true, "caption": true, "details": true, "summary": true,
}

// htmlHidden are elements whose content is never text.
var htmlHidden = map[string]bool{
	"script": true, "style": true, "noscript": true, "template": true, "head": true,
	"iframe": true, "object": true, "svg": true, "math": true, "select": true,
}

// Tags whose content is a paragraph, or that separate paragraphs.
var htmlParagraphs = map[string]bool{
	"p": true, "blockquote": true, "ul": true, "ol": true, "pre": true, "table": true, "hr": true,
	"h1": true, "h2": true, "h3": true, "h4": true, "h5": true, "h6": true, "figure": true,
	"details": true, "dl": true, "main": true, "article": true, "section": true,
}

// Inline tags and their Markdown markers.
var htmlInline = map[string]string{
	"b": "**", "strong": "**", "i": "*", "em": "*", "cite": "*", "var": "*", "dfn": "*",
	"s": "~~", "del": "~~", "strike": "~~",
}

// htmlMarkdown converts an HTML document or fragment to Markdown (see above).
func htmlMarkdown(src string) string {
	if md, ok := convertHTML(src, htmlFull); ok {
		return md
	}
	md, ok := convertHTML(src, htmlFlat)
	if !ok { // not reached for content within maxContentBytes: a guard
		md = strings.ToValidUTF8(md[:htmlMaxMarkdown], "")
	}
	return md
}

// convertHTML converts src within lim; ok is false when the Markdown passed
// htmlMaxMarkdown (md is then cut short or whole, but over the cap).
func convertHTML(src string, lim htmlLimits) (md string, ok bool) {
	w := &htmlWriter{lim: lim}
	z := html.NewTokenizer(strings.NewReader(src))
	hidden := 0
	for {
		tt := z.Next()
		if tt == html.ErrorToken {
			break
		}
		if len(w.b) > htmlMaxMarkdown {
			return string(w.b), false
		}
		name, hasAttr := z.TagName()
		tag := string(name)
		switch tt {
		case html.TextToken:
			if hidden == 0 {
				w.text(string(z.Text()))
			}
		case html.StartTagToken, html.SelfClosingTagToken:
			attrs := tagAttrs(z, hasAttr)
			switch {
			case htmlHidden[tag]:
				if tt == html.StartTagToken {
					hidden++
				}
			case hidden > 0:
			default:
				w.open(tag, attrs, tt == html.SelfClosingTagToken)
			}
		case html.EndTagToken:
			switch {
			case htmlHidden[tag]:
				if hidden > 0 {
					hidden--
				}
			case hidden > 0:
			default:
				w.close(tag)
			}
		}
	}
	md = w.finish()
	return md, len(md) <= htmlMaxMarkdown
}

// tagAttrs returns the attributes of the current tag that the converter uses.
func tagAttrs(z *html.Tokenizer, more bool) map[string]string {
	attrs := map[string]string{}
	for more {
		var k, v []byte
		k, v, more = z.TagAttr()
		if key := string(k); key == "href" || key == "alt" || key == "start" {
			attrs[key] = string(v)
		}
	}
	return attrs
}

// collapseSpace collapses runs of white space to one space, dropping a
// leading one at the start of a line.
func collapseSpace(s string, atLineStart bool) string {
	var b strings.Builder
	space := atLineStart
	for _, r := range s {
		if r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' {
			if !space {
				b.WriteByte(' ')
			}
			space = true
			continue
		}
		space = false
		b.WriteRune(r)
	}
	return b.String()
}

// Breaks pending before the next text, weakest first.
const (
	breakNone = iota
	breakLine // a hard line break within the paragraph
	breakItem // a new line starting a list item
	breakPara // a blank line: a new paragraph
)

// htmlContainer is an open block quote or list item, which prefixes the
// lines inside it.
type htmlContainer struct {
	quote  bool
	indent int // a list item's marker width
}

type htmlList struct {
	ordered bool
	next    int
	items   int
}

// htmlWriter writes the Markdown of a stream of HTML tokens.
type htmlWriter struct {
	lim     htmlLimits
	b       []byte
	fresh   bool // nothing on the current line after its prefix
	pending int  // break before the next text
	// paraPrefix is the blank line's prefix of a pending paragraph break.
	paraPrefix string
	marker     string
	heading    int // level of the open heading, 0 outside one

	blocks []htmlContainer
	lists  []htmlList
	deep   int // containers not opened, past lim.depth

	marks   []string       // inline markers open, in order
	written []bool         // whether each mark was written (it had text)
	dropped map[string]int // markers opened past lim.marks, not written
	link    string         // destination of the open link, "" for none

	code  *strings.Builder // an open inline <code>
	pre   *strings.Builder // an open <pre>
	table *htmlTable
}

type htmlTable struct {
	rows   [][]string
	header bool // the first row has th cells
	cell   *htmlWriter
	depth  int // tables nested in a cell
}

func (w *htmlWriter) brk(level int) {
	if level == breakPara && w.marker != "" {
		level = breakItem // a paragraph opening a list item: the item stays tight
	}
	if w.heading > 0 && level > breakNone {
		level = breakNone // a heading is one line
		if len(w.b) > 0 {
			w.spaceNext()
		}
	}
	if level == breakPara {
		// The blank line belongs to the outermost block the break is between.
		if p := strings.TrimRight(w.prefix(""), " "); w.pending < breakPara || len(p) < len(w.paraPrefix) {
			w.paraPrefix = p
		}
	}
	w.pending = max(w.pending, level)
}

// spaceNext makes the next text start with a space.
func (w *htmlWriter) spaceNext() {
	if n := len(w.b); n > 0 && w.b[n-1] != ' ' {
		w.b = append(w.b, ' ')
	}
}

// prefix returns the prefix of a new line in the open containers; with
// marker set, the innermost item's line starts with it.
func (w *htmlWriter) prefix(marker string) string {
	var p strings.Builder
	for i, c := range w.blocks {
		switch {
		case c.quote:
			p.WriteString("> ")
		case i == len(w.blocks)-1 && marker != "":
			p.WriteString(marker)
		default:
			p.WriteString(strings.Repeat(" ", c.indent))
		}
	}
	return p.String()
}

// startText writes the pending break and the prefix of the new line (with a
// list item's marker, a heading's hashes) before text. Inline markers open
// across a break are closed before it and opened again after it.
func (w *htmlWriter) startText() {
	switch {
	case len(w.b) == 0:
		w.b = append(w.b, w.prefix(w.marker)...)
		w.fresh = true
	case w.pending == breakPara:
		w.suspendMarks()
		w.b = append(w.b, '\n')
		w.b = append(w.b, w.paraPrefix...)
		w.b = append(w.b, '\n')
		w.b = append(w.b, w.prefix(w.marker)...)
		w.fresh = true
	case w.pending == breakItem:
		w.suspendMarks()
		w.b = append(w.b, '\n')
		w.b = append(w.b, w.prefix(w.marker)...)
		w.fresh = true
	case w.pending == breakLine && !w.fresh:
		w.suspendMarks()
		w.b = append(w.b, "\\\n"...)
		w.b = append(w.b, w.prefix("")...)
		w.fresh = true
	}
	w.marker = ""
	w.pending = breakNone
	if w.heading > 0 && w.fresh {
		w.b = append(w.b, strings.Repeat("#", w.heading)+" "...)
	}
	w.fresh = false
}

// suspendMarks closes the written inline markers before a break; they are
// opened again before the next text.
func (w *htmlWriter) suspendMarks() {
	for j := len(w.marks) - 1; j >= 0; j-- {
		if w.written[j] {
			w.endMark(j, w.closing(j))
			w.written[j] = false
		}
	}
}

// closing is the end of open marker j.
func (w *htmlWriter) closing(j int) string {
	if w.marks[j] == "[" {
		return "](<" + w.link + ">)"
	}
	return w.marks[j]
}

// text writes text: white space collapsed, every ASCII punctuation character
// escaped, inline markers opened before its first character.
func (w *htmlWriter) text(s string) {
	if t := w.table; t != nil && t.cell != nil {
		t.cell.text(s)
		return
	}
	if w.pre != nil {
		w.pre.WriteString(s)
		return
	}
	if w.code != nil {
		w.code.WriteString(s)
		return
	}
	s = collapseSpace(s, false)
	if s == "" {
		return
	}
	if s[0] == ' ' {
		if len(w.b) > 0 && !w.fresh && w.pending == breakNone {
			w.spaceNext()
		}
		s = s[1:]
		if s == "" {
			return
		}
	}
	w.startText()
	w.openMarks()
	w.b = append(w.b, escapeMarkdown(s)...)
}

// openMarks writes the inline markers opened since the last text.
func (w *htmlWriter) openMarks() {
	for i, m := range w.marks {
		if !w.written[i] {
			w.b = append(w.b, m...)
			w.written[i] = true
		}
	}
}

// escapeMarkdown escapes every ASCII punctuation character of s.
func escapeMarkdown(s string) string {
	var b strings.Builder
	for _, r := range s {
		if r < 0x80 && isASCIIPunct(byte(r)) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

func (w *htmlWriter) open(tag string, attrs map[string]string, selfClosing bool) {
	if t := w.table; t != nil {
		switch tag {
		case "table":
			t.depth++
			return
		case "tr":
			if t.depth == 0 {
				t.rows = append(t.rows, nil)
				return
			}
		case "td", "th":
			if t.depth == 0 {
				if len(t.rows) == 0 {
					t.rows = append(t.rows, nil)
				}
				if len(t.rows) == 1 && tag == "th" {
					t.header = true
				}
				w.closeCell()
				t.cell = &htmlWriter{lim: w.lim}
				return
			}
		}
		if t.cell != nil {
			if tag == "td" || tag == "th" || tag == "tr" {
				t.cell.text(" ")
				return
			}
			t.cell.open(tag, attrs, selfClosing)
			return
		}
	}
	if w.pre != nil {
		if tag == "br" {
			w.pre.WriteByte('\n')
		}
		return
	}
	switch {
	case tag == "br":
		w.brk(breakLine)
	case tag == "hr":
		w.brk(breakPara)
		w.startText()
		w.b = append(w.b, "* * *"...)
		w.brk(breakPara)
	case tag == "img":
		if alt := strings.TrimSpace(attrs["alt"]); alt != "" {
			w.text("[" + alt + "]")
		}
	case len(tag) == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6':
		w.brk(breakPara)
		w.heading = int(tag[1] - '0')
	case tag == "ul" || tag == "ol":
		l := htmlList{ordered: tag == "ol", next: 1}
		if n, err := strconv.Atoi(strings.TrimSpace(attrs["start"])); err == nil && n >= 0 && n < 1e9 {
			l.next = n
		}
		inItem := len(w.lists) > 0 || len(w.blocks) > 0 && !w.blocks[len(w.blocks)-1].quote
		switch {
		case !inItem:
			w.brk(breakPara)
		case l.ordered && l.next != 1 && w.marker == "":
			// After the item's text: a list numbered from other than 1
			// cannot interrupt a paragraph (CommonMark), a blank line can.
			w.brk(breakPara)
		default:
			w.brk(breakItem)
		}
		w.lists = append(w.lists, l)
	case tag == "li":
		marker, first := "- ", true
		if n := len(w.lists); n > 0 {
			l := &w.lists[n-1]
			if l.ordered {
				marker = strconv.Itoa(l.next) + ". "
				l.next++
			}
			first = l.items == 0
			l.items++
		}
		if !w.push(htmlContainer{indent: len(marker)}) {
			w.brk(breakLine)
			return
		}
		if first {
			w.brk(breakItem) // a paragraph break before the list stays
		} else {
			w.pending = breakItem // items of a list are not apart
		}
		w.marker = marker
	case tag == "blockquote":
		w.brk(breakPara)
		if !w.push(htmlContainer{quote: true}) {
			return
		}
	case tag == "pre":
		w.brk(breakPara)
		w.pre = &strings.Builder{}
	case tag == "code" || tag == "kbd" || tag == "samp" || tag == "tt":
		if w.code == nil {
			w.code = &strings.Builder{}
		}
	case tag == "a":
		if w.link == "" {
			if dest := linkDestination(attrs["href"]); dest != "" {
				w.link = dest
				w.mark("[")
			}
		}
	case htmlInline[tag] != "":
		w.mark(htmlInline[tag])
	case tag == "table":
		w.brk(breakPara)
		w.table = &htmlTable{}
	case htmlParagraphs[tag]:
		w.brk(breakPara)
	case htmlBlocks[tag] || tag == "dt" || tag == "dd":
		w.brk(breakLine)
	}
}

func (w *htmlWriter) close(tag string) {
	if t := w.table; t != nil {
		switch {
		case tag == "table" && t.depth > 0:
			t.depth--
			return
		case tag == "table":
			w.closeCell()
			w.table = nil
			w.writeTable(t)
			w.brk(breakPara)
			return
		case (tag == "td" || tag == "th") && t.depth == 0:
			w.closeCell()
			return
		case tag == "tr" && t.depth == 0:
			w.closeCell()
			return
		case t.cell != nil:
			t.cell.close(tag)
			return
		}
		return
	}
	if w.pre != nil {
		if tag == "pre" {
			w.writePre(w.pre.String())
			w.pre = nil
			w.brk(breakPara)
		}
		return
	}
	switch {
	case len(tag) == 2 && tag[0] == 'h' && tag[1] >= '1' && tag[1] <= '6':
		if w.heading > 0 {
			w.heading = 0
			w.brk(breakPara)
		}
	case tag == "ul" || tag == "ol":
		if n := len(w.lists); n > 0 {
			w.lists = w.lists[:n-1]
		}
		if len(w.lists) > 0 {
			w.brk(breakItem)
		} else {
			w.brk(breakPara)
		}
	case tag == "li":
		w.pop(false)
	case tag == "blockquote":
		w.pop(true)
		w.brk(breakPara)
	case tag == "code" || tag == "kbd" || tag == "samp" || tag == "tt":
		if w.code != nil {
			code := w.code.String()
			w.code = nil
			w.writeCode(code)
		}
	case tag == "a":
		if w.link != "" {
			w.unmark("[", "](<"+w.link+">)")
			w.link = ""
		}
	case htmlInline[tag] != "":
		w.unmark(htmlInline[tag], htmlInline[tag])
	case htmlParagraphs[tag]:
		w.brk(breakPara)
	case htmlBlocks[tag] || tag == "dt" || tag == "dd":
		w.brk(breakLine)
	}
}

// push opens a container unless the nesting is already lim.depth deep.
func (w *htmlWriter) push(c htmlContainer) bool {
	if len(w.blocks) >= w.lim.depth {
		w.deep++
		return false
	}
	w.blocks = append(w.blocks, c)
	return true
}

// pop closes the innermost container of the kind.
func (w *htmlWriter) pop(quote bool) {
	if w.deep > 0 {
		w.deep--
		return
	}
	for i := len(w.blocks) - 1; i >= 0; i-- {
		if w.blocks[i].quote == quote {
			w.blocks = w.blocks[:i]
			return
		}
	}
}

// mark opens an inline marker; it is written before the next text.
func (w *htmlWriter) mark(m string) {
	if len(w.marks) >= w.lim.marks {
		if w.dropped == nil {
			w.dropped = map[string]int{}
		}
		w.dropped[m]++
		return
	}
	w.marks = append(w.marks, m)
	w.written = append(w.written, false)
}

// unmark closes the innermost open marker m with end, after the text's
// trailing space, or drops it if it had no text. Markers opened inside it
// and still open are closed with it.
func (w *htmlWriter) unmark(m, end string) {
	if w.dropped[m] > 0 {
		w.dropped[m]--
		return
	}
	for i := len(w.marks) - 1; i >= 0; i-- {
		if w.marks[i] != m {
			continue
		}
		for j := len(w.marks) - 1; j > i; j-- {
			w.endMark(j, w.closing(j))
		}
		w.endMark(i, end)
		w.marks, w.written = w.marks[:i], w.written[:i]
		return
	}
}

func (w *htmlWriter) endMark(i int, end string) {
	if !w.written[i] {
		return
	}
	space := false
	for n := len(w.b); n > 0 && w.b[n-1] == ' '; n-- {
		w.b, space = w.b[:n-1], true
	}
	w.b = append(w.b, end...)
	if space {
		w.b = append(w.b, ' ')
	}
}

// closeMarks closes every open inline marker: a block ends them.
func (w *htmlWriter) closeMarks() {
	for j := len(w.marks) - 1; j >= 0; j-- {
		w.endMark(j, w.closing(j))
	}
	w.marks, w.written, w.link = w.marks[:0], w.written[:0], ""
}

// writeCode writes an inline code span of s on one line.
func (w *htmlWriter) writeCode(s string) {
	s = collapseSpace(s, false)
	if strings.TrimSpace(s) == "" {
		return
	}
	fence := strings.Repeat("`", longestRun(s, '`')+1)
	pad := ""
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		pad = " "
	}
	if s[0] == ' ' && len(w.b) > 0 && !w.fresh && w.pending == breakNone {
		w.spaceNext()
	}
	w.startText()
	w.openMarks()
	w.b = append(w.b, fence+pad+strings.TrimSpace(s)+pad+fence...)
	if strings.HasSuffix(s, " ") {
		w.b = append(w.b, ' ')
	}
}

// writePre writes a fenced code block of s, exactly as written.
func (w *htmlWriter) writePre(s string) {
	s = strings.TrimPrefix(strings.ReplaceAll(s, "\r\n", "\n"), "\n")
	s = strings.TrimRight(s, "\n")
	if strings.TrimSpace(s) == "" {
		return
	}
	fence := strings.Repeat("`", max(3, longestRun(s, '`')+1))
	w.startText()
	p := w.prefix("")
	w.b = append(w.b, fence...)
	for _, line := range strings.Split(s, "\n") {
		w.b = append(w.b, '\n')
		w.b = append(w.b, p...)
		w.b = append(w.b, line...)
	}
	w.b = append(w.b, '\n')
	w.b = append(w.b, p...)
	w.b = append(w.b, fence...)
}

// closeCell ends the open table cell, if any, adding it to the last row.
func (w *htmlWriter) closeCell() {
	t := w.table
	if t == nil || t.cell == nil {
		return
	}
	c := t.cell
	c.closeMarks()
	t.cell = nil
	text := strings.TrimSpace(strings.ReplaceAll(string(c.b), "\\\n", " "))
	text = strings.ReplaceAll(text, "\n", " ")
	row := &t.rows[len(t.rows)-1]
	*row = append(*row, text) // cells past lim.columns are joined in writeTable
}

// writeTable writes a GFM table of t's rows; the first row is the header.
func (w *htmlWriter) writeTable(t *htmlTable) {
	cols := 0
	var rows [][]string
	for _, r := range t.rows {
		if n := w.lim.columns; len(r) > n { // the last column takes the cells past it
			r = append(r[:n-1:n-1], strings.Join(r[n-1:], " "))
		}
		if len(r) > 0 {
			rows = append(rows, r)
			cols = max(cols, len(r))
		}
	}
	if cols == 0 {
		return
	}
	w.startText()
	p := w.prefix("")
	row := func(cells []string) {
		w.b = append(w.b, '|')
		for i := range cols {
			c := ""
			if i < len(cells) {
				c = cells[i]
			}
			w.b = append(w.b, ' ')
			w.b = append(w.b, c...)
			w.b = append(w.b, " |"...)
		}
	}
	row(rows[0])
	w.b = append(w.b, '\n')
	w.b = append(w.b, p...)
	w.b = append(w.b, '|')
	for range cols {
		w.b = append(w.b, "---|"...)
	}
	for _, r := range rows[1:] {
		w.b = append(w.b, '\n')
		w.b = append(w.b, p...)
		row(r)
	}
}

func (w *htmlWriter) finish() string {
	if w.table != nil {
		t := w.table
		w.closeCell()
		w.table = nil
		w.writeTable(t)
	}
	if w.pre != nil {
		w.writePre(w.pre.String())
		w.pre = nil
	}
	if w.code != nil {
		code := w.code.String()
		w.code = nil
		w.writeCode(code)
	}
	w.closeMarks()
	return strings.TrimSpace(string(w.b))
}

// longestRun returns the length of the longest run of c in s.
func longestRun(s string, c byte) int {
	best, n := 0, 0
	for i := 0; i < len(s); i++ {
		if s[i] == c {
			n++
			best = max(best, n)
		} else {
			n = 0
		}
	}
	return best
}

// linkDestination returns href as a Markdown link destination if it may be
// a link (http, https with a host, or mailto), else "".
func linkDestination(href string) string {
	u, err := url.Parse(strings.TrimSpace(href))
	if err != nil {
		return ""
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return ""
		}
	case "mailto":
		if u.Opaque == "" {
			return ""
		}
	default:
		return ""
	}
	return strings.NewReplacer("<", "%3C", ">", "%3E", "\n", "", "\r", "", " ", "%20").Replace(u.String())
}
