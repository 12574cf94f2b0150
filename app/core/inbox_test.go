package core

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/synctest"
	"time"

	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// fakeUI is a Presenter that records calls and lets the test answer.
type fakeUI struct {
	mu        sync.Mutex
	owner     WindowOwner
	restored  map[string]*wire.Draft // the draft each Show restored
	shows     int
	withdrawn []string
	focused   []string
	showCh    chan string // receives the id of every Show
}

func newFakeUI() *fakeUI {
	return &fakeUI{restored: map[string]*wire.Draft{}, showCh: make(chan string, 16)}
}

func (f *fakeUI) Bind(o WindowOwner) {
	f.mu.Lock()
	f.owner = o
	f.mu.Unlock()
}

func (f *fakeUI) ShowWindow(m uiproto.Show) {
	f.mu.Lock()
	f.restored[m.Question.ID] = m.Draft
	f.shows++
	o := f.owner
	f.mu.Unlock()
	o.WindowEvent(uiproto.Shown{ID: m.Question.ID})
	f.showCh <- m.Question.ID
}

// draft reports d as the user's draft of question id, as the window would.
func (f *fakeUI) draft(id string, d wire.Draft) {
	f.mu.Lock()
	o := f.owner
	f.mu.Unlock()
	var enc uiproto.DraftEncoder // a first draft: its images cross
	o.WindowDraft(enc.Encode(id, d))
}

func (f *fakeUI) Withdraw(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.withdrawn = append(f.withdrawn, id)
}

func (f *fakeUI) Focus(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.focused = append(f.focused, id)
}

// answer ends question id as the user would.
func (f *fakeUI) answer(id string, a wire.Answer) {
	f.mu.Lock()
	o := f.owner
	f.mu.Unlock()
	o.WindowEvent(uiproto.Done{ID: id, Answer: a})
}

func (f *fakeUI) waitShown(t *testing.T, id string) {
	t.Helper()
	select {
	case got := <-f.showCh:
		if got != id {
			t.Fatalf("shown %q, want %q", got, id)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%q was not shown", id)
	}
}

type askResult struct {
	a      wire.Answer
	err    error
	events []wire.Event
}

func ask(ctx context.Context, in *Inbox, q wire.Ask) <-chan askResult {
	ch := make(chan askResult, 1)
	go func() {
		var r askResult
		r.a, r.err = in.Ask(ctx, q, func(e wire.Event) { r.events = append(r.events, e) })
		ch <- r
	}()
	return ch
}

func result(t *testing.T, ch <-chan askResult) askResult {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(5 * time.Second):
		t.Fatal("Ask did not return")
		return askResult{}
	}
}

// q is the plain ask of a question with the given id.
func q(id string) wire.Ask {
	return wire.Ask{Question: wire.Question{ID: id, Prompts: []wire.Prompt{{Markdown: "question " + id}}}}
}

// attach is the attach-only ask of the question with id.
func attach(id string) wire.Ask {
	return wire.Ask{Question: wire.Question{ID: id}, AttachOnly: true}
}

func TestAskReturnsTheAnswer(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	ch := ask(context.Background(), in, q("a"))
	ui.waitShown(t, "a")
	want := wire.Answer{QuestionID: "a", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "ok"}}}
	ui.answer("a", want)
	r := result(t, ch)
	if r.err != nil || !reflect.DeepEqual(r.a, want) {
		t.Fatalf("Ask = %+v, %v", r.a, r.err)
	}
	if !reflect.DeepEqual(r.events, []wire.Event{{Type: wire.EventShown}}) {
		t.Errorf("events = %+v", r.events)
	}
	if items := in.Items(); len(items) != 0 {
		t.Errorf("still open: %+v", items)
	}
}

