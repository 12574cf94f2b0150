package core

import (
	"context"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"feedback/app/clock"
	"feedback/ipc/wire"
)

// Store keeps what the inbox must not lose to a restart: questions, their
// drafts, snoozes and answers, the agents' messages and the notes for
// them. The core defines it and the app hands it one (package store's
// database, adapted to it in package app); each write is one event of the
// inbox's (a question asked, a draft typed, an answer given…), each read
// one the inbox needs (what the last run left open, a draft, an answer
// nobody received). Its methods may block for seconds (a database locked
// by another process), so the inbox calls them only through a recorder,
// on the recorder's goroutine.
type Store interface {
	// SaveQuestionAs records q, whose callers ask as askID (q.ID but for
	// a second window of an identical question), and whether its ask said
	// keepOpen (wire.Ask.KeepOpen; Left.KeepOpen after a restart).
	SaveQuestionAs(q wire.Question, askID string, askedAt time.Time, keepOpen bool) error
	// SetKeptOpen records that the open question id stays open for a caller
	// that comes back: after a crash it is shown again.
	SetKeptOpen(id string, on bool) error
	// SetSnooze records the snooze of the open question id (nil: none any
	// more): a restart of the app does not end it early.
	SetSnooze(id string, s *wire.Snooze) error
	SaveDraft(id string, d wire.Draft) error
	SaveAnswer(a wire.Answer, at time.Time, delivered bool) error
	MarkWithdrawn(id string, at time.Time) error
	MarkDelivered(id string) error
	// SaveMessage records a one-way message in the history.
	SaveMessage(m wire.Message, at time.Time) error
	// AddNote keeps a note for an agent until its next outcome.
	AddNote(wire.Note) (wire.Note, error)
	// TakeNotes reads and deletes the notes of client (for any project or
	// for project), oldest first.
	TakeNotes(client, project string) ([]wire.Note, error)
	// PutBackNotes keeps again notes taken that reached nobody.
	PutBackNotes([]wire.Note) error

	// LeftOpen lists the questions the last run left open, oldest first.
	LeftOpen() ([]Left, error)
	Draft(id string) (wire.Draft, bool, error)
	// Undelivered returns the oldest answer nobody received of the
	// questions asked as id; its QuestionID is the window's own id.
	Undelivered(id string) (wire.Answer, bool, error)
	// Notes lists the notes waiting; NoteTargets the clients and projects
	// that asked, for the note window.
	Notes() ([]wire.Note, error)
	NoteTargets() ([]wire.NoteTarget, error)
	Close() error
}

// Left is a question the last run left open (neither answered nor
// withdrawn): after a crash, those kept open are shown again and the
// others, whose callers went with the crash, are withdrawn.
type Left struct {
	Question wire.Question
	// AskID is the id its callers ask with: Question.ID, unless it is a
	// second window (SaveQuestionAs).
	AskID string
	// KeptOpen: open with nobody waiting, for its caller to come back
	// (SetKeptOpen, or KeepOpen); the app shows it again.
	KeptOpen bool
	// KeepOpen: its ask asked to keep it open even when every caller goes
	// away (SaveQuestionAs's keepOpen).
	KeepOpen bool
	AskedAt  time.Time
	// Snooze is its snooze (SetSnooze), nil when it is not snoozed: the
	// app keeps it snoozed until then, not shown at once.
	Snooze *wire.Snooze
}

// NewMemoryStore returns the Store of an app without a database: it keeps
// the notes for agents in memory and nothing else (the open questions,
// their drafts and the answers nobody received live in the inbox's memory
// alone).
func NewMemoryStore() Store { return &memoryStore{} }

type memoryStore struct{ memNotes }

func (*memoryStore) SaveQuestionAs(wire.Question, string, time.Time, bool) error { return nil }
func (*memoryStore) SetKeptOpen(string, bool) error                              { return nil }
func (*memoryStore) SetSnooze(string, *wire.Snooze) error                        { return nil }
func (*memoryStore) SaveDraft(string, wire.Draft) error                          { return nil }
func (*memoryStore) SaveAnswer(wire.Answer, time.Time, bool) error               { return nil }
func (*memoryStore) MarkWithdrawn(string, time.Time) error                       { return nil }
func (*memoryStore) MarkDelivered(string) error                                  { return nil }
func (*memoryStore) SaveMessage(wire.Message, time.Time) error                   { return nil }
func (*memoryStore) LeftOpen() ([]Left, error)                                   { return nil, nil }
func (*memoryStore) Draft(string) (wire.Draft, bool, error)                      { return wire.Draft{}, false, nil }
func (*memoryStore) Undelivered(string) (wire.Answer, bool, error)               { return wire.Answer{}, false, nil }
func (*memoryStore) Close() error                                                { return nil }

