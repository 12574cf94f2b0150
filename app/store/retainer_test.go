package store

import (
	"log/slog"
	"path/filepath"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// month is the settings' default retention: 30 days, 256 MiB of images.
var month = Retention{MaxAge: 30 * 24 * time.Hour, MaxImageBytes: 256 << 20}

func TestRetainerPrunesWhenStarted(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "feedback.db"), nil)
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
	passes := make(chan Pruned, 1)
	r := &Retainer{onPass: func(p Pruned, err error) {
		if err != nil {
			t.Error(err)
		}
		passes <- p
	}}
	r.Update(month)
	r.Start(st, slog.New(slog.DiscardHandler))
	p := <-passes
	r.Stop()
	r.Stop() // twice is harmless
	r.Update(month)
	r.Start(st, slog.New(slog.DiscardHandler))
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

// New bounds (the settings changed) run a pass with them at once.
func TestRetainerUpdateRunsAPass(t *testing.T) {
	st, err := Open(filepath.Join(t.TempDir(), "feedback.db"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	tenDays := time.Now().Add(-10 * 24 * time.Hour)
	if err := st.SaveQuestion(wire.Question{ID: "q", Prompts: []wire.Prompt{{Markdown: "m"}}}, tenDays); err != nil {
		t.Fatal(err)
	}
	if err := st.SaveAnswer(wire.Answer{QuestionID: "q", Status: wire.StatusAnswered}, tenDays, true); err != nil {
		t.Fatal(err)
	}
	passes := make(chan Pruned, 4)
	r := &Retainer{onPass: func(p Pruned, err error) {
		if err != nil {
			t.Error(err)
		}
		passes <- p
	}}
	defer r.Stop()
	r.Update(month)
	r.Start(st, slog.New(slog.DiscardHandler))
	if p := <-passes; p.ByAge != 0 {
		t.Fatalf("30 days kept: pass %+v pruned the 10-day-old question", p)
	}
	r.Update(month) // the same bounds: no pass
	r.Update(Retention{MaxAge: 7 * 24 * time.Hour, MaxImageBytes: month.MaxImageBytes})
	select {
	case p := <-passes:
		if p.ByAge != 1 {
			t.Fatalf("7 days kept: pass %+v, want the 10-day-old question pruned", p)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no pass after the bounds changed")
	}
	select {
	case p := <-passes:
		t.Fatalf("an extra pass %+v for the unchanged bounds", p)
	default:
	}
}