func TestEachAnswerGoesToItsOwnCaller(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	const n = 16
	chans := make([]<-chan askResult, n)
	ids := make([]string, n)
	for i := range n {
		ids[i] = wire.NewID()
		chans[i] = ask(context.Background(), in, q(ids[i]))
	}
	for range n {
		<-ui.showCh
	}
	if got := len(in.Items()); got != n {
		t.Fatalf("%d open, want %d", got, n)
	}
	for i := n - 1; i >= 0; i-- { // answer in reverse order
		ui.answer(ids[i], wire.Answer{QuestionID: ids[i], Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: ids[i]}}})
	}
	for i := range n {
		if r := result(t, chans[i]); r.a.Replies[0].Text != ids[i] {
			t.Errorf("caller %d got the answer of %q", i, r.a.Replies[0].Text)
		}
	}
}

// Two callers asking the identical question at once (two sessions) each
// get a window and an answer of their own.
func TestSecondCallerGetsItsOwnWindow(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	first := ask(context.Background(), in, q("same"))
	ui.waitShown(t, "same")
	second := ask(context.Background(), in, q("same"))
	var other string
	select {
	case other = <-ui.showCh:
	case <-time.After(5 * time.Second):
		t.Fatal("the second caller got no window of its own")
	}
	if !strings.HasPrefix(other, "same#") {
		t.Fatalf("second window id %q", other)
	}
	ui.answer("same", wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "yes"}}})
	ui.answer(other, wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "no"}}})
	for ch, want := range map[<-chan askResult]string{first: "yes", second: "no"} {
		r := result(t, ch)
		if r.err != nil || r.a.Replies[0].Text != want || r.a.QuestionID != "same" {
			t.Errorf("got %+v, %v; want reply %q under id same", r.a, r.err, want)
		}
	}
}

// A caller whose wait runs out gets ErrPending and the window stays; the
// caller coming back (same id) attaches to it, no second window.
func TestCallerComingBackAttaches(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	wq := q("again")
	wq.Wait = 20 * time.Millisecond
	wq.Question.CallerData = []byte(`{"k":1}`)
	r := result(t, ask(context.Background(), in, wq))
	if !errors.Is(r.err, wire.ErrPending) || r.a.QuestionID != "again" || string(r.a.CallerData) != `{"k":1}` {
		t.Fatalf("first call: %+v, %v; want ErrPending with the caller data", r.a, r.err)
	}
	ui.waitShown(t, "again")
	if len(ui.withdrawn) != 0 || len(in.Items()) != 1 {
		t.Fatalf("the window did not stay (withdrawn %v)", ui.withdrawn)
	}
	wq.Wait = 0
	ch := ask(context.Background(), in, wq)
	waitFor(t, func() bool { return waiters(in, "again") == 1 })
	ui.answer("again", wire.Answer{Status: wire.StatusAnswered})
	if r := result(t, ch); r.err != nil || string(r.a.CallerData) != `{"k":1}` {
		t.Errorf("coming back: %+v, %v", r.a, r.err)
	}
	if ui.shows != 1 {
		t.Errorf("%d windows, want 1", ui.shows)
	}
}

// A question nobody came back for is withdrawn after Hold, not before;
// its hold runs on the inbox's clock (here synctest's).
func TestHoldWithdrawsTheAbandoned(t *testing.T) {
	synctest.Test(t, func(t *testing.T) {
		ui := newFakeUI()
		in := New(Options{Presenter: ui})
		in.Start()
		defer in.Close(time.Second)
		wq := q("abandoned")
		wq.Wait = time.Second
		if r := result(t, ask(t.Context(), in, wq)); !errors.Is(r.err, wire.ErrPending) {
			t.Fatal(r.err)
		}
		time.Sleep(DefaultHold - time.Millisecond)
		synctest.Wait()
		if len(in.Items()) != 1 {
			t.Fatalf("withdrawn before its hold ran out: %v", in.Items())
		}
		time.Sleep(time.Millisecond)
		synctest.Wait()
		ui.mu.Lock()
		withdrawn := ui.withdrawn
		ui.mu.Unlock()
		if len(withdrawn) != 1 || len(in.Items()) != 0 {
			t.Errorf("after its hold: withdrawn %v, still open %v", withdrawn, in.Items())
		}
	})
}

