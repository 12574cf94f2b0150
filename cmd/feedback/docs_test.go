package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// mdLink is a Markdown link or image: [label](target), the target without
// spaces (the README and docs/ write no titles).
var mdLink = regexp.MustCompile(`\]\(([^)\s]+)\)`)

// TestDocsLinksResolve reads the README and every page under docs/ as a
// reader clicking through them would: every relative link names a file of
// the repository, and every #fragment a heading of the page it points to
// (GitHub's anchors). The README was split into docs/; a section moved
// without its links, or a package moved without its doc links, fails here.
func TestDocsLinksResolve(t *testing.T) {
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	pages, err := filepath.Glob(filepath.Join(root, "docs", "*.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages = append(pages, filepath.Join(root, "README.md"))
	if len(pages) < 5 {
		t.Fatalf("only %d pages: README.md and docs/*.md not found from %s", len(pages), root)
	}
	anchors := map[string]map[string]bool{}
	anchorsOf := func(page string) map[string]bool {
		if a, ok := anchors[page]; ok {
			return a
		}
		a := map[string]bool{}
		if data, err := os.ReadFile(page); err == nil {
			inCode := false
			for _, line := range strings.Split(string(data), "\n") {
				if strings.HasPrefix(line, "```") {
					inCode = !inCode
				}
				if !inCode && strings.HasPrefix(line, "#") {
					a[headingAnchor(line)] = true
				}
			}
		}
		anchors[page] = a
		return a
	}
	checked := 0
	for _, page := range pages {
		data, err := os.ReadFile(page)
		if err != nil {
			t.Fatal(err)
		}
		rel, _ := filepath.Rel(root, page)
		for _, m := range mdLink.FindAllStringSubmatch(string(data), -1) {
			target := m[1]
			if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
				continue
			}
			path, frag, _ := strings.Cut(target, "#")
			dest := page
			if path != "" {
				dest = filepath.Join(filepath.Dir(page), filepath.FromSlash(path))
				if _, err := os.Stat(dest); err != nil {
					t.Errorf("%s links to %s, which does not exist", rel, target)
					continue
				}
			}
			checked++
			if frag != "" && strings.HasSuffix(dest, ".md") && !anchorsOf(dest)[frag] {
				t.Errorf("%s links to %s: no heading with the anchor #%s there", rel, target, frag)
			}
		}
	}
	if checked < 20 {
		t.Errorf("only %d links checked: the link pattern no longer matches the pages", checked)
	}
}

// headingAnchor is GitHub's anchor of a Markdown heading line: lower case,
// punctuation other than '-' and '_' dropped, spaces as '-'.
func headingAnchor(line string) string {
	text := strings.ToLower(strings.TrimSpace(strings.TrimLeft(line, "#")))
	var b strings.Builder
	for _, r := range text {
		switch {
		case r == ' ':
			b.WriteRune('-')
		case r == '-' || r == '_' || r >= 0x80 || ('a' <= r && r <= 'z') || ('0' <= r && r <= '9'):
			b.WriteRune(r)
		}
	}
	return b.String()
}
