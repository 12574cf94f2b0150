package store

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"
)

func TestRetainImageBound(t *testing.T) {
	s, path := newStore(t)
	mib := func(b byte) []wire.Image {
		return []wire.Image{{MIME: "image/png", Name: "x.png", Data: bytes.Repeat([]byte{b}, 1<<20)}}
	}
	// a0..a3 answered with 1 MiB each, ending at minutes 10, 20, 30, 40;
	// t4 timed out with no image; o5 open with a 1 MiB draft image.
	for i, id := range []string{"a0", "a1", "a2", "a3"} {
		must(t, s.SaveQuestion(question(id, ""), at(i)))
		must(t, s.SaveAnswer(wire.Answer{QuestionID: id, Status: wire.StatusAnswered, Images: mib(byte(i))}, at(10*(i+1)), true))
	}
	must(t, s.SaveQuestion(question("t4", ""), at(4)))
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "t4", Status: wire.StatusTimeout}, at(5), true))
	must(t, s.SaveQuestion(question("o5", ""), at(0))) // the oldest of all, but open
	must(t, s.SaveDraft("o5", wire.Draft{Replies: []wire.Reply{{Text: "typing"}}, Images: mib(9)}))
	fi0, _ := os.Stat(path)

	p, err := s.Retain(Retention{MaxImageBytes: 2<<20 + 100}, at(60))
	must(t, err)
	if p.ByImages != 3 || p.ByAge != 0 {
		t.Fatalf("Retain = %+v; want 3 deleted for images (5 MiB held, 2 MiB allowed, one open)", p)
	}
	h, err := s.History(0, "")
	must(t, err)
	if got := entryIDs(h); got != "t4 a3 o5" {
		t.Fatalf("left %q; want a3 (newest with images), t4 (no images) and o5 (open)", got)
	}
	if n, _ := s.ImageBytes(); n != 2<<20 {
		t.Errorf("ImageBytes = %d; want 2 MiB (a3's answer, o5's draft)", n)
	}
	if d, ok, err := s.Draft("o5"); err != nil || !ok || len(d.Images) != 1 {
		t.Errorf("open question's draft: %+v, %v; want its image kept", d, err)
	}
	var free int
	must(t, s.db.QueryRow("PRAGMA freelist_count").Scan(&free))
	if free != 0 {
		t.Errorf("%d free pages after Retain; want them handed back", free)
	}
	s.db.Exec("PRAGMA wal_checkpoint(TRUNCATE)")
	if fi, _ := os.Stat(path); fi.Size() >= fi0.Size() {
		t.Errorf("file %d bytes after Retain, %d before; want it smaller", fi.Size(), fi0.Size())
	}

	// Under the bound: nothing more goes, even the open question's image
	// alone over a tiny bound stays.
	p, err = s.Retain(Retention{MaxImageBytes: 1}, at(60))
	must(t, err)
	if h, _ := s.History(0, ""); p.ByImages != 1 || entryIDs(h) != "t4 o5" {
		t.Fatalf("tiny bound: %+v, left %v; want a3 deleted, t4 and o5 kept", p, entryIDs(h))
	}
}

func TestRetainAge(t *testing.T) {
	s, _ := newStore(t)
	now := at(0).Add(40 * 24 * time.Hour)
	must(t, s.SaveQuestion(question("old", ""), at(0)))
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "old", Status: wire.StatusDismissed}, at(1), true))
	must(t, s.SaveQuestion(question("oldopen", ""), at(0)))
	must(t, s.SaveQuestion(question("recent", ""), now.Add(-24*time.Hour)))
	must(t, s.MarkWithdrawn("recent", now.Add(-24*time.Hour)))
	p, err := s.Retain(Retention{MaxAge: 30 * 24 * time.Hour, MaxImageBytes: 256 << 20}, now)
	must(t, err)
	h, _ := s.History(0, "")
	if p.ByAge != 1 || entryIDs(h) != "recent oldopen" {
		t.Fatalf("Retain = %+v, left %v; want old deleted, oldopen and recent kept", p, entryIDs(h))
	}
	var nilStore *Store
	if p, err := nilStore.Retain(Retention{MaxAge: time.Hour}, now); err != nil || p != (Pruned{}) {
		t.Error("Retain of a nil store")
	}
}

// entryIDs lists the questions' ids, newest asked first, space-separated.
func entryIDs(es []Entry) string {
	var out []string
	for _, e := range es {
		out = append(out, e.Question.ID)
	}
	return strings.Join(out, " ")
}
