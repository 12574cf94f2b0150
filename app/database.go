package app

import (
	"errors"
	"log/slog"
	"os"
	"time"

	"feedback/app/core"
	"feedback/app/store"
	"feedback/internal/settings"
)

// database is the SQLite store as the core's Store: the core defines what
// it records, package store keeps it.
type database struct{ *store.Store }

var _ core.Store = database{}

// LeftOpen implements core.Store.
func (d database) LeftOpen() ([]core.Left, error) {
	left, err := d.Store.LeftOpen()
	ls := make([]core.Left, len(left))
	for i, l := range left {
		ls[i] = core.Left(l)
	}
	return ls, err
}

// openDatabase is the inbox's Open: the database at path, or none when
// path is "" or opening fails (logged once, with the reason): the app then
// keeps what it has in memory. A corrupt file is moved aside by the store,
// which logs it. (The inbox then deals with the questions the previous run
// left open.)
func openDatabase(path string, log *slog.Logger) (*store.Store, error) {
	if path == "" {
		return nil, errors.New("persistence is off")
	}
	s, err := store.Open(path, log)
	if err != nil {
		log.Error("persistence is off: the database could not be opened; questions still work, but drafts and answers are kept in memory only",
			"path", path, "err", err, "locked", errors.Is(err, store.ErrLocked))
		return nil, err
	}
	log.Info("persistence is on", "path", path)
	return s, nil
}

// databasePath is where the app keeps its database: cfg's path, else
// $FEEDBACK_DB, else store.DefaultPath(). "off" turns persistence off ("").
func databasePath(configured string, log *slog.Logger) string {
	path := configured
	if path == "" {
		path = os.Getenv("FEEDBACK_DB")
	}
	if path == "off" {
		log.Info("persistence is off (FEEDBACK_DB=off): questions, drafts and answers are kept in memory only")
		return ""
	}
	if path == "" {
		var err error
		if path, err = store.DefaultPath(); err != nil {
			log.Error("persistence is off: no data directory", "err", err)
			return ""
		}
	}
	return path
}

// retention is the database's bounds in s: retention_days and
// retention_image_mib.
func retention(s settings.Settings) store.Retention {
	return store.Retention{
		MaxAge:        time.Duration(s.RetentionDays) * 24 * time.Hour,
		MaxImageBytes: int64(s.RetentionImageMiB) << 20,
	}
}
