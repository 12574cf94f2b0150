package store

import (
	"path/filepath"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// Issue 30: the snooze of an open question is kept (SetSnooze) and listed
// with it after a restart (LeftOpen); cleared, or asked again after it
// ended, it is gone.
func TestSnoozeIsKeptAcrossARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	s := openAt(t, path)
	until := time.Date(2026, 12, 5, 17, 37, 0, 0, time.UTC)
	for _, id := range []string{"a", "b", "c"} {
		must(t, s.SaveQuestion(wire.Question{ID: id, Prompts: []wire.Prompt{{Markdown: id}}}, time.Now()))
	}
	must(t, s.SetSnooze("a", &wire.Snooze{Until: until}))
	must(t, s.SetSnooze("b", &wire.Snooze{UntilBack: true}))
	must(t, s.SetSnooze("c", &wire.Snooze{Until: until}))
	must(t, s.SetSnooze("c", nil))
	must(t, s.Close())

	s = openAt(t, path)
	left, err := s.LeftOpen()
	must(t, err)
	got := map[string]*wire.Snooze{}
	for _, l := range left {
		got[l.Question.ID] = l.Snooze
	}
	if a := got["a"]; a == nil || !a.Until.Equal(until) || a.UntilBack {
		t.Errorf("a: snooze %+v, want until %v", a, until)
	}
	if b := got["b"]; b == nil || !b.UntilBack {
		t.Errorf("b: snooze %+v, want until back", b)
	}
	if c, ok := got["c"]; !ok || c != nil {
		t.Errorf("c: snooze %+v, want none", c)
	}
}
