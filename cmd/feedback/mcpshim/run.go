package mcpshim

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"maps"
	"strings"
	"time"

	"feedback/internal/settings"
	"feedback/ipc/wire"
)

const usage = `usage: feedback mcp [--tools a,b,c] [--wait N]

Serves MCP over standard input and output, forwarding each question to the app
(started when none runs). Put it in your MCP client's config: feedback setup CLIENT
does. It speaks the protocol on standard output and logs to standard error.

flags:
`

// Env is what Run reads and writes: the process's streams and
// environment, the way to the app and the user's settings.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Getenv         func(string) string
	// Connect reaches the app (launch.Connect).
	Connect func(ctx context.Context) (wire.Asker, error)
	// Greet says hello to the app once the client has initialized; with
	// prewarm (the ui_prewarm setting) it starts the app when none runs
	// (launch.Greet).
	Greet    func(prewarm bool)
	Settings settings.Settings
	Logger   *slog.Logger
	Version  string
	// Session is the client process this shim serves (ParentSession).
	Session string
}

// Run is `feedback mcp`: it parses args (without "mcp") and serves MCP
// over env's standard input and output until the client goes or ctx
// ends, returning the exit code. --tools (comma-separated) selects the
// tools and wins over the tools setting (FEEDBACK_TOOLS); --wait sets the
// wait of every client. -h prints the usage on standard output (no server
// starts, so it is not the protocol yet) and exits 0; a bad flag or
// argument, or an unknown tool, exits 2 saying so on standard error.
func Run(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet("feedback mcp", flag.ContinueOnError)
	tools := fs.String("tools", "", "comma-separated tools to expose (default: every tool: "+strings.Join(ToolNames(), ",")+")")
	wait := fs.Int("wait", 0, "seconds a call waits for the user before \"call again\", for every client (feedback setup sets it below the client's own timeout)")
	var out bytes.Buffer // the usage, and what is wrong: to stdout for -h, else stderr
	fs.SetOutput(&out)
	fs.Usage = func() {
		fmt.Fprint(&out, usage)
		fs.PrintDefaults()
	}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			io.Copy(env.Stdout, &out)
			return 0
		}
		io.Copy(env.Stderr, &out)
		return 2
	}
	if *wait < 0 || *wait > settings.MaxSeconds {
		fmt.Fprintf(env.Stderr, "feedback mcp: --wait %d: want a positive number of seconds, at most %d\n", *wait, settings.MaxSeconds)
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(env.Stderr, "feedback mcp: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	log := env.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	set := env.Settings
	var greet func()
	if env.Greet != nil {
		greet = func() { env.Greet(set.UIPrewarm) }
	}
	opts := Options{Connect: env.Connect, Greet: greet, Logger: log, Version: env.Version, Settings: set, Session: env.Session}
	if *wait > 0 { // the wait of every client (key "*"), below any the user set per client
		opts.Settings.WaitSeconds = maps.Clone(opts.Settings.WaitSeconds)
		if opts.Settings.WaitSeconds == nil {
			opts.Settings.WaitSeconds = map[string]int{}
		}
		opts.Settings.WaitSeconds["*"] = *wait
	}
	// FEEDBACK_PROGRESS_INTERVAL (a Go duration, e.g. "500ms") shortens the
	// progress heartbeat; for tests.
	if v := env.Getenv("FEEDBACK_PROGRESS_INTERVAL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			fmt.Fprintf(env.Stderr, "feedback mcp: FEEDBACK_PROGRESS_INTERVAL=%q: want a positive duration such as 500ms\n", v)
			return 2
		}
		opts.ProgressInterval = d
	}
	for _, name := range strings.Split(*tools, ",") {
		if name = strings.TrimSpace(name); name != "" {
			opts.Tools = append(opts.Tools, name)
		}
	}
	err := ServeStdio(ctx, opts, env.Stdin, env.Stdout)
	var unknown *UnknownToolError
	switch {
	case errors.As(err, &unknown):
		fmt.Fprintf(env.Stderr, "feedback mcp: %v\n", err)
		return 2
	case err != nil && ctx.Err() == nil:
		log.Error("mcp server stopped", "err", err)
		return 1
	}
	return 0
}
