package core

import (
	"context"
	"errors"
	"path/filepath"
	"reflect"
	"sync"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// sessions is a fake of the sessions' liveness (Options.SessionEnded).
type sessions struct {
	mu    sync.Mutex
	ended map[string]bool
}

func newSessions() *sessions { return &sessions{ended: map[string]bool{}} }

func (s *sessions) isEnded(session string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ended[session]
}

func (s *sessions) end(session string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.ended[session] = true
}

// oneShot is the ask of a one-shot client's call: the question as id
// (which names the session), its key, its session, and a short wait.
func oneShot(id, key, session string) wire.Ask {
	a := q(id)
	a.Question.Prompts[0].Markdown = "Which port?" // identical content whatever the id
	a.Key, a.Session = key, session
	a.Wait = 20 * time.Millisecond
	return a
}

// pendingThenAnswered asks as a session whose wait runs out, then answers
// its window while nobody waits: the answer is kept.
func pendingThenAnswered(t *testing.T, ui *fakeUI, in *Inbox, a wire.Ask, reply string) {
	t.Helper()
	r := result(t, ask(context.Background(), in, a))
	if !errors.Is(r.err, wire.ErrPending) {
		t.Fatalf("first call: %+v, %v; want pending", r.a, r.err)
	}
	ui.waitShown(t, a.Question.ID)
	ui.answer(a.Question.ID, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: reply}}})
	waitFor(t, func() bool { return len(in.Items()) == 0 })
}

// A one-shot client: the answer kept for a session that has ended goes,
// at once and once, to the next identical question (same key) of another
// session; never while the asking session lives, never under another key
// (another client or project), never to a session the app cannot tell
// about (its answer stays for its own id).
func TestKeptAnswerGoesToTheNextSessionOnceTheAskerEnded(t *testing.T) {
	ui := newFakeUI()
	live := newSessions()
	in := New(Options{Presenter: ui, SessionEnded: live.isEnded})
	in.Start()
	pendingThenAnswered(t, ui, in, oneShot("s1q", "K", "s1"), "8080")

	// s1 still runs: s2's identical question gets a window of its own.
	ctx, cancel := context.WithCancel(context.Background())
	ch := ask(ctx, in, oneShot("s2q", "K", "s2"))
	ui.waitShown(t, "s2q")
	cancel()
	if r := result(t, ch); !errors.Is(r.err, context.Canceled) {
		t.Fatalf("s2 while s1 lives: %+v, %v; want its own window", r.a, r.err)
	}

	live.end("s1")
	// Another key (another client or project) gets nothing of it.
	other := oneShot("s3q", "K-other-project", "s3")
	other.Wait = 0
	ctx, cancel = context.WithCancel(context.Background())
	ch = ask(ctx, in, other)
	ui.waitShown(t, "s3q")
	cancel()
	if r := result(t, ch); !errors.Is(r.err, context.Canceled) {
		t.Fatalf("another key: %+v, %v; want its own window", r.a, r.err)
	}
	// The answer of a session the app cannot tell about (it looked ended
	// as it asked: another pid namespace) never goes to another.
	live.end("s0")
	pendingThenAnswered(t, ui, in, oneShot("s0q", "K0", "s0"), "unknown session's")
	ctx, cancel = context.WithCancel(context.Background())
	ch = ask(ctx, in, oneShot("s5q", "K0", "s5"))
	ui.waitShown(t, "s5q")
	cancel()
	if r := result(t, ch); !errors.Is(r.err, context.Canceled) {
		t.Fatalf("the answer of an unknown session: %+v, %v; want its own window", r.a, r.err)
	}

	shows := ui.shows
	r := result(t, ask(context.Background(), in, oneShot("s4q", "K", "s4")))
	want := wire.Answer{QuestionID: "s4q", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "8080"}}}
	if r.err != nil || !reflect.DeepEqual(r.a, want) {
		t.Fatalf("s4 after s1 ended: %+v, %v; want s1's kept answer", r.a, r.err)
	}
	if ui.shows != shows {
		t.Errorf("a window opened for the kept answer")
	}
	// Once: neither s1's id nor another session gets it again.
	ctx, cancel = context.WithCancel(context.Background())
	ch = ask(ctx, in, oneShot("s6q", "K", "s6"))
	ui.waitShown(t, "s6q")
	cancel()
	if r := result(t, ch); !errors.Is(r.err, context.Canceled) {
		t.Fatalf("the answer was handed out twice: %+v, %v", r.a, r.err)
	}
}

