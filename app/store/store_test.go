package store

import (
	"bytes"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"feedback/ipc/wire"
)

func TestQuestionDraftAnswerHistory(t *testing.T) {
	s, _ := newStore(t)
	q := question("q1", "loop-7")
	must(t, s.SaveQuestion(q, at(0)))

	draft := wire.Draft{Replies: []wire.Reply{{Selected: []string{"Left"}, Text: "half-typed"}}, UpdatedAt: at(1)}
	must(t, s.SaveDraft("q1", draft))
	got, ok, err := s.Draft("q1")
	must(t, err)
	if !ok || !reflect.DeepEqual(got, draft) {
		t.Fatalf("Draft = %+v, %v; want %+v", got, ok, draft)
	}

	a := wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, ElapsedMS: 1234,
		Replies: []wire.Reply{{Selected: []string{"Left"}, Text: "go left"}}}
	must(t, s.SaveAnswer(a, at(2), true))
	if _, ok, err := s.Draft("q1"); err != nil || ok {
		t.Fatalf("Draft after answer = %v, %v; want cleared", ok, err)
	}
	if _, ok, err := s.Undelivered("q1"); err != nil || ok {
		t.Fatalf("Undelivered of a delivered answer = %v, %v", ok, err)
	}

	h, err := s.History(10, "")
	must(t, err)
	want := []Entry{{Record: "q1", Question: q, AskedAt: at(0), State: "answered", Answer: &a, AnsweredAt: at(2)}}
	if !reflect.DeepEqual(h, want) {
		t.Fatalf("History =\n%+v\nwant\n%+v", h, want)
	}
	// A draft that arrives after the answer (a debounced save racing the
	// submit) does not bring the draft back.
	must(t, s.SaveDraft("q1", draft))
	if _, ok, _ := s.Draft("q1"); ok {
		t.Fatal("late draft stored for an answered question")
	}
}

func TestUndeliveredThenMarkDelivered(t *testing.T) {
	s, _ := newStore(t)
	must(t, s.SaveQuestion(question("q1", ""), at(0)))
	a := wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "later"}}}
	must(t, s.SaveAnswer(a, at(5), false))

	got, ok, err := s.Undelivered("q1")
	must(t, err)
	if !ok || !reflect.DeepEqual(got, a) {
		t.Fatalf("Undelivered = %+v, %v; want %+v", got, ok, a)
	}
	// Asking again while the answer waits leaves it waiting.
	must(t, s.SaveQuestion(question("q1", ""), at(6)))
	if _, ok, _ := s.Undelivered("q1"); !ok {
		t.Fatal("re-asking dropped the undelivered answer")
	}
	must(t, s.MarkDelivered("q1"))
	if _, ok, err := s.Undelivered("q1"); err != nil || ok {
		t.Fatalf("Undelivered after MarkDelivered = %v, %v", ok, err)
	}
	if err := s.MarkDelivered("nope"); !errors.Is(err, ErrNotFound) {
		t.Fatalf("MarkDelivered(unknown) = %v; want ErrNotFound", err)
	}
}

func TestOpenListsOnlyUnfinished(t *testing.T) {
	s, _ := newStore(t)
	for i, id := range []string{"open1", "answered", "withdrawn", "dismissed", "open2"} {
		must(t, s.SaveQuestion(question(id, ""), at(i)))
	}
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "answered", Status: wire.StatusAnswered}, at(10), true))
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "dismissed", Status: wire.StatusDismissed}, at(10), true))
	must(t, s.MarkWithdrawn("withdrawn", at(10)))

	ids := func() []string {
		qs, err := s.Open()
		must(t, err)
		var ids []string
		for _, q := range qs {
			ids = append(ids, q.ID)
		}
		return ids
	}
	if got := ids(); !reflect.DeepEqual(got, []string{"open1", "open2"}) {
		t.Fatalf("Open = %v; want [open1 open2]", got)
	}
	// Withdrawing an answered question changes nothing; an unknown one fails.
	must(t, s.MarkWithdrawn("answered", at(11)))
	if err := s.MarkWithdrawn("nope", at(11)); !errors.Is(err, ErrNotFound) {
		t.Fatalf("MarkWithdrawn(unknown) = %v; want ErrNotFound", err)
	}
	if h, _ := s.History(0, ""); h[len(h)-2].State != "answered" {
		t.Fatalf("answered question became %q", h[len(h)-2].State)
	}
}

