// Package quietlocale keeps Fyne from printing "Fyne error: Error parsing
// user locale C" on every start under LANG=C.UTF-8 (or LC_ALL=C.utf8,
// POSIX.UTF-8, a LANGUAGE with an empty entry, …). Fyne's lang package reads
// the locale in its init, through github.com/jeandeaual/go-locale, and logs
// every entry that is no language tag; in the shim that line lands in every
// MCP client's log.
//
// Import it for its side effect, from package main of a binary that links
// Fyne. Go initialises packages in import-path order once their own imports
// are done (the spec, since Go 1.21), and "feedback/…" sorts before
// "fyne.io/…", so this init runs before Fyne's.
package quietlocale

import (
	"os"
	"strings"

	"golang.org/x/text/language"
)

func init() { Fix(os.Getenv, os.Setenv) }

// Fix makes the language list Fyne will read parse. When an entry does not
// (C.UTF-8 names no language), it sets LANGUAGE — which go-locale reads
// whenever the locale is not exactly C or POSIX, and which only chooses the
// language of messages — to the entries that do, or to "en", the language a
// C locale shows. A list that parses, and an exact C or POSIX locale (which
// go-locale skips), are left alone.
func Fix(getenv func(string) string, setenv func(string, string) error) {
	entries := Languages(getenv)
	good := make([]string, 0, len(entries))
	for _, e := range entries {
		if Parses(e) {
			good = append(good, e)
		}
	}
	if len(good) == len(entries) {
		return
	}
	if len(good) == 0 {
		good = []string{"en"}
	}
	_ = setenv("LANGUAGE", strings.Join(good, ":"))
}

// Languages is the list go-locale derives from the environment on Unix:
// the first of LC_ALL, LC_MESSAGES and LANG that is set; nothing for C or
// POSIX; otherwise LANGUAGE when set, else that locale; split at colons.
func Languages(getenv func(string) string) []string {
	loc := ""
	for _, name := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if loc = getenv(name); loc != "" {
			break
		}
	}
	if loc == "" || loc == "C" || loc == "POSIX" {
		return nil
	}
	if l := getenv("LANGUAGE"); l != "" {
		loc = l
	}
	return strings.Split(loc, ":")
}

// Parses reports whether Fyne reads the entry (say en_US.UTF-8) as a
// language tag without an error: its language and territory, before any
// encoding, joined with a hyphen.
func Parses(entry string) bool {
	entry, _, _ = strings.Cut(entry, ".")
	entry = strings.ReplaceAll(entry, "-", "_")
	lang, territory, _ := strings.Cut(entry, "_")
	tag := lang
	if territory != "" {
		tag += "-" + territory
	}
	_, err := language.Parse(tag)
	return err == nil
}
