package store

import (
	"errors"
	"fmt"

	"modernc.org/sqlite"
	sqlite3 "modernc.org/sqlite/lib"
)

var (
	// ErrLocked: another process holds the database beyond BusyTimeout.
	ErrLocked = errors.New("database is locked by another process")
	// ErrCorrupt: the database file is damaged. Open recovers from it by
	// moving the file aside; a method that meets it later just fails.
	ErrCorrupt = errors.New("database is corrupt")
	// ErrNewerSchema: the database was written by a newer version of the app.
	// Open leaves it untouched.
	ErrNewerSchema = errors.New("database schema is newer than this app")
	// ErrNotFound: no question with that id is stored (or, for
	// MarkDelivered, it has no answer).
	ErrNotFound = errors.New("not found")
)

// wrap annotates err with the operation and, for the SQLite result codes
// that callers react to, with ErrLocked or ErrCorrupt, so errors.Is works
// without looking at SQLite's codes.
func wrap(op string, err error) error {
	if err == nil {
		return nil
	}
	if kind := classify(err); kind != nil && !errors.Is(err, kind) {
		return fmt.Errorf("store: %s: %w: %w", op, kind, err)
	}
	return fmt.Errorf("store: %s: %w", op, err)
}

// classify maps a SQLite error to ErrLocked or ErrCorrupt, or nil.
func classify(err error) error {
	var e *sqlite.Error
	if !errors.As(err, &e) {
		return nil
	}
	switch e.Code() & 0xff { // the primary result code
	case sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED:
		return ErrLocked
	case sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB:
		return ErrCorrupt
	}
	return nil
}
