package store

import (
	"context"
	"database/sql"
)

// statements are prepared once per Store. Inside a transaction they are
// used through tx.Stmt.
type statements struct {
	questionState  *sql.Stmt // id → state, answers.delivered (NULL: no answer)
	insertQuestion *sql.Stmt
	updateQuestion *sql.Stmt // the question's JSON and indexed columns, nothing of its state
	reopenQuestion *sql.Stmt // state open again; asked_at replaced unless NULL
	openQuestions  *sql.Stmt
	leftOpen       *sql.Stmt // open questions with ask_id, kept_open and asked_at
	keptOpen       *sql.Stmt // sets kept_open of an open question
	setSnooze      *sql.Stmt // sets the snooze of an open question
	withdraw       *sql.Stmt
	endQuestion    *sql.Stmt // state = the answer's status
	archiveRound   *sql.Stmt // copies an ended question to a row of its own (id ?2, round_of ?1)
	moveAnswer     *sql.Stmt // the answer of ?1 to ?2
	moveImages     *sql.Stmt // the images of ?1 to ?2
	nextRound      *sql.Stmt // how many earlier asks of ?1 were kept
	idTaken        *sql.Stmt

	draftText     *sql.Stmt // the fast path of SaveDraft for a draft without images
	draftKeep     *sql.Stmt // the fast path of SaveDraft when the images are unchanged
	upsertDraft   *sql.Stmt
	selectDraft   *sql.Stmt
	deleteDraft   *sql.Stmt
	upsertAnswer  *sql.Stmt
	delivered     *sql.Stmt
	undelivered   *sql.Stmt
	undeliveredOf *sql.Stmt // the question (or second window) asked as id whose answer waits longest

	insertImage  *sql.Stmt
	deleteImages *sql.Stmt // of one kind
	selectImages *sql.Stmt

	historyAll  *sql.Stmt
	historyLoop *sql.Stmt
	prune       *sql.Stmt
}

const historyColumns = `
SELECT q.id, q.question, q.asked_at, q.state, a.answer, a.answered_at,
       (SELECT count(*) FROM images i WHERE i.question_id = q.id AND i.kind = 'answer')
FROM questions q LEFT JOIN answers a ON a.question_id = q.id`

