package store

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"feedback/ipc/wire"
)

// States of a question besides the wire.Status of its answer
// (answered, dismissed, timeout).
const (
	StateOpen      = "open"      // asked, neither answered nor withdrawn
	StateWithdrawn = "withdrawn" // every caller went away before an answer; the draft is kept
)

// titleRunes bounds the title column (Question.Summary).
const titleRunes = 120

// LoopID is the value of q's "Loop" context line (the loop_id of
// interactive_feedback), or "".
func LoopID(q wire.Question) string {
	for _, f := range q.Context {
		if strings.EqualFold(strings.TrimSpace(f.Label), "Loop") {
			return strings.TrimSpace(f.Value)
		}
	}
	return ""
}

// ms is t as UTC unix milliseconds; the zero time means now.
func ms(t time.Time) int64 {
	if t.IsZero() {
		t = time.Now()
	}
	return t.UnixMilli()
}

func fromMS(v int64) time.Time { return time.UnixMilli(v).UTC() }

// SaveQuestion records q, asked at askedAt (zero: now). Saving an id again
// updates the question and, depending on how it ended:
//   - open: stays open, asked_at unchanged (a caller reattached);
//   - withdrawn: open again, asked_at and draft unchanged (asked again after
//     the caller went away, or restored after a crash);
//   - ended with an undelivered answer: unchanged, so the answer waits for
//     Undelivered;
//   - ended with a delivered answer: a new ask. The earlier one is kept
//     whole (question, outcome, answer and its images) as a record of its
//     own in History (Entry.Record "<id>#<n>"); the id is open again with
//     asked_at and no answer. Nothing the user answered is overwritten.
func (s *Store) SaveQuestion(q wire.Question, askedAt time.Time) error {
	return s.SaveQuestionAs(q, "", askedAt, false)
}

// SaveQuestionAs is SaveQuestion for a second window of a question: q.ID
// is the window's own id, askID the id its callers ask with (Undelivered
// finds its answer under askID too). An empty askID is SaveQuestion.
// keepOpen records that the ask asked to keep it open even when every
// caller has gone away (wire.Ask.KeepOpen; see Left).
func (s *Store) SaveQuestionAs(q wire.Question, askID string, askedAt time.Time, keepOpen bool) error {
	if s == nil {
		return nil
	}
	if askID == q.ID {
		askID = ""
	}
	if q.ID == "" {
		return errors.New("store: save question: empty id")
	}
	js, err := json.Marshal(storedQuestion{Question: q, KeepOpen: keepOpen})
	if err != nil {
		return fmt.Errorf("store: save question %q: %w", q.ID, err)
	}
	at := ms(askedAt)
	return s.inTx("save question "+q.ID, func(ctx context.Context, tx *sql.Tx) error {
		state, delivered, found, err := s.questionState(ctx, tx, q.ID)
		if err != nil {
			return err
		}
		if !found {
			_, err := tx.StmtContext(ctx, s.st.insertQuestion).ExecContext(ctx,
				q.ID, q.Source, q.Client, LoopID(q), q.Summary(titleRunes), at, string(js), askID)
			return err
		}
		// A delivered outcome ends an ask: keep it as its own record
		// before the id is asked anew (its own question JSON included).
		newAsk := state != StateOpen && state != StateWithdrawn && !(delivered.Valid && delivered.Int64 == 0)
		if newAsk {
			if err := s.archiveRound(ctx, tx, q.ID); err != nil {
				return err
			}
		}
		if _, err := tx.StmtContext(ctx, s.st.updateQuestion).ExecContext(ctx,
			q.Source, q.Client, LoopID(q), q.Summary(titleRunes), string(js), askID, q.ID); err != nil {
			return err
		}
		switch {
		case newAsk:
			_, err = tx.StmtContext(ctx, s.st.reopenQuestion).ExecContext(ctx, at, q.ID)
		case state == StateWithdrawn:
			_, err = tx.StmtContext(ctx, s.st.reopenQuestion).ExecContext(ctx, nil, q.ID)
		}
		// open: a caller reattached; an undelivered answer waits for its caller.
		return err
	})
}

// archiveRound moves the ended ask of question id — its row, answer and
// images — to a record of its own, "<id>#<n>" with round_of = id, so that
// id can be asked again without overwriting it. Call it inside the
// transaction of SaveQuestionAs.
func (s *Store) archiveRound(ctx context.Context, tx *sql.Tx, id string) error {
	var n int64
	if err := tx.StmtContext(ctx, s.st.nextRound).QueryRowContext(ctx, id).Scan(&n); err != nil {
		return err
	}
	rec := ""
	for ; ; n++ { // a record pruned away leaves a gap in the count, never a clash
		rec = fmt.Sprintf("%s#%d", id, n)
		var taken int64
		if err := tx.StmtContext(ctx, s.st.idTaken).QueryRowContext(ctx, rec).Scan(&taken); err != nil {
			return err
		}
		if taken == 0 {
			break
		}
	}
	for _, st := range []*sql.Stmt{s.st.archiveRound, s.st.moveAnswer, s.st.moveImages} {
		if _, err := tx.StmtContext(ctx, st).ExecContext(ctx, id, rec); err != nil {
			return err
		}
	}
	return nil
}

