// Command feedback is the feedback app, its MCP shim and its shell front end.
//
//	feedback          run the tray-resident app (exits at once if it already runs)
//	feedback mcp      serve MCP over stdio, forwarding questions to the app
//	                  (--tools a,b,c selects the tools; default: all of them)
//	feedback ask …    ask from a shell script; see `feedback ask -h`
//	feedback setup …  configure MCP clients, autostart and SSH; see `feedback setup -h`
//	feedback relay …  pair remote hosts that ask through an MQTT broker
//	feedback doctor   check the display, bus, tray, fonts, app, database, settings, clients
//	feedback quit     end the running app as the tray's Quit does
//	feedback version  print the version
//	feedback ui       the windows' process, which the app starts itself
package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"os/signal"
	"syscall"
	"time"

	"feedback/cmd/feedback/approvecmd"
	"feedback/cmd/feedback/ask"
	"feedback/cmd/feedback/doctor"
	"feedback/cmd/feedback/historycmd"
	"feedback/cmd/feedback/mcpshim"
	"feedback/cmd/feedback/notifycmd"
	"feedback/cmd/feedback/relaycmd"
	"feedback/cmd/feedback/setup"
	"feedback/internal/i18n"
	"feedback/internal/settings"
	"feedback/internal/settings/settingsfile"
	"feedback/ipc"
	"feedback/ipc/launch"
	"feedback/ipc/wire"
)

// version is set at build time: -ldflags "-X main.version=…".
var version = "dev"

func main() {
	os.Exit(run(os.Args[1:]))
}

func run(args []string) int {
	ctx, stop := signalContext()
	defer stop()
	// Logs go to stderr: for the shim stdout is the MCP protocol, and the
	// detached app's stderr is its log file.
	level := slog.LevelInfo
	if os.Getenv("FEEDBACK_DEBUG") != "" {
		level = slog.LevelDebug
	}
	log := slog.New(slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: level}))
	relayLog = log // relay.go

	cmd := ""
	if len(args) > 0 {
		cmd, args = args[0], args[1:]
	}
	switch cmd {
	case "", "app":
		if hasApp {
			applyStartAtLogin(log)
		}
		return runApp(ctx, log)
	case "ui": // started by the app for its windows (package uiprocess), not by hand
		return runUI(log)
	case "mcp":
		return runMCP(ctx, args, log)
	case "ask":
		loadSettings(slog.New(slog.DiscardHandler)) // its language: the lines ask writes
		return ask.Run(ctx, args, ask.StdEnv(connect, wire.NewID))
	case "approve":
		loadSettings(slog.New(slog.DiscardHandler))
		return approvecmd.Run(ctx, args, approvecmd.StdEnv(connect, wire.NewID))
	case "notify":
		loadSettings(slog.New(slog.DiscardHandler))
		return notifycmd.Run(ctx, args, notifycmd.StdEnv(connect))
	case "doctor":
		se, err := setupEnv()
		if err != nil {
			fmt.Fprintln(os.Stderr, "feedback doctor:", err)
			return 1
		}
		env, err := doctor.StdEnv(version, !hasApp, se)
		if err != nil {
			fmt.Fprintln(os.Stderr, "feedback doctor:", err)
			return 1
		}
		return doctor.Run(ctx, args, env)
	case "setup":
		env, err := setupEnv()
		if err != nil {
			fmt.Fprintln(os.Stderr, "feedback setup:", err)
			return 1
		}
		env.Headless = !hasApp
		return setup.Run(args, env)
	case "history":
		return historycmd.Run(args, historycmd.StdEnv())
	case "relay":
		env, err := relaycmd.StdEnv()
		if err != nil {
			fmt.Fprintln(os.Stderr, "feedback relay:", err)
			return 1
		}
		return relaycmd.Run(args, env)
	case "quit":
		return runQuit(ctx, args)
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

// signalContext is cancelled by the first SIGINT or SIGTERM, which every
// wait selects on; a second one ends the process at once (the signal's
// default action), whatever it is blocked in.
func signalContext() (context.Context, context.CancelFunc) {
	ch := make(chan os.Signal, 1)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		select {
		case <-ch:
		case <-ctx.Done():
		}
		signal.Stop(ch) // before ctx ends: the next signal finds the default action
		cancel()
	}()
	return ctx, cancel
}

const usage = `usage:
  feedback          run the tray-resident app
  feedback mcp      serve MCP over stdio (put this in your MCP client's config)
                    --tools a,b,c  expose only these tools (default: every tool;
                    also FEEDBACK_TOOLS)
                    --wait N       each call waits at most N s before "call again"
  feedback ask …    ask from a shell script (feedback ask -h)
  feedback approve  Claude Code's PermissionRequest hook: approve tool calls in a window
                    (feedback setup claude-code --approvals adds it)
  feedback notify … tell the user something that needs no answer, from a script
                    or an agent's hook (feedback notify -h)
  feedback doctor   check this machine for what feedback needs (OK / WARN / FAIL)
  feedback setup    add feedback to an MCP client, start it at login, use it over SSH
                    (feedback setup -h)
  feedback history  the questions asked and their outcomes, by loop
                    (feedback history -h)
  feedback relay …  let agents on other machines ask through an MQTT broker,
                    end-to-end encrypted (feedback relay -h; docs/remote.md)
  feedback quit     end this user's app, as the tray's Quit does (its open questions
                    end as dismissed by you, and their agents are told so)
  feedback version  print the version
`

