package launch

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"time"

	"feedback/ipc"
	"feedback/ipc/wire"
)

// MaxRestarts bounds how often one question restarts an app that went away
// while it was open; RestartBackoff[i] is the pause before restart i+1 (a
// variable for tests).
const MaxRestarts = 3

var RestartBackoff = []time.Duration{250 * time.Millisecond, time.Second, 2 * time.Second}

// NotReachedError is a failure to reach or start the app before anything
// was asked: the caller may fall back to asking without it.
type NotReachedError struct{ Err error }

func (e *NotReachedError) Error() string { return e.Err.Error() }
func (e *NotReachedError) Unwrap() error { return e.Err }

// AskRestarting connects to the app (connect starts it when none runs, as
// Connect does) and asks a. When the app goes away while the question is
// open (ipc.ErrAppGone: it crashed or was killed), it connects again, which
// restarts the app, and asks the same question again, same ID, at most
// MaxRestarts times, pausing RestartBackoff between: the new app restores
// the draft the user had typed. A positive a.Wait is the caller's whole
// wait: each ask after a restart waits what is left of it (at least 1 ms).
// An Asker that is also an io.Closer is closed when its Ask returns.
//
// A failure to connect before anything was asked is a *NotReachedError;
// ctx ending returns ctx.Err(); any other error is the last Ask's. log may
// be nil.
func AskRestarting(ctx context.Context, connect func(context.Context) (wire.Asker, error), a wire.Ask, onEvent func(wire.Event), log *slog.Logger) (wire.Answer, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	var deadline time.Time
	if a.Wait > 0 {
		deadline = time.Now().Add(a.Wait)
	}
	var last error
	for attempt := 0; attempt <= MaxRestarts; attempt++ {
		if attempt > 0 {
			pause := RestartBackoff[min(attempt-1, len(RestartBackoff)-1)]
			log.Warn("the feedback app went away while the question was open: restarting it and asking again",
				"attempt", attempt, "of", MaxRestarts, "pause", pause, "err", last)
			if !sleepCtx(ctx, pause) {
				return wire.Answer{}, ctx.Err()
			}
			if !deadline.IsZero() {
				a.Wait = max(time.Until(deadline), time.Millisecond)
			}
		}
		asker, err := connect(ctx)
		if err != nil {
			if ctx.Err() != nil {
				return wire.Answer{}, ctx.Err()
			}
			if attempt == 0 {
				return wire.Answer{}, &NotReachedError{err}
			}
			last = fmt.Errorf("restarting the feedback app: %w", err)
			continue
		}
		ans, err := asker.Ask(ctx, a, onEvent)
		if cl, ok := asker.(io.Closer); ok {
			cl.Close()
		}
		if err == nil || ctx.Err() != nil || !errors.Is(err, ipc.ErrAppGone) {
			if err == nil && attempt > 0 {
				log.Info("answered after restarting the feedback app", "restarts", attempt)
			}
			if ctx.Err() != nil && err != nil {
				return ans, ctx.Err()
			}
			return ans, err
		}
		last = err
	}
	log.Error("the feedback app keeps going away: giving up", "restarts", MaxRestarts, "err", last)
	return wire.Answer{}, last
}

// sleepCtx pauses for d; false when ctx ended first.
func sleepCtx(ctx context.Context, d time.Duration) bool {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return true
	case <-ctx.Done():
		return false
	}
}