// The notes of the memory store.

// errTooManyNotes: wire.MaxPendingNotes notes already wait for their
// agents (as the database says: store.ErrTooManyNotes).
var errTooManyNotes = fmt.Errorf("%d notes already wait for their agents: wait until one is delivered", wire.MaxPendingNotes)

// memNotes keeps notes in memory: the app without a database
// (NewMemoryStore).
type memNotes struct {
	mu     sync.Mutex
	notes  []wire.Note
	nextID int64
}

func (m *memNotes) AddNote(n wire.Note) (wire.Note, error) {
	if err := wire.CheckNote(n); err != nil {
		return wire.Note{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.notes) >= wire.MaxPendingNotes {
		return wire.Note{}, errTooManyNotes
	}
	m.nextID++
	n.ID = m.nextID
	m.notes = append(m.notes, n)
	return n, nil
}

func (m *memNotes) TakeNotes(client, project string) ([]wire.Note, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	var taken, kept []wire.Note
	for _, n := range m.notes {
		if noteFor(n, client, project) {
			taken = append(taken, n)
		} else {
			kept = append(kept, n)
		}
	}
	m.notes = kept
	return taken, nil
}

func (m *memNotes) PutBackNotes(ns []wire.Note) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	m.notes = append(append([]wire.Note(nil), ns...), m.notes...)
	return nil
}

func (m *memNotes) Notes() ([]wire.Note, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	return append([]wire.Note(nil), m.notes...), nil
}

func (m *memNotes) NoteTargets() ([]wire.NoteTarget, error) { return nil, nil }

// noteFor reports whether n is for a question of client and project: the
// store's rule (names trimmed, else exactly as written: client names are
// self-declared; a note naming no project is for any).
func noteFor(n wire.Note, client, project string) bool {
	same := func(a, b string) bool { return strings.TrimSpace(a) == strings.TrimSpace(b) }
	return same(n.Client, client) && (n.Project == "" || same(n.Project, project))
}

// LookupTimeout bounds how long a new question waits for the database
// before its window opens without a restored draft, and how long a feature
// waits for what it reads (the notes of an outcome).
const LookupTimeout = time.Second

// recorder runs the Store's calls in order on one goroutine of its own,
// so neither the socket handlers nor the Fyne goroutine ever wait on the
// database: writes are queued and return at once; the one read a new
// question needs (a kept answer, a draft) waits at most LookupTimeout.
// Consecutive drafts of a question that are not yet written are folded into
// the latest: the recorder holds no draft, it reads the question's latest
// (kept by the inbox) when it writes. Failures are logged, the first of a run at Warn and the rest
// at Debug until a call succeeds again; the app carries on in memory.
type recorder struct {
	log   *slog.Logger
	clock clock.Clock
	wake  chan struct{} // one token: work is queued
	done  chan struct{} // closed when the goroutine has ended

	mu      sync.Mutex // guards the fields below
	p       Store      // nil until open has returned
	off     bool       // open failed: persistence is off
	queue   []func(Store)
	drafts  map[string]func() wire.Draft // of each question with a draft write queued: its latest draft
	started bool                         // start was called
	closing bool
	failing bool // the last call failed
}

// newRecorder returns a recorder that queues calls until start.
func newRecorder(log *slog.Logger, c clock.Clock) *recorder {
	return &recorder{log: log, clock: c, wake: make(chan struct{}, 1), done: make(chan struct{}),
		drafts: make(map[string]func() wire.Draft)}
}

// start starts the recorder's goroutine, which first calls open
// (store.Open blocks for seconds on a locked database), then opened with
// the Store it returned, and then works through the queue. When open
// fails the recorder logs it once and keeps nothing (opened is not called).
// Call it once, when what opened uses is set.
func (r *recorder) start(open func() (Store, error), opened func(Store)) {
	r.mu.Lock()
	r.started = true
	r.mu.Unlock()
	go r.run(open, opened)
}

