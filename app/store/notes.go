package store

import (
	"context"
	"database/sql"
	"fmt"
	"strings"
	"time"

	"feedback/ipc/wire"
)

// ErrTooManyNotes: wire.MaxPendingNotes notes already wait for their
// clients.
var ErrTooManyNotes = fmt.Errorf("%d notes already wait for their agents: wait until one is delivered", wire.MaxPendingNotes)

// AddNote keeps n (its ID and a zero Created are filled in) until TakeNotes
// takes it. A note CheckNote refuses fails with that reason; beyond
// wire.MaxPendingNotes waiting notes it fails with ErrTooManyNotes.
func (s *Store) AddNote(n wire.Note) (wire.Note, error) {
	if err := wire.CheckNote(n); err != nil {
		return wire.Note{}, fmt.Errorf("store: add note: %w", err)
	}
	if s == nil {
		return n, nil
	}
	n.Client, n.Project = strings.TrimSpace(n.Client), strings.TrimSpace(n.Project)
	if n.Created.IsZero() {
		n.Created = time.Now()
	}
	n.Created = fromMS(ms(n.Created))
	err := s.inTx("add note", func(ctx context.Context, tx *sql.Tx) error {
		var pending int
		if err := tx.QueryRowContext(ctx, `SELECT count(*) FROM notes`).Scan(&pending); err != nil {
			return err
		}
		if pending >= wire.MaxPendingNotes {
			return ErrTooManyNotes
		}
		return insertNote(ctx, tx, &n)
	})
	if err != nil {
		return wire.Note{}, err
	}
	return n, nil
}

func insertNote(ctx context.Context, tx *sql.Tx, n *wire.Note) error {
	res, err := tx.ExecContext(ctx, `INSERT INTO notes (client, project, text, created) VALUES (?, ?, ?, ?)`,
		n.Client, n.Project, n.Text, ms(n.Created))
	if err != nil {
		return err
	}
	n.ID, err = res.LastInsertId()
	return err
}

// TakeNotes reads and deletes, in one transaction, the notes waiting for
// client (exactly as written, surrounding blanks aside: client names are
// self-declared, so "CLAUDE-CODE" is not claude-code) that name no project
// or name project (likewise), oldest first. Nothing waits: nil.
func (s *Store) TakeNotes(client, project string) ([]wire.Note, error) {
	client, project = strings.TrimSpace(client), strings.TrimSpace(project)
	if s == nil || client == "" {
		return nil, nil
	}
	var notes []wire.Note
	err := s.inTx("take notes", func(ctx context.Context, tx *sql.Tx) error {
		rows, err := tx.QueryContext(ctx, `SELECT id, client, project, text, created FROM notes
			WHERE client = ? AND (project = '' OR project = ?)
			ORDER BY created, id`, client, project)
		if err != nil {
			return err
		}
		notes, err = scanNotes(rows)
		if err != nil {
			return err
		}
		for _, n := range notes {
			if _, err := tx.ExecContext(ctx, `DELETE FROM notes WHERE id = ?`, n.ID); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return notes, nil
}

// PutBackNotes keeps again notes that TakeNotes took but that reached
// nobody, with their times, whatever the number waiting.
func (s *Store) PutBackNotes(notes []wire.Note) error {
	if s == nil || len(notes) == 0 {
		return nil
	}
	return s.inTx("put back notes", func(ctx context.Context, tx *sql.Tx) error {
		for _, n := range notes {
			if err := insertNote(ctx, tx, &n); err != nil {
				return err
			}
		}
		return nil
	})
}

// Notes lists the notes waiting, oldest first.
func (s *Store) Notes() ([]wire.Note, error) {
	if s == nil {
		return nil, nil
	}
	rows, err := s.db.QueryContext(context.Background(), `SELECT id, client, project, text, created FROM notes ORDER BY created, id`)
	if err != nil {
		return nil, wrap("list notes", err)
	}
	notes, err := scanNotes(rows)
	return notes, wrap("list notes", err)
}

func scanNotes(rows *sql.Rows) ([]wire.Note, error) {
	defer rows.Close()
	var notes []wire.Note
	for rows.Next() {
		var n wire.Note
		var created int64
		if err := rows.Scan(&n.ID, &n.Client, &n.Project, &n.Text, &created); err != nil {
			return nil, err
		}
		n.Created = fromMS(created)
		notes = append(notes, n)
	}
	return notes, rows.Err()
}

// MaxNoteTargets bounds NoteTargets.
const MaxNoteTargets = 50

// NoteTargets lists the clients and projects of the stored questions
// (the client as wire.NoteClient names it), the most recently asked first,
// at most MaxNoteTargets.
func (s *Store) NoteTargets() ([]wire.NoteTarget, error) {
	if s == nil {
		return nil, nil
	}
	rows, err := s.db.QueryContext(context.Background(), `
		SELECT c, p FROM (
			SELECT CASE WHEN trim(client) <> '' THEN trim(client) WHEN source = 'ask' THEN ? ELSE '' END AS c,
			       trim(coalesce(json_extract(question, '$.project'), '')) AS p,
			       max(asked_at) AS last
			FROM questions GROUP BY c, p)
		WHERE c <> '' ORDER BY last DESC, c, p LIMIT ?`, wire.ClientAsk, MaxNoteTargets)
	if err != nil {
		return nil, wrap("list note targets", err)
	}
	defer rows.Close()
	var ts []wire.NoteTarget
	for rows.Next() {
		var t wire.NoteTarget
		if err := rows.Scan(&t.Client, &t.Project); err != nil {
			return nil, wrap("list note targets", err)
		}
		ts = append(ts, t)
	}
	return ts, wrap("list note targets", rows.Err())
}
