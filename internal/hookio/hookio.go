// Package hookio is what the hook commands (`feedback notify --from` and
// `feedback approve`) share: an agent's turn waits on a hook, so a hook
// must never hang. It reads the client's event from standard input within
// a deadline, whether or not the client closes it, and looks at the app
// before it relies on it: an app that accepts the connection but does not
// answer (stopped, stuck) is given up on within a couple of seconds.
package hookio

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"feedback/ipc"
)

// Deadlines of a hook's read of its event: Idle with no byte coming (before
// the first one too), Total for the whole event.
const (
	Idle  = 2 * time.Second
	Total = 10 * time.Second
)

// AnswerWait is how long AppAnswers waits for the app's hello.
const AnswerWait = 2 * time.Second

// ErrStalled means standard input stayed open and silent past a deadline;
// what was read before is returned with it.
var ErrStalled = errors.New("the client left standard input open without sending more")

// ReadEvent reads the event a client writes on r, at most max bytes. It
// returns as soon as one of these happens:
//   - r ends (EOF): what was read;
//   - what was read is a whole JSON object: the event, without waiting for
//     an EOF that a client keeping r open never sends;
//   - max bytes were read: those;
//   - idle passes without a byte (before the first one too), or total
//     since the start: what was read, with ErrStalled;
//   - ctx ends (SIGTERM, SIGINT): ctx.Err().
//
// The read itself runs in a goroutine that may stay blocked on r after
// ReadEvent returned: a hook exits soon after.
func ReadEvent(ctx context.Context, r io.Reader, max int64, idle, total time.Duration) ([]byte, error) {
	data, _, err := readEvent(ctx, r, max, idle, total, false, 0)
	return data, err
}

// readEventWatching is ReadEventWatching with grace for EventEndGrace.
func readEventWatching(ctx context.Context, r io.Reader, max int64, idle, total, grace time.Duration) ([]byte, <-chan struct{}, error) {
	return readEvent(ctx, r, max, idle, total, true, grace)
}

type chunk struct {
	b   []byte
	err error
}

// readEvent is ReadEvent; with watch, once the event is read whole, r is
// read on until it ends, and the channel it returns is closed then unless
// that was within grace of the event (see ReadEventWatching). Without
// watch, or when r ended with the event, the channel is never closed.
func readEvent(ctx context.Context, r io.Reader, max int64, idle, total time.Duration, watch bool, grace time.Duration) ([]byte, <-chan struct{}, error) {
	chunks := make(chan chunk)
	stop := make(chan struct{})
	go func() {
		for {
			buf := make([]byte, 32<<10)
			n, err := r.Read(buf)
			select {
			case chunks <- chunk{buf[:n], err}:
			case <-stop:
				return
			}
			if err != nil {
				return
			}
		}
	}()
	ended := make(chan struct{})
	data, whole, err := collect(ctx, chunks, max, idle, total)
	if !watch || !whole {
		close(stop)
		return data, ended, err
	}
	// The event is whole and r is still open: read on, discarding, until
	// it ends or ctx does.
	at := time.Now()
	go func() {
		defer close(stop)
		for {
			select {
			case c := <-chunks:
				if c.err == nil {
					continue
				}
				if time.Since(at) >= grace {
					close(ended)
				}
				return
			case <-ctx.Done():
				return
			}
		}
	}()
	return data, ended, nil
}

// collect gathers chunks into the event (ReadEvent's rules); whole reports
// that it returned on a whole JSON object, r still open.
func collect(ctx context.Context, chunks <-chan chunk, max int64, idle, total time.Duration) (data []byte, whole bool, err error) {
	all := time.NewTimer(total)
	defer all.Stop()
	quiet := time.NewTimer(idle)
	defer quiet.Stop()
	for {
		select {
		case c := <-chunks:
			data = append(data, c.b...)
			if int64(len(data)) > max {
				data = data[:max]
			}
			switch {
			case errors.Is(c.err, io.EOF):
				return data, false, nil
			case c.err != nil:
				return data, false, c.err
			case int64(len(data)) >= max:
				return data, false, nil
			case wholeObject(data):
				return data, true, nil
			}
			if len(c.b) > 0 {
				quiet.Reset(idle)
			}
		case <-quiet.C:
			return data, false, fmt.Errorf("%w (%v without a byte)", ErrStalled, idle)
		case <-all.C:
			return data, false, fmt.Errorf("%w (%v in all)", ErrStalled, total)
		case <-ctx.Done():
			return data, false, ctx.Err()
		}
	}
}

// wholeObject reports whether data is one complete JSON object (spaces
// around it allowed): the event has arrived.
func wholeObject(data []byte) bool {
	d := bytes.TrimSpace(data)
	return len(d) > 0 && d[0] == '{' && d[len(d)-1] == '}' && json.Valid(d)
}

// AppAnswers looks at the app's endpoint: nil when the app answers its
// hello within wait, or when nothing listens there (a connect may start
// the app); an error when something listens and does not answer in time
// (a stopped or stuck app, which a connect would wait on for many
// seconds). Another failure is nil as well: the connect that follows
// reports it in its own words. ctx ending returns ctx.Err().
func AppAnswers(ctx context.Context, wait time.Duration) error {
	path, err := ipc.SocketPath()
	if err != nil {
		return nil // the connect says why
	}
	return answers(ctx, &ipc.Client{Path: path}, wait)
}

// answers is AppAnswers for the app at c.
func answers(ctx context.Context, c *ipc.Client, wait time.Duration) error {
	defer c.Close()
	hctx, cancel := context.WithTimeout(ctx, wait)
	defer cancel()
	_, err := c.Hello(hctx)
	switch {
	case err == nil, ipc.NotListening(err):
		return nil
	case ctx.Err() != nil:
		return ctx.Err()
	case hctx.Err() != nil:
		return fmt.Errorf("the feedback app at %s accepted the connection but did not answer within %v (is it stopped or stuck?)", c.Path, wait)
	}
	return nil
}