func TestSaveQuestionAgain(t *testing.T) {
	tests := []struct {
		name      string
		end       func(s *Store) // how the first round ended
		wantState string
		wantAsked time.Time
		wantDraft bool
	}{
		{"open: caller reattached", func(*Store) {}, StateOpen, at(0), true},
		{"withdrawn: asked again, draft kept", func(s *Store) { must(t, s.MarkWithdrawn("q", at(1))) }, StateOpen, at(0), true},
		{"undelivered answer waits", func(s *Store) {
			must(t, s.SaveAnswer(wire.Answer{QuestionID: "q", Status: wire.StatusAnswered}, at(1), false))
		}, "answered", at(0), false},
		{"delivered answer: a new ask", func(s *Store) {
			must(t, s.SaveAnswer(wire.Answer{QuestionID: "q", Status: wire.StatusTimeout}, at(1), true))
		}, StateOpen, at(5), false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, _ := newStore(t)
			must(t, s.SaveQuestion(question("q", ""), at(0)))
			must(t, s.SaveDraft("q", wire.Draft{Replies: []wire.Reply{{Text: "typing"}}}))
			tt.end(s)
			q2 := question("q", "")
			q2.Title = "asked again"
			must(t, s.SaveQuestion(q2, at(5)))

			h, err := s.History(0, "")
			must(t, err)
			if tt.wantState == StateOpen && tt.wantAsked.Equal(at(5)) {
				// The delivered ask is kept as its own record, under it.
				if len(h) != 2 || h[1].State != "timeout" || h[1].Record != "q#1" || h[1].Question.Title != "Question q" {
					t.Fatalf("History = %+v; want the earlier ask kept as q#1", h)
				}
				h = h[:1]
			}
			if len(h) != 1 || h[0].Record != "q" || h[0].State != tt.wantState || !h[0].AskedAt.Equal(tt.wantAsked) || h[0].Question.Title != "asked again" {
				t.Fatalf("History = %+v; want one entry, state %s, asked %v, the new title", h, tt.wantState, tt.wantAsked)
			}
			if tt.wantState == StateOpen && h[0].Answer != nil {
				t.Fatalf("reopened question kept its old answer %+v", h[0].Answer)
			}
			if _, ok, _ := s.Draft("q"); ok != tt.wantDraft {
				t.Fatalf("draft present = %v; want %v", ok, tt.wantDraft)
			}
		})
	}
}

func TestRestoreAfterCrash(t *testing.T) {
	s, path := newStore(t)
	q := question("q1", "loop")
	must(t, s.SaveQuestion(q, at(0)))
	draft := wire.Draft{
		Replies:   []wire.Reply{{Text: "what I typed before the crash"}},
		Images:    []wire.Image{{MIME: "image/png", Name: "shot.png", Data: []byte("\x89PNG fake")}},
		UpdatedAt: at(1),
	}
	must(t, s.SaveDraft("q1", draft))

	// The app is killed: take its files as they are on disk right now (no
	// Close, so no checkpoint; the WAL holds the writes) and start again
	// from them.
	crashed := filepath.Join(t.TempDir(), "feedback.db")
	for _, suffix := range []string{"", "-wal"} {
		b, err := os.ReadFile(path + suffix)
		must(t, err)
		must(t, os.WriteFile(crashed+suffix, b, 0o600))
	}
	if fi, _ := os.Stat(crashed + "-wal"); fi.Size() == 0 {
		t.Fatal("no WAL: the test does not simulate a crash")
	}

	s2 := openAt(t, crashed)
	qs, err := s2.Open()
	must(t, err)
	if !reflect.DeepEqual(qs, []wire.Question{q}) {
		t.Fatalf("Open after restart = %+v; want [%+v]", qs, q)
	}
	got, ok, err := s2.Draft("q1")
	must(t, err)
	if !ok || !reflect.DeepEqual(got, draft) {
		t.Fatalf("Draft after restart = %+v, %v; want %+v", got, ok, draft)
	}

	// And after a clean close and reopen of the original.
	must(t, s.Close())
	s3 := openAt(t, path)
	if got, ok, err := s3.Draft("q1"); err != nil || !ok || !reflect.DeepEqual(got, draft) {
		t.Fatalf("Draft after reopen = %+v, %v, %v", got, ok, err)
	}
}

