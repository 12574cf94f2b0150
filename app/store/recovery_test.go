package store

import (
	"bytes"
	"context"
	"database/sql"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// realDB writes a database with a few questions and images to path and
// returns its bytes.
func realDB(t *testing.T, path string) []byte {
	t.Helper()
	s, err := open(path, nil, testBusy)
	must(t, err)
	for _, id := range []string{"a", "b", "c", "d"} {
		must(t, s.SaveQuestion(question(id, "L"), at(0)))
		must(t, s.SaveDraft(id, wire.Draft{Replies: []wire.Reply{{Text: strings.Repeat(id, 3000)}},
			Images: []wire.Image{{MIME: "image/png", Data: bytes.Repeat([]byte(id), 50_000)}}}))
	}
	must(t, s.Close())
	b, err := os.ReadFile(path)
	must(t, err)
	return b
}

func TestCorruptFileMovedAside(t *testing.T) {
	tests := []struct {
		name    string
		content func(t *testing.T, path string) []byte
	}{
		{"garbage", func(*testing.T, string) []byte {
			return bytes.Repeat([]byte("this is not a database\n"), 500)
		}},
		{"short garbage", func(*testing.T, string) []byte { return []byte("hello") }},
		{"truncated to half", func(t *testing.T, path string) []byte {
			b := realDB(t, path)
			return b[:len(b)/2]
		}},
		{"truncated to one page and a bit", func(t *testing.T, path string) []byte {
			b := realDB(t, path)
			return b[:5000]
		}},
		{"a page overwritten", func(t *testing.T, path string) []byte {
			b := realDB(t, path)
			copy(b[3*4096:], bytes.Repeat([]byte{0xa5}, 4096))
			return b
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, "feedback.db")
			bad := tt.content(t, path)
			must(t, os.WriteFile(path, bad, 0o600))

			log, logs := newLogger()
			s, err := open(path, log, testBusy)
			if err != nil {
				t.Fatalf("open of a corrupt file: %v", err)
			}
			defer s.Close()

			moved, _ := filepath.Glob(path + ".corrupt-*")
			if len(moved) != 1 {
				t.Fatalf("moved aside: %v; want one file", moved)
			}
			if got, _ := os.ReadFile(moved[0]); !bytes.Equal(got, bad) {
				t.Errorf("%s does not hold the corrupt file", moved[0])
			}
			out := logs.String()
			t.Log(strings.TrimSpace(out))
			if !strings.Contains(out, "level=WARN") || !strings.Contains(out, moved[0]) {
				t.Errorf("log does not warn with the moved file's name:\n%s", out)
			}

			// The fresh database works.
			must(t, s.SaveQuestion(question("fresh", ""), at(0)))
			qs, err := s.Open()
			must(t, err)
			if len(qs) != 1 || qs[0].ID != "fresh" {
				t.Fatalf("fresh database: Open = %+v", qs)
			}
		})
	}
}

// A truncated file with a WAL of later writes beside it: the pair is moved
// aside, and nothing of it reaches the fresh database.
func TestCorruptFileWithWAL(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	realDB(t, path)
	s, err := open(path, nil, testBusy)
	must(t, err)
	must(t, s.SaveQuestion(question("late", ""), at(1)))
	must(t, s.SaveDraft("late", wire.Draft{Replies: []wire.Reply{{Text: "in the WAL"}}}))
	wal, err := os.ReadFile(path + "-wal") // before Close checkpoints it
	must(t, err)
	must(t, s.Close())
	b, err := os.ReadFile(path)
	must(t, err)
	must(t, os.WriteFile(path, b[:len(b)/2], 0o600))
	must(t, os.WriteFile(path+"-wal", wal, 0o600))

	log, logs := newLogger()
	s, err = open(path, log, testBusy)
	must(t, err)
	defer s.Close()
	if !strings.Contains(logs.String(), "level=WARN") {
		t.Fatalf("no warning logged:\n%s", logs.String())
	}
	must(t, s.SaveQuestion(question("fresh", ""), at(0)))
	h, err := s.History(0, "")
	must(t, err)
	if len(h) != 1 || h[0].Question.ID != "fresh" {
		t.Fatalf("fresh database holds %d questions; want only the new one", len(h))
	}
	if _, ok, _ := s.Draft("late"); ok {
		t.Fatal("a draft of the old WAL reached the fresh database")
	}
}

func TestCorruptTwiceKeepsBoth(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	for i := range 2 {
		must(t, os.WriteFile(path, []byte("garbage garbage garbage garbage garbage garbage garbage garbage garbage garbage garbage garbage"), 0o600))
		s, err := open(path, nil, testBusy)
		must(t, err)
		must(t, s.Close())
		if moved, _ := filepath.Glob(path + ".corrupt-*"); len(moved) != i+1 {
			t.Fatalf("after %d corruptions: %v", i+1, moved)
		}
	}
}