func (r *recorder) run(open func() (Store, error), opened func(Store)) {
	defer close(r.done)
	p, err := open()
	r.mu.Lock()
	if err != nil || p == nil {
		r.off = true
		p = NewMemoryStore()
	}
	r.p = p
	off := r.off
	r.mu.Unlock()
	if !off && opened != nil {
		opened(p)
	}
	for {
		r.mu.Lock()
		if len(r.queue) == 0 {
			if r.closing {
				r.mu.Unlock()
				return
			}
			r.mu.Unlock()
			<-r.wake
			continue
		}
		op := r.queue[0]
		r.queue = r.queue[1:]
		r.mu.Unlock()
		op(p)
	}
}

// enqueue adds op to the queue and reports whether it did (not once
// closing); it never blocks.
func (r *recorder) enqueue(op func(Store)) bool {
	r.mu.Lock()
	if r.closing {
		r.mu.Unlock()
		return false
	}
	r.queue = append(r.queue, op)
	r.mu.Unlock()
	select {
	case r.wake <- struct{}{}:
	default:
	}
	return true
}

// do queues a write; what names it in the log.
func (r *recorder) do(what, id string, f func(Store) error) {
	r.enqueue(func(p Store) { r.result(what, id, f(p)) })
}

// draft queues a write of the draft of question id that latest returns
// (its owner's latest draft, read when the write runs), unless one for id
// is queued and not yet written: that one writes the latest.
func (r *recorder) draft(id string, latest func() wire.Draft) {
	r.mu.Lock()
	_, queued := r.drafts[id]
	r.drafts[id] = latest
	r.mu.Unlock()
	if queued {
		return
	}
	r.enqueue(func(p Store) {
		r.mu.Lock()
		latest := r.drafts[id]
		delete(r.drafts, id)
		r.mu.Unlock()
		r.result("save draft", id, p.SaveDraft(id, latest()))
	})
}

// found is what the database holds for a question about to open.
type found struct {
	answer *wire.Answer // an answer nobody received yet
	draft  *wire.Draft  // what the user had typed
}

// lookup returns the undelivered answer of the questions asked as id or,
// withDraft, the draft of question id, after every write queued before it.
// It gives up, returning nothing, after LookupTimeout or when ctx ends.
func (r *recorder) lookup(ctx context.Context, id string, withDraft bool) found {
	r.mu.Lock()
	off := r.off
	r.mu.Unlock()
	if off {
		return found{}
	}
	ch := make(chan found, 1)
	queued := r.enqueue(func(p Store) {
		var f found
		a, ok, err := p.Undelivered(id)
		r.result("look up a kept answer", id, err)
		if ok {
			f.answer = &a
		} else if withDraft {
			if d, ok, err := p.Draft(id); ok {
				f.draft = &d
			} else {
				r.result("look up a draft", id, err)
			}
		}
		ch <- f
	})
	if !queued {
		return found{}
	}
	timeout, stop := clock.After(r.clock, LookupTimeout)
	defer stop()
	select {
	case f := <-ch:
		return f
	case <-timeout:
		r.log.Warn("persistence: the database is slow; the question opens without looking for its draft or kept answer",
			"id", id, "waited", LookupTimeout)
	case <-ctx.Done():
	}
	return found{}
}

// result logs the outcome of a call.
func (r *recorder) result(what, id string, err error) {
	r.mu.Lock()
	was := r.failing
	r.failing = err != nil
	r.mu.Unlock()
	switch {
	case err != nil && !was:
		r.log.Warn("persistence: "+what+" failed; the app carries on without it (further failures are logged at debug level)",
			"id", id, "err", err)
	case err != nil:
		r.log.Debug("persistence: "+what+" failed", "id", id, "err", err)
	case was:
		r.log.Info("persistence works again", "after", what, "id", id)
	}
}

// close writes what is queued, waiting at most wait, and closes the
// Store. Later calls queue nothing; a second close does nothing.
func (r *recorder) close(wait time.Duration) {
	r.mu.Lock()
	again := r.closing
	r.closing = true
	started := r.started
	r.mu.Unlock()
	if again || !started {
		return // closed before, or nothing was opened and nothing is written
	}
	select {
	case r.wake <- struct{}{}:
	default:
	}
	waited, stop := clock.After(r.clock, wait)
	defer stop()
	select {
	case <-r.done:
	case <-waited:
		r.mu.Lock()
		n := len(r.queue)
		r.mu.Unlock()
		r.log.Warn("persistence: quitting with writes still queued", "queued", n)
		return
	}
	r.mu.Lock()
	p := r.p
	r.mu.Unlock()
	if err := p.Close(); err != nil {
		r.log.Warn("persistence: closing the database", "err", err)
	}
}
