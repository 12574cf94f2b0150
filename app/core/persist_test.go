package core

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"path/filepath"
	"reflect"
	"slices"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"feedback/app/store"
	"feedback/ipc/wire"
)

// fakeStore is a Store that records its calls and can be slowed down
// like a database locked by another process.
type fakeStore struct {
	Store       // the notes, in memory
	mu          sync.Mutex
	calls       []string
	drafts      map[string]wire.Draft
	undelivered map[string]wire.Answer
	gate        chan struct{} // when not nil, every call waits for it to close
	messages    []wire.Message
}

func newFakeStore() *fakeStore {
	return &fakeStore{Store: NewMemoryStore(), drafts: map[string]wire.Draft{}, undelivered: map[string]wire.Answer{}}
}

func (f *fakeStore) record(format string, args ...any) {
	f.mu.Lock()
	gate := f.gate
	f.mu.Unlock()
	if gate != nil {
		<-gate
	}
	f.mu.Lock()
	f.calls = append(f.calls, fmt.Sprintf(format, args...))
	f.mu.Unlock()
}

func (f *fakeStore) log() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.calls)
}

func (f *fakeStore) SaveQuestionAs(q wire.Question, _ string, _ time.Time, keepOpen bool) error {
	if keepOpen {
		f.record("question %s keep-open", q.ID)
		return nil
	}
	f.record("question %s", q.ID)
	return nil
}

func (f *fakeStore) SetKeptOpen(id string, on bool) error {
	f.record("kept open %s %v", id, on)
	return nil
}

func (f *fakeStore) LeftOpen() ([]Left, error) {
	f.record("read left open")
	return nil, nil
}

func (f *fakeStore) SaveDraft(id string, d wire.Draft) error {
	f.record("draft %s %q", id, d.Replies[0].Text)
	f.mu.Lock()
	f.drafts[id] = d
	f.mu.Unlock()
	return nil
}

func (f *fakeStore) Draft(id string) (wire.Draft, bool, error) {
	f.record("read draft %s", id)
	f.mu.Lock()
	defer f.mu.Unlock()
	d, ok := f.drafts[id]
	return d, ok, nil
}

func (f *fakeStore) SaveAnswer(a wire.Answer, _ time.Time, delivered bool) error {
	f.record("answer %s %s delivered=%v", a.QuestionID, a.Status, delivered)
	return nil
}

func (f *fakeStore) MarkWithdrawn(id string, _ time.Time) error {
	f.record("withdrawn %s", id)
	return nil
}

func (f *fakeStore) SaveMessage(m wire.Message, at time.Time) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.messages = append(f.messages, m)
	return nil
}

func (f *fakeStore) MarkDelivered(id string) error {
	f.record("delivered %s", id)
	f.mu.Lock()
	delete(f.undelivered, id)
	f.mu.Unlock()
	return nil
}

func (f *fakeStore) Undelivered(id string) (wire.Answer, bool, error) {
	f.record("read answer %s", id)
	f.mu.Lock()
	defer f.mu.Unlock()
	a, ok := f.undelivered[id]
	return a, ok, nil
}

func (f *fakeStore) Close() error { return nil }

func inboxWith(p Store) (*Inbox, *fakeUI) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui, Open: func() (Store, error) { return p, nil }})
	in.Start()
	return in, ui
}

// writes drops the reads from a call log.
func writes(calls []string) []string {
	var w []string
	for _, c := range calls {
		if len(c) < 5 || c[:5] != "read " {
			w = append(w, c)
		}
	}
	return w
}

func wantCalls(t *testing.T, in *Inbox, fs *fakeStore, want ...string) {
	t.Helper()
	in.Close(5 * time.Second)
	if got := writes(fs.log()); !reflect.DeepEqual(got, want) {
		t.Errorf("database calls:\n%q\nwant\n%q", got, want)
	}
}

