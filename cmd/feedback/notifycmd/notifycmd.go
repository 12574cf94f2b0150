// Package notifycmd is `feedback notify`: a one-way message to the user
// from a shell script or an agent's hook — a desktop notification, a line
// in the tray's "Messages" and an entry in History. It returns at once and
// waits for no answer.
//
// With --from CLIENT it runs as that client's hook: it reads the event the
// client sends (Claude Code, Gemini CLI and Cursor on standard input, Codex
// as its last argument), turns "needs attention" and "finished" events into
// a message and ignores the rest. A hook never fails its agent: it exits 0
// whatever happened (problems go to standard error) and prints what the
// client expects on standard output.
package notifycmd

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"
	"unicode/utf8"

	"feedback/internal/cliflags"
	"feedback/internal/hookio"
	"feedback/ipc"
	"feedback/ipc/wire"
)

// Exit codes.
const (
	ExitShown     = 0 // shown, or recorded (do not disturb)
	ExitNotShown  = 1 // refused: the client sent too many
	ExitFailed    = 2 // bad usage, or the app could not be reached
	maxEventBytes = 1 << 20
)

// Env is what Run reads and writes.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	// Connect reaches the app, starting it when needed.
	Connect func(ctx context.Context) (wire.Asker, error)
	// AppAnswers, when set, is asked first by a hook (--from): an error
	// means an app that listens and does not answer within wait, which
	// the hook gives up on rather than hold its agent (hookio.AppAnswers).
	AppAnswers func(ctx context.Context, wait time.Duration) error
}

// StdEnv is the process's environment.
func StdEnv(connect func(ctx context.Context) (wire.Asker, error)) Env {
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Connect: connect, AppAnswers: hookio.AppAnswers}
}

const usage = `usage: feedback notify [flags] MESSAGE     (MESSAGE "-" reads it from standard input)
       feedback notify --from CLIENT [EVENT]  (as a client's hook; feedback setup CLIENT --hooks adds it)

Tells the user something that needs no answer: a desktop notification, a line in
the tray's Messages and an entry in History. Returns at once.

flags:`

const exitStatus = `
exit status: 0 shown (or recorded: do not disturb is on), 1 not shown (too many
messages in a row: 5, then one every 12 s; from all clients together: 10, then
one every 3 s), 2 bad usage or the app unreachable.
As a hook (--from) it always exits 0.`

// Run parses args (without "notify"), sends the message and returns the
// exit code.
func Run(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet("feedback notify", flag.ContinueOnError)
	title := fs.String("title", "", "a short heading")
	project := fs.String("project", "", "the project the message is about (default: none)")
	client := fs.String("client", "", "who sends it, as the notification names it (default: \"feedback notify\")")
	urgent := fs.Bool("urgent", false, "the user is needed soon: the notification stays until seen")
	from := fs.String("from", "", "run as the hook of CLIENT ("+strings.Join(HookClients(), ", ")+"): read its event")
	var out bytes.Buffer
	fs.SetOutput(&out)
	fs.Usage = func() {
		fmt.Fprintln(&out, usage)
		fs.PrintDefaults()
		fmt.Fprintln(&out, exitStatus)
	}
	rest, err := cliflags.ParseInterspersed(fs, args) // flags after the message too: feedback notify "done" --urgent
	switch {
	case errors.Is(err, flag.ErrHelp):
		io.Copy(env.Stdout, &out)
		return ExitShown
	case err != nil:
		io.Copy(env.Stderr, &out)
		return ExitFailed
	}
	if *from != "" {
		return runHook(ctx, *from, rest, env)
	}
	if len(rest) != 1 {
		fs.Usage()
		io.Copy(env.Stderr, &out)
		return ExitFailed
	}
	text := rest[0]
	if text == "-" {
		data, err := io.ReadAll(io.LimitReader(env.Stdin, maxEventBytes))
		if err != nil {
			fmt.Fprintln(env.Stderr, "feedback notify: reading the message:", err)
			return ExitFailed
		}
		text = string(data)
	}
	name := strings.TrimSpace(*client)
	if name == "" {
		name = "feedback notify"
	}
	m := wire.Message{Client: name, Project: strings.TrimSpace(*project), Title: strings.TrimSpace(*title), Text: strings.TrimSpace(text), Urgent: *urgent}
	if err := m.Validate(); err != nil {
		fmt.Fprintln(env.Stderr, "feedback notify:", err)
		return ExitFailed
	}
	return send(ctx, m, env)
}

