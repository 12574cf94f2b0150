package store

import (
	"bytes"
	"log/slog"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// testBusy keeps the lock tests short; the default is BusyTimeout.
const testBusy = 300 * time.Millisecond

// logBuffer collects slog output for assertions.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *logBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *logBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

func newLogger() (*slog.Logger, *logBuffer) {
	b := &logBuffer{}
	return slog.New(slog.NewTextHandler(b, &slog.HandlerOptions{Level: slog.LevelDebug})), b
}

// openAt opens the store at path and closes it when the test ends.
func openAt(t testing.TB, path string) *Store {
	t.Helper()
	s, err := open(path, nil, testBusy)
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

func newStore(t testing.TB) (*Store, string) {
	t.Helper()
	path := filepath.Join(t.TempDir(), "feedback.db")
	return openAt(t, path), path
}

func question(id string, loop string) wire.Question {
	q := wire.Question{
		ID:     id,
		Source: "interactive_feedback",
		Client: "claude-code",
		Title:  "Question " + id,
		Prompts: []wire.Prompt{{
			Markdown: "Which way, **" + id + "**?",
			Options:  []wire.Option{{Label: "Left", Default: true}, {Label: "Right"}},
		}},
	}
	if loop != "" {
		q.Context = []wire.Field{{Label: "Loop", Value: loop}, {Label: "Phase", Value: "plan"}}
	}
	return q
}

// at is a fixed instant plus minutes, with a millisecond-exact value so
// that it survives the round trip through unix milliseconds.
func at(minutes int) time.Time {
	return time.Date(2025, 6, 1, 12, 0, 0, 0, time.UTC).Add(time.Duration(minutes) * time.Minute)
}

func must(t testing.TB, err error) {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
}