func TestPersistsQuestionDraftAndAnswer(t *testing.T) {
	fs := newFakeStore()
	in, ui := inboxWith(fs)
	ch := ask(context.Background(), in, q("a"))
	ui.waitShown(t, "a")
	ui.draft("a", wire.Draft{Replies: []wire.Reply{{Text: "hal"}}})
	ui.draft("a", wire.Draft{Replies: []wire.Reply{{Text: "half"}}})
	ui.answer("a", wire.Answer{QuestionID: "a", Status: wire.StatusAnswered})
	if r := result(t, ch); r.err != nil {
		t.Fatal(r.err)
	}
	in.Close(5 * time.Second)
	got := writes(fs.log())
	// A draft not yet written when the next arrives is folded into it.
	if got[0] != "question a" || got[len(got)-2] != `draft a "half"` || got[len(got)-1] != "answer a answered delivered=true" {
		t.Errorf("database calls = %q", got)
	}
}

func TestWithdrawnQuestionIsMarked(t *testing.T) {
	fs := newFakeStore()
	in, ui := inboxWith(fs)
	ctx, cancel := context.WithCancel(context.Background())
	ch := ask(ctx, in, q("w"))
	ui.waitShown(t, "w")
	cancel()
	result(t, ch)
	ui.draft("w", wire.Draft{Replies: []wire.Reply{{Text: "kept"}}}) // the window's last draft, as it closes
	wantCalls(t, in, fs, "question w", "withdrawn w", `draft w "kept"`)
}

func TestAnswerNobodyReceivedIsStoredUndelivered(t *testing.T) {
	fs := newFakeStore()
	in, ui := inboxWith(fs)
	kq := q("k")
	kq.KeepOpen = true
	ctx, cancel := context.WithCancel(context.Background())
	ch := ask(ctx, in, kq)
	ui.waitShown(t, "k")
	cancel()
	result(t, ch)
	ui.answer("k", wire.Answer{QuestionID: "k", Status: wire.StatusAnswered})
	r := result(t, ask(context.Background(), in, attach("k")))
	if r.err != nil {
		t.Fatal(r.err)
	}
	wantCalls(t, in, fs, "question k keep-open", "answer k answered delivered=false", "delivered k")
}

// After a restart the kept answer is only in the database: an ask with its
// id returns it at once, without a window, and retires it.
func TestStoredAnswerIsReturnedAtOnce(t *testing.T) {
	fs := newFakeStore()
	want := wire.Answer{QuestionID: "s", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "from before"}}}
	fs.undelivered["s"] = want
	in, ui := inboxWith(fs)
	r := result(t, ask(context.Background(), in, q("s")))
	if r.err != nil || !reflect.DeepEqual(r.a, want) {
		t.Fatalf("Ask = %+v, %v", r.a, r.err)
	}
	if ui.shows != 0 {
		t.Error("a window opened for an answered question")
	}
	wantCalls(t, in, fs, "delivered s")
}

func TestStoredDraftIsRestored(t *testing.T) {
	fs := newFakeStore()
	d := wire.Draft{Replies: []wire.Reply{{Selected: []string{"B"}, Text: "typed before the crash"}}}
	fs.drafts["d"] = d
	in, ui := inboxWith(fs)
	ch := ask(context.Background(), in, q("d"))
	ui.waitShown(t, "d")
	if got := ui.restored["d"]; got == nil || !reflect.DeepEqual(*got, d) {
		t.Errorf("restored = %+v, want %+v", got, d)
	}
	ui.answer("d", wire.Answer{QuestionID: "d", Status: wire.StatusAnswered})
	result(t, ch)
	in.Close(5 * time.Second)
}

// A database that blocks (locked by another process) delays a new window
// by at most LookupTimeout, and a draft never waits for it.
func TestSlowDatabaseNeverHoldsTheWindow(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		fs := newFakeStore()
		fs.gate = make(chan struct{})
		in, ui := inboxWith(fs)
		start := time.Now()
		ch := ask(context.Background(), in, q("slow"))
		ui.waitShown(t, "slow")
		if waited := time.Since(start); waited != LookupTimeout {
			t.Errorf("the window waited %v for the database, want LookupTimeout (%v)", waited, LookupTimeout)
		}
		drafted := make(chan struct{})
		go func() {
			ui.draft("slow", wire.Draft{Replies: []wire.Reply{{Text: "x"}}})
			close(drafted)
		}()
		select {
		case <-drafted:
		case <-time.After(time.Second):
			t.Fatal("reporting a draft waited for the database")
		}
		ui.answer("slow", wire.Answer{QuestionID: "slow", Status: wire.StatusAnswered})
		if r := result(t, ch); r.err != nil {
			t.Fatal(r.err)
		}
		close(fs.gate) // the lock goes away: everything queued is written, in order
		wantCalls(t, in, fs, "question slow", `draft slow "x"`, "answer slow answered delivered=true")
	})
}

