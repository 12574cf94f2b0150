package mcpshim

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"time"

	"feedback/ipc/wire"
)

// A task's question outlives the shim. The client of a task polls and,
// when its shim is restarted, comes back: the question must stay open in
// the app, as it does after a "call again" result, not be withdrawn as the
// question of a caller that went away. mcp-go (v1.6.0) cannot serve the old
// task in the new shim (its task IDs are random UUIDs, kept in the
// server's memory, and no hook adds one), so the client's tasks/get for
// it fails there; the same call made again — as a task or not — gets the
// same stable question ID (questionid.go) and so reattaches to the window,
// or collects the answer the app kept meanwhile.
//
// The app withdraws a question when its last caller goes away, and keeps
// it open when a caller's wait (wire.Ask.Wait) runs out. So when the
// shim stops while a task's ask waits, handOff first attaches a second,
// short caller (wire.Ask.AttachOnly, handoffWait) to the window, and only then is
// the task's own ask ended: it is not the last caller, and when the second
// caller's wait runs out the app keeps the question open for Hold (an hour,
// or the countdown and a minute). A shim that is killed (SIGKILL) cannot
// hand off: its question is withdrawn, as any waiting call's.

// handoffWait is the wait of the caller handOff attaches: long enough for
// the task's own ask to end first.
const handoffWait = time.Second

// handoffAttach bounds how long handOff waits to see the window attached
// (the app reports it shown) before it lets the task's ask end anyway.
const handoffAttach = 500 * time.Millisecond

// handOff keeps q, which a task's ask waits on, open in the app after the
// shim stops (see above). It returns once the second caller is attached
// (or could not be), at most handoffAttach; that caller ends by itself,
// counted in h.asks.
func (h *handler) handOff(q wire.Question, log *slog.Logger) {
	attached := make(chan struct{})
	var once sync.Once
	done := func() { once.Do(func() { close(attached) }) }
	a := wire.Ask{Question: q, Wait: handoffWait, AttachOnly: true}
	h.asks.Add(1)
	go func() {
		defer h.asks.Done()
		defer done()
		ctx, cancel := context.WithTimeout(context.Background(), handoffWait+time.Second)
		defer cancel()
		app, err := h.connect(ctx)
		if err != nil {
			log.Warn("task's question not handed off at exit: the app is not reachable", "err", err)
			return
		}
		_, err = app.Ask(ctx, a, func(e wire.Event) {
			if e.Type == wire.EventShown {
				done()
			}
		})
		switch {
		case err == nil:
			log.Warn("task's question answered as the shim exited: the answer reached no client")
		case errors.Is(err, wire.ErrPending):
			log.Info("task's question kept open in the app for its client to call again")
		default:
			log.Warn("task's question not handed off at exit", "err", err)
		}
	}()
	select {
	case <-attached:
	case <-time.After(handoffAttach):
	}
}