// runMCP serves MCP over stdio (mcpshim.Run).
func runMCP(ctx context.Context, args []string, log *slog.Logger) int {
	// A client that closes the shim's stderr as it stops it (mcp-go's stdio
	// transport does) must not kill it by SIGPIPE at its next log line: the
	// shim still ends its calls, withdrawing their windows or handing a
	// task's over to the app (mcpshim/taskhandoff.go).
	signal.Ignore(syscall.SIGPIPE)
	return mcpshim.Run(ctx, args, mcpshim.Env{
		Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Getenv: os.Getenv,
		Connect: connect, Greet: launch.Greet, Settings: loadSettings(log), Logger: log,
		Version: version, Session: mcpshim.ParentSession(),
	})
}

// connect reaches the app for the shim and `feedback ask`, starting it when
// none runs (launch.Connect); never a nil *ipc.Client in a non-nil Asker.
func connect(ctx context.Context) (wire.Asker, error) {
	c, err := launch.Connect(ctx)
	if err != nil {
		if r, rerr := relayAsker(ctx, err, relayLog); r != nil || rerr != nil { // relay.go
			return r, rerr
		}
		return nil, err
	}
	return c, nil
}

// loadSettings reads the user's settings; a bad file is reported and the
// defaults are used, so a typo never stops the app. It sets the process's
// language (i18n.Use): the setting's, or the OS locale's for "auto".
func loadSettings(log *slog.Logger) (s settings.Settings) {
	defer func() {
		locales := i18n.Locales()
		if len(locales) == 0 { // a client filtered the environment: the desktop's language
			if getenv := launch.SessionGetenv(); getenv != nil {
				locales = i18n.FromEnv(getenv)
			}
		}
		i18n.Use(i18n.Choose(s.Language, locales))
	}()
	path, err := settingsfile.Path()
	if err != nil {
		log.Warn("no settings directory; using the defaults", "err", err)
		return settings.Default()
	}
	s, err = settingsfile.Load(path, os.Getenv)
	if err != nil {
		log.Warn("settings ignored", "err", err)
	}
	return s
}

// applyStartAtLogin applies the start_at_login setting, when set, to the
// start-at-login entry (see feedback setup autostart).
func applyStartAtLogin(log *slog.Logger) {
	want := loadSettings(slog.New(slog.DiscardHandler)).StartAtLogin
	if want == nil {
		return
	}
	env, err := setupEnv()
	if err == nil {
		var a setup.Autostart
		var changed bool
		if a, changed, err = setup.ApplyStartAtLogin(env, *want); err == nil && changed {
			log.Info("start_at_login setting applied", "on", *want, "entry", a.Where)
		}
	}
	if err != nil {
		log.Warn("start_at_login setting not applied", "err", err)
	}
}

// setupEnv is setup's Env of this process: the shim installed beside this
// binary and this machine's app socket come from launch and ipc, which
// setup does not import.
func setupEnv() (setup.Env, error) {
	env, err := setup.StdEnv()
	if err != nil {
		return env, err
	}
	env.Shim = launch.Beside(env.Exe, launch.ShimName)
	env.Socket, _ = ipc.SocketPath()
	return env, nil
}

// runQuit is `feedback quit`: this user's app ends as by the tray's Quit,
// its open questions as dismissed by the user; it waits until the app is
// gone and says what ended. With no app running it says so and exits 0.
func runQuit(ctx context.Context, args []string) int {
	if len(args) > 0 {
		fmt.Fprintf(os.Stderr, "feedback quit: takes no arguments, got %q\n", args)
		return 2
	}
	c, err := launch.Find(ctx)
	if errors.Is(err, launch.ErrNotRunning) {
		fmt.Println("feedback is not running.")
		return 0
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "feedback quit:", err)
		return 1
	}
	q, err := c.Quit(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "feedback quit:", err)
		return 1
	}
	// The app is gone once its socket no longer answers (its pid may be
	// in another PID namespace, behind a forwarded socket).
	deadline := time.Now().Add(10 * time.Second)
	for {
		hctx, cancel := context.WithTimeout(ctx, time.Second)
		_, err := c.Hello(hctx)
		cancel()
		if err != nil && ipc.NotListening(err) {
			break
		}
		if time.Now().After(deadline) {
			fmt.Fprintf(os.Stderr, "feedback quit: the app (pid %d) was asked to quit but still answers after 10 s; its log: %s\n", q.PID, launch.LogPath())
			return 1
		}
		time.Sleep(50 * time.Millisecond)
	}
	switch q.Questions {
	case 0:
		fmt.Printf("feedback (pid %d) has quit.\n", q.PID)
	case 1:
		fmt.Printf("feedback (pid %d) has quit; its open question ended as dismissed by you, and its agent was told so.\n", q.PID)
	default:
		fmt.Printf("feedback (pid %d) has quit; its %d open questions ended as dismissed by you, and their agents were told so.\n", q.PID, q.Questions)
	}
	return 0
}
