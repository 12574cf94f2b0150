// Package pathlinks tells where a path leads once the links along it are
// followed, for a path that may not exist yet (a file an agent is about
// to write): the approval window shows it (approval.Request.Resolve).
package pathlinks

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// maxLinks bounds the links followed, as the kernel's ELOOP does.
const maxLinks = 40

// ErrLoop is a path whose links lead in a circle or too far.
var ErrLoop = errors.New("too many links")

// Resolve is where the absolute path p leads: every link along it
// followed (filepath.EvalSymlinks), the part that does not exist yet
// kept as it is — a last name that is a dangling link leads where the
// link points, as writing through it would.
func Resolve(p string) (string, error) {
	p = filepath.Clean(p)
	for range maxLinks {
		rest, cur := "", p
		for {
			real, err := filepath.EvalSymlinks(cur)
			if err == nil {
				return filepath.Join(real, rest), nil
			}
			if !errors.Is(err, fs.ErrNotExist) {
				return "", err
			}
			if fi, lerr := os.Lstat(cur); lerr == nil && fi.Mode()&fs.ModeSymlink != 0 {
				// A dangling link: writing creates its target.
				to, err := os.Readlink(cur)
				if err != nil {
					return "", err
				}
				if !filepath.IsAbs(to) {
					to = filepath.Join(filepath.Dir(cur), to)
				}
				p = filepath.Join(to, rest)
				break
			}
			parent := filepath.Dir(cur)
			if parent == cur {
				return p, nil
			}
			rest = filepath.Join(filepath.Base(cur), rest)
			cur = parent
		}
	}
	return "", ErrLoop
}
