// Package historycmd is the command `feedback history`: its flags, the
// database it reads (FEEDBACK_DB, else the default path; read-only through
// store.OpenReadOnly) and its output, the history model (package history)
// as Markdown or JSON. It imports no GUI code.
package historycmd

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"feedback/app/store"
	"feedback/internal/history"
)

// Env is what Run needs from the process.
type Env struct {
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	Now            func() time.Time
	// DefaultPath is the database used when FEEDBACK_DB is unset.
	DefaultPath func() (string, error)
}

// StdEnv is the process's own environment.
func StdEnv() Env {
	return Env{Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv, Now: time.Now, DefaultPath: store.DefaultPath}
}

const usage = `usage: feedback history [--json] [--loop ID] [--since DUR] [--search TEXT]
Prints every question the app kept and its outcome (answered, dismissed,
timed out, withdrawn, open), grouped by loop, then by client and project;
for a tool-call approval, the call and what was decided (allowed, always
allowed and the rule, denied and the reason, timed out, denied while away,
answered elsewhere: its client stopped waiting before anyone chose).
  --json         JSON instead of Markdown
  --loop ID      only the questions of this loop_id
  --since DUR    only questions asked in the last DUR (90m, 36h, 7d)
  --search TEXT  only questions whose text or reply contains TEXT
The database is $FEEDBACK_DB, else %s.
`

// usageOf is the usage text naming the database history reads by default
// (the app's data directory, as store.DefaultPath finds it: XDG_DATA_HOME
// and the platform's own), not a path it might not read.
func usageOf(env Env) string {
	where := "feedback.db in the app's data directory"
	if env.DefaultPath != nil {
		if p, err := env.DefaultPath(); err == nil {
			where = p
		}
	}
	return fmt.Sprintf(usage, where)
}

// Run runs `feedback history` with args; it returns the exit status: 0
// printed (maybe nothing), 1 the database could not be read, 2 bad usage.
func Run(args []string, env Env) int {
	fs := flag.NewFlagSet("history", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	asJSON := fs.Bool("json", false, "")
	loop := fs.String("loop", "", "")
	since := fs.String("since", "", "")
	search := fs.String("search", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(env.Stdout, usageOf(env))
			return 0
		}
		fmt.Fprintf(env.Stderr, "feedback history: %v\n%s", err, usageOf(env))
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "feedback history: unexpected argument %q\n%s", fs.Arg(0), usageOf(env))
		return 2
	}
	f := store.Filter{LoopID: *loop, Search: *search}
	if *since != "" {
		d, err := ParseSince(*since)
		if err != nil {
			fmt.Fprintf(env.Stderr, "feedback history: --since %q: %v\n", *since, err)
			return 2
		}
		f.Since = env.Now().Add(-d)
	}
	path := env.Getenv("FEEDBACK_DB")
	if path == "off" {
		fmt.Fprintln(env.Stderr, "feedback history: FEEDBACK_DB=off: the app keeps no history")
		return 1
	}
	if path == "" {
		var err error
		if path, err = env.DefaultPath(); err != nil {
			fmt.Fprintln(env.Stderr, "feedback history:", err)
			return 1
		}
	}
	s, err := store.OpenReadOnly(path)
	if err != nil {
		fmt.Fprintln(env.Stderr, "feedback history:", err)
		return 1
	}
	defer s.Close()
	entries, err := s.Find(f)
	if err != nil {
		fmt.Fprintln(env.Stderr, "feedback history:", err)
		return 1
	}
	loops := history.ByLoop(Entries(entries))
	if *asJSON {
		if err := history.WriteJSON(env.Stdout, loops); err != nil {
			fmt.Fprintln(env.Stderr, "feedback history:", err)
			return 1
		}
		return 0
	}
	io.WriteString(env.Stdout, history.Markdown(loops))
	return 0
}

// Entries are the store's entries as package history takes them.
func Entries(in []store.Entry) []history.Entry {
	out := make([]history.Entry, len(in))
	for i, e := range in {
		out[i] = history.Entry(e)
	}
	return out
}

// ParseSince reads a duration: Go's (90m, 36h) or whole days (7d).
func ParseSince(s string) (time.Duration, error) {
	if n, ok := strings.CutSuffix(s, "d"); ok {
		days, err := strconv.Atoi(n)
		if err != nil || days < 0 || days > 36500 {
			return 0, errors.New("want a duration such as 90m, 36h or 7d")
		}
		return time.Duration(days) * 24 * time.Hour, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, errors.New("want a duration such as 90m, 36h or 7d")
	}
	return d, nil
}
