package store

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"time"

	_ "modernc.org/sqlite" // registers the "sqlite" driver

	"feedback/internal/safefile"
	"feedback/internal/userdirs"
)

// BusyTimeout is how long an operation waits for a lock held by another
// process before it fails with ErrLocked.
const BusyTimeout = 2 * time.Second

// Store is the persistent record of questions, drafts and answers.
// It is safe for concurrent use.
type Store struct {
	db  *sql.DB // one connection: SQLite has one writer anyway, and it keeps transactions simple
	log *slog.Logger
	st  statements
}

// DefaultPath is where the app keeps its database: feedback.db in the data
// directory of userdirs: $XDG_DATA_HOME/feedback (~/.local/share/feedback)
// on Linux, ~/Library/Application Support/feedback on macOS,
// %LOCALAPPDATA%\feedback on Windows.
func DefaultPath() (string, error) {
	d, err := userdirs.Current()
	if err != nil {
		return "", fmt.Errorf("store: data directory: %w", err)
	}
	return filepath.Join(d.Data, "feedback.db"), nil
}

// Open opens the database at path, creating it (and its directory, 0700)
// when missing, with the file 0600. It runs in WAL mode with a busy timeout
// of BusyTimeout and migrates the schema to the current version.
//
// A symbolic link, a FIFO, a device or a directory at path is refused
// (safefile.ErrSymlink, safefile.ErrNotRegular: the error names the path
// and what to do): nothing is created, chmod-ed or moved, and nothing
// behind a link is touched.
//
// A corrupt file (not a database, or failing PRAGMA quick_check) is moved
// aside to path+".corrupt-<UTC timestamp>" and a fresh database created: the
// returned Store works, and a warning naming the moved file is logged.
// A database locked by another process beyond BusyTimeout fails with
// ErrLocked; one written by a newer app fails with ErrNewerSchema. On any
// error the caller runs without persistence (see the package comment).
// log may be nil.
func Open(path string, log *slog.Logger) (*Store, error) {
	return open(path, log, BusyTimeout)
}

func open(path string, log *slog.Logger, busy time.Duration) (*Store, error) {
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	path, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("store: create directory: %w", err)
	}
	s, err := openFile(path, log, busy)
	if err == nil || !errors.Is(err, ErrCorrupt) {
		return s, err
	}
	moved, merr := moveAside(path)
	if merr != nil {
		return nil, fmt.Errorf("%w (and moving it aside failed: %w)", err, merr)
	}
	log.Warn("database was corrupt: moved it aside and started a fresh one",
		"path", path, "moved_to", moved, "err", err)
	return openFile(path, log, busy)
}

// openFile opens, checks and migrates the database at the absolute path.
func openFile(path string, log *slog.Logger, busy time.Duration) (*Store, error) {
	// Create the file ourselves so that it is 0600: SQLite would create it
	// 0644, and gives its -wal and -shm files the mode of the database.
	// Never through a link, never a FIFO: the chmod is the descriptor's.
	f, err := safefile.OpenFile(path, os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	fi, err := f.Stat()
	if err == nil {
		err = f.Chmod(0o600)
	}
	f.Close()
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	fresh := fi.Size() == 0

	db, err := sql.Open("sqlite", dsn(path, busy))
	if err != nil {
		return nil, fmt.Errorf("store: %w", err)
	}
	db.SetMaxOpenConns(1)
	db.SetMaxIdleConns(1)
	db.SetConnMaxIdleTime(0)
	db.SetConnMaxLifetime(0)

	ctx := context.Background()
	s := &Store{db: db, log: log}
	err = setup(ctx, db, fresh)
	if err == nil {
		err = migrate(ctx, db)
	}
	if err == nil {
		err = s.st.prepare(ctx, db)
	}
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("%w (database %s)", err, path)
	}
	return s, nil
}

