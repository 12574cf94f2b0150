package hookio

import (
	"context"
	"errors"
	"io"
	"os"
	"time"
)

// Why a client stopped waiting for its hook (ClientGone).
var (
	// ErrInputEnded: the client closed the hook's standard input after
	// it had kept it open past the event.
	ErrInputEnded = errors.New("the client closed the hook's standard input")
	// ErrOutputGone: the reader of the hook's standard output went away
	// (the client closed its end of the pipe, or exited).
	ErrOutputGone = errors.New("the client stopped reading the hook's standard output")
	// ErrParentGone: the process that started the hook exited, and the
	// hook was re-parented.
	ErrParentGone = errors.New("the hook's parent process exited")
)

// EventEndGrace is how long after the event an end of standard input is
// still the event's own end rather than the client leaving: Claude Code
// (2.1.337's hook runner: stdin.write(event + "\n"), then stdin.end(),
// for every command hook) closes the hook's input right after the event,
// then waits on its output, so only a later end means anything. A client
// that keeps the input open and closes it when it stops waiting is told
// apart from that by the grace.
const EventEndGrace = 500 * time.Millisecond

// pollEvery is how often the OS-specific watcher looks at the parent (and,
// where it must, at the output): the window closes within about that much
// of the client leaving.
const pollEvery = 250 * time.Millisecond

// ReadEventWatching is ReadEvent, and then keeps reading r (what comes
// after the event is discarded): ended is closed when r ends (EOF or an
// error) later than EventEndGrace after the event was whole. An end that
// came with the event, or within the grace, closes nothing: the client
// sent its event and closed its end, as Claude Code does.
func ReadEventWatching(ctx context.Context, r io.Reader, max int64, idle, total time.Duration) (data []byte, ended <-chan struct{}, err error) {
	return readEventWatching(ctx, r, max, idle, total, EventEndGrace)
}

// ClientGone reports, once, why the client that runs this hook stopped
// waiting for it: inputEnded was closed (ReadEventWatching: ErrInputEnded),
// the reader of out went away (ErrOutputGone) or the hook's parent exited
// (ErrParentGone). The last two are watched by watchClient, whose reach
// depends on the OS. Nothing is reported once ctx ends. A nil inputEnded
// or out is not watched.
func ClientGone(ctx context.Context, inputEnded <-chan struct{}, out *os.File) <-chan error {
	gone := make(chan error, 1)
	osGone := watchClient(ctx, out, os.Getppid(), pollEvery)
	go func() {
		select {
		case <-inputEnded:
			gone <- ErrInputEnded
		case err := <-osGone:
			gone <- err
		case <-ctx.Done():
		}
	}()
	return gone
}