// lockWith opens a second connection to path, as another process would,
// and runs BEGIN EXCLUSIVE on it; the lock is released when the test ends.
func lockWith(t *testing.T, path string, setup ...string) {
	t.Helper()
	db, err := sql.Open("sqlite", path)
	must(t, err)
	t.Cleanup(func() { db.Close() })
	conn, err := db.Conn(context.Background())
	must(t, err)
	t.Cleanup(func() {
		conn.ExecContext(context.Background(), "ROLLBACK")
		conn.Close()
	})
	for _, q := range append(setup, "BEGIN EXCLUSIVE") {
		if _, err := conn.ExecContext(context.Background(), q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

func TestLockedWrite(t *testing.T) {
	s, path := newStore(t)
	must(t, s.SaveQuestion(question("q", ""), at(0)))
	lockWith(t, path)

	start := time.Now()
	err := s.SaveDraft("q", wire.Draft{Replies: []wire.Reply{{Text: "typing"}}})
	took := time.Since(start)
	if !errors.Is(err, ErrLocked) {
		t.Fatalf("SaveDraft on a locked database = %v; want ErrLocked", err)
	}
	if took < testBusy/2 || took > testBusy+2*time.Second {
		t.Errorf("SaveDraft gave up after %v; want about the busy timeout %v", took, testBusy)
	}
	t.Logf("error after %v: %v", took.Round(time.Millisecond), err)
	// Readers are not blocked in WAL mode.
	if _, err := s.Open(); err != nil {
		t.Errorf("Open (read) on a write-locked database: %v", err)
	}
	// A second Store on the same file opens (WAL readers are not blocked)
	// and its writes fail the same way.
	s2, err := open(path, nil, testBusy)
	if err != nil {
		t.Fatalf("second open: %v", err)
	}
	defer s2.Close()
	if err := s2.SaveQuestion(question("q2", ""), time.Time{}); !errors.Is(err, ErrLocked) {
		t.Errorf("second store's write = %v; want ErrLocked", err)
	}
}

func TestLockedOpen(t *testing.T) {
	// A database in rollback-journal mode held by another process: even
	// reading needs the lock, so Open itself fails.
	path := filepath.Join(t.TempDir(), "feedback.db")
	lockWith(t, path, "PRAGMA journal_mode=DELETE", "CREATE TABLE other(x)")

	log, logs := newLogger()
	start := time.Now()
	s, err := open(path, log, testBusy)
	took := time.Since(start)
	if err == nil {
		s.Close()
		t.Fatal("open of a locked database succeeded")
	}
	if !errors.Is(err, ErrLocked) || errors.Is(err, ErrCorrupt) {
		t.Fatalf("open of a locked database = %v; want ErrLocked", err)
	}
	if took > testBusy+2*time.Second {
		t.Errorf("open gave up after %v; want about %v", took, testBusy)
	}
	t.Logf("error after %v: %v", took.Round(time.Millisecond), err)
	if moved, _ := filepath.Glob(path + ".corrupt-*"); len(moved) > 0 || strings.Contains(logs.String(), "corrupt") {
		t.Errorf("a locked database was treated as corrupt: %v\n%s", moved, logs.String())
	}
}

func TestNewerSchemaLeftAlone(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := open(path, nil, testBusy)
	must(t, err)
	_, err = s.db.Exec("PRAGMA user_version = 99")
	must(t, err)
	must(t, s.Close())

	if _, err := open(path, nil, testBusy); !errors.Is(err, ErrNewerSchema) {
		t.Fatalf("open = %v; want ErrNewerSchema", err)
	}
	if moved, _ := filepath.Glob(path + ".corrupt-*"); len(moved) > 0 {
		t.Errorf("a newer database was moved aside: %v", moved)
	}
}

func TestClosedStoreFails(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	s, err := open(path, nil, testBusy)
	must(t, err)
	must(t, s.Close())
	if err := s.SaveQuestion(question("q", ""), time.Time{}); err == nil {
		t.Error("SaveQuestion on a closed store succeeded")
	}
	if _, err := s.Open(); err == nil {
		t.Error("Open on a closed store succeeded")
	}
}

// The exported Open gives up on a held lock after BusyTimeout.
func TestOpenGivesUpAfterBusyTimeout(t *testing.T) {
	if testing.Short() {
		t.Skip("waits BusyTimeout")
	}
	path := filepath.Join(t.TempDir(), "feedback.db")
	lockWith(t, path, "PRAGMA journal_mode=DELETE", "CREATE TABLE other(x)")
	start := time.Now()
	s, err := Open(path, nil)
	took := time.Since(start)
	if err == nil {
		s.Close()
		t.Fatal("Open of a locked database succeeded")
	}
	if !errors.Is(err, ErrLocked) || took < BusyTimeout/2 || took > BusyTimeout+2*time.Second {
		t.Fatalf("Open = %v after %v; want ErrLocked after about %v", err, took, BusyTimeout)
	}
}