func TestNoDatabaseStillAsks(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui, Open: func() (Store, error) { return nil, errors.New("locked") }})
	in.Start()
	ch := ask(context.Background(), in, q("n"))
	ui.waitShown(t, "n")
	ui.draft("n", wire.Draft{Replies: []wire.Reply{{Text: "x"}}})
	ui.answer("n", wire.Answer{QuestionID: "n", Status: wire.StatusAnswered})
	if r := result(t, ch); r.err != nil || r.a.Status != wire.StatusAnswered {
		t.Fatalf("Ask = %+v, %v", r.a, r.err)
	}
	in.Close(time.Second)
}

// With the real store: a draft and a kept answer survive a restart (a new
// inbox on the same file), and a question the last run left open is
// withdrawn with its draft kept.
func TestDraftsAndAnswersSurviveARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	open := func() (Store, error) { return openStore(path) }

	ui := newFakeUI()
	in := New(Options{Presenter: ui, Open: open})
	in.Start()
	draftQ := q("crash")
	go in.Ask(context.Background(), draftQ, func(wire.Event) {}) // the app dies before an answer
	ui.waitShown(t, "crash")
	want := wire.Draft{Replies: []wire.Reply{{Text: "typed before the crash"}}}
	ui.draft("crash", want)
	kq := q("kept")
	kq.KeepOpen = true
	ctx, cancel := context.WithCancel(context.Background())
	ch := ask(ctx, in, kq)
	ui.waitShown(t, "kept")
	cancel()
	result(t, ch)
	answer := wire.Answer{QuestionID: "kept", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "late"}}}
	ui.answer("kept", answer)
	in.Close(5 * time.Second)

	ui = newFakeUI()
	in = New(Options{Presenter: ui, Open: open})
	in.Start()
	defer in.Close(5 * time.Second)
	r := result(t, ask(context.Background(), in, attach("kept")))
	if r.err != nil || !reflect.DeepEqual(r.a.Replies, answer.Replies) {
		t.Fatalf("kept answer after the restart: %+v, %v", r.a, r.err)
	}
	r = result(t, ask(context.Background(), in, attach("kept")))
	if !errors.Is(r.err, &wire.Error{Code: wire.CodeNotFound}) {
		t.Errorf("the kept answer was delivered twice: %v", r.err)
	}
	ch = ask(context.Background(), in, draftQ)
	ui.waitShown(t, "crash")
	if got := ui.restored["crash"]; got == nil || !reflect.DeepEqual(got.Replies, want.Replies) {
		t.Errorf("restored draft = %+v, want %+v", got, want)
	}
	ui.answer("crash", wire.Answer{QuestionID: "crash", Status: wire.StatusAnswered})
	result(t, ch)
}

var discard = slog.New(slog.DiscardHandler)

// sqlite is the database at path as the inbox's Store: package store,
// adapted as package app adapts it.
type sqlite struct{ *store.Store }

func (s sqlite) LeftOpen() ([]Left, error) {
	left, err := s.Store.LeftOpen()
	ls := make([]Left, len(left))
	for i, l := range left {
		ls[i] = Left(l)
	}
	return ls, err
}

// openStore opens the database at path as the inbox's Store.
func openStore(path string) (Store, error) {
	s, err := store.Open(path, discard)
	if err != nil {
		return nil, err
	}
	return sqlite{s}, nil
}

