// Package ask is `feedback ask`: the question window from a shell script or
// a hook. It prints the answer and exits 0 when answered, 1 when dismissed,
// and 2 when the countdown ran out or anything failed.
//
// The options (--option, --default) are one choice, radio buttons, unless
// --multi makes them checkboxes the user may tick several of.
//
// Plain output: for a yes/no question the word yes or no; otherwise each
// selected option on a line of its own, then, if the user typed a reply and
// options were selected, an empty line, then the reply. --json prints the
// wire.Answer as JSON instead. Notes the user wrote for "feedback ask"
// (the tray's "Note for an agent…") ride on the next outcome: on standard
// error, or as "notes" in the JSON.
package ask

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"feedback/internal/cliflags"
	"feedback/internal/i18n"
	"feedback/internal/termtext"
	"feedback/ipc/launch"
	"feedback/ipc/wire"
)

// Exit codes.
const (
	ExitAnswered  = 0
	ExitDismissed = 1
	ExitFailed    = 2 // also: timed out
)

// Env is what Run reads and writes.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Connect reaches the app, starting it when needed; it is called again
	// to restart the app when it went away while the question was open. An
	// Asker that is also an io.Closer is closed when its Ask returns.
	Connect func(ctx context.Context) (wire.Asker, error)
	// NewID returns a fresh question id.
	NewID func() string
}

type options []wire.Option

func (o *options) String() string { return fmt.Sprint(*o) }
func (o *options) Set(s string) error {
	*o = append(*o, wire.Option{Label: s})
	return nil
}

// Run parses args (without "ask"), asks and returns the exit code.
func Run(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet("feedback ask", flag.ContinueOnError)
	var opts options
	var defaults []string
	fs.Var(&opts, "option", i18n.T("ask.flag.option"))
	fs.Func("default", i18n.T("ask.flag.default"), func(s string) error {
		defaults = append(defaults, s)
		return nil
	})
	yesno := fs.Bool("yesno", false, i18n.T("ask.flag.yesno"))
	multi := fs.Bool("multi", false, i18n.T("ask.flag.multi"))
	title := fs.String("title", "", i18n.T("ask.flag.title"))
	placeholder := fs.String("placeholder", "", i18n.T("ask.flag.placeholder"))
	timeout := fs.Int("timeout", 0, i18n.T("ask.flag.timeout"))
	project := fs.String("project", "", i18n.T("ask.flag.project"))
	asJSON := fs.Bool("json", false, i18n.T("ask.flag.json"))
	var out bytes.Buffer // the usage, and what is wrong: to stdout for -h, else stderr
	fs.SetOutput(&out)
	fs.Usage = func() {
		fmt.Fprintln(&out, i18n.T("ask.usage"))
		fs.PrintDefaults()
		fmt.Fprintln(&out, i18n.T("ask.exit_status"))
	}
	rest, err := cliflags.ParseInterspersed(fs, args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		io.Copy(env.Stdout, &out)
		return ExitAnswered
	case err != nil:
		io.Copy(env.Stderr, &out)
		return ExitFailed
	case len(rest) != 1:
		fs.Usage()
		io.Copy(env.Stderr, &out)
		if len(rest) > 1 {
			fmt.Fprintln(env.Stderr, i18n.T("ask.one_message", map[string]any{"N": len(rest)}))
		}
		return ExitFailed
	}
	message := rest[0]
	if message == "-" {
		data, err := io.ReadAll(io.LimitReader(env.Stdin, wire.MaxMarkdownBytes+1))
		if err != nil {
			fmt.Fprintln(env.Stderr, i18n.T("ask.reading"), err)
			return ExitFailed
		}
		message = string(data)
	}
	if *timeout < -1 { // -1 is "no countdown"; another negative number is a mistake
		fmt.Fprintln(env.Stderr, i18n.T("ask.bad_timeout", map[string]any{"N": *timeout}))
		return ExitFailed
	}
	if len(defaults) > 1 && !*multi {
		fmt.Fprintln(env.Stderr, i18n.T("ask.one_default", map[string]any{"N": len(defaults)}))
		return ExitFailed
	}
	for _, d := range defaults {
		opts = markDefault(opts, d)
	}
	// One choice unless --multi: choosing an option replaces the other.
	p := wire.Prompt{Markdown: message, Options: opts, Placeholder: *placeholder, Single: !*multi && len(opts) > 0}
	if *yesno {
		p.Kind = wire.KindYesNo
	}
	q := wire.Question{ID: env.NewID(), Source: "ask", Title: *title, Project: strings.TrimSpace(*project),
		Prompts: []wire.Prompt{p}, TimeoutSeconds: *timeout}
	if err := q.Validate(); err != nil {
		fmt.Fprintln(env.Stderr, "feedback ask:", err)
		return ExitFailed
	}

	// Like the shim: when the app crashes while the question is open, it is
	// started again and asked the same question (its draft restored).
	a, err := launch.AskRestarting(ctx, env.Connect, wire.Ask{Question: q}, nil, nil)
	if err != nil {
		if errors.Is(err, context.Canceled) {
			err = errors.New(i18n.T("ask.interrupted"))
		}
		fmt.Fprintln(env.Stderr, "feedback ask:", err)
		return ExitFailed
	}
	if *asJSON {
		enc := json.NewEncoder(env.Stdout)
		enc.SetIndent("", "  ")
		if err := enc.Encode(a); err != nil {
			return ExitFailed
		}
	} else {
		if a.Status == wire.StatusAnswered {
			fmt.Fprint(env.Stdout, Plain(a))
		}
		// Notes the user wrote for "feedback ask" ride on this outcome
		// (--json has them as "notes"): on stderr, apart from the answer.
		for _, n := range a.Notes {
			fmt.Fprintln(env.Stderr, i18n.T("ask.note"), termtext.Inert(n))
		}
	}
	switch a.Status {
	case wire.StatusAnswered:
		return ExitAnswered
	case wire.StatusDismissed:
		fmt.Fprintln(env.Stderr, i18n.T("ask.dismissed"))
		return ExitDismissed
	case wire.StatusAway:
		fmt.Fprintln(env.Stderr, i18n.T("ask.away"))
		return ExitFailed
	default:
		fmt.Fprintln(env.Stderr, i18n.T("ask.timeout"))
		return ExitFailed
	}
}

// markDefault marks label as a default option, adding it when absent.
func markDefault(opts options, label string) options {
	for i := range opts {
		if opts[i].Label == label {
			opts[i].Default = true
			return opts
		}
	}
	return append(opts, wire.Option{Label: label, Default: true})
}

// Plain renders an answered single-prompt Answer for scripts (see the package doc).
func Plain(a wire.Answer) string {
	if len(a.Replies) == 0 {
		return ""
	}
	r := a.Replies[0]
	var b strings.Builder
	for _, s := range r.Selected {
		b.WriteString(s + "\n")
	}
	if r.Text != "" {
		if len(r.Selected) > 0 {
			b.WriteString("\n")
		}
		b.WriteString(strings.TrimRight(r.Text, "\n") + "\n")
	}
	return b.String()
}

// StdEnv is the process's environment.
func StdEnv(connect func(ctx context.Context) (wire.Asker, error), newID func() string) Env {
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Connect: connect, NewID: newID}
}