// questionState reads the state of question id and whether its answer was
// delivered (NULL when it has none).
func (s *Store) questionState(ctx context.Context, tx *sql.Tx, id string) (state string, delivered sql.NullInt64, found bool, err error) {
	err = tx.StmtContext(ctx, s.st.questionState).QueryRowContext(ctx, id).Scan(&state, &delivered)
	if errors.Is(err, sql.ErrNoRows) {
		return "", delivered, false, nil
	}
	return state, delivered, err == nil, err
}

// Open lists the questions asked but neither answered nor withdrawn, oldest
// first: after a crash, the ones to show again.
func (s *Store) Open() ([]wire.Question, error) {
	if s == nil {
		return nil, nil
	}
	ctx := context.Background()
	rows, err := s.st.openQuestions.QueryContext(ctx)
	if err != nil {
		return nil, wrap("open questions", err)
	}
	defer rows.Close()
	var qs []wire.Question
	for rows.Next() {
		var js string
		if err := rows.Scan(&js); err != nil {
			return nil, wrap("open questions", err)
		}
		var q wire.Question
		if err := json.Unmarshal([]byte(js), &q); err != nil {
			return nil, fmt.Errorf("store: open questions: decode: %w", err)
		}
		qs = append(qs, q)
	}
	return qs, wrap("open questions", rows.Err())
}

// storedQuestion is the question column: the question's JSON, and beside
// its fields the ask's keep_open (where wire.Question itself carried it
// before wire.Ask did, so older rows read the same).
type storedQuestion struct {
	wire.Question
	KeepOpen bool `json:"keep_open,omitempty"`
}

// Left is a question the last run left open.
type Left struct {
	Question wire.Question
	// AskID is the id its callers ask with: Question.ID, unless it is a
	// second window (SaveQuestionAs).
	AskID string
	// KeptOpen: open with nobody waiting, for its caller to come back
	// (SetKeptOpen, or KeepOpen); the app shows it again.
	KeptOpen bool
	// KeepOpen: its ask asked to keep it open even when every caller goes
	// away (SaveQuestionAs's keepOpen).
	KeepOpen bool
	AskedAt  time.Time
	// Snooze is its snooze (SetSnooze), nil when it is not snoozed: the
	// app keeps it snoozed until then, not shown at once.
	Snooze *wire.Snooze
}

// LeftOpen lists the questions asked but neither answered nor withdrawn,
// oldest first: after a crash, those kept open are shown again and the
// others, whose callers went with the crash, are withdrawn.
func (s *Store) LeftOpen() ([]Left, error) {
	if s == nil {
		return nil, nil
	}
	rows, err := s.st.leftOpen.QueryContext(context.Background())
	if err != nil {
		return nil, wrap("left open", err)
	}
	defer rows.Close()
	var out []Left
	for rows.Next() {
		var (
			js      string
			l       Left
			sq      storedQuestion
			kept    int64
			askedAt int64
			snooze  string
		)
		if err := rows.Scan(&js, &l.AskID, &kept, &askedAt, &snooze); err != nil {
			return nil, wrap("left open", err)
		}
		if snooze != "" {
			var s wire.Snooze
			if err := json.Unmarshal([]byte(snooze), &s); err == nil {
				l.Snooze = &s
			}
		}
		if err := json.Unmarshal([]byte(js), &sq); err != nil {
			return nil, fmt.Errorf("store: left open: decode: %w", err)
		}
		l.Question, l.KeepOpen = sq.Question, sq.KeepOpen
		if l.AskID == "" {
			l.AskID = l.Question.ID
		}
		l.KeptOpen = kept != 0 || l.KeepOpen
		l.AskedAt = fromMS(askedAt)
		out = append(out, l)
	}
	return out, wrap("left open", rows.Err())
}

// SetKeptOpen records whether the open question id is kept open for a
// caller that comes back (see Left.KeptOpen). A question that has ended is
// left as it is; an unknown one fails with ErrNotFound.
func (s *Store) SetKeptOpen(id string, on bool) error {
	if s == nil {
		return nil
	}
	return s.inTx("keep open "+id, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.StmtContext(ctx, s.st.keptOpen).ExecContext(ctx, on, id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n > 0 {
			return err
		}
		if _, _, found, err := s.questionState(ctx, tx, id); err != nil || found {
			return err
		}
		return ErrNotFound
	})
}

// SetSnooze records the snooze of the open question id (nil: it is not
// snoozed any more), which LeftOpen returns after a restart. A question
// that has ended, or an unknown one, is left as it is.
func (s *Store) SetSnooze(id string, sn *wire.Snooze) error {
	if s == nil {
		return nil
	}
	js := ""
	if sn != nil {
		b, err := json.Marshal(sn)
		if err != nil {
			return fmt.Errorf("store: snooze %s: %w", id, err)
		}
		js = string(b)
	}
	return s.inTx("snooze "+id, func(ctx context.Context, tx *sql.Tx) error {
		_, err := tx.StmtContext(ctx, s.st.setSnooze).ExecContext(ctx, js, id)
		return err
	})
}

