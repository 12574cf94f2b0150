package store

import (
	"database/sql"
	"reflect"
	"testing"

	"feedback/ipc/wire"
)

// The same question asked three times under one id (a client asking it
// again after each answer) gives three records, newest first, each with
// its own outcome, replies and images: the first answer (two options and
// a reply, an image) is not overwritten by the later ones.
func TestAskAgainKeepsEveryAsk(t *testing.T) {
	s, _ := newStore(t)
	img := wire.Image{MIME: "image/png", Name: "a.png", Data: []byte("png-1")}
	first := wire.Answer{QuestionID: "q", Status: wire.StatusAnswered,
		Replies: []wire.Reply{{Selected: []string{"Left", "Right"}, Text: "both, carefully"}}, Images: []wire.Image{img}}
	must(t, s.SaveQuestion(question("q", "L1"), at(0)))
	must(t, s.SaveAnswer(first, at(1), true))
	must(t, s.SaveQuestion(question("q", "L1"), at(2)))
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "q", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "no"}}}, at(3), true))
	must(t, s.SaveQuestion(question("q", "L1"), at(4)))
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "q", Status: wire.StatusDismissed}, at(5), true))

	h, err := s.History(0, "")
	must(t, err)
	var got []string
	for _, e := range h {
		got = append(got, e.Record+" "+e.State)
	}
	if want := []string{"q dismissed", "q#2 answered", "q#1 answered"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("records %v, want %v", got, want)
	}
	old := h[2]
	if old.Question.ID != "q" || !old.AskedAt.Equal(at(0)) || !old.AnsweredAt.Equal(at(1)) || old.Images != 1 ||
		!reflect.DeepEqual(old.Answer.Replies, first.Replies) {
		t.Fatalf("first ask = %+v, want its own question id, times, replies and image", old)
	}
	if h[1].Answer.Replies[0].Text != "no" {
		t.Fatalf("second ask replies %+v, want no", h[1].Answer.Replies)
	}
	imgs, err := s.AnswerImages("q#1")
	must(t, err)
	if len(imgs) != 1 || string(imgs[0].Data) != "png-1" {
		t.Fatalf("images of q#1 = %+v", imgs)
	}
	// The live id answers for the latest ask only: nothing waits, and a
	// new ask opens clean.
	if _, ok, _ := s.Undelivered("q"); ok {
		t.Fatal("an earlier delivered ask came back as undelivered")
	}
	if imgs, _ := s.AnswerImages("q"); len(imgs) != 0 {
		t.Fatalf("latest ask has images %+v, want none", imgs)
	}
	// Pruning an earlier record leaves no clash for the next one.
	must(t, s.SaveQuestion(question("q", "L1"), at(6)))
	if n, err := s.Prune(at(2)); err != nil || n != 1 {
		t.Fatalf("Prune = %d, %v; want the first ask gone", n, err)
	}
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "q", Status: wire.StatusAnswered}, at(7), true))
	must(t, s.SaveQuestion(question("q", "L1"), at(8)))
	h, err = s.History(0, "")
	must(t, err)
	if len(h) != 4 {
		t.Fatalf("after prune and two more asks: %d records, want 4", len(h))
	}
}

// An answer given while nobody waited is still collected by the caller
// that calls again under the question's id (call again), and only a
// delivered answer starts a new record.
func TestCallAgainCollectsTheKeptAnswer(t *testing.T) {
	s, _ := newStore(t)
	must(t, s.SaveQuestion(question("q", ""), at(0)))
	must(t, s.MarkWithdrawn("q", at(1)))
	must(t, s.SaveQuestion(question("q", ""), at(2))) // called again: the same ask
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "q", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "kept"}}}, at(3), false))
	must(t, s.SaveQuestion(question("q", ""), at(4))) // the app restarted, the shim calls again
	a, ok, err := s.Undelivered("q")
	if err != nil || !ok || a.Replies[0].Text != "kept" {
		t.Fatalf("Undelivered = %+v, %v, %v; want the kept answer", a, ok, err)
	}
	must(t, s.MarkDelivered("q"))
	h, err := s.History(0, "")
	must(t, err)
	if len(h) != 1 || h[0].Record != "q" || h[0].State != "answered" {
		t.Fatalf("History = %+v; want one record, answered", h)
	}
}