func TestImagesRoundTrip(t *testing.T) {
	s, _ := newStore(t)
	must(t, s.SaveQuestion(question("q1", ""), at(0)))
	r := rand.New(rand.NewPCG(1, 2))
	big := make([]byte, 3<<20)
	for i := range big {
		big[i] = byte(r.Uint32())
	}
	images := []wire.Image{
		{MIME: "image/png", Name: "big.png", Data: big},
		{MIME: "image/jpeg", Data: []byte{0, 0xff, 0xd8, 0}},
		{MIME: "image/png", Name: "empty.png", Data: []byte{}},
	}
	check := func(what string, got []wire.Image, want []wire.Image) {
		t.Helper()
		if len(got) != len(want) {
			t.Fatalf("%s: %d images; want %d", what, len(got), len(want))
		}
		for i := range want {
			if got[i].MIME != want[i].MIME || got[i].Name != want[i].Name || !bytes.Equal(got[i].Data, want[i].Data) {
				t.Fatalf("%s: image %d differs (%s %q %d bytes; want %s %q %d bytes)", what, i,
					got[i].MIME, got[i].Name, len(got[i].Data), want[i].MIME, want[i].Name, len(want[i].Data))
			}
		}
	}

	must(t, s.SaveDraft("q1", wire.Draft{Replies: []wire.Reply{{Text: "a"}}, Images: images}))
	d, _, err := s.Draft("q1")
	must(t, err)
	check("draft", d.Images, images)

	// Typing with the same images: the fast path keeps them.
	must(t, s.SaveDraft("q1", wire.Draft{Replies: []wire.Reply{{Text: "ab"}}, Images: images}))
	d, _, err = s.Draft("q1")
	must(t, err)
	check("draft after typing", d.Images, images)
	if d.Replies[0].Text != "ab" {
		t.Fatalf("draft text = %q; want ab", d.Replies[0].Text)
	}
	// One image removed, then all of them.
	must(t, s.SaveDraft("q1", wire.Draft{Replies: []wire.Reply{{Text: "abc"}}, Images: images[1:]}))
	d, _, _ = s.Draft("q1")
	check("draft with one removed", d.Images, images[1:])
	must(t, s.SaveDraft("q1", wire.Draft{Replies: []wire.Reply{{Text: "abcd"}}}))
	d, _, _ = s.Draft("q1")
	check("draft without images", d.Images, nil)
	// And one added back to a text-only draft.
	must(t, s.SaveDraft("q1", wire.Draft{Replies: []wire.Reply{{Text: "abcde"}}, Images: images[:1]}))
	d, _, _ = s.Draft("q1")
	check("draft with one added", d.Images, images[:1])

	a := wire.Answer{QuestionID: "q1", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "done"}}, Images: images}
	must(t, s.SaveAnswer(a, at(1), false))
	got, _, err := s.Undelivered("q1")
	must(t, err)
	check("undelivered answer", got.Images, images)
	got2, err := s.AnswerImages("q1")
	must(t, err)
	check("AnswerImages", got2, images)
	h, err := s.History(1, "")
	must(t, err)
	if h[0].Images != len(images) || h[0].Answer.Images != nil {
		t.Fatalf("History: Images = %d, Answer.Images = %d; want the count only", h[0].Images, len(h[0].Answer.Images))
	}
}

func TestHistoryByLoop(t *testing.T) {
	s, _ := newStore(t)
	for i, q := range []wire.Question{question("a1", "A"), question("b1", "B"), question("a2", "A"), question("none", "")} {
		must(t, s.SaveQuestion(q, at(i)))
	}
	ids := func(es []Entry) (out []string) {
		for _, e := range es {
			out = append(out, e.Question.ID)
		}
		return out
	}
	tests := []struct {
		limit int
		loop  string
		want  []string
	}{
		{0, "", []string{"none", "a2", "b1", "a1"}},
		{2, "", []string{"none", "a2"}},
		{0, "A", []string{"a2", "a1"}},
		{1, "A", []string{"a2"}},
		{0, "C", nil},
	}
	for _, tt := range tests {
		h, err := s.History(tt.limit, tt.loop)
		must(t, err)
		if got := ids(h); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("History(%d, %q) = %v; want %v", tt.limit, tt.loop, got, tt.want)
		}
	}
}

