package app

import (
	"context"
	"log/slog"
	"sort"
	"sync"
	"time"

	"feedback/ipc"
)

// Presenter puts questions in front of the user. Its methods may be called
// from any goroutine and must not block on the user.
type Presenter interface {
	// Show opens a window for q. It calls shown once the window is on
	// screen and done exactly once with the outcome, unless Withdraw came first.
	Show(q ipc.Question, shown func(), done func(ipc.Answer))
	// Withdraw closes the window of question id without an answer.
	Withdraw(id string)
	// Focus raises the window of question id.
	Focus(id string)
}

// Item is an open question as the tray menu lists it.
type Item struct {
	ID     string
	Title  string
	Client string
	Since  time.Time
}

// Inbox holds the open questions and routes each answer to its callers.
// It implements ipc.Asker.
type Inbox struct {
	p   Presenter
	log *slog.Logger

	mu        sync.Mutex            // guards open, kept, keptOrder and onChange
	open      map[string]*entry     // by question id
	kept      map[string]ipc.Answer // answers of KeepOpen questions nobody waited for
	keptOrder []string              // ids in kept, oldest first
	onChange  func([]Item)
}

// maxKept bounds the answers kept for callers that come back later.
const maxKept = 256

// entry is one open question. Several callers may wait on it: asking again
// with the same id attaches to the window that is already open.
type entry struct {
	q       ipc.Question
	since   time.Time
	waiters int           // guarded by Inbox.mu
	shown   chan struct{} // closed when the window is on screen
	done    chan struct{} // closed when answer is set
	answer  ipc.Answer
}

// NewInbox returns an empty inbox that shows questions through p.
func NewInbox(p Presenter, log *slog.Logger) *Inbox {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Inbox{p: p, log: log, open: make(map[string]*entry), kept: make(map[string]ipc.Answer)}
}

// OnChange registers f to be called, from any goroutine, with the open
// questions after every change.
func (in *Inbox) OnChange(f func([]Item)) {
	in.mu.Lock()
	in.onChange = f
	in.mu.Unlock()
	in.notify()
}

// Items lists the open questions, oldest first.
func (in *Inbox) Items() []Item {
	in.mu.Lock()
	defer in.mu.Unlock()
	return in.itemsLocked()
}

func (in *Inbox) itemsLocked() []Item {
	items := make([]Item, 0, len(in.open))
	for id, e := range in.open {
		items = append(items, Item{ID: id, Title: e.q.Summary(60), Client: e.q.Client, Since: e.since})
	}
	sort.Slice(items, func(i, j int) bool {
		if !items[i].Since.Equal(items[j].Since) {
			return items[i].Since.Before(items[j].Since)
		}
		return items[i].ID < items[j].ID
	})
	return items
}

func (in *Inbox) notify() {
	in.mu.Lock()
	f, items := in.onChange, in.itemsLocked()
	in.mu.Unlock()
	if f != nil {
		f(items)
	}
}

// Ask shows q (or attaches to its open window) and waits for the answer.
// When ctx ends first the caller has gone away: the question is withdrawn
// once no caller waits for it any more (unless q.KeepOpen), and Ask returns
// ctx.Err(). A kept answer for q.ID is returned at once.
func (in *Inbox) Ask(ctx context.Context, q ipc.Question, emit func(ipc.Event)) (ipc.Answer, error) {
	in.mu.Lock()
	if a, ok := in.kept[q.ID]; ok {
		in.dropKeptLocked(q.ID)
		in.mu.Unlock()
		in.log.Info("kept answer delivered", "id", q.ID, "status", a.Status)
		return a, nil
	}
	e, attached := in.open[q.ID]
	if !attached && q.AttachOnly {
		in.mu.Unlock()
		return ipc.Answer{}, &ipc.Error{Code: ipc.CodeNotFound,
			Message: "no open question and no kept answer with id " + q.ID}
	}
	if !attached {
		e = &entry{q: q, since: time.Now(), shown: make(chan struct{}), done: make(chan struct{})}
		in.open[q.ID] = e
	}
	e.waiters++
	in.mu.Unlock()

	if attached {
		in.log.Info("caller attached to an open question", "id", q.ID)
		in.p.Focus(q.ID)
	} else {
		in.log.Info("question opened", "id", q.ID, "source", q.Source, "client", q.Client)
		var once sync.Once
		in.p.Show(q, func() { once.Do(func() { close(e.shown) }) }, func(a ipc.Answer) { in.answered(e, a) })
		in.notify()
	}

	select {
	case <-e.shown:
		emit(ipc.Event{Type: ipc.EventShown})
	case <-e.done:
	case <-ctx.Done():
	}
	select {
	case <-e.done:
		return e.answer, nil
	case <-ctx.Done():
		in.leave(e)
		return ipc.Answer{}, ctx.Err()
	}
}

// answered records the outcome of e and wakes its callers.
func (in *Inbox) answered(e *entry, a ipc.Answer) {
	in.mu.Lock()
	if in.open[e.q.ID] != e {
		in.mu.Unlock()
		in.log.Warn("answer for a withdrawn question dropped", "id", e.q.ID, "status", a.Status)
		return
	}
	delete(in.open, e.q.ID)
	e.answer = a
	close(e.done)
	if e.waiters == 0 {
		in.keepLocked(e.q.ID, a)
	}
	in.mu.Unlock()
	in.log.Info("question ended", "id", e.q.ID, "status", a.Status, "elapsed_ms", a.ElapsedMS)
	in.notify()
}

// keepLocked keeps a for the next ask with id, dropping the oldest kept
// answer beyond maxKept.
func (in *Inbox) keepLocked(id string, a ipc.Answer) {
	if len(in.keptOrder) >= maxKept {
		in.log.Warn("kept answer dropped: too many kept", "id", in.keptOrder[0])
		in.dropKeptLocked(in.keptOrder[0])
	}
	in.kept[id] = a
	in.keptOrder = append(in.keptOrder, id)
	in.log.Info("answer kept for a caller that comes back", "id", id, "status", a.Status)
}

func (in *Inbox) dropKeptLocked(id string) {
	delete(in.kept, id)
	for i, k := range in.keptOrder {
		if k == id {
			in.keptOrder = append(in.keptOrder[:i], in.keptOrder[i+1:]...)
			break
		}
	}
}

// leave drops one caller of e; the last one to leave withdraws the question
// unless it is to be kept open. An answer that came in while the last caller
// was leaving reached nobody: it is kept for the next ask with its id.
func (in *Inbox) leave(e *entry) {
	in.mu.Lock()
	e.waiters--
	if e.waiters == 0 {
		select {
		case <-e.done:
			in.keepLocked(e.q.ID, e.answer)
			in.mu.Unlock()
			return
		default:
		}
	}
	last := e.waiters == 0 && in.open[e.q.ID] == e && !e.q.KeepOpen
	if last {
		delete(in.open, e.q.ID)
	}
	in.mu.Unlock()
	if last {
		in.log.Info("question withdrawn: its caller went away", "id", e.q.ID)
		in.p.Withdraw(e.q.ID)
		in.notify()
	}
}