// The cap counts the questions kept open for a caller that comes back:
// one more is refused with CodeTooMany, naming the cap.
func TestCapCountsKeptOpen(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui, MaxOpen: 3})
	in.Start()
	for i := range 2 {
		wq := q(fmt.Sprint("kept", i))
		wq.Wait = 1 * time.Millisecond
		if r := result(t, ask(context.Background(), in, wq)); !errors.Is(r.err, wire.ErrPending) {
			t.Fatal(r.err)
		}
	}
	kq := q("keepopen")
	kq.KeepOpen = true
	ctx, cancel := context.WithCancel(context.Background())
	ch := ask(ctx, in, kq)
	waitFor(t, func() bool { return waiters(in, "keepopen") == 1 })
	cancel()
	result(t, ch)
	r := result(t, ask(context.Background(), in, q("one too many")))
	var e *wire.Error
	if !errors.As(r.err, &e) || e.Code != wire.CodeTooMany || !strings.Contains(e.Message, "3 questions") {
		t.Fatalf("the fourth question: %v; want too_many naming the cap", r.err)
	}
	// Coming back to a kept question is not a new one.
	wq := q("kept0")
	ch = ask(context.Background(), in, wq)
	waitFor(t, func() bool { return waiters(in, "kept0") == 1 })
	ui.answer("kept0", wire.Answer{Status: wire.StatusAnswered})
	if r := result(t, ch); r.err != nil {
		t.Fatal(r.err)
	}
}

// waiters is how many callers wait on window id (-1: not open).
func waiters(in *Inbox, id string) int {
	in.mu.Lock()
	defer in.mu.Unlock()
	if e, ok := in.open[id]; ok {
		return e.waiters
	}
	return -1
}

func TestCallerGoingAwayWithdrawsTheQuestion(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	ctx, cancel := context.WithCancel(context.Background())
	ch := ask(ctx, in, q("gone"))
	ui.waitShown(t, "gone")
	cancel()
	if r := result(t, ch); !errors.Is(r.err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", r.err)
	}
	if !reflect.DeepEqual(ui.withdrawn, []string{"gone"}) {
		t.Errorf("withdrawn = %v", ui.withdrawn)
	}
	if items := in.Items(); len(items) != 0 {
		t.Errorf("still open: %+v", items)
	}
	// The window may still report an answer it raced with: nobody receives
	// it now, so it is kept for the next ask with the id.
	ui.answer("gone", wire.Answer{QuestionID: "gone", Status: wire.StatusAnswered})
	r := result(t, ask(context.Background(), in, attach("gone")))
	if r.err != nil || r.a.Status != wire.StatusAnswered {
		t.Errorf("the answer given as the caller left: %+v, %v", r.a, r.err)
	}
}

func TestWithdrawWaitsForTheLastCaller(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	ctx1, cancel1 := context.WithCancel(context.Background())
	first := ask(ctx1, in, q("x"))
	ui.waitShown(t, "x")
	second := ask(context.Background(), in, attach("x"))
	waitFor(t, func() bool { return waiters(in, "x") == 2 })
	cancel1()
	result(t, first)
	if len(ui.withdrawn) != 0 {
		t.Fatal("withdrawn while another caller still waits")
	}
	ui.answer("x", wire.Answer{QuestionID: "x", Status: wire.StatusAnswered})
	if r := result(t, second); r.a.Status != wire.StatusAnswered {
		t.Errorf("status = %q", r.a.Status)
	}
}

