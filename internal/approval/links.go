package approval

import (
	"path/filepath"
	"slices"
	"strings"
)

// leads is where path (absolute, or relative to the project) leads once
// the links along it are followed (Request.Resolve), when that is not
// where it reads: "" when it leads where it reads, or Resolve is not set.
// A project reached through a link itself (/tmp → /private/tmp) is no
// link of the path's. unknown reports that where it leads could not be
// told.
func (r Request) leads(path string) (real string, unknown bool) {
	if r.Resolve == nil || path == "" {
		return "", false
	}
	abs := path
	if !filepath.IsAbs(abs) {
		if !filepath.IsAbs(r.Dir) {
			return "", true
		}
		abs = filepath.Join(r.Dir, abs)
	}
	abs = filepath.Clean(abs)
	got, err := r.Resolve(abs)
	if err != nil {
		return "", true
	}
	want := abs
	if dir := r.projectDir(); dir != "" {
		if rel, ok := inside(filepath.Clean(r.Dir), abs); ok {
			want = filepath.Join(dir, rel)
		}
	}
	if filepath.Clean(got) == want {
		return "", false
	}
	return filepath.Clean(got), false
}

// projectDir is the project's directory with its links followed, or ""
// when it is not known.
func (r Request) projectDir() string {
	if r.Resolve == nil || !filepath.IsAbs(r.Dir) {
		return ""
	}
	d, err := r.Resolve(filepath.Clean(r.Dir))
	if err != nil {
		return ""
	}
	return filepath.Clean(d)
}

// inside is path relative to dir when path is in dir.
func inside(dir, path string) (string, bool) {
	rel, err := filepath.Rel(dir, path)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return "", false
	}
	return rel, true
}

// showLink writes, under a path the window shows, where it leads when it
// passes through a link, and what the place it leads to is.
func (s *shower) showLink(b *strings.Builder, r Request, path string) {
	real, unknown := r.leads(path)
	l := s.l
	if unknown && r.Resolve != nil {
		b.WriteString("\n" + l.T("approval.link.unknown") + "\n")
		return
	}
	if real == "" {
		return
	}
	shown := real
	if dir := r.projectDir(); dir != "" {
		if rel, ok := inside(dir, real); ok {
			shown = rel
		}
	}
	b.WriteString("\n" + l.T("approval.link") + "\n\n")
	s.field(b, shown)
	parts := strings.Split(filepath.ToSlash(real), "/")
	switch {
	case slices.Contains(parts, ".claude"):
		b.WriteString("\n" + l.T("approval.link.claude") + "\n")
	case slices.Contains(parts, ".git"):
		b.WriteString("\n" + l.T("approval.link.git") + "\n")
	}
}