// send sends m and reports the outcome on standard error when it was not
// shown.
func send(ctx context.Context, m wire.Message, env Env) int {
	a, err := env.Connect(ctx)
	if err != nil {
		fmt.Fprintln(env.Stderr, "feedback notify:", err)
		return ExitFailed
	}
	if c, ok := a.(io.Closer); ok {
		defer c.Close()
	}
	msg, ok := a.(interface {
		Message(context.Context, wire.Message) (ipc.Receipt, error)
	})
	if !ok {
		fmt.Fprintln(env.Stderr, "feedback notify: this connection to the app cannot send messages")
		return ExitFailed
	}
	rec, err := msg.Message(ctx, m)
	switch {
	case errors.Is(err, &wire.Error{Code: wire.CodeRateLimited}):
		var we *wire.Error
		errors.As(err, &we)
		fmt.Fprintln(env.Stderr, "feedback notify: not shown:", we.Message)
		return ExitNotShown
	case err != nil:
		fmt.Fprintln(env.Stderr, "feedback notify:", err)
		return ExitFailed
	case !rec.Notified:
		fmt.Fprintln(env.Stderr, "feedback notify: recorded in History; no notification shown (do not disturb is on, or no notification server)")
	}
	return ExitShown
}

// runHook is --from client: the event becomes a message, or nothing. Its
// agent waits on it, so it never hangs: the event is read within
// hookio's deadlines (a client may leave standard input open), SIGTERM
// and SIGINT (ctx) end it at once, and an app that does not answer within
// hookio.AnswerWait is given up on.
func runHook(ctx context.Context, client string, args []string, env Env) int {
	h, ok := hooks[client]
	if !ok {
		fmt.Fprintf(env.Stderr, "feedback notify: --from %q: not a client with hooks; use one of %s\n", client, strings.Join(HookClients(), ", "))
		return ExitFailed
	}
	var event []byte
	if h.argv { // Codex: the event is the last argument
		if len(args) > 0 {
			event = []byte(args[len(args)-1])
		}
	} else {
		data, err := hookio.ReadEvent(ctx, env.Stdin, maxEventBytes, hookio.Idle, hookio.Total)
		if ctx.Err() != nil {
			return ExitShown // stopped by a signal
		}
		if err != nil {
			fmt.Fprintln(env.Stderr, "feedback notify: reading the hook's event:", err)
		}
		event = data
	}
	if h.stdout != "" {
		defer fmt.Fprintln(env.Stdout, h.stdout)
	}
	m, ok, err := h.message(event)
	if err != nil {
		fmt.Fprintf(env.Stderr, "feedback notify: the %s event is not what its hook receives: %v\n", client, err)
		return ExitShown
	}
	if !ok {
		return ExitShown // an event that needs no message
	}
	m.Client, m.Hook = h.name, true
	m.Text = cut(strings.TrimSpace(m.Text), wire.MaxMessageRunes)
	m.Title = cut(strings.TrimSpace(m.Title), wire.MaxMessageTitleRunes)
	m.Project = cutBytes(m.Project, wire.MaxProjectBytes)
	if err := m.Validate(); err != nil {
		fmt.Fprintln(env.Stderr, "feedback notify:", err)
		return ExitShown
	}
	if env.AppAnswers != nil {
		if err := env.AppAnswers(ctx, hookio.AnswerWait); err != nil {
			fmt.Fprintln(env.Stderr, "feedback notify: not sent:", err)
			return ExitShown
		}
	}
	send(ctx, m, env)
	return ExitShown
}

// projectOf names the project of a working directory: its base name.
func projectOf(dir string) string {
	dir = strings.TrimSpace(dir)
	if dir == "" {
		return ""
	}
	b := filepath.Base(filepath.Clean(dir))
	if b == "." || b == string(filepath.Separator) {
		return ""
	}
	return b
}

// cut is s at most max runes, "…" ending a cut text.
func cut(s string, max int) string {
	if utf8.RuneCountInString(s) <= max {
		return s
	}
	r := []rune(s)
	return string(r[:max-1]) + "…"
}

// cutBytes is s at most max bytes, cut at a rune boundary.
func cutBytes(s string, max int) string {
	if len(s) <= max {
		return s
	}
	s = s[:max]
	for !utf8.ValidString(s) {
		s = s[:len(s)-1]
	}
	return s
}

// decode reads event as JSON into v, an empty event being an error.
func decode(event []byte, v any) error {
	if len(bytes.TrimSpace(event)) == 0 {
		return errors.New("no event: expected the client's JSON")
	}
	return json.Unmarshal(event, v)
}