func TestOnChangeListsOpenQuestions(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	var mu sync.Mutex
	var last []Item
	in.OnChange(func(f func()) { f() }, func(items []Item) { mu.Lock(); last = items; mu.Unlock() })
	qq := q("t")
	qq.Question.Title, qq.Question.Client = "Deploy", "claude-code"
	items := func() []Item { mu.Lock(); defer mu.Unlock(); return last }
	ch := ask(context.Background(), in, qq)
	ui.waitShown(t, "t")
	// The list changes after the window is shown, not necessarily before
	// waitShown returns: wait for the change itself.
	waitFor(t, func() bool { return len(items()) == 1 })
	if got := items(); got[0].Title != "Deploy" || got[0].Client != "claude-code" {
		t.Errorf("items = %+v", got)
	}
	ui.answer("t", wire.Answer{QuestionID: "t", Status: wire.StatusAnswered})
	result(t, ch)
	waitFor(t, func() bool { return len(items()) == 0 })
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		if cond() {
			return
		}
	}
	t.Fatal("condition not met within 5 s")
}

func TestKeepOpenKeepsTheWindowAndTheAnswer(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	kq := q("k")
	kq.KeepOpen = true
	ctx, cancel := context.WithCancel(context.Background())
	ch := ask(ctx, in, kq)
	ui.waitShown(t, "k")
	cancel() // the caller stops waiting ("pending")
	result(t, ch)
	if len(ui.withdrawn) != 0 || len(in.Items()) != 1 {
		t.Fatalf("a KeepOpen question was withdrawn (withdrawn %v, open %v)", ui.withdrawn, in.Items())
	}
	want := wire.Answer{QuestionID: "k", Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "later"}}}
	ui.answer("k", want) // answered while nobody waits

	again := q("k")
	again.AttachOnly = true
	again.Question.Prompts = nil
	r := result(t, ask(context.Background(), in, again))
	if r.err != nil || !reflect.DeepEqual(r.a, want) {
		t.Fatalf("coming back: %+v, %v", r.a, r.err)
	}
	// Delivered once: a further attach finds nothing.
	r = result(t, ask(context.Background(), in, again))
	if !errors.Is(r.err, &wire.Error{Code: wire.CodeNotFound}) {
		t.Errorf("second collection: %v, want not_found", r.err)
	}
}

func TestAttachOnlyJoinsTheOpenWindow(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	ch := ask(context.Background(), in, q("o"))
	ui.waitShown(t, "o")
	attach := attach("o")
	ch2 := ask(context.Background(), in, attach)
	waitFor(t, func() bool { return waiters(in, "o") == 2 })
	ui.answer("o", wire.Answer{QuestionID: "o", Status: wire.StatusAnswered})
	for _, c := range []<-chan askResult{ch, ch2} {
		if r := result(t, c); r.err != nil || r.a.Status != wire.StatusAnswered {
			t.Errorf("%+v %v", r.a, r.err)
		}
	}
	if ui.shows != 1 {
		t.Errorf("%d windows", ui.shows)
	}
}

// An answer racing with its caller's departure reaches that caller or is
// kept for the next ask with the same id: never both, never neither.
func TestAnswerRacingTheCallerIsNeverLost(t *testing.T) {
	for i := range 50 {
		ui := newFakeUI()
		in := New(Options{Presenter: ui})
		in.Start()
		id := fmt.Sprint("race", i)
		ctx, cancel := context.WithCancel(context.Background())
		ch := ask(ctx, in, q(id))
		ui.waitShown(t, id)
		go cancel()
		ui.answer(id, wire.Answer{QuestionID: id, Status: wire.StatusAnswered})
		first := result(t, ch)
		later := result(t, ask(context.Background(), in, attach(id)))
		got := 0
		if first.err == nil {
			got++
		}
		if later.err == nil {
			got++
		}
		if got != 1 {
			t.Fatalf("run %d: the answer was delivered %d times (first %v, later %v)", i, got, first.err, later.err)
		}
	}
}