// MarkWithdrawn records that every caller of the open question id went
// away at at (zero: now). Its draft is kept for a caller that asks again.
// A question that has already ended is left as it is.
func (s *Store) MarkWithdrawn(id string, at time.Time) error {
	if s == nil {
		return nil
	}
	return s.inTx("withdraw "+id, func(ctx context.Context, tx *sql.Tx) error {
		res, err := tx.StmtContext(ctx, s.st.withdraw).ExecContext(ctx, ms(at), id)
		if err != nil {
			return err
		}
		if n, err := res.RowsAffected(); err != nil || n > 0 {
			return err
		}
		if _, _, found, err := s.questionState(ctx, tx, id); err != nil || found {
			return err
		}
		return ErrNotFound
	})
}

// Entry is one ask of a question in the history: a question asked again
// under the same id after its answer was delivered gives one Entry per ask.
type Entry struct {
	// Record identifies this ask among all entries: Question.ID for the
	// latest ask of a question, "<Question.ID>#<n>" for its earlier ones.
	Record   string
	Question wire.Question
	AskedAt  time.Time
	// State is StateOpen, StateWithdrawn, or the Status of the answer.
	State string
	// Answer is nil while the question is open or withdrawn. Its Images are
	// not loaded (they can be MBs each): Images counts them and
	// AnswerImages loads them.
	Answer     *wire.Answer
	AnsweredAt time.Time // zero without an answer
	Images     int
}

// History lists up to limit questions (limit <= 0: all), newest first,
// those of one loop when loopID is not "".
func (s *Store) History(limit int, loopID string) ([]Entry, error) {
	if s == nil {
		return nil, nil
	}
	if limit <= 0 {
		limit = -1
	}
	ctx := context.Background()
	var rows *sql.Rows
	var err error
	if loopID == "" {
		rows, err = s.st.historyAll.QueryContext(ctx, limit)
	} else {
		rows, err = s.st.historyLoop.QueryContext(ctx, loopID, limit)
	}
	if err != nil {
		return nil, wrap("history", err)
	}
	defer rows.Close()
	var out []Entry
	for rows.Next() {
		e, err := scanEntry(rows, "history")
		if err != nil {
			return nil, err
		}
		out = append(out, e)
	}
	return out, wrap("history", rows.Err())
}

// Prune deletes the questions that ended (answered, dismissed, timed out or
// withdrawn) before olderThan, with their drafts, answers and images,
// undelivered answers included, and hands the freed space back to the file
// system. Open questions are kept whatever their age. It returns how many
// questions it deleted.
func (s *Store) Prune(olderThan time.Time) (int, error) {
	if s == nil {
		return 0, nil
	}
	ctx := context.Background()
	res, err := s.st.prune.ExecContext(ctx, olderThan.UnixMilli())
	if err != nil {
		return 0, wrap("prune", err)
	}
	n, err := res.RowsAffected()
	if err != nil {
		return 0, wrap("prune", err)
	}
	if n > 0 {
		if _, err := s.db.ExecContext(ctx, "PRAGMA incremental_vacuum"); err != nil {
			return int(n), wrap("prune: vacuum", err)
		}
	}
	return int(n), nil
}

// inTx runs f in a transaction (BEGIN IMMEDIATE) and commits it when f
// returns nil. Errors are wrapped with op.
func (s *Store) inTx(op string, f func(context.Context, *sql.Tx) error) error {
	ctx := context.Background()
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return wrap(op, err)
	}
	if err := f(ctx, tx); err != nil {
		tx.Rollback()
		return wrap(op, err)
	}
	return wrap(op, tx.Commit())
}

// scanEntry reads one row of (row id, question JSON, asked_at, state,
// answer JSON, answered_at, image count) into an Entry; op names the caller
// in errors.
func scanEntry(rows *sql.Rows, op string) (Entry, error) {
	var (
		qjs        string
		askedAt    int64
		ajs        sql.NullString
		answeredAt sql.NullInt64
		e          Entry
	)
	if err := rows.Scan(&e.Record, &qjs, &askedAt, &e.State, &ajs, &answeredAt, &e.Images); err != nil {
		return Entry{}, wrap(op, err)
	}
	if err := json.Unmarshal([]byte(qjs), &e.Question); err != nil {
		return Entry{}, fmt.Errorf("store: %s: decode question: %w", op, err)
	}
	e.AskedAt = fromMS(askedAt)
	if ajs.Valid {
		e.Answer = new(wire.Answer)
		if err := json.Unmarshal([]byte(ajs.String), e.Answer); err != nil {
			return Entry{}, fmt.Errorf("store: %s: decode answer: %w", op, err)
		}
		e.AnsweredAt = fromMS(answeredAt.Int64)
	}
	return e, nil
}
