package store

import (
	"path/filepath"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// The History window reads an answer's images through a read-only store,
// which prepares no statements (AnswerImages used to dereference a nil one).
func TestReadOnlyAnswerImages(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	at := time.Date(2026, 3, 1, 9, 0, 0, 0, time.UTC)
	q := wire.Question{ID: "q1", Prompts: []wire.Prompt{{Markdown: "?"}}}
	if err := s.SaveQuestion(q, at); err != nil {
		t.Fatal(err)
	}
	imgs := []wire.Image{{MIME: "image/png", Data: []byte("one"), Name: "a.png"}, {MIME: "image/jpeg", Data: []byte("two")}}
	if err := s.SaveAnswer(wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, Images: imgs}, at, true); err != nil {
		t.Fatal(err)
	}
	s.Close()
	ro, err := OpenReadOnly(path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	got, err := ro.AnswerImages("q1")
	if err != nil || len(got) != 2 || string(got[0].Data) != "one" || got[0].Name != "a.png" || got[1].MIME != "image/jpeg" {
		t.Fatalf("AnswerImages = %+v, %v", got, err)
	}
}
