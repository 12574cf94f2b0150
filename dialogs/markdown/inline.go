package markdown

import (
	"bytes"
	"net/url"
	"strings"
	"unicode"
	"unicode/utf8"

	"fyne.io/fyne/v2/widget"
	"github.com/yuin/goldmark/ast"
	east "github.com/yuin/goldmark/extension/ast"
	"github.com/yuin/goldmark/util"

	"feedback/internal/i18n"
)

// renderText renders plain text. A hard line break ends the line; a soft line break becomes a
// space, except between two Chinese or Japanese characters, which are written without spaces
// (an agent wrapping a long Chinese sentence must not get stray spaces in it).
func renderText(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	t := n.(*ast.Text)
	s := r.textValue(t)
	switch {
	case t.HardLineBreak():
		s += "\n"
	case t.SoftLineBreak():
		if !joinsWithoutSpace(lastRune(s), r.firstRuneAfter(n)) {
			s += " "
		}
	}
	return []widget.RichTextSegment{textSegment(s, st)}
}

func renderString(_ *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	return []widget.RichTextSegment{textSegment(string(n.(*ast.String).Value), st)}
}

// renderCodeSpan renders inline code monospace, on top of the surrounding style (code in a
// heading stays heading-sized).
func renderCodeSpan(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	st.TextStyle.Monospace = widget.RichTextStyleCodeInline.TextStyle.Monospace
	return []widget.RichTextSegment{textSegment(r.plainText(n), st)}
}

// renderEmphasis adds italic (*x*) or bold (**x**) to the carried style, so nesting combines.
func renderEmphasis(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	if n.(*ast.Emphasis).Level >= 2 {
		st.TextStyle.Bold = true
	} else {
		st.TextStyle.Italic = true
	}
	return r.children(n, st)
}

// renderStrikethrough renders ~~struck~~ text as StrikeSegments: the text in its normal colour
// with a line drawn through it (fyne.TextStyle has no strikethrough). Greyed-out text was
// rejected: at ~1.5:1 "~~optional~~ required" read "optional required". Combining U+0336 was
// rejected too: it corrupts copied text, and over CJK (drawn from a fallback font) the stroke
// lands half-way across the glyph. Links inside keep being links.
func renderStrikethrough(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	var out []widget.RichTextSegment
	for _, s := range r.children(n, st) {
		if t, ok := s.(*widget.TextSegment); ok && t.Style.Inline {
			out = appendSegments(out, &StrikeSegment{Text: t.Text, Style: t.Style})
			continue
		}
		out = appendSegments(out, s)
	}
	return out
}

// renderTaskCheckBox renders a GFM task-list marker as a TaskSegment, which the list draws in
// place of the item's bullet.
func renderTaskCheckBox(_ *mdRenderer, n ast.Node, _ widget.RichTextStyle) []widget.RichTextSegment {
	return []widget.RichTextSegment{&TaskSegment{Checked: n.(*east.TaskCheckBox).IsChecked}}
}

// renderRawHTML shows inline raw HTML as the text it is.
func renderRawHTML(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	var b strings.Builder
	segs := n.(*ast.RawHTML).Segments
	for i := 0; i < segs.Len(); i++ {
		seg := segs.At(i)
		b.Write(seg.Value(r.src))
	}
	return []widget.RichTextSegment{textSegment(b.String(), st)}
}

// renderLink renders [text](url) as a clickable link when the URL is safe (see linkURL);
// otherwise its text is rendered in the surrounding style and the URL is dropped.
// A fyne hyperlink has a single style, so emphasis inside link text is flattened.
func renderLink(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	dest := unescapeText(n.(*ast.Link).Destination)
	u := linkURL(dest)
	if u == nil {
		return r.children(n, st)
	}
	label := r.plainText(n)
	if label == "" {
		label = dest
	}
	return []widget.RichTextSegment{hyperlink(label, u, st)}
}

// renderAutoLink renders <https://x>, <a@b.c> and bare GFM URLs (www.x.com, https://x) the
// same way as links: clickable only when safe.
func renderAutoLink(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	a := n.(*ast.AutoLink)
	label := string(a.Label(r.src))
	dest := string(a.URL(r.src))
	if a.AutoLinkType == ast.AutoLinkEmail && !strings.HasPrefix(strings.ToLower(dest), "mailto:") {
		dest = "mailto:" + dest
	}
	if u := linkURL(dest); u != nil {
		return []widget.RichTextSegment{hyperlink(label, u, st)}
	}
	return []widget.RichTextSegment{textSegment(label, st)}
}

