package store

import (
	"database/sql"
	"errors"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"feedback/ipc/wire"
)

func noteTexts(ns []wire.Note) []string {
	var s []string
	for _, n := range ns {
		s = append(s, n.Text)
	}
	return s
}

// TakeNotes hands out a client's notes, oldest first, for any project or
// the one they name, and deletes them: a second take finds nothing. Names
// match exactly as written (trimmed): another client calling itself
// CLAUDE-CODE takes nothing of claude-code's (issue 19).
func TestTakeNotes(t *testing.T) {
	s, _ := newStore(t)
	for _, n := range []wire.Note{
		{Client: "claude-code", Text: "first", Created: at(1)},
		{Client: " claude-code ", Project: "web", Text: "web only", Created: at(2)},
		{Client: "claude-code", Project: "api", Text: "api only", Created: at(3)},
		{Client: "codex", Text: "for codex", Created: at(0)},
		{Client: "claude-code", Project: "WEB", Text: "WEB only", Created: at(4)},
	} {
		if _, err := s.AddNote(n); err != nil {
			t.Fatal(err)
		}
	}
	if got, err := s.TakeNotes("CLAUDE-CODE", "web"); err != nil || len(got) != 0 {
		t.Fatalf("TakeNotes(CLAUDE-CODE, web) = %q, %v; want nothing: names match exactly", noteTexts(got), err)
	}
	got, err := s.TakeNotes(" claude-code", "web")
	must(t, err)
	if want := []string{"first", "web only"}; !reflect.DeepEqual(noteTexts(got), want) {
		t.Fatalf("TakeNotes(claude-code, web) = %q, want %q", noteTexts(got), want)
	}
	if got[0].Created != at(1) || got[1].Client != "claude-code" {
		t.Errorf("a taken note = %+v / %+v, want its time and its trimmed client", got[0], got[1])
	}
	again, err := s.TakeNotes("claude-code", "web")
	must(t, err)
	if len(again) != 0 {
		t.Fatalf("a second take found %q", noteTexts(again))
	}
	rest, err := s.Notes()
	must(t, err)
	if want := []string{"for codex", "api only", "WEB only"}; !reflect.DeepEqual(noteTexts(rest), want) {
		t.Fatalf("left waiting: %q, want %q", noteTexts(rest), want)
	}
	if got, _ := s.TakeNotes("", ""); got != nil {
		t.Errorf("TakeNotes of no client = %q", noteTexts(got))
	}
}

// Notes survive closing and opening the database.
func TestNotesSurviveReopen(t *testing.T) {
	s, path := newStore(t)
	if _, err := s.AddNote(wire.Note{Client: "codex", Text: "keep me"}); err != nil {
		t.Fatal(err)
	}
	must(t, s.Close())
	s = openAt(t, path)
	got, err := s.TakeNotes("codex", "")
	must(t, err)
	if want := []string{"keep me"}; !reflect.DeepEqual(noteTexts(got), want) {
		t.Fatalf("after reopening: %q, want %q", noteTexts(got), want)
	}
}

// A note must name a client and hold 1 byte to 4 KiB of text; at most
// wire.MaxPendingNotes wait; PutBackNotes returns taken notes past the cap.
func TestNoteBounds(t *testing.T) {
	s, _ := newStore(t)
	for name, n := range map[string]wire.Note{
		"no client":    {Client: "  ", Text: "x"},
		"empty":        {Client: "c", Text: " \n "},
		"too long":     {Client: "c", Text: strings.Repeat("x", wire.MaxNoteBytes+1)},
		"long client":  {Client: strings.Repeat("c", wire.MaxNoteClientBytes+1), Text: "x"},
		"long project": {Client: "c", Project: strings.Repeat("p", wire.MaxProjectBytes+1), Text: "x"},
		"not utf-8":    {Client: "c", Text: "\xff"},
	} {
		if _, err := s.AddNote(n); err == nil {
			t.Errorf("%s: AddNote accepted it", name)
		}
	}
	if _, err := s.AddNote(wire.Note{Client: "c", Text: strings.Repeat("x", wire.MaxNoteBytes)}); err != nil {
		t.Fatalf("a note of exactly 4 KiB: %v", err)
	}
	for i := 1; i < wire.MaxPendingNotes; i++ {
		if _, err := s.AddNote(wire.Note{Client: "c", Text: "n"}); err != nil {
			t.Fatalf("note %d: %v", i+1, err)
		}
	}
	if _, err := s.AddNote(wire.Note{Client: "d", Text: "one too many"}); !errors.Is(err, ErrTooManyNotes) {
		t.Fatalf("note %d: err = %v, want ErrTooManyNotes", wire.MaxPendingNotes+1, err)
	}
	taken, err := s.TakeNotes("c", "")
	must(t, err)
	if len(taken) != wire.MaxPendingNotes {
		t.Fatalf("took %d notes, want %d", len(taken), wire.MaxPendingNotes)
	}
	if _, err := s.AddNote(wire.Note{Client: "d", Text: "now there is room"}); err != nil {
		t.Fatal(err)
	}
	must(t, s.PutBackNotes(taken))
	all, err := s.Notes()
	must(t, err)
	if len(all) != wire.MaxPendingNotes+1 || all[0].Text != taken[0].Text {
		t.Fatalf("after putting back: %d notes, first %q", len(all), all[0].Text)
	}
}

// NoteTargets lists each client and project that asked, latest first,
// "feedback ask" for the CLI's questions.
func TestNoteTargets(t *testing.T) {
	s, _ := newStore(t)
	q1 := question("q1", "")
	q1.Project = "web"
	q2 := question("q2", "")
	q3 := question("q3", "")
	q3.Project = "web"
	q4 := wire.Question{ID: "q4", Source: "ask", Prompts: []wire.Prompt{{Markdown: "?"}}}
	q5 := question("q5", "")
	q5.Client = ""
	for i, q := range []wire.Question{q1, q2, q3, q4, q5} {
		must(t, s.SaveQuestion(q, at(i)))
	}
	got, err := s.NoteTargets()
	must(t, err)
	want := []wire.NoteTarget{{Client: wire.ClientAsk}, {Client: "claude-code", Project: "web"}, {Client: "claude-code"}}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("NoteTargets = %+v, want %+v", got, want)
	}
}

// A database of schema version 2 gains the notes table.
func TestMigrateToNotes(t *testing.T) {
	path := filepath.Join(t.TempDir(), "v2.db")
	db, err := sql.Open("sqlite", dsn(path, testBusy))
	must(t, err)
	_, err = db.Exec(migrations[0] + migrations[1] + `PRAGMA user_version = 2;`)
	must(t, err)
	must(t, db.Close())
	s := openAt(t, path)
	if _, err := s.AddNote(wire.Note{Client: "c", Text: "x"}); err != nil {
		t.Fatal(err)
	}
}

// A nil Store keeps nothing and fails nothing, but still checks the note.
func TestNotesNilStore(t *testing.T) {
	var s *Store
	if _, err := s.AddNote(wire.Note{Client: "c", Text: "x"}); err != nil {
		t.Error(err)
	}
	if _, err := s.AddNote(wire.Note{Client: "c"}); err == nil {
		t.Error("an empty note accepted")
	}
	if n, err := s.TakeNotes("c", ""); n != nil || err != nil {
		t.Error(n, err)
	}
}
