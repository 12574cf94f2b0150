package historywin

import (
	"path/filepath"
	"strings"
	"testing"

	"feedback/app/store"
	"feedback/internal/history/historytest"
)

// An approval whose client stopped waiting (its callers went away, so the
// app withdrew it) is listed as answered elsewhere, in neutral, and its
// detail says that nothing was decided here — never "withdrawn", denied
// or timed out.
func TestApprovalAnsweredElsewhere(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := store.Open(path, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.SaveQuestion(historytest.ApprovalQ("gone", "make deploy"), historytest.T0); err != nil {
		t.Fatal(err)
	}
	if err := s.MarkWithdrawn("gone", historytest.T0.Add(20e9)); err != nil {
		t.Fatal(err)
	}
	s.Close()
	h := open(t, path)
	h.wait(t, "list")
	h.wantRows(t, "[elsewhere] Bash `make deploy` · 1 h · claude-code · shop")
	o := h.w.newListRow()
	h.w.updateListRow(0, o)
	if b := o.(*rowHolder).row.badge; b.tone != toneNeutral {
		t.Errorf("badge %q: tone %d, want neutral", b.Text(), b.tone)
	}
	h.w.list.Select(0)
	got := texts(h.w.detail)
	if !strings.Contains(got, "Answered elsewhere: the client stopped waiting for this window") || strings.Contains(got, "Denied") {
		t.Errorf("detail:\n%s", got)
	}
}