// A one-shot client's window kept open (its call returned pending, then
// its session ended) is joined by the next identical question of another
// session, which gets the answer given in it; the window is that session's
// from then on (its call made again joins it). While a caller waits on the
// window, an identical question gets a window of its own.
func TestWindowOfAnEndedSessionIsJoinedByTheNext(t *testing.T) {
	ui := newFakeUI()
	live := newSessions()
	in := New(Options{Presenter: ui, SessionEnded: live.isEnded})
	in.Start()
	if r := result(t, ask(context.Background(), in, oneShot("s1q", "K", "s1"))); !errors.Is(r.err, wire.ErrPending) {
		t.Fatalf("first call: %+v, %v", r.a, r.err)
	}
	ui.waitShown(t, "s1q")
	live.end("s1")

	if r := result(t, ask(context.Background(), in, oneShot("s2q", "K", "s2"))); !errors.Is(r.err, wire.ErrPending) || r.a.QuestionID != "s2q" {
		t.Fatalf("s2: %+v, %v; want pending on s1's window", r.a, r.err)
	}
	if ui.shows != 1 {
		t.Fatalf("%d windows, want s1's alone", ui.shows)
	}
	// s2 still runs and waits: s3's identical question gets its own window.
	again := oneShot("s2q", "K", "s2")
	again.Wait = 0
	ch := ask(context.Background(), in, again)
	waitFor(t, func() bool { return waiters(in, "s1q") == 1 })
	live.end("s2") // even so: a caller waits on it
	ctx, cancel := context.WithCancel(context.Background())
	ch3 := ask(ctx, in, oneShot("s3q", "K", "s3"))
	ui.waitShown(t, "s3q")
	cancel()
	if r := result(t, ch3); !errors.Is(r.err, context.Canceled) {
		t.Fatalf("s3 while s2 waits: %+v, %v; want its own window", r.a, r.err)
	}

	ui.answer("s1q", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "joined"}}})
	r := result(t, ch)
	if r.err != nil || r.a.QuestionID != "s2q" || r.a.Replies[0].Text != "joined" {
		t.Fatalf("s2 calling again: %+v, %v", r.a, r.err)
	}
}

// A window joined by another session is that session's in the database
// too: after a restart the app shows it again and that session's call
// made again joins it (no second window) and gets its answer.
func TestWindowJoinedByAnotherSessionSurvivesARestart(t *testing.T) {
	path := filepath.Join(t.TempDir(), "feedback.db")
	open := func() (Store, error) { return openStore(path) }
	ui := newFakeUI()
	live := newSessions()
	in := New(Options{Presenter: ui, Open: open, SessionEnded: live.isEnded})
	in.Start()
	if r := result(t, ask(context.Background(), in, oneShot("s1q", "K", "s1"))); !errors.Is(r.err, wire.ErrPending) {
		t.Fatalf("first call: %+v, %v", r.a, r.err)
	}
	ui.waitShown(t, "s1q")
	live.end("s1")
	if r := result(t, ask(context.Background(), in, oneShot("s2q", "K", "s2"))); !errors.Is(r.err, wire.ErrPending) || ui.shows != 1 {
		t.Fatalf("s2: %+v, %v, %d windows; want pending on s1's window", r.a, r.err, ui.shows)
	}
	in.Close(5 * time.Second)

	ui = newFakeUI()
	in = New(Options{Presenter: ui, Open: open})
	in.Start()
	defer in.Close(5 * time.Second)
	ui.waitShown(t, "s1q") // shown again after the restart
	again := oneShot("s2q", "K", "s2")
	again.Wait = 0
	ch := ask(context.Background(), in, again)
	waitFor(t, func() bool { return waiters(in, "s1q") == 1 })
	ui.answer("s1q", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "after the restart"}}})
	if r := result(t, ch); r.err != nil || r.a.QuestionID != "s2q" || r.a.Replies[0].Text != "after the restart" {
		t.Fatalf("s2 after the restart: %+v, %v", r.a, r.err)
	}
	if ui.shows != 1 {
		t.Errorf("%d windows after the restart, want the one shown again", ui.shows)
	}
}

