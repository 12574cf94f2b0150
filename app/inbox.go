package app

import (
	"context"
	"log/slog"
	"sort"
	"sync"
	"time"

	"feedback/ipc"
	"feedback/store"
)

// Presenter puts questions in front of the user. Its methods may be called
// from any goroutine and must not block on the user.
type Presenter interface {
	// Show opens a window for q. It calls shown once the window is on
	// screen and done exactly once with the outcome, unless Withdraw came first.
	// (A DraftPresenter's ShowDraft is called instead.)
	Show(q ipc.Question, shown func(), done func(ipc.Answer))
	// Withdraw closes the window of question id without an answer; a
	// DraftPresenter's window reports an unreported draft first.
	Withdraw(id string)
	// Focus raises the window of question id.
	Focus(id string)
}

// DraftPresenter is a Presenter whose windows keep drafts; the inbox shows
// questions through ShowDraft when its Presenter implements it.
type DraftPresenter interface {
	Presenter
	// ShowDraft opens a window for q with draft, if not nil, restored into
	// it. The window calls h.Shown once it is on screen, h.Draft with the
	// user's draft as they edit, and h.Done exactly once with the outcome,
	// unless Withdraw came first.
	ShowDraft(q ipc.Question, draft *store.Draft, h Hooks)
}

// Hooks are a window's calls back into the inbox, from any goroutine; none
// of them blocks.
type Hooks struct {
	Shown func()
	Draft func(store.Draft)
	Done  func(ipc.Answer)
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
//
// With a Persister it records each question when it opens, its drafts as
// the user types, and its outcome (delivered or kept) or its withdrawal; a
// new question first looks for an answer kept before a restart (returned
// at once) and for a draft (restored into the window). Every database call
// runs on the recorder's goroutine: a slow or locked database never holds
// up a window or a caller by more than lookupTimeout.
type Inbox struct {
	p   Presenter
	log *slog.Logger
	rec *recorder

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
	at      time.Time // when answer was given
}

// NewInbox returns an empty inbox that shows questions through p and
// keeps nothing across restarts.
func NewInbox(p Presenter, log *slog.Logger) *Inbox {
	return NewPersistentInbox(p, log, nil)
}

// NewPersistentInbox returns an empty inbox that shows questions through p
// and records them in the Persister that open returns (nil open, or an
// error: nothing is recorded). open runs on the inbox's own goroutine, so a
// slow database does not delay the start.
func NewPersistentInbox(p Presenter, log *slog.Logger, open func() (Persister, error)) *Inbox {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if open == nil {
		open = func() (Persister, error) { return NoPersistence{}, nil }
	}
	return &Inbox{p: p, log: log, rec: newRecorder(open, log),
		open: make(map[string]*entry), kept: make(map[string]ipc.Answer)}
}

// Close writes what is still queued for the database, waiting at most
// wait, and closes it. Call it once no question is open any more.
func (in *Inbox) Close(wait time.Duration) { in.rec.close(wait) }

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
// ctx.Err(). A kept answer for q.ID, in memory or in the database, is
// returned at once; a stored draft is restored into the new window.
func (in *Inbox) Ask(ctx context.Context, q ipc.Question, emit func(ipc.Event)) (ipc.Answer, error) {
	in.mu.Lock()
	if a, ok := in.takeKeptLocked(q.ID); ok {
		in.mu.Unlock()
		return a, nil
	}
	_, attached := in.open[q.ID]
	in.mu.Unlock()

	var draft *store.Draft
	if !attached {
		f := in.rec.lookup(ctx, q.ID)
		if err := ctx.Err(); err != nil {
			return ipc.Answer{}, err
		}
		if f.answer != nil {
			in.log.Info("kept answer delivered from the database", "id", q.ID, "status", f.answer.Status)
			in.rec.do("mark delivered", q.ID, func(p Persister) error { return p.MarkDelivered(q.ID) })
			return *f.answer, nil
		}
		draft = f.draft
	}

	in.mu.Lock()
	if a, ok := in.takeKeptLocked(q.ID); ok { // answered while we looked
		in.mu.Unlock()
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
		in.rec.do("save question", q.ID, func(p Persister) error { return p.SaveQuestion(q, e.since) })
	}
	e.waiters++
	in.mu.Unlock()

	if attached {
		in.log.Info("caller attached to an open question", "id", q.ID)
		in.p.Focus(q.ID)
	} else {
		in.log.Info("question opened", "id", q.ID, "source", q.Source, "client", q.Client, "draft_restored", draft != nil)
		var once sync.Once
		h := Hooks{
			Shown: func() { once.Do(func() { close(e.shown) }) },
			Draft: func(d store.Draft) { in.rec.draft(q.ID, d) },
			Done:  func(a ipc.Answer) { in.answered(e, a) },
		}
		if dp, ok := in.p.(DraftPresenter); ok {
			dp.ShowDraft(q, draft, h)
		} else {
			in.p.Show(q, h.Shown, h.Done)
		}
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

// takeKeptLocked hands out the kept answer of id, if there is one.
func (in *Inbox) takeKeptLocked(id string) (ipc.Answer, bool) {
	a, ok := in.kept[id]
	if !ok {
		return ipc.Answer{}, false
	}
	in.dropKeptLocked(id)
	in.rec.do("mark delivered", id, func(p Persister) error { return p.MarkDelivered(id) })
	in.log.Info("kept answer delivered", "id", id, "status", a.Status)
	return a, true
}

// answered records the outcome of e and wakes its callers. An answer that
// reaches nobody is kept, in memory and in the database, for the next ask
// with its id.
func (in *Inbox) answered(e *entry, a ipc.Answer) {
	at := time.Now()
	id := e.q.ID
	in.mu.Lock()
	if in.open[id] != e {
		// The window was withdrawn while the user answered. A real answer is
		// kept for a caller that asks again, unless the question was asked
		// again meanwhile (the new window collects the answer then).
		if _, reopened := in.open[id]; reopened || a.Status != ipc.StatusAnswered {
			in.mu.Unlock()
			in.log.Warn("outcome of a withdrawn question dropped", "id", id, "status", a.Status, "reopened", reopened)
			return
		}
		in.keepLocked(id, a)
		in.rec.do("save answer", id, func(p Persister) error { return p.SaveAnswer(a, at, false) })
		in.mu.Unlock()
		return
	}
	delete(in.open, id)
	e.answer, e.at = a, at
	close(e.done)
	delivered := e.waiters > 0
	if !delivered {
		in.keepLocked(id, a)
	}
	in.rec.do("save answer", id, func(p Persister) error { return p.SaveAnswer(a, at, delivered) })
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
			a, at := e.answer, e.at
			in.rec.do("save answer", e.q.ID, func(p Persister) error { return p.SaveAnswer(a, at, false) })
			in.mu.Unlock()
			return
		default:
		}
	}
	last := e.waiters == 0 && in.open[e.q.ID] == e && !e.q.KeepOpen
	if last {
		delete(in.open, e.q.ID)
		id, at := e.q.ID, time.Now()
		in.rec.do("mark withdrawn", id, func(p Persister) error { return p.MarkWithdrawn(id, at) })
	}
	in.mu.Unlock()
	if last {
		in.log.Info("question withdrawn: its caller went away", "id", e.q.ID)
		in.p.Withdraw(e.q.ID)
		in.notify()
	}
}
