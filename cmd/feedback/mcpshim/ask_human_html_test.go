package mcpshim

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/yuin/goldmark"
	"github.com/yuin/goldmark/extension"
)

// toHTML renders Markdown the way the window parses it (goldmark, GFM),
// to compare structure.
func toHTML(t *testing.T, md string) string {
	t.Helper()
	var buf bytes.Buffer
	if err := goldmark.New(goldmark.WithExtensions(extension.GFM)).Convert([]byte(md), &buf); err != nil {
		t.Fatal(err)
	}
	return buf.String()
}

// ask_human's HTML content keeps its structure: the Markdown it becomes
// renders to the same headings, emphasis, lists, quotes, code, tables and
// links, and nothing of the HTML passes through as markup.
func TestHTMLMarkdownKeepsStructure(t *testing.T) {
	for _, tc := range []struct{ name, in, want string }{
		{"headings", "<h1>Title</h1><h3>Sub <i>it</i></h3><p>text</p>",
			"<h1>Title</h1>\n<h3>Sub <em>it</em></h3>\n<p>text</p>\n"},
		{"bold italic struck", "<p>a <b>bold</b>, <strong>strong </strong>and <em>em</em> <del>gone</del>.</p>",
			"<p>a <strong>bold</strong>, <strong>strong</strong> and <em>em</em> <del>gone</del>.</p>\n"},
		{"list", "<p>Steps:</p><ul><li>one</li><li>two <b>bold</b></li></ul>",
			"<p>Steps:</p>\n<ul>\n<li>one</li>\n<li>two <strong>bold</strong></li>\n</ul>\n"},
		{"ordered with start", `<ol start="3"><li>c</li><li>d</li></ol>`,
			"<ol start=\"3\">\n<li>c</li>\n<li>d</li>\n</ol>\n"},
		{"nested list", "<ul><li>a<ul><li>a1</li></ul></li><li>b</li></ul>",
			"<ul>\n<li>a\n<ul>\n<li>a1</li>\n</ul>\n</li>\n<li>b</li>\n</ul>\n"},
		{"nested list from 3 after text", `<ul><li>two<ol start="3"><li>three</li></ol></li></ul>`,
			"<ul>\n<li>\n<p>two</p>\n<ol start=\"3\">\n<li>three</li>\n</ol>\n</li>\n</ul>\n"},
		{"paragraphs in items stay tight", "<ul><li><p>a</p></li><li><p>b</p></li></ul>",
			"<ul>\n<li>a</li>\n<li>b</li>\n</ul>\n"},
		{"quote", "<blockquote><p>q1</p><p>q2</p></blockquote>",
			"<blockquote>\n<p>q1</p>\n<p>q2</p>\n</blockquote>\n"},
		{"pre", "<pre>  keep\n   <b>this</b> `x`</pre>",
			"<pre><code>  keep\n   this `x`\n</code></pre>\n"},
		{"inline code", "<p>run <code>make *test*</code> now</p>",
			"<p>run <code>make *test*</code> now</p>\n"},
		{"br", "<p>x<br>y</p>", "<p>x<br>\ny</p>\n"},
		{"links", `<p><a href="https://e.com/a b">site</a> <a href="javascript:alert(1)">js</a> <a href="mailto:a@b.c">mail</a></p>`,
			"<p><a href=\"https://e.com/a%20b\">site</a> js <a href=\"mailto:a@b.c\">mail</a></p>\n"},
		{"table", "<table><tr><th>a</th><th>b|c</th></tr><tr><td>1</td><td><b>2</b></td></tr></table>",
			"<table>\n<thead>\n<tr>\n<th>a</th>\n<th>b|c</th>\n</tr>\n</thead>\n<tbody>\n<tr>\n<td>1</td>\n<td><strong>2</strong></td>\n</tr>\n</tbody>\n</table>\n"},
		{"hr", "<p>a</p><hr><p>b</p>", "<p>a</p>\n<hr>\n<p>b</p>\n"},
		{"markdown in text stays text", "<p># not a heading *nor em* 1. [x](y) &lt;b&gt;</p>",
			"<p># not a heading *nor em* 1. [x](y) &lt;b&gt;</p>\n"},
		{"script, style, comment", "<style>p{}</style><p>x<!-- hidden --></p><script>alert('<p>')</script>",
			"<p>x</p>\n"},
		{"bold across a paragraph", "<b>a<p>b</p></b>", "<p><strong>a</strong></p>\n<p><strong>b</strong></p>\n"},
		{"unclosed", "<div><p>open <b>bold", "<p>open <strong>bold</strong></p>\n"},
		{"image alt", `<p><img src="x.png" alt="diagram"></p>`, "<p>[diagram]</p>\n"},
		{"entities", "<p>a &amp; b &eacute; &#x4F60;</p>", "<p>a &amp; b é 你</p>\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md := htmlMarkdown(tc.in)
			got := toHTML(t, md)
			if got != tc.want {
				t.Errorf("htmlMarkdown(%q) = %q\nrenders %q\nwant    %q", tc.in, md, got, tc.want)
			}
			if strings.Contains(got, "raw HTML omitted") {
				t.Errorf("raw HTML passed through: %q", md)
			}
		})
	}
}