// dsn is the driver's name for the database at path: a file: URI (so no
// character of the path is taken for a parameter) with the connection
// settings that every connection applies when it opens. WAL mode and
// auto_vacuum are properties of the file, set once by setup: as connection
// settings they would need the write lock on every open.
func dsn(path string, busy time.Duration) string {
	q := url.Values{}
	q.Set("_busy_timeout", fmt.Sprint(busy.Milliseconds()))
	q.Add("_pragma", "foreign_keys(1)")
	q.Add("_pragma", "journal_size_limit(8388608)") // trim the WAL after big image writes
	q.Set("_synchronous", "NORMAL")                 // WAL: durable across a process crash; fsync at checkpoints
	q.Set("_txlock", "immediate")                   // every transaction writes: take the lock up front, under the busy timeout
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(path), RawQuery: q.Encode()}
	if !strings.HasPrefix(u.Path, "/") { // Windows: C:/x → /C:/x
		u.Path = "/" + u.Path
	}
	return u.String()
}

// setup opens the first connection, turns on incremental auto-vacuum (on a
// fresh file: it must precede the first table) and WAL mode (a no-op once
// the file is in WAL mode, so it takes no lock then), and runs PRAGMA
// quick_check. A file that is not a database or fails the check is
// reported as ErrCorrupt; a lock held elsewhere as ErrLocked.
func setup(ctx context.Context, db *sql.DB, fresh bool) error {
	if err := db.PingContext(ctx); err != nil {
		return wrap("open", err)
	}
	if fresh {
		// Lets Prune hand freed pages back to the file system.
		if _, err := db.ExecContext(ctx, "PRAGMA auto_vacuum = INCREMENTAL"); err != nil {
			return wrap("set auto_vacuum", err)
		}
	}
	var mode string
	if err := db.QueryRowContext(ctx, "PRAGMA journal_mode = WAL").Scan(&mode); err != nil {
		return wrap("set WAL mode", err)
	}
	if !strings.EqualFold(mode, "wal") {
		return fmt.Errorf("store: set WAL mode: the database stays in %q mode", mode)
	}
	rows, err := db.QueryContext(ctx, "PRAGMA quick_check(5)")
	if err != nil {
		return wrap("quick_check", err)
	}
	defer rows.Close()
	var problems []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			return wrap("quick_check", err)
		}
		if line != "ok" {
			problems = append(problems, line)
		}
	}
	if err := rows.Err(); err != nil {
		return wrap("quick_check", err)
	}
	if len(problems) > 0 {
		return fmt.Errorf("store: quick_check: %s: %w", strings.Join(problems, "; "), ErrCorrupt)
	}
	return nil
}

// moveAside renames the database at path, and its -wal, -shm and -journal
// files, to path+".corrupt-<UTC timestamp>" (plus the same suffixes), so
// that a fresh database can take its place and nothing is deleted. A stale
// WAL must go too: SQLite would replay it into the fresh file.
func moveAside(path string) (string, error) {
	stamp := time.Now().UTC().Format("20060102T150405Z")
	dst := path + ".corrupt-" + stamp
	for n := 2; exists(dst); n++ {
		dst = fmt.Sprintf("%s.corrupt-%s-%d", path, stamp, n)
	}
	if err := safefile.Check(path); err != nil { // what openFile checked is still there
		return "", err
	}
	if err := os.Rename(path, dst); err != nil {
		return "", err
	}
	for _, suffix := range []string{"-wal", "-shm", "-journal"} {
		if err := os.Rename(path+suffix, dst+suffix); err != nil && !errors.Is(err, os.ErrNotExist) {
			return dst, err
		}
	}
	return dst, nil
}

func exists(path string) bool {
	_, err := os.Lstat(path)
	return err == nil
}

// Close releases the database. The Store must not be used afterwards.
func (s *Store) Close() error {
	if s == nil {
		return nil
	}
	s.st.close()
	return wrap("close", s.db.Close())
}