// The user is told where an answer went when it goes to a later call than
// the one that asked: OnHandedOver hears of the hand-over, with the
// question, and of nothing else (an answer collected by its own session).
func TestHandOverIsTold(t *testing.T) {
	ui := newFakeUI()
	live := newSessions()
	var mu sync.Mutex
	var told []string
	in := New(Options{Presenter: ui, SessionEnded: live.isEnded, OnHandedOver: func(q wire.Question) {
		mu.Lock()
		defer mu.Unlock()
		told = append(told, q.ID)
	}})
	in.Start()
	heard := func() []string {
		mu.Lock()
		defer mu.Unlock()
		return append([]string(nil), told...)
	}

	// Collected by the session that asked: nothing to tell.
	pendingThenAnswered(t, ui, in, oneShot("s1q", "K", "s1"), "8080")
	if r := result(t, ask(context.Background(), in, oneShot("s1q", "K", "s1"))); r.err != nil || r.a.Replies[0].Text != "8080" {
		t.Fatalf("s1 coming back: %+v, %v", r.a, r.err)
	}
	if got := heard(); len(got) != 0 {
		t.Errorf("an answer collected by its own session was told as handed over: %v", got)
	}

	// Its session ended: the next session's identical question takes it.
	pendingThenAnswered(t, ui, in, oneShot("s2q", "K", "s2"), "9090")
	live.end("s2")
	if r := result(t, ask(context.Background(), in, oneShot("s3q", "K", "s3"))); r.err != nil || r.a.Replies[0].Text != "9090" {
		t.Fatalf("s3 after s2 ended: %+v, %v", r.a, r.err)
	}
	if got := heard(); !reflect.DeepEqual(got, []string{"s3q"}) {
		t.Errorf("told of hand-overs %v, want the one to s3's question", got)
	}
}

// A timeout is no answer to hand over: a one-shot client asking the same
// question again after its window timed out while nobody waited gets a
// window again, not that timeout at once (the Inspector and claude -p got
// it, with no window, for the hour answers are kept).
func TestTimedOutQuestionOpensAgainForTheNextSession(t *testing.T) {
	ui := newFakeUI()
	live := newSessions()
	in := New(Options{Presenter: ui, SessionEnded: live.isEnded})
	in.Start()
	first := oneShot("t1q", "K", "t1")
	r := result(t, ask(context.Background(), in, first))
	if !errors.Is(r.err, wire.ErrPending) {
		t.Fatalf("first call: %+v, %v; want pending", r.a, r.err)
	}
	ui.waitShown(t, "t1q")
	ui.answer("t1q", wire.Answer{Status: wire.StatusTimeout})
	waitFor(t, func() bool { return len(in.Items()) == 0 })
	live.end("t1")

	ctx, cancel := context.WithCancel(context.Background())
	ch := ask(ctx, in, oneShot("t2q", "K", "t2"))
	ui.waitShown(t, "t2q") // a window again
	cancel()
	if r := result(t, ch); !errors.Is(r.err, context.Canceled) {
		t.Fatalf("the next session got %+v, %v; want its own window", r.a, r.err)
	}
}
