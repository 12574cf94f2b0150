// Package approvecmd is `feedback approve --from claude-code`: Claude
// Code's PermissionRequest hook. It reads the tool call Claude Code wants
// to make, asks the user in the approval window and prints the decision in
// the shape Claude Code reads. It never allows on its own: when the window
// cannot be shown it prints nothing, and Claude Code asks in its own
// dialog as it would without the hook.
package approvecmd

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"feedback/cmd/feedback/setup"
	"feedback/internal/approval"
	"feedback/internal/hookio"
	"feedback/internal/pathlinks"
	"feedback/ipc/launch"
	"feedback/ipc/wire"
)

// The approval window counts down as every window does: the countdown
// setting (Question.TimeoutSeconds 0: the app's; the permission prompt
// tool's and the questions' too), and its end denies. The hook cannot
// wait longer than the timeout `feedback setup claude-code --approvals`
// gives it in Claude Code's settings: a countdown that would end later
// (or none) is cut a little before, so that Claude Code gets the denial
// rather than killing the hook.
const (
	countdown   = 0
	maxHookWait = (setup.ApprovalHookTimeout - 30) * time.Second
)

const maxEventBytes = 4 << 20

// Env is what Run reads and writes.
type Env struct {
	Stdin          io.Reader
	Stdout, Stderr io.Writer
	Connect        func(ctx context.Context) (wire.Asker, error)
	NewID          func() string
	// AppAnswers, when set, is asked before the question: an error means
	// an app that listens and does not answer within wait; the hook then
	// decides nothing and Claude Code asks itself (hookio.AppAnswers).
	AppAnswers func(ctx context.Context, wait time.Duration) error
	// MaxWait bounds the wait for the window's answer (0: maxHookWait);
	// when it runs out the call is denied, as at the countdown's end.
	MaxWait time.Duration
	// ClientGone, when set, watches the client once the event is read:
	// the channel it returns reports why the client stopped waiting
	// (hookio.ClientGone; inputEnded is closed when standard input ends
	// after the event, hookio.ReadEventWatching).
	ClientGone func(ctx context.Context, inputEnded <-chan struct{}) <-chan error
}

// StdEnv is the process's environment.
func StdEnv(connect func(ctx context.Context) (wire.Asker, error), newID func() string) Env {
	return Env{Stdin: os.Stdin, Stdout: os.Stdout, Stderr: os.Stderr, Connect: connect, NewID: newID, AppAnswers: hookio.AppAnswers,
		ClientGone: func(ctx context.Context, inputEnded <-chan struct{}) <-chan error {
			return hookio.ClientGone(ctx, inputEnded, os.Stdout)
		}}
}

const usage = `usage: feedback approve --from claude-code

Claude Code's PermissionRequest hook (feedback setup claude-code --approvals adds it):
reads the tool call on standard input, asks you in a window (Allow, Always allow in
this project, Deny with a reason) and prints Claude Code's decision. A timeout or a
closed window denies. When no window can be shown it prints nothing, and Claude Code
asks in its own dialog. When Claude Code stops waiting (it closes this hook's input
after the event, stops reading its output, or exits), the window closes, History says
"answered elsewhere" and nothing is printed. It always exits 0.`

// Run parses args (without "approve") and returns the exit code.
func Run(ctx context.Context, args []string, env Env) int {
	fs := flag.NewFlagSet("feedback approve", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	from := fs.String("from", "", "the client whose hook this is: claude-code")
	if err := fs.Parse(args); err != nil || fs.NArg() > 0 {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(env.Stdout, usage)
			return 0
		}
		fmt.Fprintln(env.Stderr, usage)
		return 2
	}
	if *from != "claude-code" {
		fmt.Fprintf(env.Stderr, "feedback approve: --from %q: only claude-code's PermissionRequest hook is supported\n", *from)
		return 2
	}
	// Claude Code's turn waits on the hook: the event is read within
	// hookio's deadlines (standard input may stay open, and is watched
	// after the event), and SIGTERM or SIGINT (ctx) ends the hook at once,
	// deciding nothing.
	data, inputEnded, err := hookio.ReadEventWatching(ctx, env.Stdin, maxEventBytes, hookio.Idle, hookio.Total)
	if ctx.Err() != nil {
		return 0
	}
	var ev approval.HookEvent
	if err == nil {
		err = json.Unmarshal(data, &ev)
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "feedback approve: the hook's event is not Claude Code's JSON:", err)
		return 0 // no decision: Claude Code asks itself
	}
	if ev.Event != "PermissionRequest" || ev.Tool == "" {
		return 0 // not a permission request: nothing to decide
	}
	if approval.OwnTool(ev.Tool) { // a question to the user needs no approval of the user's first
		env.Stdout.Write(approval.Decision{Allow: true}.HookOutput(ev))
		fmt.Fprintln(env.Stdout)
		return 0
	}
	r := approval.Request{Client: "claude-code", Dir: ev.Cwd, Tool: ev.Tool, Input: ev.Input, Suggestions: ev.Suggestions, Lstat: os.Lstat, Resolve: pathlinks.Resolve}
	if ev.Cwd != "" {
		r.Project = filepath.Base(filepath.Clean(ev.Cwd))
	}
	q := approval.Question(r, env.NewID(), countdown)
	if err := q.Validate(); err != nil {
		fmt.Fprintln(env.Stderr, "feedback approve:", err)
		return 0
	}
	if env.AppAnswers != nil {
		if err := env.AppAnswers(ctx, hookio.AnswerWait); err != nil {
			fmt.Fprintln(env.Stderr, "feedback approve: the approval window could not be shown; Claude Code asks instead:", err)
			return 0
		}
	}
	// The client may stop waiting while the window is open: the user
	// answered in its own prompt, or it was interrupted or quit. Then the
	// ask ends, which withdraws the question: the window closes, and
	// History says it was answered elsewhere.
	askCtx, stopAsk := context.WithCancel(ctx)
	defer stopAsk()
	gone := make(chan error, 1)
	if env.ClientGone != nil {
		watch := env.ClientGone(askCtx, inputEnded)
		go func() {
			select {
			case err := <-watch:
				gone <- err
				stopAsk()
			case <-askCtx.Done():
			}
		}()
	}
	maxWait := env.MaxWait
	if maxWait <= 0 {
		maxWait = maxHookWait
	}
	waitCtx, stopWait := context.WithTimeout(askCtx, maxWait)
	defer stopWait()
	a, err := launch.AskRestarting(waitCtx, env.Connect, wire.Ask{Question: q}, nil, nil)
	if ctx.Err() == nil && askCtx.Err() == nil && waitCtx.Err() != nil {
		// The hook's own time ran out first: the question is withdrawn,
		// and it is no answer — the call is denied, as at the countdown's
		// end.
		a, err = wire.Answer{QuestionID: q.ID, Status: wire.StatusTimeout}, nil
	}
	if ctx.Err() == nil && askCtx.Err() != nil {
		cause := <-gone
		// Nobody reads a decision now. Only a client that closed the
		// input may still read standard error; writing to a pipe whose
		// reader is gone would end the hook with SIGPIPE.
		if errors.Is(cause, hookio.ErrInputEnded) {
			fmt.Fprintf(env.Stderr, "feedback approve: %v: the client stopped waiting; the approval window is closed, nothing decided\n", cause)
		}
		return 0
	}
	if err != nil {
		fmt.Fprintln(env.Stderr, "feedback approve: the approval window could not be shown; Claude Code asks instead:", err)
		return 0
	}
	env.Stdout.Write(approval.Decide(a, r).HookOutput(ev))
	fmt.Fprintln(env.Stdout)
	return 0
}
