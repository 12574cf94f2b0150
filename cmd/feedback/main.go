// Command feedback is the feedback app, its MCP shim and its shell front end.
//
//	feedback          run the tray-resident app (exits at once if it already runs)
//	feedback mcp      serve MCP over stdio, forwarding questions to the app
//	                  (--tools a,b,c selects the tools; default: all of them)
//	feedback ask …    ask from a shell script; see `feedback ask -h`
//	feedback version  print the version
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"strings"
	"syscall"
	"time"

	"feedback/ask"
	"feedback/ipc"
	"feedback/launch"
	"feedback/mcpshim"
	"feedback/settings"
)

// version is set at build time: -ldflags "-X main.version=…".
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	// Logs go to stderr: for the shim stdout is the MCP protocol, and the
	// detached app's stderr is its log file.
	level := slog.LevelInfo
	if os.Getenv("FEEDBACK_DEBUG") != "" {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))

	cmd := ""
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "", "app":
		return runApp(ctx, log)
	case "mcp":
		return runMCP(ctx, args, log)
	case "ask":
		return ask.Run(ctx, args, ask.StdEnv(connectAsk, ipc.NewID))
	case "version", "--version":
		fmt.Println("feedback", version)
		return 0
	case "help", "-h", "--help":
		fmt.Print(usage)
		return 0
	default:
		fmt.Fprintf(os.Stderr, "feedback: unknown command %q\n%s", cmd, usage)
		return 2
	}
}

const usage = `usage:
  feedback          run the tray-resident app
  feedback mcp      serve MCP over stdio (put this in your MCP client's config)
                    --tools a,b,c  expose only these tools (default: every tool;
                    also FEEDBACK_TOOLS)
  feedback ask …    ask from a shell script (feedback ask -h)
  feedback version  print the version
`

// runMCP serves MCP over stdio. --tools (comma-separated) selects the
// tools and wins over the tools setting (FEEDBACK_TOOLS).
func runMCP(ctx context.Context, args []string, log *slog.Logger) int {
	fs := flag.NewFlagSet("feedback mcp", flag.ContinueOnError)
	tools := fs.String("tools", "", "comma-separated tools to expose (default: every tool: "+strings.Join(mcpshim.ToolNames(), ",")+")")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(os.Stderr, "feedback mcp: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	opts := mcpshim.Options{Connect: connectShim, Logger: log, Version: version, Settings: loadSettings(log)}
	// FEEDBACK_PROGRESS_INTERVAL (a Go duration, e.g. "500ms") shortens the
	// progress heartbeat; for tests.
	if v := os.Getenv("FEEDBACK_PROGRESS_INTERVAL"); v != "" {
		d, err := time.ParseDuration(v)
		if err != nil || d <= 0 {
			fmt.Fprintf(os.Stderr, "feedback mcp: FEEDBACK_PROGRESS_INTERVAL=%q: want a positive duration such as 500ms\n", v)
			return 2
		}
		opts.ProgressInterval = d
	}
	for _, name := range strings.Split(*tools, ",") {
		if name = strings.TrimSpace(name); name != "" {
			opts.Tools = append(opts.Tools, name)
		}
	}
	err := mcpshim.ServeStdio(ctx, opts, os.Stdin, os.Stdout)
	var unknown *mcpshim.UnknownToolError
	switch {
	case errors.As(err, &unknown):
		fmt.Fprintf(os.Stderr, "feedback mcp: %v\n", err)
		return 2
	case err != nil && ctx.Err() == nil:
		log.Error("mcp server stopped", "err", err)
		return 1
	}
	return 0
}

func connectShim(ctx context.Context) (mcpshim.Asker, error) {
	c, err := launch.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return c, nil
}

func connectAsk(ctx context.Context) (ask.Asker, error) {
	c, err := launch.Connect(ctx)
	if err != nil {
		return nil, err
	}
	return c, nil
}

// loadSettings reads the user's settings; a bad file is reported and the
// defaults are used, so a typo never stops the app.
func loadSettings(log *slog.Logger) settings.Settings {
	path, err := settings.Path()
	if err != nil {
		log.Warn("no settings directory; using the defaults", "err", err)
		return settings.Default()
	}
	s, err := settings.Load(path, os.Getenv)
	if err != nil {
		log.Warn("settings ignored", "err", err)
	}
	return s
}
