package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"log/slog"
	"net/url"
	"path/filepath"
	"strings"
	"time"

	"feedback/internal/safefile"
)

// ErrNoDatabase: OpenReadOnly found no database file (nothing was ever asked,
// or FEEDBACK_DB points elsewhere).
var ErrNoDatabase = errors.New("store: no database")

// OpenReadOnly opens the database at path for reading only (feedback
// history): it creates nothing, migrates nothing and writes nothing, so it
// can run beside the app. A missing file fails with ErrNoDatabase, one of a
// newer schema with ErrNewerSchema. Only the read methods of the returned
// Store work (Find, ImageBytes, AnswerImages); Close releases it.
func OpenReadOnly(path string) (*Store, error) {
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if err := safefile.Check(path); errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("%w at %s", ErrNoDatabase, path)
	} else if err != nil { // a FIFO would hang the first read; Open refuses a link
		return nil, fmt.Errorf("store: %w", err)
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds()))
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: q.Encode()}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path
	}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	db.SetMaxOpenConns(1)
	var v int
	if err := db.QueryRow("PRAGMA user_version").Scan(&v); err != nil {
		db.Close()
		return nil, fmt.Errorf("%w (database %s)", wrap("open read-only", err), path)
	}
	if v > schemaVersion {
		db.Close()
		return nil, fmt.Errorf("store: schema version %d, this app knows up to %d: %w", v, schemaVersion, ErrNewerSchema)
	}
	if v < 1 {
		db.Close()
		return nil, fmt.Errorf("%w at %s (an empty file)", ErrNoDatabase, path)
	}
	return &Store{db: db, log: slog.New(slog.DiscardHandler)}, nil
}

// Filter selects questions for Find; its zero value selects all.
type Filter struct {
	LoopID string    // only this loop's questions
	Since  time.Time // only questions asked at or after it
	// Search keeps the questions whose title, client, tool, project,
	// context, prompts, options or replies contain it, case-insensitively,
	// and the approvals whose call or decision ("denied") does.
	Search string
	Limit  int // at most this many (newest first); <= 0: all
}

// Find lists the questions f selects, newest asked first, with their
// outcome, as History does.
func (s *Store) Find(f Filter) ([]Entry, error) {
	if s == nil {
		return nil, nil
	}
	query := historyColumns + ` WHERE 1 = 1`
	var args []any
	if f.LoopID != "" {
		query += ` AND q.loop_id = ?`
		args = append(args, f.LoopID)
	}
	if !f.Since.IsZero() {
		query += ` AND q.asked_at >= ?`
		args = append(args, f.Since.UnixMilli())
	}
	query += ` ORDER BY q.asked_at DESC, q.id DESC`
	rows, err := s.db.QueryContext(context.Background(), query, args...)
	if err != nil {
		return nil, wrap("find", err)
	}
	defer rows.Close()
	needle := strings.ToLower(f.Search)
	var out []Entry
	for rows.Next() {
		e, err := scanEntry(rows, "find")
		if err != nil {
			return nil, err
		}
		if needle != "" && !strings.Contains(searchText(e), needle) {
			continue
		}
		out = append(out, e)
		if f.Limit > 0 && len(out) == f.Limit {
			break
		}
	}
	return out, wrap("find", rows.Err())
}

// searchText is the lower-cased text Find's Search looks in.
func searchText(e Entry) string {
	var b strings.Builder
	q := e.Question
	b.WriteString(q.Title + "\n" + q.Client + "\n" + q.Source + "\n" + q.Project)
	for _, f := range q.Context {
		b.WriteString("\n" + f.Label + ": " + f.Value)
	}
	for _, p := range q.Prompts {
		b.WriteString("\n" + p.Header + "\n" + p.Markdown)
		for _, o := range p.Options {
			b.WriteString("\n" + o.Label)
		}
	}
	if q.Call != nil {
		b.WriteString("\n" + q.Call.Tool + "\n" + q.Call.Subject)
	}
	if e.Answer != nil {
		for _, r := range e.Answer.Replies {
			b.WriteString("\n" + r.Text + "\n" + strings.Join(r.Selected, "\n"))
		}
		if v, ok := q.Verdict(*e.Answer); ok { // an approval: what it decided
			b.WriteString("\n" + string(v.Kind))
		}
	}
	return strings.ToLower(b.String())
}