func (st *statements) list() []struct {
	stmt **sql.Stmt
	sql  string
} {
	return []struct {
		stmt **sql.Stmt
		sql  string
	}{
		{&st.questionState, `SELECT q.state, a.delivered FROM questions q
			LEFT JOIN answers a ON a.question_id = q.id WHERE q.id = ?`},
		{&st.insertQuestion, `INSERT INTO questions(id, source, client, loop_id, title, asked_at, state, question, ask_id)
			VALUES (?, ?, ?, ?, ?, ?, 'open', ?, ?)`},
		{&st.updateQuestion, `UPDATE questions SET source = ?, client = ?, loop_id = ?, title = ?, question = ?, ask_id = ?
			WHERE id = ?`},
		{&st.reopenQuestion, `UPDATE questions SET state = 'open', ended_at = NULL, kept_open = 0, snooze = '', asked_at = coalesce(?, asked_at)
			WHERE id = ?`},
		{&st.openQuestions, `SELECT question FROM questions WHERE state = 'open' ORDER BY asked_at, id`},
		{&st.leftOpen, `SELECT question, ask_id, kept_open, asked_at, snooze FROM questions WHERE state = 'open' ORDER BY asked_at, id`},
		{&st.keptOpen, `UPDATE questions SET kept_open = ? WHERE id = ? AND state = 'open'`},
		{&st.setSnooze, `UPDATE questions SET snooze = ? WHERE id = ? AND state = 'open'`},
		{&st.withdraw, `UPDATE questions SET state = 'withdrawn', ended_at = ? WHERE id = ? AND state = 'open'`},
		{&st.endQuestion, `UPDATE questions SET state = ?, ended_at = ? WHERE id = ?`},
		{&st.archiveRound, `INSERT INTO questions(id, source, client, loop_id, title, asked_at, state, ended_at, question, ask_id, kept_open, round_of)
			SELECT ?2, source, client, loop_id, title, asked_at, state, ended_at, question, ask_id, 0, id FROM questions WHERE id = ?1`},
		{&st.moveAnswer, `UPDATE answers SET question_id = ?2 WHERE question_id = ?1`},
		{&st.moveImages, `UPDATE images SET question_id = ?2 WHERE question_id = ?1`},
		{&st.nextRound, `SELECT count(*) + 1 FROM questions WHERE round_of = ?`},
		{&st.idTaken, `SELECT count(*) FROM questions WHERE id = ?`},

		// One statement each: insert or update the draft of a question that
		// is open or withdrawn, unless that would leave its stored images
		// out of step (then nothing changes and SaveDraft takes the slow path).
		{&st.draftText, `INSERT INTO drafts(question_id, replies, images_sig, updated_at)
			SELECT ?1, ?2, '', ?3 WHERE EXISTS
				(SELECT 1 FROM questions WHERE id = ?1 AND state IN ('open', 'withdrawn'))
			ON CONFLICT(question_id) DO UPDATE SET replies = excluded.replies, updated_at = excluded.updated_at
				WHERE drafts.images_sig = ''`},
		{&st.draftKeep, `UPDATE drafts SET replies = ?, updated_at = ? WHERE question_id = ? AND images_sig = ?
			AND EXISTS (SELECT 1 FROM questions WHERE id = drafts.question_id AND state IN ('open', 'withdrawn'))`},
		{&st.upsertDraft, `INSERT INTO drafts(question_id, replies, images_sig, updated_at) VALUES (?, ?, ?, ?)
			ON CONFLICT(question_id) DO UPDATE SET replies = excluded.replies,
				images_sig = excluded.images_sig, updated_at = excluded.updated_at`},
		{&st.selectDraft, `SELECT d.replies, d.updated_at, i.mime, i.name, i.data FROM drafts d
			LEFT JOIN images i ON i.question_id = d.question_id AND i.kind = 'draft'
			WHERE d.question_id = ? ORDER BY i.idx`},
		{&st.deleteDraft, `DELETE FROM drafts WHERE question_id = ?`},
		{&st.upsertAnswer, `INSERT INTO answers(question_id, status, answer, answered_at, delivered) VALUES (?, ?, ?, ?, ?)
			ON CONFLICT(question_id) DO UPDATE SET status = excluded.status, answer = excluded.answer,
				answered_at = excluded.answered_at, delivered = excluded.delivered`},
		{&st.delivered, `UPDATE answers SET delivered = 1 WHERE question_id = ?`},
		{&st.undelivered, `SELECT a.answer, i.mime, i.name, i.data FROM answers a
			LEFT JOIN images i ON i.question_id = a.question_id AND i.kind = 'answer'
			WHERE a.question_id = ? AND a.delivered = 0 ORDER BY i.idx`},
		{&st.undeliveredOf, `SELECT a.question_id FROM answers a JOIN questions q ON q.id = a.question_id
			WHERE a.delivered = 0 AND (q.id = ?1 OR q.ask_id = ?1) ORDER BY a.answered_at, a.question_id LIMIT 1`},

		{&st.insertImage, `INSERT INTO images(question_id, kind, idx, mime, name, data) VALUES (?, ?, ?, ?, ?, ?)`},
		{&st.deleteImages, `DELETE FROM images WHERE question_id = ? AND kind = ?`},
		{&st.selectImages, selectImagesSQL},

		{&st.historyAll, historyColumns + ` ORDER BY q.asked_at DESC, q.id DESC LIMIT ?`},
		{&st.historyLoop, historyColumns + ` WHERE q.loop_id = ? ORDER BY q.asked_at DESC, q.id DESC LIMIT ?`},
		{&st.prune, `DELETE FROM questions WHERE state <> 'open' AND coalesce(ended_at, asked_at) < ?`},
	}
}

func (st *statements) prepare(ctx context.Context, db *sql.DB) error {
	for _, s := range st.list() {
		p, err := db.PrepareContext(ctx, s.sql)
		if err != nil {
			st.close()
			return wrap("prepare", err)
		}
		*s.stmt = p
	}
	return nil
}

func (st *statements) close() {
	for _, s := range st.list() {
		if *s.stmt != nil {
			(*s.stmt).Close()
		}
	}
}

// selectImagesSQL reads the images of one question and kind, in order.
const selectImagesSQL = `SELECT mime, name, data FROM images WHERE question_id = ? AND kind = ? ORDER BY idx`