// Tray updates that run late and out of order still leave the menu showing
// the latest state: the list is read when the update runs.
func TestTrayShowsTheLatestStateWhateverTheOrder(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	var mu sync.Mutex
	var queued []func()
	var shown []Item
	in.OnChange(func(f func()) { mu.Lock(); queued = append(queued, f); mu.Unlock() }, func(items []Item) { shown = items })
	a := ask(context.Background(), in, q("a"))
	ui.waitShown(t, "a")
	ask(context.Background(), in, q("b"))
	ui.waitShown(t, "b")
	ui.answer("a", wire.Answer{Status: wire.StatusAnswered})
	result(t, a)
	mu.Lock()
	defer mu.Unlock()
	if len(queued) < 3 {
		t.Fatalf("%d updates queued", len(queued))
	}
	for i := len(queued) - 1; i >= 0; i-- { // the oldest runs last
		queued[i]()
	}
	if len(shown) != 1 || shown[0].ID != "b" {
		t.Errorf("the menu shows %+v, want only b", shown)
	}
}

// An answer given in the question's notification closes its window and
// reaches its caller; the window's own outcome coming after it is dropped,
// and a second notification answer for an ended question is refused.
func TestAnswerFromOutsideTheWindow(t *testing.T) {
	ui := newFakeUI()
	ends := make(chan string, 4)
	in := New(Options{Presenter: ui, OnEnd: func(id string) { ends <- id }})
	in.Start()
	ch := ask(context.Background(), in, q("a"))
	ui.waitShown(t, "a")
	picked := wire.Answer{Status: wire.StatusAnswered, Via: wire.ViaNotification, Replies: []wire.Reply{{Selected: []string{"Yes"}}}}
	if !in.AnswerFrom("a", picked) {
		t.Fatal("AnswerFrom refused an open question")
	}
	r := result(t, ch)
	if r.err != nil || r.a.Via != wire.ViaNotification || !reflect.DeepEqual(r.a.Replies, picked.Replies) {
		t.Fatalf("Ask = %+v, %v", r.a, r.err)
	}
	ui.mu.Lock()
	withdrawn := slices.Clone(ui.withdrawn)
	ui.mu.Unlock()
	if !reflect.DeepEqual(withdrawn, []string{"a"}) {
		t.Errorf("windows closed %v, want [a]", withdrawn)
	}
	// The window, closing, reports a dismissal: nobody gets it, nothing is kept.
	ui.answer("a", wire.Answer{Status: wire.StatusDismissed})
	if in.AnswerFrom("a", picked) || in.AnswerFrom("never", picked) {
		t.Error("AnswerFrom took an answer for a question that is not open")
	}
	next := ask(context.Background(), in, attach("a"))
	if r := result(t, next); r.err == nil {
		t.Errorf("a second outcome was kept for a caller coming back: %+v", r.a)
	}
	if len(ends) != 1 || <-ends != "a" {
		t.Error("OnEnd was not called once, for a")
	}
}

// draftOf is a draft of one reply.
func draftOf(text string) wire.Draft {
	return wire.Draft{Replies: []wire.Reply{{Text: text}}}
}

// The tray's items say which ask to approve a tool call, and whose (the
// messenger holds back a client's own "needs your permission" while one
// asks for it).
func TestItemsSayWhichAreApprovals(t *testing.T) {
	ui := newFakeUI()
	in := New(Options{Presenter: ui})
	in.Start()
	t.Cleanup(func() { in.Close(time.Second) })
	approval := q("a")
	approval.Question.Source, approval.Question.Client, approval.Question.Project = wire.SourceApproval, "claude-code", "shop"
	ask(context.Background(), in, approval)
	ask(context.Background(), in, q("b"))
	<-ui.showCh
	<-ui.showCh
	got := map[string]Item{}
	for _, it := range in.Items() {
		got[it.ID] = it
	}
	if a := got["a"]; !a.Approval || a.Client != "claude-code" || a.Project != "shop" {
		t.Errorf("the approval's item: %+v", a)
	}
	if got["b"].Approval {
		t.Errorf("a question's item says it is an approval: %+v", got["b"])
	}
}
