// Package notes keeps the user's notes for agents, a feature of the inbox
// (core.Feature): the user writes one in the note window ("Note for an
// agent…" in the tray) for a client, and a project of it or any; it rides
// on the next outcome the inbox delivers to a question of that client
// (wire.Answer.Notes), then is gone. They are kept in the inbox's Store
// (the database, or memory when there is none), every call on the Store's
// goroutine like the rest of it.
package notes

import (
	"context"
	"log/slog"
	"sync"

	"feedback/app/clock"
	"feedback/app/core"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// Control is the notes for agents.
type Control struct {
	log  *slog.Logger
	host core.Host // Attach
}

var _ core.Feature = (*Control)(nil)

// New returns the notes' control; it works once attached to an inbox
// (core.Options.Features).
func New(log *slog.Logger) *Control {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	return &Control{log: log}
}

// Attach implements core.Feature: the notes ride on the outcomes.
func (c *Control) Attach(h core.Host) core.Hooks {
	c.host = h
	return core.Hooks{Outcome: c.outcome}
}

// Add keeps a note of the user's for the next outcome delivered to a
// question of n.Client (and n.Project, unless ""). It is checked at once
// (wire.CheckNote) and written on the Store's goroutine; a note the
// keeper refuses then (too many waiting, a database error) is logged.
func (c *Control) Add(n uiproto.Note) error {
	note := wire.Note{Client: n.Client, Project: n.Project, Text: n.Text, Created: c.host.Clock().Now()}
	if err := wire.CheckNote(note); err != nil {
		c.log.Warn("note for an agent refused", "client", n.Client, "err", err)
		return err
	}
	c.host.Enqueue(func(p core.Store) {
		kept, err := p.AddNote(note)
		if err != nil {
			c.log.Error("note for an agent not kept", "client", note.Client, "project", note.Project, "err", err)
			return
		}
		c.log.Info("note for an agent kept until its next result", "client", kept.Client, "project", kept.Project, "bytes", len(kept.Text))
	})
	return nil
}

// Choices lists, for the note window, the clients and projects that
// asked and the notes waiting; nothing when the database does not answer
// within core.LookupTimeout.
func (c *Control) Choices() uiproto.NoteChoices {
	ch := make(chan uiproto.NoteChoices, 1)
	queued := c.host.Enqueue(func(p core.Store) {
		var choices uiproto.NoteChoices
		var err error
		if choices.Targets, err = p.NoteTargets(); err != nil {
			c.log.Warn("listing the clients for the note window", "err", err)
		}
		if choices.Waiting, err = p.Notes(); err != nil {
			c.log.Warn("listing the notes waiting", "err", err)
		}
		ch <- choices
	})
	if !queued { // quitting
		return uiproto.NoteChoices{}
	}
	timeout, stop := clock.After(c.host.Clock(), core.LookupTimeout)
	defer stop()
	select {
	case choices := <-ch:
		return choices
	case <-timeout:
		c.log.Warn("the note window opens without its choices: the database is slow", "waited", core.LookupTimeout)
		return uiproto.NoteChoices{}
	}
}

// outcome adds to a, the outcome about to be delivered to the caller of
// q, the notes waiting for q's client and project, which are then gone. It
// waits for the keeper at most core.LookupTimeout: then a goes without them and
// they wait for the next outcome (put back if taken meanwhile).
func (c *Control) outcome(ctx context.Context, q wire.Question, a wire.Answer) wire.Answer {
	client := wire.NoteClient(q)
	if client == "" || ctx.Err() != nil {
		return a
	}
	// The notes are handed over through ch unless the caller gave up
	// waiting first (gaveUp, under mu): then they are put back, for the
	// next outcome. (An unbuffered hand-over with a default lost the race
	// to a recorder that ran before the caller waited: the notes went back
	// and the outcome waited core.LookupTimeout for nothing.)
	var (
		mu     sync.Mutex
		gaveUp bool
	)
	ch := make(chan []wire.Note, 1)
	queued := c.host.Enqueue(func(p core.Store) {
		notes, err := p.TakeNotes(client, q.Project)
		if err != nil {
			c.log.Warn("taking the notes for an agent", "client", client, "err", err)
			close(ch)
			return
		}
		mu.Lock()
		defer mu.Unlock()
		if len(notes) > 0 && gaveUp { // nobody waits any more: they wait for the next outcome
			if err := p.PutBackNotes(notes); err != nil {
				c.log.Error("notes for an agent lost: taken, not delivered and not put back", "client", client, "notes", len(notes), "err", err)
			}
			return
		}
		ch <- notes // buffered: never blocks
	})
	if !queued {
		return a
	}
	timeout, stop := clock.After(c.host.Clock(), core.LookupTimeout)
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
		c.log.Info("notes for an agent delivered with an outcome", "id", a.QuestionID, "client", client, "notes", len(notes), "status", a.Status)
		return a
	case <-timeout:
		c.log.Warn("an outcome goes without the notes for its agent: the database is slow", "id", a.QuestionID, "waited", core.LookupTimeout)
	case <-ctx.Done():
	}
	mu.Lock()
	gaveUp = true
	mu.Unlock()
	select {
	case notes := <-ch: // handed over just before: back for the next outcome
		if len(notes) > 0 {
			c.host.Enqueue(func(p core.Store) {
				if err := p.PutBackNotes(notes); err != nil {
					c.log.Error("notes for an agent lost: taken, not delivered and not put back", "client", client, "notes", len(notes), "err", err)
				}
			})
		}
	default:
	}
	return a
}
