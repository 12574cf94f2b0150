package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"feedback/ipc/wire"
)

// SaveAnswer records a as the outcome of its question, given at at (zero:
// now), and clears the question's draft. delivered is false when nobody
// was waiting for it: the answer is then kept for a caller that asks again
// (Undelivered) until MarkDelivered. Saving again replaces the outcome.
// An unknown question fails with ErrNotFound.
func (s *Store) SaveAnswer(a wire.Answer, at time.Time, delivered bool) error {
	if s == nil {
		return nil
	}
	id := a.QuestionID
	switch a.Status {
	case wire.StatusAnswered, wire.StatusDismissed, wire.StatusTimeout, wire.StatusAway:
	default:
		return fmt.Errorf("store: save answer %s: unknown status %q", id, a.Status)
	}
	images := a.Images
	a.Images = nil // stored as rows of images
	js, err := json.Marshal(a)
	if err != nil {
		return fmt.Errorf("store: save answer %s: %w", id, err)
	}
	when := ms(at)
	return s.inTx("save answer "+id, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.StmtContext(ctx, s.st.endQuestion).ExecContext(ctx, string(a.Status), when, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil {
			return err
		} else if n == 0 {
			return ErrNotFound
		}
		if _, err := tx.StmtContext(ctx, s.st.upsertAnswer).ExecContext(ctx,
			id, string(a.Status), string(js), when, delivered); err != nil {
			return err
		}
		if _, err := tx.StmtContext(ctx, s.st.deleteDraft).ExecContext(ctx, id); err != nil {
			return err
		}
		if _, err := tx.StmtContext(ctx, s.st.deleteImages).ExecContext(ctx, id, kindDraft); err != nil {
			return err
		}
		return s.replaceImages(ctx, tx, id, kindAnswer, images)
	})
}

// MarkDelivered records that the answer of question id reached a caller.
// A question without an answer fails with ErrNotFound.
func (s *Store) MarkDelivered(id string) error {
	if s == nil {
		return nil
	}
	res, err := s.st.delivered.ExecContext(context.Background(), id)
	if err != nil {
		return wrap("mark delivered "+id, err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return wrap("mark delivered "+id, err)
	}
	if n == 0 {
		return wrap("mark delivered "+id, ErrNotFound)
	}
	return nil
}

// Undelivered returns the answer of question id that was given after its
// caller stopped waiting, images included, and whether there is one. A
// second window asked as id (SaveQuestionAs) counts too; of several, the
// answer given first is returned, its QuestionID the window's own id (the
// id to pass to MarkDelivered).
func (s *Store) Undelivered(id string) (wire.Answer, bool, error) {
	if s == nil {
		return wire.Answer{}, false, nil
	}
	var qid string
	err := s.st.undeliveredOf.QueryRowContext(context.Background(), id).Scan(&qid)
	if errors.Is(err, sql.ErrNoRows) {
		return wire.Answer{}, false, nil
	}
	if err != nil {
		return wire.Answer{}, false, wrap("undelivered "+id, err)
	}
	id = qid
	rows, err := s.st.undelivered.QueryContext(context.Background(), id)
	if err != nil {
		return wire.Answer{}, false, wrap("undelivered "+id, err)
	}
	defer rows.Close()
	var (
		js     string
		found  bool
		images []wire.Image
	)
	for rows.Next() {
		var img nullImage
		if err := rows.Scan(&js, &img.mime, &img.name, &img.data); err != nil {
			return wire.Answer{}, false, wrap("undelivered "+id, err)
		}
		found = true
		if img.mime.Valid {
			images = append(images, img.image())
		}
	}
	if err := rows.Err(); err != nil {
		return wire.Answer{}, false, wrap("undelivered "+id, err)
	}
	if !found {
		return wire.Answer{}, false, nil
	}
	var a wire.Answer
	if err := json.Unmarshal([]byte(js), &a); err != nil {
		return wire.Answer{}, false, fmt.Errorf("store: undelivered %s: decode: %w", id, err)
	}
	a.Images = images
	return a, true, nil
}

// AnswerImages loads the images of the answer of the history record id
// (Entry.Record: the question's id for its latest ask), in order (History
// leaves them out).
func (s *Store) AnswerImages(id string) ([]wire.Image, error) {
	if s == nil {
		return nil, nil
	}
	var rows *sql.Rows
	var err error
	if s.st.selectImages != nil {
		rows, err = s.st.selectImages.QueryContext(context.Background(), id, kindAnswer)
	} else { // OpenReadOnly prepares no statements
		rows, err = s.db.QueryContext(context.Background(), selectImagesSQL, id, kindAnswer)
	}
	if err != nil {
		return nil, wrap("answer images "+id, err)
	}
	defer rows.Close()
	var images []wire.Image
	for rows.Next() {
		var img nullImage
		if err := rows.Scan(&img.mime, &img.name, &img.data); err != nil {
			return nil, wrap("answer images "+id, err)
		}
		images = append(images, img.image())
	}
	return images, wrap("answer images "+id, rows.Err())
}