func TestPrune(t *testing.T) {
	s, _ := newStore(t)
	img := []wire.Image{{MIME: "image/png", Data: bytes.Repeat([]byte{7}, 1<<20)}}
	for i := range 4 {
		must(t, s.SaveQuestion(question(fmt.Sprint("old", i), ""), at(i)))
	}
	must(t, s.SaveQuestion(question("new", ""), at(100)))
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "old0", Status: wire.StatusAnswered, Images: img}, at(10), true))
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "old1", Status: wire.StatusTimeout}, at(10), false))
	must(t, s.MarkWithdrawn("old2", at(10)))
	must(t, s.SaveDraft("old2", wire.Draft{Replies: []wire.Reply{{Text: "x"}}, Images: img}))
	// old3 stays open; new is answered after the cutoff.
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "new", Status: wire.StatusAnswered}, at(101), true))

	n, err := s.Prune(at(50))
	must(t, err)
	if n != 3 {
		t.Fatalf("Prune = %d; want 3", n)
	}
	h, err := s.History(0, "")
	must(t, err)
	if len(h) != 2 || h[0].Question.ID != "new" || h[1].Question.ID != "old3" {
		t.Fatalf("after Prune: %+v; want new and old3", h)
	}
	var images int
	must(t, s.db.QueryRow("SELECT count(*) FROM images").Scan(&images))
	var drafts int
	must(t, s.db.QueryRow("SELECT count(*) FROM drafts").Scan(&drafts))
	if images != 0 || drafts != 0 {
		t.Fatalf("after Prune: %d images, %d drafts left; want none", images, drafts)
	}
	var free int
	must(t, s.db.QueryRow("PRAGMA freelist_count").Scan(&free))
	if free != 0 {
		t.Errorf("after Prune: %d free pages; want them handed back", free)
	}
}

func TestNotFound(t *testing.T) {
	s, _ := newStore(t)
	if err := s.SaveDraft("nope", wire.Draft{}); !errors.Is(err, ErrNotFound) {
		t.Errorf("SaveDraft(unknown) = %v; want ErrNotFound", err)
	}
	if err := s.SaveAnswer(wire.Answer{QuestionID: "nope", Status: wire.StatusAnswered}, time.Time{}, true); !errors.Is(err, ErrNotFound) {
		t.Errorf("SaveAnswer(unknown) = %v; want ErrNotFound", err)
	}
	must(t, s.SaveQuestion(question("q", ""), time.Time{}))
	if err := s.SaveAnswer(wire.Answer{QuestionID: "q", Status: "maybe"}, time.Time{}, true); err == nil {
		t.Error("SaveAnswer with an unknown status succeeded")
	}
	if _, ok, err := s.Draft("nope"); ok || err != nil {
		t.Errorf("Draft(unknown) = %v, %v", ok, err)
	}
}

func TestConcurrentSaveDraft(t *testing.T) {
	s, _ := newStore(t)
	const workers, saves = 8, 50
	for w := range workers {
		must(t, s.SaveQuestion(question(fmt.Sprint("q", w), ""), time.Time{}))
	}
	must(t, s.SaveQuestion(question("shared", ""), time.Time{}))
	var wg sync.WaitGroup
	errs := make(chan error, workers*saves*2)
	for w := range workers {
		wg.Go(func() {
			id := fmt.Sprint("q", w)
			for i := range saves {
				d := wire.Draft{Replies: []wire.Reply{{Text: strings.Repeat("x", i+1)}}}
				if i%10 == 0 { // now and then with an image, to take the slow path
					d.Images = []wire.Image{{MIME: "image/png", Data: []byte{byte(w), byte(i)}}}
				}
				errs <- s.SaveDraft(id, d)
				errs <- s.SaveDraft("shared", wire.Draft{Replies: []wire.Reply{{Text: id}}})
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Fatal(err)
		}
	}
	for w := range workers {
		d, ok, err := s.Draft(fmt.Sprint("q", w))
		must(t, err)
		if !ok || d.Replies[0].Text != strings.Repeat("x", saves) || len(d.Images) != 0 {
			t.Fatalf("q%d: draft = %+v, %v; want the last save", w, d, ok)
		}
	}
	if d, ok, _ := s.Draft("shared"); !ok || !strings.HasPrefix(d.Replies[0].Text, "q") {
		t.Fatalf("shared draft = %+v", d)
	}
}

func TestPermissions(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "data", "feedback")
	path := filepath.Join(dir, "feedback.db")
	s := openAt(t, path)
	must(t, s.SaveQuestion(question("q", ""), time.Time{})) // creates the -wal and -shm files
	for _, c := range []struct {
		path string
		want os.FileMode
	}{{dir, 0o700}, {filepath.Dir(dir), 0o700}, {path, 0o600}, {path + "-wal", 0o600}, {path + "-shm", 0o600}} {
		fi, err := os.Stat(c.path)
		must(t, err)
		if got := fi.Mode().Perm(); got != c.want {
			t.Errorf("%s: mode %o; want %o", c.path, got, c.want)
		}
	}
	// A database file left too open by someone is tightened.
	must(t, s.Close())
	must(t, os.Chmod(path, 0o644))
	openAt(t, path)
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("reopened: mode %o; want 600", fi.Mode().Perm())
	}
}

