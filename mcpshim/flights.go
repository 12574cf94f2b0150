package mcpshim

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	"feedback/ipc"
)

// holdLimit bounds how long a window is held open for a caller that
// returned "call again" and has not come back. A variable for tests.
var holdLimit = time.Hour

// maxKept bounds the outcomes kept for callers that come back; keptTTL is
// how long one is kept.
const (
	maxKept = 64
	keptTTL = time.Hour
)

// A flight is one question asked of the app on behalf of every tool call
// with its ID in this server. It outlives the calls: a call that runs out
// of its client's wait leaves the flight running, so the window stays open
// and the next call with the same ID (the agent calling again) joins it.
// A call the client cancels withdraws the flight once nobody else waits.
type flight struct {
	id     string
	cancel context.CancelFunc
	done   chan struct{} // closed when answer and err are set
	answer ipc.Answer
	err    error
	// shownAt is when the window went on screen (UnixNano), 0 before.
	shownAt atomic.Int64

	// Guarded by flights.mu:
	waiters int
	hold    *time.Timer // releases the flight when nobody came back
}

// shown reports "window open" and since when once the window is on screen.
func (f *flight) shown() (string, time.Time) {
	if ns := f.shownAt.Load(); ns != 0 {
		return "window open", time.Unix(0, ns)
	}
	return "", time.Time{}
}

// keptOutcome is an outcome that reached no caller.
type keptOutcome struct {
	answer ipc.Answer
	at     time.Time
}

// flights holds the flights of one server and the outcomes kept for
// callers that come back.
type flights struct {
	base context.Context // ends every flight when the server stops
	run  func(ctx context.Context, q ipc.Question, f *flight) (ipc.Answer, error)
	log  *slog.Logger
	wg   sync.WaitGroup // running flights

	mu        sync.Mutex // guards open, kept, keptOrder and every flight's waiters and hold
	open      map[string]*flight
	kept      map[string]keptOutcome
	keptOrder []string
}

func newFlights(base context.Context, log *slog.Logger, run func(context.Context, ipc.Question, *flight) (ipc.Answer, error)) *flights {
	return &flights{base: base, run: run, log: log, open: map[string]*flight{}, kept: map[string]keptOutcome{}}
}

// join returns the flight of q.ID, starting it when none runs, with the
// caller counted as a waiter; or, when an outcome was kept for q.ID, that
// outcome (once) and a nil flight.
func (fs *flights) join(q ipc.Question) (*flight, *ipc.Answer) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	if k, ok := fs.kept[q.ID]; ok {
		fs.dropKeptLocked(q.ID)
		if time.Since(k.at) < keptTTL {
			fs.log.Info("kept outcome delivered", "question", q.ID, "status", k.answer.Status)
			return nil, &k.answer
		}
	}
	f := fs.open[q.ID]
	if f == nil {
		ctx, cancel := context.WithCancel(fs.base)
		f = &flight{id: q.ID, cancel: cancel, done: make(chan struct{})}
		fs.open[q.ID] = f
		fs.wg.Add(1)
		go fs.fly(ctx, q, f)
	} else {
		fs.log.Info("call attached to the open question", "question", q.ID)
	}
	f.waiters++
	if f.hold != nil {
		f.hold.Stop()
		f.hold = nil
	}
	return f, nil
}

// fly asks q and records the outcome. An outcome that reaches no caller is
// kept, unless it is a timeout (the next call asks afresh) or a failure.
func (fs *flights) fly(ctx context.Context, q ipc.Question, f *flight) {
	defer fs.wg.Done()
	a, err := fs.run(ctx, q, f)
	fs.mu.Lock()
	if fs.open[f.id] == f {
		delete(fs.open, f.id)
	}
	f.answer, f.err = a, err
	close(f.done)
	if f.hold != nil {
		f.hold.Stop()
		f.hold = nil
	}
	if f.waiters == 0 {
		fs.keepLocked(f)
	}
	fs.mu.Unlock()
	f.cancel()
}

// leave drops one waiter of f. With withdraw (the client cancelled), the
// last waiter to leave withdraws the question: its window closes. Without
// (the call ran out of its client's wait), the window stays open for
// holdLimit, for the caller to come back. An outcome that came in while
// the last waiter was leaving is kept for the next call.
func (fs *flights) leave(f *flight, withdraw bool) {
	fs.mu.Lock()
	defer fs.mu.Unlock()
	f.waiters--
	if f.waiters > 0 {
		return
	}
	select {
	case <-f.done:
		fs.keepLocked(f)
		return
	default:
	}
	if withdraw {
		fs.log.Info("question withdrawn: its caller cancelled", "question", f.id)
		f.cancel()
		return
	}
	fs.log.Info("window kept open for the caller to come back", "question", f.id, "for", holdLimit)
	f.hold = time.AfterFunc(holdLimit, func() {
		fs.mu.Lock()
		defer fs.mu.Unlock()
		if f.waiters == 0 {
			fs.log.Info("question withdrawn: its caller did not come back", "question", f.id, "after", holdLimit)
			f.cancel()
		}
	})
}

// keepLocked keeps f's outcome for the next call with its ID when it is
// worth handing over: an answer or a dismissal, not a timeout or an error.
func (fs *flights) keepLocked(f *flight) {
	if f.err != nil || f.answer.Status == ipc.StatusTimeout {
		fs.log.Info("outcome with nobody waiting dropped", "question", f.id, "status", f.answer.Status, "err", f.err)
		return
	}
	if _, ok := fs.kept[f.id]; ok {
		fs.dropKeptLocked(f.id)
	}
	if len(fs.keptOrder) >= maxKept {
		fs.log.Warn("kept outcome dropped: too many kept", "question", fs.keptOrder[0])
		fs.dropKeptLocked(fs.keptOrder[0])
	}
	fs.kept[f.id] = keptOutcome{answer: f.answer, at: time.Now()}
	fs.keptOrder = append(fs.keptOrder, f.id)
	fs.log.Info("outcome kept for a caller that comes back", "question", f.id, "status", f.answer.Status)
}

func (fs *flights) dropKeptLocked(id string) {
	delete(fs.kept, id)
	for i, k := range fs.keptOrder {
		if k == id {
			fs.keptOrder = append(fs.keptOrder[:i], fs.keptOrder[i+1:]...)
			break
		}
	}
}

// wait waits, at most d, for every flight to end (they end when base does).
func (fs *flights) wait(d time.Duration) bool {
	done := make(chan struct{})
	go func() { fs.wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(d):
		return false
	}
}