// Hostile HTML: deep nesting, huge tables and tag soup cost one pass and
// give bounded Markdown.
func TestHTMLMarkdownIsBounded(t *testing.T) {
	for _, tc := range []struct{ name, in string }{
		{"deep lists", strings.Repeat("<ul><li>x", 5000)},
		{"deep quotes", strings.Repeat("<blockquote>q", 5000)},
		{"wide table", "<table><tr>" + strings.Repeat("<td>c</td>", 5000) + "</tr>" + strings.Repeat("<tr><td>r</td></tr>", 500) + "</table>"},
		{"many rows", "<table>" + strings.Repeat("<tr><td>a</td><td>b</td></tr>", 2500) + "</table>"},
		{"breaks", strings.Repeat("<br>", 12000)},
		{"open marks", strings.Repeat("<b><i><s>", 3000) + "x"},
		{"marks over breaks", strings.Repeat("<b><i>", 4000) + strings.Repeat("<br>x", 5000)},
		{"marks over lists", strings.Repeat("<a href='https://e.com'><b>", 2000) + strings.Repeat("<li>x", 5000)},
		{"nested tables", strings.Repeat("<table><tr><td>", 3000) + "x"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.in) > maxContentBytes {
				tc.in = tc.in[:maxContentBytes]
			}
			start := time.Now()
			md := htmlMarkdown(tc.in)
			if d := time.Since(start); d > 2*time.Second {
				t.Errorf("took %v", d)
			}
			if len(md) > htmlMaxMarkdown {
				t.Errorf("%d bytes of Markdown", len(md))
			}
			_ = toHTML(t, md)
		})
	}
}

// HTML whose structured Markdown would pass htmlMaxMarkdown (a long link
// reopened at every line break, lines deep in lists numbered from a billion)
// is converted again without nesting, inline markers or links: every word
// and line is kept, headings and code blocks stay what they are, and the
// Markdown is within the cap.
func TestHTMLMarkdownFallsBackToFlat(t *testing.T) {
	for _, tc := range []struct {
		name  string
		in    string
		words int
	}{
		{"long link over breaks", `<h2>Title</h2><pre>code</pre><a href="https://e.com/` + strings.Repeat("a", 30000) + `">` +
			strings.Repeat("<br>word", 2000), 2000},
		{"deep numbered lists", "<h2>Title</h2><pre>code</pre>" + strings.Repeat(`<ol start="999999990">`, 6) +
			strings.Repeat("<li>word", 5000), 5000},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if len(tc.in) > maxContentBytes {
				t.Fatalf("%d bytes: the content cap is %d", len(tc.in), maxContentBytes)
			}
			if _, ok := convertHTML(tc.in, htmlFull); ok {
				t.Fatal("the structured Markdown fits: not a test of the fallback")
			}
			md := htmlMarkdown(tc.in)
			if len(md) > htmlMaxMarkdown {
				t.Fatalf("%d bytes of Markdown", len(md))
			}
			out := toHTML(t, md)
			if n := strings.Count(out, "word"); n != tc.words {
				t.Errorf("%d of %d words shown", n, tc.words)
			}
			if n := strings.Count(out, "<br>"); n < tc.words-1 {
				t.Errorf("%d line breaks, want %d", n, tc.words-1)
			}
			for _, want := range []string{"<h2>Title</h2>", "<pre><code>code\n</code></pre>"} {
				if !strings.Contains(out, want) {
					t.Errorf("no %q in the fallback's rendering", want)
				}
			}
			if strings.Contains(out, "<a ") || strings.Contains(out, "<ol") || strings.Contains(out, "raw HTML omitted") {
				t.Errorf("the fallback kept links, lists or raw HTML: %.300q", out)
			}
		})
	}
}

