package store

import (
	"database/sql"
	"path/filepath"
	"reflect"
	"testing"

	"feedback/ipc/wire"

	_ "modernc.org/sqlite"
)

// A question kept open for its caller to come back is listed as such after
// a crash; one whose caller waited is not; asking it again anew clears it.
func TestLeftOpenAndKeptOpen(t *testing.T) {
	s, _ := newStore(t)
	must(t, s.SaveQuestion(question("waited", ""), at(0)))
	must(t, s.SaveQuestion(question("kept", ""), at(1)))
	must(t, s.SetKeptOpen("kept", true))
	must(t, s.SaveQuestionAs(question("flag", ""), "", at(2), true))
	must(t, s.SaveQuestionAs(question("dup#1", ""), "dup", at(3), false))
	must(t, s.SaveQuestion(question("ended", ""), at(4)))
	must(t, s.SetKeptOpen("ended", true))
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "ended", Status: wire.StatusAnswered}, at(5), true))

	left, err := s.LeftOpen()
	must(t, err)
	type row struct {
		ID, AskID      string
		Kept, KeepOpen bool
	}
	var got []row
	for _, l := range left {
		got = append(got, row{l.Question.ID, l.AskID, l.KeptOpen, l.KeepOpen})
	}
	want := []row{{"waited", "waited", false, false}, {"kept", "kept", true, false}, {"flag", "flag", true, true}, {"dup#1", "dup", false, false}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("LeftOpen = %+v\nwant %+v", got, want)
	}
	if !left[1].AskedAt.Equal(at(1)) {
		t.Errorf("asked at %v, want %v", left[1].AskedAt, at(1))
	}

	// Withdrawn, then asked again: a new round, not kept open.
	must(t, s.MarkWithdrawn("kept", at(6)))
	must(t, s.SaveQuestion(question("kept", ""), at(7)))
	left, err = s.LeftOpen()
	must(t, err)
	for _, l := range left {
		if l.Question.ID == "kept" && l.KeptOpen {
			t.Error("asking again after a withdrawal left the question kept open")
		}
	}
	if err := s.SetKeptOpen("nope", true); err == nil {
		t.Error("SetKeptOpen of an unknown question succeeded")
	}
}

// The answer of a second window is found under the id its callers ask
// with; of several, the one given first, each once.
func TestUndeliveredOfSecondWindows(t *testing.T) {
	s, _ := newStore(t)
	must(t, s.SaveQuestion(question("q", ""), at(0)))
	must(t, s.SaveQuestionAs(question("q#b", ""), "q", at(1), false))
	must(t, s.SaveQuestionAs(question("q#c", ""), "q", at(2), false))
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "q#c", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "c"}}}, at(3), false))
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "q", Status: wire.StatusAnswered}, at(4), true))
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "q#b", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "b"}}}, at(5), false))
	for _, want := range []string{"q#c", "q#b"} {
		a, ok, err := s.Undelivered("q")
		must(t, err)
		if !ok || a.QuestionID != want {
			t.Fatalf("Undelivered(q) = %q, %v; want %q", a.QuestionID, ok, want)
		}
		must(t, s.MarkDelivered(a.QuestionID))
	}
	if _, ok, _ := s.Undelivered("q"); ok {
		t.Error("an answer was found after every one was delivered")
	}
	if _, ok, _ := s.Undelivered("q#b"); ok {
		t.Error("a delivered second window's answer was found by its own id")
	}
}

// A database written by the first schema version migrates: its questions
// keep their rows and are not kept open.
func TestMigrateFromVersion1(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v1.db")
	db, err := sql.Open("sqlite", dsn(path, testBusy))
	must(t, err)
	_, err = db.Exec(migrations[0] + `PRAGMA user_version = 1;
		INSERT INTO questions(id, asked_at, question) VALUES ('old', 1, '{"id":"old","prompts":[{"markdown":"x"}]}');`)
	must(t, err)
	must(t, db.Close())
	s := openAt(t, path)
	left, err := s.LeftOpen()
	must(t, err)
	if len(left) != 1 || left[0].AskID != "old" || left[0].KeptOpen {
		t.Fatalf("LeftOpen after the migration = %+v", left)
	}
}
