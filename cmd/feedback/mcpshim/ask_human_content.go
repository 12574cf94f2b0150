package mcpshim

import (
	"fmt"
	"net/url"
	"path/filepath"
	"strings"
)

// Content types of ask_human.
const (
	contentText     = "text"
	contentMarkdown = "markdown"
	contentHTML     = "html"
	contentImage    = "image"
)

// humanNoContent is the prompt when the call has no content: the title is
// already the window's title and chip.
const humanNoContent = "Choose one of the options below."

// humanContent returns the Markdown of the prompt: content rendered by
// content_type (default text), or humanNoContent.
//
//   - text is shown verbatim: every ASCII punctuation character is
//     backslash-escaped, leading blanks become no-break spaces and every line
//     break is a hard break, so nothing is interpreted as Markdown.
//   - markdown is used as is.
//   - html becomes the Markdown of its structure (htmlMarkdown: headings,
//     paragraphs, bold, italic, lists, quotes, code, tables, safe links),
//     its text escaped; comments, scripts and styles dropped. It is never
//     rendered as HTML.
//   - image is a data:image/… URI or an absolute local path, shown as a
//     Markdown image; an http(s) URL is shown as a link and never fetched.
func humanContent(args map[string]any, title string) (string, error) {
	kind, _, err := readString(args, "content_type", strArg{})
	if err != nil {
		return "", err
	}
	kind = strings.ToLower(strings.TrimSpace(kind))
	switch kind {
	case "":
		kind = contentText
	case contentText, contentMarkdown, contentHTML, contentImage:
	default:
		return "", argErrorf("content_type", "must be one of text, markdown, html, image, got %q", kind)
	}
	content, _, err := readString(args, "content", strArg{})
	if err != nil {
		return "", err
	}
	if len(content) > maxContentBytes {
		return "", argErrorf("content", "at most 50 KB (%d bytes), got %d bytes; shorten it or point to a file", maxContentBytes, len(content))
	}
	if strings.TrimSpace(content) == "" {
		if kind == contentImage {
			return "", argErrorf("content", "required when content_type is image: a data:image/… URI, an absolute file path or an https URL")
		}
		return humanNoContent, nil
	}
	var md string
	switch kind {
	case contentText:
		md = literalMarkdown(content)
	case contentMarkdown:
		md = content
	case contentHTML:
		md = htmlMarkdown(content)
	case contentImage:
		if md, err = imageMarkdown(strings.TrimSpace(content), title); err != nil {
			return "", err
		}
	}
	if strings.TrimSpace(md) == "" { // e.g. HTML with no text
		return humanNoContent, nil
	}
	return md, nil
}

// literalMarkdown returns Markdown that renders as s, verbatim: ASCII
// punctuation escaped, leading blanks kept as no-break spaces (a tab as
// four), line breaks hard. Runs of blank lines become one paragraph break.
func literalMarkdown(s string) string {
	s = strings.ReplaceAll(strings.ReplaceAll(s, "\r\n", "\n"), "\r", "\n")
	lines := strings.Split(s, "\n")
	var b strings.Builder
	b.Grow(len(s) + len(s)/4)
	prevBlank := true // nothing written yet
	for _, line := range lines {
		if strings.TrimSpace(line) == "" {
			prevBlank = true
			continue
		}
		if b.Len() > 0 {
			if prevBlank {
				b.WriteString("\n\n")
			} else {
				b.WriteString("\\\n")
			}
		}
		prevBlank = false
		i := 0
		for ; i < len(line) && (line[i] == ' ' || line[i] == '\t'); i++ {
			if line[i] == '\t' {
				b.WriteString("\u00a0\u00a0\u00a0\u00a0")
			} else {
				b.WriteString("\u00a0")
			}
		}
		for _, r := range line[i:] {
			if r < 0x80 && isASCIIPunct(byte(r)) {
				b.WriteByte('\\')
			}
			b.WriteRune(r)
		}
	}
	return b.String()
}

// isASCIIPunct reports whether c is ASCII punctuation, which CommonMark lets
// a backslash escape.
func isASCIIPunct(c byte) bool {
	return c >= '!' && c <= '/' || c >= ':' && c <= '@' || c >= '[' && c <= '`' || c >= '{' && c <= '~'
}

// imageMarkdown shows an image reference: a data:image/… URI or an absolute
// local path as a Markdown image, an http(s) URL as a link (never fetched).
func imageMarkdown(ref, title string) (string, error) {
	alt := literalMarkdown(strings.ReplaceAll(title, "\n", " "))
	const rule = "with content_type image, pass a data:image/… URI, an absolute local file path or an http(s) URL"
	if strings.ContainsAny(ref, "<>\n") && !strings.HasPrefix(strings.ToLower(ref), "data:") {
		return "", argErrorf("content", "%s; it must not contain <, > or line breaks", rule)
	}
	lower := strings.ToLower(ref)
	switch {
	case strings.HasPrefix(lower, "data:"):
		uri := strings.Join(strings.Fields(ref), "") // base64 wrapped over lines
		if !strings.HasPrefix(strings.ToLower(uri), "data:image/") || !strings.Contains(uri, ",") {
			return "", argErrorf("content", "%s; a data: URI must be data:image/<type>[;base64],<data>", rule)
		}
		uri = strings.NewReplacer("<", "%3C", ">", "%3E").Replace(uri)
		return fmt.Sprintf("![%s](<%s>)", alt, uri), nil
	case strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://"):
		u, err := url.Parse(ref)
		if err != nil || u.Host == "" || strings.ContainsAny(ref, " ") {
			return "", argErrorf("content", "%s; %q is not a valid URL", rule, ref)
		}
		return fmt.Sprintf("Image (not loaded): [%s](<%s>)", alt, ref), nil
	case strings.HasPrefix(lower, "file://"):
		u, err := url.Parse(ref)
		if err != nil || !filepath.IsAbs(u.Path) || (u.Host != "" && u.Host != "localhost") {
			return "", argErrorf("content", "%s; %q is not a local file URL", rule, ref)
		}
		return fmt.Sprintf("![%s](<%s>)", alt, u.Path), nil
	case filepath.IsAbs(ref):
		return fmt.Sprintf("![%s](<%s>)", alt, ref), nil
	default:
		return "", argErrorf("content", "%s, got %q", rule, shortQuote(ref))
	}
}

// shortQuote cuts s to 80 characters for an error message.
func shortQuote(s string) string {
	if c, cut := clampRunes(s, 80); cut {
		return c + "…"
	}
	return s
}