// The flat conversion needs no fallback of its own: on the HTML that
// grows most in Markdown (escaped or invalid characters, backtick fences,
// headings, rules, breaks, one-column rows) it stays within the cap.
func TestHTMLFlatIsWithinTheCap(t *testing.T) {
	fill := func(unit string) string { return strings.Repeat(unit, maxContentBytes/len(unit)) }
	for _, tc := range []struct{ name, in string }{
		{"punctuation", fill("!")},
		{"invalid UTF-8", fill("\xff")},
		{"NUL", fill("\x00")},
		{"backticks in code", "<code>" + fill("`")[12:] + "</code>"},
		{"backticks in pre", "<pre>" + fill("`")[11:] + "</pre>"},
		{"headings", fill("<h6>!")},
		{"rules", fill("<hr>")},
		{"breaks", fill("<br>!")},
		{"items", fill("<li>!")},
		{"rows", "<table>" + fill("<tr><td>!")[7:]},
		{"cells", "<table><tr>" + fill("<td>!")[11:]},
		{"images", fill("<img alt=!>")},
		{"quotes", fill("<blockquote>!")},
	} {
		t.Run(tc.name, func(t *testing.T) {
			md, ok := convertHTML(tc.in, htmlFlat)
			if !ok {
				t.Errorf("%d bytes of flat Markdown from %d bytes", len(md), len(tc.in))
			}
			t.Logf("%d bytes from %d", len(md), len(tc.in))
		})
	}
}

// Whatever the HTML, its Markdown renders without raw HTML and within the
// size bound, and the conversion does not panic.
func FuzzHTMLMarkdown(f *testing.F) {
	for _, s := range []string{
		"<h1>T</h1><p>a <b>b</b> <i>c</i></p><ul><li>x<ol start=2><li>y</li></ol></li></ul>",
		"<pre>`x`</pre><code>``</code><a href='https://e.com/<x>'>l</a><table><tr><td>|</td></tr></table>",
		"<blockquote><ul><li><pre>p</pre></li></ul></blockquote><hr><br><img alt='<b>'>",
		"&lt;script&gt; <!-- c --> <b><p>x</b></p>",
	} {
		f.Add(s)
	}
	md := goldmark.New(goldmark.WithExtensions(extension.GFM))
	f.Fuzz(func(t *testing.T, in string) {
		if len(in) > maxContentBytes {
			return
		}
		done := make(chan string, 1)
		go func() { done <- htmlMarkdown(in) }()
		var out string
		select {
		case out = <-done:
		case <-time.After(3 * time.Second):
			t.Fatalf("htmlMarkdown(%q) takes more than 3 s", in)
		}
		if len(out) > htmlMaxMarkdown {
			t.Fatalf("%d bytes", len(out))
		}
		var buf bytes.Buffer
		conv := make(chan error, 1)
		go func() { conv <- md.Convert([]byte(out), &buf) }()
		select {
		case err := <-conv:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(3 * time.Second):
			t.Fatalf("goldmark takes more than 3 s on %q (from %q)", out, in)
		}
		if strings.Contains(buf.String(), "raw HTML omitted") {
			t.Fatalf("raw HTML from %q: %q", in, out)
		}
	})
}
