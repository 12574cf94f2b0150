package mcpshim

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// fakeInbox is an ipc.Asker that follows the app's inbox rules
// (core.Inbox), so the shim is tested against the contract it relies on:
//   - a caller whose Wait runs out gets ipc.ErrPending (with the
//     question's CallerData) and the question stays open;
//   - a caller asking with the id of an open question nobody waits for
//     attaches to it; one asking while another caller waits on the same id
//     opens a second window; an AttachOnly ask attaches to any window of
//     its id, or collects its kept answer, or fails with CodeNotFound;
//   - the last caller to go away (ctx) withdraws the question, unless the
//     ask that opened it said KeepOpen;
//   - an answer nobody waits for is kept for the next ask with the id, once.
type fakeInbox struct {
	mu      sync.Mutex
	open    map[string]*fakeEntry // by window id
	kept    map[string][]wire.Answer
	asks    int
	windows int
	// asked receives every question that opened a window (its window id).
	asked chan wire.Question
	// opened holds the ask that opened each window, by window id (askOf).
	opened map[string]wire.Ask
	// withdrawn receives the window id of every question withdrawn.
	withdrawn chan string
	// changed is closed and replaced whenever a caller arrives or leaves.
	changed chan struct{}
	// auto, when set, answers each new question at once.
	auto func(wire.Question) wire.Answer
}

type fakeEntry struct {
	q        wire.Question
	askID    string
	keepOpen bool
	waiters  int
	done     chan struct{}
	answer   wire.Answer
}

func newFakeInbox() *fakeInbox {
	return &fakeInbox{open: map[string]*fakeEntry{}, kept: map[string][]wire.Answer{}, opened: map[string]wire.Ask{},
		asked: make(chan wire.Question, 64), withdrawn: make(chan string, 64), changed: make(chan struct{})}
}

func (f *fakeInbox) changedLocked() {
	close(f.changed)
	f.changed = make(chan struct{})
}

// askOf returns the ask that opened window id.
func (f *fakeInbox) askOf(id string) wire.Ask {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.opened[id]
}

func (f *fakeInbox) Ask(ctx context.Context, r wire.Ask, onEvent func(wire.Event)) (wire.Answer, error) {
	q := r.Question
	f.mu.Lock()
	f.asks++
	if k := f.kept[q.ID]; len(k) > 0 {
		a := k[0]
		f.kept[q.ID] = k[1:]
		f.mu.Unlock()
		a.QuestionID = q.ID
		return a, nil
	}
	var e *fakeEntry
	for _, o := range f.open {
		if o.askID == q.ID && (o.waiters == 0 || r.AttachOnly) {
			e = o
			break
		}
	}
	if e == nil {
		if r.AttachOnly {
			f.mu.Unlock()
			return wire.Answer{}, &wire.Error{Code: wire.CodeNotFound, Message: "no open question and no kept answer with id " + q.ID}
		}
		if f.auto != nil {
			f.windows++
			f.opened[q.ID] = r
			f.mu.Unlock()
			f.asked <- q
			a := f.auto(q)
			a.QuestionID = q.ID
			return a, nil
		}
		wq := q
		if _, taken := f.open[q.ID]; taken {
			wq.ID = fmt.Sprintf("%s#%d", q.ID, f.windows)
		}
		e = &fakeEntry{q: wq, askID: q.ID, keepOpen: r.KeepOpen, done: make(chan struct{})}
		f.open[wq.ID] = e
		f.opened[wq.ID] = r
		f.windows++
		f.asked <- wq
	}
	e.waiters++
	f.changedLocked()
	f.mu.Unlock()
	if onEvent != nil {
		onEvent(wire.Event{Type: wire.EventShown})
	}
	var waitC <-chan time.Time
	if r.Wait > 0 {
		t := time.NewTimer(r.Wait)
		defer t.Stop()
		waitC = t.C
	}
	select {
	case <-e.done:
		a := e.answer
		a.QuestionID = q.ID
		return a, nil
	case <-waitC:
		f.mu.Lock()
		defer f.mu.Unlock()
		select {
		case <-e.done:
			a := e.answer
			a.QuestionID = q.ID
			return a, nil
		default:
		}
		e.waiters--
		f.changedLocked()
		return wire.Answer{QuestionID: q.ID, CallerData: e.q.CallerData}, wire.ErrPending
	case <-ctx.Done():
		f.mu.Lock()
		e.waiters--
		f.changedLocked()
		withdraw := e.waiters == 0 && f.open[e.q.ID] == e && !e.keepOpen
		if withdraw {
			delete(f.open, e.q.ID)
		}
		f.mu.Unlock()
		if withdraw {
			f.withdrawn <- e.q.ID
		}
		return wire.Answer{}, ctx.Err()
	}
}

// answer ends the open question (window id) with a, keeping a when nobody
// waits.
func (f *fakeInbox) answer(t *testing.T, id string, a wire.Answer) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	e := f.openLocked(t, id)
	delete(f.open, id)
	a.QuestionID = id
	a.CallerData = e.q.CallerData
	e.answer = a
	close(e.done)
	if e.waiters == 0 {
		f.kept[e.askID] = append(f.kept[e.askID], a)
	}
}

// keepCallerData replaces what the app keeps with the open question (window
// id) as the caller's data.
func (f *fakeInbox) keepCallerData(t *testing.T, id string, data string) {
	t.Helper()
	f.mu.Lock()
	defer f.mu.Unlock()
	f.openLocked(t, id).q.CallerData = []byte(data)
}

// openLocked returns the open question with window id, or fails the test.
func (f *fakeInbox) openLocked(t *testing.T, id string) *fakeEntry {
	t.Helper()
	e := f.open[id]
	if e == nil {
		t.Fatalf("question %s is not open", id)
	}
	return e
}

// waiters returns how many callers wait on window id.
func (f *fakeInbox) waiters(id string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if e := f.open[id]; e != nil {
		return e.waiters
	}
	return 0
}

// waitWaiters waits until n callers wait on window id.
func (f *fakeInbox) waitWaiters(t *testing.T, id string, n int) {
	t.Helper()
	deadline := time.After(10 * time.Second)
	for {
		f.mu.Lock()
		got, ch := 0, f.changed
		if e := f.open[id]; e != nil {
			got = e.waiters
		}
		f.mu.Unlock()
		if got == n {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			t.Fatalf("%d callers wait on %s, want %d", got, id, n)
		}
	}
}

func (f *fakeInbox) counts() (asks, windows int) {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.asks, f.windows
}