func TestDefaultPath(t *testing.T) {
	if runtime.GOOS == "windows" || runtime.GOOS == "darwin" {
		t.Skip("the XDG places are for Linux and the BSDs; userdirs tests the others")
	}
	t.Setenv("XDG_DATA_HOME", "/xdg/data")
	if p, err := DefaultPath(); err != nil || p != "/xdg/data/feedback/feedback.db" {
		t.Errorf("with XDG_DATA_HOME: %q, %v", p, err)
	}
	t.Setenv("XDG_DATA_HOME", "relative")
	t.Setenv("HOME", "/home/u")
	if p, err := DefaultPath(); err != nil || p != "/home/u/.local/share/feedback/feedback.db" {
		t.Errorf("with a relative XDG_DATA_HOME: %q, %v", p, err)
	}
}

func TestLoopID(t *testing.T) {
	q := wire.Question{Context: []wire.Field{{Label: "Phase", Value: "x"}, {Label: "loop", Value: " L1 "}}}
	if got := LoopID(q); got != "L1" {
		t.Errorf("LoopID = %q; want L1", got)
	}
	if got := LoopID(wire.Question{}); got != "" {
		t.Errorf("LoopID of no context = %q", got)
	}
}

func TestNilStoreKeepsNothing(t *testing.T) {
	var s *Store
	must(t, s.SaveQuestion(question("q", ""), time.Time{}))
	must(t, s.SaveDraft("q", wire.Draft{}))
	must(t, s.SaveAnswer(wire.Answer{QuestionID: "q", Status: wire.StatusAnswered}, time.Time{}, false))
	must(t, s.MarkDelivered("q"))
	must(t, s.MarkWithdrawn("q", time.Time{}))
	if _, ok, err := s.Draft("q"); ok || err != nil {
		t.Error("Draft of a nil store")
	}
	if _, ok, err := s.Undelivered("q"); ok || err != nil {
		t.Error("Undelivered of a nil store")
	}
	if qs, err := s.Open(); qs != nil || err != nil {
		t.Error("Open of a nil store")
	}
	if h, err := s.History(0, ""); h != nil || err != nil {
		t.Error("History of a nil store")
	}
	if n, err := s.Prune(time.Now()); n != 0 || err != nil {
		t.Error("Prune of a nil store")
	}
	if imgs, err := s.AnswerImages("q"); imgs != nil || err != nil {
		t.Error("AnswerImages of a nil store")
	}
	must(t, s.Close())
}

func TestPathWithURICharacters(t *testing.T) {
	path := filepath.Join(t.TempDir(), "a dir?x=1#frag%20", "feed back.db")
	s := openAt(t, path)
	must(t, s.SaveQuestion(question("q", ""), time.Time{}))
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("database not at %s: %v", path, err)
	}
}

func TestEmptyIDRefused(t *testing.T) {
	s, _ := newStore(t)
	if err := s.SaveQuestion(wire.Question{}, time.Time{}); err == nil {
		t.Fatal("SaveQuestion with an empty id succeeded")
	}
}

// An image replaced by another of the same size and name is noticed.
func TestDraftImageChangedInPlace(t *testing.T) {
	s, _ := newStore(t)
	must(t, s.SaveQuestion(question("q", ""), time.Time{}))
	one := []wire.Image{{MIME: "image/png", Name: "x.png", Data: bytes.Repeat([]byte{1}, 4096)}}
	two := []wire.Image{{MIME: "image/png", Name: "x.png", Data: bytes.Repeat([]byte{1}, 4096)}}
	two[0].Data[2000] = 2
	must(t, s.SaveDraft("q", wire.Draft{Images: one}))
	must(t, s.SaveDraft("q", wire.Draft{Images: two}))
	d, _, err := s.Draft("q")
	must(t, err)
	if len(d.Images) != 1 || !bytes.Equal(d.Images[0].Data, two[0].Data) {
		t.Fatal("the changed image was not stored")
	}
}
