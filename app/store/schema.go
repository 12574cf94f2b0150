package store

import (
	"context"
	"database/sql"
	"fmt"
)

// migrations are the schema steps; migrations[i] takes the database from
// user_version i to i+1. Append new steps; never edit a released one.
var migrations = []string{
	// 1: questions, drafts, answers and their images.
	`
CREATE TABLE questions (
	id       TEXT PRIMARY KEY,
	source   TEXT NOT NULL DEFAULT '',
	client   TEXT NOT NULL DEFAULT '',
	loop_id  TEXT NOT NULL DEFAULT '',   -- the "Loop" context line, if any
	title    TEXT NOT NULL DEFAULT '',   -- Question.Summary
	asked_at INTEGER NOT NULL,           -- UTC unix ms
	state    TEXT NOT NULL DEFAULT 'open', -- open, withdrawn, or the answer's status
	ended_at INTEGER,                    -- UTC unix ms; NULL while open
	question TEXT NOT NULL               -- JSON of wire.Question
) STRICT;
CREATE INDEX questions_by_state ON questions(state, asked_at);
CREATE INDEX questions_by_asked ON questions(asked_at);
CREATE INDEX questions_by_loop ON questions(loop_id, asked_at);

-- The user's unfinished answer, one per question.
CREATE TABLE drafts (
	question_id TEXT PRIMARY KEY REFERENCES questions(id) ON DELETE CASCADE,
	replies     TEXT NOT NULL,           -- JSON of []wire.Reply
	images_sig  TEXT NOT NULL DEFAULT '', -- imagesSig of the draft's images; '' = none
	updated_at  INTEGER NOT NULL         -- UTC unix ms
) STRICT;

-- The outcome of a question, one per question.
CREATE TABLE answers (
	question_id TEXT PRIMARY KEY REFERENCES questions(id) ON DELETE CASCADE,
	status      TEXT NOT NULL,
	answer      TEXT NOT NULL,           -- JSON of wire.Answer without Images
	answered_at INTEGER NOT NULL,        -- UTC unix ms
	delivered   INTEGER NOT NULL         -- 0: nobody was waiting; kept for a caller that comes back
) STRICT;
CREATE INDEX answers_undelivered ON answers(question_id) WHERE delivered = 0;

-- Attachments of drafts and answers, out of the JSON because they can be MBs.
CREATE TABLE images (
	question_id TEXT NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
	kind        TEXT NOT NULL,           -- 'draft' or 'answer'
	idx         INTEGER NOT NULL,        -- position in Draft.Images / Answer.Images
	mime        TEXT NOT NULL,
	name        TEXT NOT NULL,
	data        BLOB NOT NULL,
	PRIMARY KEY (question_id, kind, idx)
) STRICT;
`,
	// 2: second windows of an identical question, and questions kept open
	// for a caller that comes back.
	`
-- The id its callers ask with, when it differs from id: a second window of
-- a question asked while another caller still waited on the identical one.
ALTER TABLE questions ADD COLUMN ask_id TEXT NOT NULL DEFAULT '';
-- 1: open with nobody waiting, for its caller to come back ("call again");
-- after a crash the app shows it again.
ALTER TABLE questions ADD COLUMN kept_open INTEGER NOT NULL DEFAULT 0;
CREATE INDEX questions_by_ask_id ON questions(ask_id) WHERE ask_id <> '';
`,
	// 3: notes the user wrote for an agent, waiting for its next result.
	`
CREATE TABLE notes (
	id      INTEGER PRIMARY KEY,
	client  TEXT NOT NULL,               -- the client it is for (wire.NoteClient), matched without case
	project TEXT NOT NULL DEFAULT '',    -- '' = any project of the client
	text    TEXT NOT NULL,
	created INTEGER NOT NULL             -- UTC unix ms
) STRICT;
CREATE INDEX notes_by_client ON notes(lower(client), created);
`,
	// 4: every ask its own record. A question asked again under its id
	// after its answer was delivered used to lose that answer; now the
	// earlier ask is kept as a row of its own (archiveRound), whose id is
	// "<id>#<n>" and whose round_of is the id it was asked as.
	`
ALTER TABLE questions ADD COLUMN round_of TEXT NOT NULL DEFAULT '';
CREATE INDEX questions_by_round_of ON questions(round_of) WHERE round_of <> '';
`,
	// 5: the snooze of an open question (SetSnooze), so that a restart of
	// the app does not end it early.
	`
ALTER TABLE questions ADD COLUMN snooze TEXT NOT NULL DEFAULT ''; -- JSON of wire.Snooze; '' = not snoozed
`,
}

// schemaVersion is the user_version this build writes.
var schemaVersion = len(migrations)

// migrate brings db up to schemaVersion, one transaction per step.
func migrate(ctx context.Context, db *sql.DB) error {
	var v int
	if err := db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return wrap("read schema version", err)
	}
	if v > schemaVersion {
		return fmt.Errorf("store: schema version %d, this app knows up to %d: %w", v, schemaVersion, ErrNewerSchema)
	}
	for ; v < schemaVersion; v++ {
		if err := migrateStep(ctx, db, v); err != nil {
			return err
		}
	}
	return nil
}

func migrateStep(ctx context.Context, db *sql.DB, from int) error {
	tx, err := db.BeginTx(ctx, nil)
	if err != nil {
		return wrap(fmt.Sprintf("migrate to version %d", from+1), err)
	}
	defer tx.Rollback()
	if _, err := tx.ExecContext(ctx, migrations[from]); err != nil {
		return wrap(fmt.Sprintf("migrate to version %d", from+1), err)
	}
	if _, err := tx.ExecContext(ctx, fmt.Sprintf("PRAGMA user_version = %d", from+1)); err != nil {
		return wrap(fmt.Sprintf("migrate to version %d", from+1), err)
	}
	return wrap(fmt.Sprintf("migrate to version %d", from+1), tx.Commit())
}
