package store

import (
	"testing"
	"time"

	"feedback/ipc/wire"
)

// A message is in the history as it came, in StateMessage, ended when it
// arrived; it is never left open for the next run.
func TestSaveMessage(t *testing.T) {
	s, _ := newStore(t)
	at := time.Date(2026, 12, 2, 9, 0, 0, 0, time.UTC)
	m := wire.Message{ID: "m1", Client: "claude-code", Project: "shop", Title: "PR opened", Text: "tests green, PR #12 opened"}
	if err := s.SaveMessage(m, at); err != nil {
		t.Fatal(err)
	}
	if err := s.SaveMessage(wire.Message{Text: "no id"}, at); err == nil {
		t.Error("a message without an id was saved")
	}
	es, err := s.History(10, "")
	if err != nil || len(es) != 1 {
		t.Fatalf("History = %+v, %v", es, err)
	}
	e := es[0]
	q := e.Question
	if e.State != StateMessage || !e.AskedAt.Equal(at) || q.Source != wire.SourceMessage || q.Client != "claude-code" ||
		q.Project != "shop" || q.Title != "PR opened" || q.Prompts[0].Markdown != m.Text {
		t.Errorf("entry %+v", e)
	}
	if left, err := s.LeftOpen(); err != nil || len(left) != 0 {
		t.Errorf("LeftOpen = %+v, %v", left, err)
	}
}
