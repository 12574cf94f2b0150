package app

import (
	"log/slog"
	"testing"
)

var discard = slog.New(slog.DiscardHandler)

func TestDatabasePath(t *testing.T) {
	t.Setenv("FEEDBACK_DB", "/tmp/x.db")
	if got := databasePath("", discard); got != "/tmp/x.db" {
		t.Errorf("FEEDBACK_DB: %q", got)
	}
	if got := databasePath("/cfg.db", discard); got != "/cfg.db" {
		t.Errorf("configured: %q", got)
	}
	t.Setenv("FEEDBACK_DB", "off")
	if got := databasePath("", discard); got != "" {
		t.Errorf("off: %q", got)
	}
	t.Setenv("FEEDBACK_DB", "")
	t.Setenv("XDG_DATA_HOME", "/data")
	if got := databasePath("", discard); got != "/data/feedback/feedback.db" {
		t.Errorf("default: %q", got)
	}
}
