package core

import (
	"context"
	"fmt"
	"strings"
	"sync"

	"feedback/app/clock"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// Notes for an agent: the user writes one in the note window ("Note for an
// agent…" in the tray) for a client, and a project of it or any; it rides
// on the next outcome the inbox delivers to a question of that client
// (wire.Answer.Notes), then is gone. They are kept in the database (or in
// memory when persistence is off), every call on the recorder's goroutine
// like the rest of it.

// OpenNoteWindow has the UI process open the note window with c.
func (u *UIProcess) OpenNoteWindow(c uiproto.NoteChoices) {
	u.openWindow(uiproto.OpenWindow{Window: uiproto.WindowNote, Note: &c})
}

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

// AddNote keeps a note of the user's for the next outcome delivered to a
// question of n.Client (and n.Project, unless ""). It is checked at once
// (wire.CheckNote) and written on the recorder's goroutine; a note the
// keeper refuses then (too many waiting, a database error) is logged.
func (in *Inbox) AddNote(n uiproto.Note) error {
	note := wire.Note{Client: n.Client, Project: n.Project, Text: n.Text, Created: in.clock.Now()}
	if err := wire.CheckNote(note); err != nil {
		in.log.Warn("note for an agent refused", "client", n.Client, "err", err)
		return err
	}
	in.rec.enqueue(func(p Store) {
		kept, err := p.AddNote(note)
		if err != nil {
			in.log.Error("note for an agent not kept", "client", note.Client, "project", note.Project, "err", err)
			return
		}
		in.log.Info("note for an agent kept until its next result", "client", kept.Client, "project", kept.Project, "bytes", len(kept.Text))
	})
	return nil
}

// NoteChoices lists, for the note window, the clients and projects that
// asked and the notes waiting; nothing when the database does not answer
// within lookupTimeout.
func (in *Inbox) NoteChoices() uiproto.NoteChoices {
	ch := make(chan uiproto.NoteChoices, 1)
	queued := in.rec.enqueue(func(p Store) {
		var c uiproto.NoteChoices
		var err error
		if c.Targets, err = p.NoteTargets(); err != nil {
			in.log.Warn("listing the clients for the note window", "err", err)
		}
		if c.Waiting, err = p.Notes(); err != nil {
			in.log.Warn("listing the notes waiting", "err", err)
		}
		ch <- c
	})
	if !queued { // quitting
		return uiproto.NoteChoices{}
	}
	timeout, stop := clock.After(in.clock, lookupTimeout)
	defer stop()
	select {
	case c := <-ch:
		return c
	case <-timeout:
		in.log.Warn("the note window opens without its choices: the database is slow", "waited", lookupTimeout)
		return uiproto.NoteChoices{}
	}
}

// withNotes adds to a, the outcome about to be delivered to the caller of
// q, the notes waiting for q's client and project, which are then gone. It
// waits for the keeper at most lookupTimeout: then a goes without them and
// they wait for the next outcome (put back if taken meanwhile).
func (in *Inbox) withNotes(ctx context.Context, q wire.Question, a wire.Answer) wire.Answer {
	client := wire.NoteClient(q)
	if client == "" || ctx.Err() != nil {
		return a
	}
	// The notes are handed over through ch unless the caller gave up
	// waiting first (gaveUp, under mu): then they are put back, for the
	// next outcome. (An unbuffered hand-over with a default lost the race
	// to a recorder that ran before the caller waited: the notes went back
	// and the outcome waited lookupTimeout for nothing.)
	var (
		mu     sync.Mutex
		gaveUp bool
	)
	ch := make(chan []wire.Note, 1)
	queued := in.rec.enqueue(func(p Store) {
		notes, err := p.TakeNotes(client, q.Project)
		if err != nil {
			in.log.Warn("taking the notes for an agent", "client", client, "err", err)
			close(ch)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if len(notes) > 0 && gaveUp { // nobody waits any more: they wait for the next outcome
			if err := p.PutBackNotes(notes); err != nil {
				in.log.Error("notes for an agent lost: taken, not delivered and not put back", "client", client, "notes", len(notes), "err", err)
			}
			return
		}
		ch <- notes // buffered: never blocks
	})
	if !queued {
		return a
	}
	timeout, stop := clock.After(in.clock, lookupTimeout)
	defer stop()
	select {
	case notes := <-ch:
		if len(notes) == 0 {
			return a
		}
		a.Notes = append([]string(nil), a.Notes...)
		for _, n := range notes {
			a.Notes = append(a.Notes, n.Text)
		}
		in.log.Info("notes for an agent delivered with an outcome", "id", a.QuestionID, "client", client, "notes", len(notes), "status", a.Status)
		return a
	case <-timeout:
		in.log.Warn("an outcome goes without the notes for its agent: the database is slow", "id", a.QuestionID, "waited", lookupTimeout)
	case <-ctx.Done():
	}
	mu.Lock()
	gaveUp = true
	mu.Unlock()
	select {
	case notes := <-ch: // handed over just before: back for the next outcome
		if len(notes) > 0 {
			in.rec.enqueue(func(p Store) {
				if err := p.PutBackNotes(notes); err != nil {
					in.log.Error("notes for an agent lost: taken, not delivered and not put back", "client", client, "notes", len(notes), "err", err)
				}
			})
		}
	default:
	}
	return a
}
