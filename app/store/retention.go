package store

import (
	"context"
	"database/sql"
	"time"
)

// Retention bounds what the database keeps of questions that ended. Open
// questions are never pruned, whatever their age or images.
type Retention struct {
	// MaxAge: ended questions older than this are deleted (Prune). 0: no
	// age limit.
	MaxAge time.Duration
	// MaxImageBytes bounds the images of the whole database: while their
	// total exceeds it, the ended questions with images are deleted, oldest
	// first (by when they ended). 0: no size limit. Images of open
	// questions' drafts count towards the total but are never deleted, so
	// the total can stay above the bound while they are open.
	MaxImageBytes int64
}

// Pruned says what Retain deleted.
type Pruned struct {
	ByAge, ByImages int // questions deleted by each rule
}

// Retain applies r at now: first the age limit, then the image bound.
// Freed pages go back to the file system through incremental auto-vacuum
// (the file is created with auto_vacuum = INCREMENTAL, see setup); a full
// VACUUM is never run, since it rewrites the whole file, needs as much
// free disk again and holds the write lock meanwhile.
func (s *Store) Retain(r Retention, now time.Time) (Pruned, error) {
	var p Pruned
	if s == nil {
		return p, nil
	}
	if r.MaxAge > 0 {
		n, err := s.Prune(now.Add(-r.MaxAge))
		p.ByAge = n
		if err != nil {
			return p, err
		}
	}
	if r.MaxImageBytes > 0 {
		n, err := s.pruneImages(r.MaxImageBytes)
		p.ByImages = n
		if err != nil {
			return p, err
		}
	}
	return p, nil
}

// ImageBytes is the total size of the images the database holds.
func (s *Store) ImageBytes() (int64, error) {
	if s == nil {
		return 0, nil
	}
	var n int64
	err := s.db.QueryRowContext(context.Background(), `SELECT coalesce(sum(length(data)), 0) FROM images`).Scan(&n)
	return n, wrap("image bytes", err)
}

// pruneImages deletes ended questions that have images, oldest first, until
// the images total at most max bytes, in one transaction.
func (s *Store) pruneImages(max int64) (int, error) {
	deleted := 0
	err := s.inTx("prune images", func(ctx context.Context, tx *sql.Tx) error {
		var total int64
		if err := tx.QueryRowContext(ctx, `SELECT coalesce(sum(length(data)), 0) FROM images`).Scan(&total); err != nil {
			return err
		}
		if total <= max {
			return nil
		}
		rows, err := tx.QueryContext(ctx, `
SELECT q.id, sum(length(i.data)) FROM questions q JOIN images i ON i.question_id = q.id
WHERE q.state <> 'open'
GROUP BY q.id ORDER BY coalesce(q.ended_at, q.asked_at), q.id`)
		if err != nil {
			return err
		}
		var victims []string
		for rows.Next() && total > max {
			var id string
			var size int64
			if err := rows.Scan(&id, &size); err != nil {
				rows.Close()
				return err
			}
			victims = append(victims, id)
			total -= size
		}
		if err := rows.Close(); err != nil {
			return err
		}
		for _, id := range victims {
			if _, err := tx.ExecContext(ctx, `DELETE FROM questions WHERE id = ? AND state <> 'open'`, id); err != nil {
				return err
			}
		}
		deleted = len(victims)
		return nil
	})
	if err != nil {
		return 0, err
	}
	if deleted > 0 {
		if _, err := s.db.ExecContext(context.Background(), "PRAGMA incremental_vacuum"); err != nil {
			return deleted, wrap("prune images: vacuum", err)
		}
	}
	return deleted, nil
}
