package store

import (
	"context"
	"database/sql"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	"feedback/internal/safefile"
)

// Health is what Check found in a database file.
type Health struct {
	Path    string
	Size    int64    // bytes of the main file (the WAL not included)
	Schema  int      // PRAGMA user_version
	Current int      // the schema version this build writes
	Problem []string // PRAGMA integrity_check's complaints (at most 10); empty when healthy
}

// Check opens the database at path read-only, without creating, migrating
// or moving anything, and runs PRAGMA integrity_check. An error means the
// file could not be examined at all: missing, unreadable, not a database,
// a link, FIFO or other non-regular file (which Open refuses too), or
// locked beyond BusyTimeout. A newer schema is not an error: compare
// Schema with Current.
func Check(ctx context.Context, path string) (Health, error) {
	h := Health{Path: path, Current: schemaVersion}
	if err := safefile.Check(path); err != nil { // a FIFO would hang SQLite's first read
		return h, fmt.Errorf("store: %w", err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		return h, fmt.Errorf("store: %w", err)
	}
	h.Size = fi.Size()
	abs, err := filepath.Abs(path)
	if err != nil {
		return h, fmt.Errorf("store: %w", err)
	}
	q := url.Values{}
	q.Set("mode", "ro")
	q.Set("_busy_timeout", fmt.Sprint(BusyTimeout.Milliseconds()))
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: q.Encode()}
	if !strings.HasPrefix(u.Path, "/") {
		u.Path = "/" + u.Path
	}
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return h, fmt.Errorf("store: %w", err)
	}
	defer db.Close()
	ctx, cancel := context.WithTimeout(ctx, BusyTimeout+30*time.Second)
	defer cancel()
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&h.Schema); err != nil {
		return h, fmt.Errorf("store: %s: %w", path, err)
	}
	rows, err := db.QueryContext(ctx, "PRAGMA integrity_check(10)")
	if err != nil {
		return h, fmt.Errorf("store: %s: %w", path, err)
	}
	defer rows.Close()
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return h, fmt.Errorf("store: %s: %w", path, err)
		}
		if line != "ok" {
			h.Problem = append(h.Problem, line)
		}
	}
	if err := rows.Err(); err != nil {
		return h, fmt.Errorf("store: %s: %w", path, err)
	}
	return h, nil
}