// schemaV3 is the schema as released up to version 3 (migrations 1–3),
// written out so that the fixture does not follow later edits.
const schemaV3 = `
CREATE TABLE questions (
	id TEXT PRIMARY KEY, source TEXT NOT NULL DEFAULT '', client TEXT NOT NULL DEFAULT '',
	loop_id TEXT NOT NULL DEFAULT '', title TEXT NOT NULL DEFAULT '', asked_at INTEGER NOT NULL,
	state TEXT NOT NULL DEFAULT 'open', ended_at INTEGER, question TEXT NOT NULL,
	ask_id TEXT NOT NULL DEFAULT '', kept_open INTEGER NOT NULL DEFAULT 0
) STRICT;
CREATE INDEX questions_by_state ON questions(state, asked_at);
CREATE INDEX questions_by_asked ON questions(asked_at);
CREATE INDEX questions_by_loop ON questions(loop_id, asked_at);
CREATE INDEX questions_by_ask_id ON questions(ask_id) WHERE ask_id <> '';
CREATE TABLE drafts (
	question_id TEXT PRIMARY KEY REFERENCES questions(id) ON DELETE CASCADE,
	replies TEXT NOT NULL, images_sig TEXT NOT NULL DEFAULT '', updated_at INTEGER NOT NULL
) STRICT;
CREATE TABLE answers (
	question_id TEXT PRIMARY KEY REFERENCES questions(id) ON DELETE CASCADE,
	status TEXT NOT NULL, answer TEXT NOT NULL, answered_at INTEGER NOT NULL, delivered INTEGER NOT NULL
) STRICT;
CREATE INDEX answers_undelivered ON answers(question_id) WHERE delivered = 0;
CREATE TABLE images (
	question_id TEXT NOT NULL REFERENCES questions(id) ON DELETE CASCADE,
	kind TEXT NOT NULL, idx INTEGER NOT NULL, mime TEXT NOT NULL, name TEXT NOT NULL, data BLOB NOT NULL,
	PRIMARY KEY (question_id, kind, idx)
) STRICT;
CREATE TABLE notes (
	id INTEGER PRIMARY KEY, client TEXT NOT NULL, project TEXT NOT NULL DEFAULT '',
	text TEXT NOT NULL, created INTEGER NOT NULL
) STRICT;
CREATE INDEX notes_by_client ON notes(lower(client), created);
PRAGMA user_version = 3;
`

// A database written by the previous release (schema 3) opens migrated:
// its questions, answers, images, drafts and notes are all there, and
// asking an answered one again keeps its answer as a record of its own.
func TestMigrateFromSchema3(t *testing.T) {
	path := t.TempDir() + "/feedback.db"
	db, err := sql.Open("sqlite", path)
	must(t, err)
	_, err = db.Exec(schemaV3)
	must(t, err)
	for _, stmt := range []string{
		`INSERT INTO questions(id, client, asked_at, state, ended_at, question) VALUES
			('a', 'claude-code', 1000, 'answered', 2000, '{"id":"a","title":"Deploy?","prompts":[{"markdown":"Deploy?"}]}'),
			('b', 'cursor', 3000, 'open', NULL, '{"id":"b","title":"Open one","prompts":[{"markdown":"Still open"}]}')`,
		`INSERT INTO answers VALUES ('a', 'answered', '{"question_id":"a","status":"answered","replies":[{"selected":["Left","Right"],"text":"both"}],"elapsed_ms":5}', 2000, 1)`,
		`INSERT INTO images VALUES ('a', 'answer', 0, 'image/png', 'x.png', x'89504e47')`,
		`INSERT INTO drafts VALUES ('b', '[{"text":"half typed"}]', '', 3500)`,
		`INSERT INTO notes(client, text, created) VALUES ('cursor', 'a note', 4000)`,
	} {
		_, err := db.Exec(stmt)
		must(t, err)
	}
	must(t, db.Close())

	s := openAt(t, path)
	var v int
	must(t, s.db.QueryRow("PRAGMA user_version").Scan(&v))
	if v != schemaVersion || v != 5 {
		t.Fatalf("user_version %d, want 5", v)
	}
	h, err := s.History(0, "")
	must(t, err)
	if len(h) != 2 || h[1].Record != "a" || h[1].Answer == nil || h[1].Answer.Replies[0].Text != "both" || h[1].Images != 1 {
		t.Fatalf("History after migration = %+v", h)
	}
	if d, ok, err := s.Draft("b"); err != nil || !ok || d.Replies[0].Text != "half typed" {
		t.Fatalf("draft after migration = %+v, %v, %v", d, ok, err)
	}
	notes, err := s.TakeNotes("cursor", "")
	must(t, err)
	if len(notes) != 1 {
		t.Fatalf("notes after migration = %v", notes)
	}
	q := wire.Question{ID: "a", Title: "Deploy?", Prompts: []wire.Prompt{{Markdown: "Deploy?"}}}
	must(t, s.SaveQuestion(q, at(0)))
	h, err = s.History(0, "")
	must(t, err)
	var recs []string
	for _, e := range h {
		recs = append(recs, e.Record+" "+e.State)
	}
	if want := []string{"a open", "b open", "a#1 answered"}; !reflect.DeepEqual(recs, want) {
		t.Fatalf("records %v, want %v", recs, want)
	}
	if imgs, err := s.AnswerImages("a#1"); err != nil || len(imgs) != 1 {
		t.Fatalf("images of the kept ask = %v, %v", imgs, err)
	}
}