// A question kept open for its caller to come back (its wait ran out)
// survives an app crash: the next run shows it again, with its draft, and
// the caller coming back collects the answer with its caller data. The
// question whose caller still waited is withdrawn, its draft kept.
func TestKeptOpenQuestionIsShownAgainAfterACrash(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	open := func() (Store, error) { return openStore(path) }

	ui := newFakeUI()
	in := New(Options{Presenter: ui, Open: open})
	in.Start()
	kq := q("human")
	kq.Wait = 10 * time.Millisecond
	kq.Question.CallerData = []byte(`{"choices":[{"id":"a","label":"A"}]}`)
	if r := result(t, ask(context.Background(), in, kq)); !errors.Is(r.err, wire.ErrPending) {
		t.Fatalf("first call: %v, want ErrPending", r.err)
	}
	ui.waitShown(t, "human")
	ui.draft("human", wire.Draft{Replies: []wire.Reply{{Text: "half"}}})
	go in.Ask(context.Background(), q("waiting"), func(wire.Event) {})
	ui.waitShown(t, "waiting")
	in.Close(5 * time.Second) // what was written before the crash

	ui = newFakeUI()
	in = New(Options{Presenter: ui, Open: open})
	in.Start()
	defer in.Close(5 * time.Second)
	ui.waitShown(t, "human")
	if got := ui.restored["human"]; got == nil || got.Replies[0].Text != "half" {
		t.Errorf("restored draft = %+v", got)
	}
	ch := ask(context.Background(), in, attach("human"))
	waitFor(t, func() bool { return waiters(in, "human") == 1 })
	ui.answer("human", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Selected: []string{"A"}}}})
	r := result(t, ch)
	if r.err != nil || string(r.a.CallerData) != string(kq.Question.CallerData) {
		t.Fatalf("after the crash: %+v, %v", r.a, r.err)
	}
	if len(in.Items()) != 0 {
		t.Errorf("open after the answer: %v (the question whose caller waited must be withdrawn)", in.Items())
	}
}

// The answer of a second window, given while nobody waited, is found in
// the database under the id its caller asks with.
func TestSecondWindowAnswerSurvivesARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	open := func() (Store, error) { return openStore(path) }
	ui := newFakeUI()
	in := New(Options{Presenter: ui, Open: open})
	in.Start()
	first := ask(context.Background(), in, q("dup"))
	ui.waitShown(t, "dup")
	wq := q("dup")
	wq.Wait = 10 * time.Millisecond
	if r := result(t, ask(context.Background(), in, wq)); !errors.Is(r.err, wire.ErrPending) {
		t.Fatalf("second caller: %v", r.err)
	}
	second := <-ui.showCh
	ui.answer(second, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "mine"}}})
	ui.answer("dup", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "first"}}})
	if r := result(t, first); r.a.Replies[0].Text != "first" {
		t.Errorf("first caller got %+v", r.a)
	}
	in.Close(5 * time.Second)

	in = New(Options{Presenter: newFakeUI(), Open: open})
	in.Start()
	defer in.Close(5 * time.Second)
	r := result(t, ask(context.Background(), in, attach("dup")))
	if r.err != nil || r.a.Replies[0].Text != "mine" || r.a.QuestionID != "dup" {
		t.Fatalf("coming back after the restart: %+v, %v", r.a, r.err)
	}
}

// After a restart a question whose ask said KeepOpen still outlives its
// callers: one that comes back and cancels leaves it open; a question
// kept open only because its caller's wait ran out is withdrawn as usual.
func TestKeepOpenOutlivesARestart(t *testing.T) {
	for _, keep := range []bool{true, false} {
		t.Run(fmt.Sprint("keep_open=", keep), func(t *testing.T) {
			fs := &leftStore{fakeStore: newFakeStore(), left: []Left{
				{Question: q("r").Question, AskID: "r", AskedAt: time.Now(), KeptOpen: true, KeepOpen: keep}}}
			in, ui := inboxWith(fs)
			defer in.Close(time.Second)
			ui.waitShown(t, "r")
			ctx, cancel := context.WithCancel(context.Background())
			ch := ask(ctx, in, attach("r"))
			eventually(t, "the caller attached", func() bool {
				in.mu.Lock()
				defer in.mu.Unlock()
				return in.open["r"] != nil && in.open["r"].waiters == 1
			})
			cancel()
			result(t, ch)
			ui.mu.Lock()
			withdrawn := slices.Contains(ui.withdrawn, "r")
			ui.mu.Unlock()
			if withdrawn == keep {
				t.Errorf("withdrawn = %v after its caller left, want %v", withdrawn, !keep)
			}
		})
	}
}

// leftStore is a store that says what the last run left open.
type leftStore struct {
	*fakeStore
	left []Left
}

func (l *leftStore) LeftOpen() ([]Left, error) { return l.left, nil }

// eventually waits until cond holds, failing after 5 s.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}