// renderImage is the single seam for image nodes. A data: URI or a local file becomes a
// PictureSegment, read and decoded later off the Fyne goroutine (markdown_image.go); anything
// else renders as the alt text in italics followed, for an http(s) URL, by the URL as a link:
// remote images are never fetched.
func renderImage(r *mdRenderer, n ast.Node, st widget.RichTextStyle) []widget.RichTextSegment {
	alt := r.plainText(n)
	if alt == "" {
		alt = "image"
	}
	if p, ok := r.pictures.picture(unescapeText(n.(*ast.Image).Destination), alt); ok {
		return []widget.RichTextSegment{p}
	}
	italic := st
	italic.TextStyle.Italic = true
	out := []widget.RichTextSegment{textSegment(alt, italic)}
	dest := unescapeText(n.(*ast.Image).Destination)
	if u := linkURL(dest); u != nil && u.Scheme != "mailto" {
		out = append(out, textSegment(" ", st), hyperlink(dest, u, st))
	}
	return out
}

func hyperlink(label string, u *url.URL, st widget.RichTextStyle) *widget.HyperlinkSegment {
	return &widget.HyperlinkSegment{Text: label, URL: u, Alignment: st.Alignment}
}

// linkURL returns the parsed URL if raw may become a clickable link: an absolute http or https
// URL with a host, or a mailto URL with an address. Anything else (javascript:, file:, data:,
// relative paths, unparsable text) returns nil.
func linkURL(raw string) *url.URL {
	u, err := url.Parse(strings.TrimSpace(raw))
	if err != nil {
		return nil
	}
	switch strings.ToLower(u.Scheme) {
	case "http", "https":
		if u.Host == "" {
			return nil
		}
	case "mailto":
		if u.Opaque == "" {
			return nil
		}
	default:
		return nil
	}
	return u
}

// plainText returns the text of n's descendants with formatting dropped and soft breaks as
// spaces; it is what a link, image alt or code span shows.
func (r *mdRenderer) plainText(n ast.Node) string {
	var b strings.Builder
	_ = ast.Walk(n, func(c ast.Node, entering bool) (ast.WalkStatus, error) {
		if !entering {
			return ast.WalkContinue, nil
		}
		switch t := c.(type) {
		case *ast.Text:
			b.WriteString(r.textValue(t))
			if t.SoftLineBreak() || t.HardLineBreak() {
				b.WriteByte(' ')
			}
		case *ast.String:
			b.Write(t.Value)
		}
		return ast.WalkContinue, nil
	})
	return strings.TrimSpace(b.String())
}

// textValue returns the text of t as displayed: escapes and entities resolved, except in raw
// text (code spans), which is shown exactly as written.
func (r *mdRenderer) textValue(t *ast.Text) string {
	if t.IsRaw() {
		return string(t.Value(r.src))
	}
	return unescapeText(t.Value(r.src))
}

// maxEntityLen bounds the search for the ';' ending an entity reference.
const maxEntityLen = 40

// unescapeText resolves what goldmark leaves in text for its HTML writer to resolve:
// backslash escapes ("\*" is "*") and entity references ("&copy;" is "©", "&#x4E2D;" is "中").
// It is one pass, so "\&copy;" stays "&copy;" and "&amp;copy;" becomes "&copy;".
func unescapeText(b []byte) string {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		switch {
		case b[i] == '\\' && i+1 < len(b) && util.IsPunct(b[i+1]):
			i++
			out = append(out, b[i])
		case b[i] == '&':
			end := bytes.IndexByte(b[i:min(len(b), i+maxEntityLen)], ';')
			if end > 0 {
				ref := b[i : i+end+1]
				if res := util.ResolveEntityNames(util.ResolveNumericReferences(ref)); !bytes.Equal(res, ref) {
					out = append(out, res...)
					i += end
					continue
				}
			}
			out = append(out, '&')
		default:
			out = append(out, b[i])
		}
	}
	return string(out)
}

// firstRuneAfter returns the first character of text that follows n in its block, or -1.
func (r *mdRenderer) firstRuneAfter(n ast.Node) rune {
	for s := n.NextSibling(); s != nil; s = s.NextSibling() {
		if t := r.plainText(s); t != "" {
			c, _ := utf8.DecodeRuneInString(t)
			return c
		}
	}
	return -1
}

func lastRune(s string) rune {
	if s == "" {
		return -1
	}
	c, _ := utf8.DecodeLastRuneInString(s)
	return c
}

// joinsWithoutSpace reports whether a soft line break between a and b is dropped: both are
// Han, kana or CJK/full-width punctuation, scripts written without spaces between words.
// Hangul is not included: Korean separates words with spaces.
func joinsWithoutSpace(a, b rune) bool {
	return isCJK(a) && isCJK(b)
}

func isCJK(c rune) bool { return i18n.IsCJK(c) }

// isWide reports whether c is a CJK or Hangul character: drawn from a
// system fallback font, which Fyne never picks in bold (see fauxBold).
func isWide(c rune) bool {
	return isCJK(c) || unicode.Is(unicode.Hangul, c)
}
