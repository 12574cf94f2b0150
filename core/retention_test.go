package core

import (
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"feedback/settings"
	"feedback/store"
	"feedback/wire"
)

func TestRetainerPrunesWhenStarted(t *testing.T) {
	st, err := store.Open(filepath.Join(t.TempDir(), "feedback.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	long := time.Now().Add(-40 * 24 * time.Hour)
	for _, id := range []string{"old", "oldopen"} {
		if err := st.SaveQuestion(wire.Question{ID: id, Prompts: []wire.Prompt{{Markdown: "m"}}}, long); err != nil {
			t.Fatal(err)
		}
	}
	if err := st.SaveAnswer(wire.Answer{QuestionID: "old", Status: wire.StatusAnswered}, long, true); err != nil {
		t.Fatal(err)
	}
	passes := make(chan store.Pruned, 1)
	r := &Retainer{onPass: func(p store.Pruned, err error) {
		if err != nil {
			t.Error(err)
		}
		passes <- p
	}}
	r.Start(st, settings.Default(), slog.New(slog.DiscardHandler))
	p := <-passes
	r.Stop()
	r.Stop() // twice is harmless
	r.Start(st, settings.Default(), slog.New(slog.DiscardHandler))
	select {
	case p := <-passes:
		t.Fatalf("a start after stop ran a pass: %+v", p)
	default: // start after stop returns without starting a goroutine
	}
	if p.ByAge != 1 {
		t.Fatalf("first pass %+v; want the 40-day-old answered question deleted", p)
	}
	h, err := st.History(0, "")
	if err != nil || len(h) != 1 || h[0].Question.ID != "oldopen" {
		t.Fatalf("left %+v, %v; want only the open question", h, err)
	}
}
