package supervisor

import (
	"context"
	"errors"
	"feedback/app/core"
	"io"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// fakeProc is a UI process run by a test: it says hello, records the
// commands it gets and sends the events the test tells it to.
type fakeProc struct {
	conn *uiproto.UIConn
	cmds chan uiproto.Command
	gone chan struct{} // closed when the core closed the channel
	exit chan error    // what wait returns
	// stop, closed, stops the process (SIGSTOP): it reads no more
	// commands, answers no ping, until killed (closed by Kill).
	stop   chan struct{}
	killed chan struct{} // closed by Kill
	pings  atomic.Int32  // pings answered
	// asleep, while not nil, holds the process as Child.Stop does until
	// Continue closes it; stops and conts count those calls.
	mu           sync.Mutex
	asleep       chan struct{}
	stops, conts atomic.Int32
}

// fakeProcs is a Starter whose processes the test drives.
type fakeProcs struct {
	started chan *fakeProc
	fail    atomic.Bool
	// hello is what each process says first (zero: the app's own Hello
	// of an app with no Build).
	hello uiproto.Event
	// raw, if set, is written as the first line instead of hello.
	raw string
	// sleeps: its processes can be stopped and continued (Child.Stop).
	sleeps bool
	// exitLate: told to exit, its processes go on reading and sending
	// until the test ends them (crash).
	exitLate bool
	// deaf: its processes answer no Ping (the test sends Pongs itself).
	deaf bool
	// contGate, if set, holds each Continue (SIGCONT) until it is closed;
	// conting hears each Continue begin.
	contGate, conting chan struct{}
}

func newFakeProcs() *fakeProcs { return &fakeProcs{started: make(chan *fakeProc, 8)} }

func (f *fakeProcs) start() (Child, error) {
	if f.fail.Load() {
		return Child{}, errors.New("no binary")
	}
	ours, theirs := net.Pipe()
	ui := &fakeProc{conn: uiproto.NewUIConn(theirs), cmds: make(chan uiproto.Command, 64), gone: make(chan struct{}), exit: make(chan error, 1),
		stop: make(chan struct{}), killed: make(chan struct{})}
	hello := f.hello
	if hello == nil {
		hello = uiproto.Hello{Protocol: uiproto.Version}
	}
	if f.raw != "" {
		go io.WriteString(theirs, f.raw+"\n")
	} else {
		go ui.conn.Send(hello)
	}
	go func() {
		defer close(ui.gone)
		for {
			m, err := ui.conn.Receive()
			if err != nil {
				return
			}
			ui.mu.Lock()
			asleep := ui.asleep
			ui.mu.Unlock()
			if asleep != nil { // stopped: the command waits in the channel
				select {
				case <-asleep:
				case <-ui.killed:
					return
				}
			}
			select {
			case <-ui.stop: // SIGSTOP: nothing more is handled
				<-ui.killed
				return
			default:
			}
			if _, ok := m.(uiproto.Ping); ok {
				ui.pings.Add(1)
				if !f.deaf {
					ui.conn.Send(uiproto.Pong{})
				}
				continue
			}
			ui.cmds <- m
			if _, ok := m.(uiproto.Exit); ok && !f.exitLate {
				ui.conn.Close()
				ui.exit <- nil
				return
			}
		}
	}()
	f.started <- ui
	var once sync.Once
	kill := func() error {
		once.Do(func() {
			close(ui.killed)
			ui.conn.Close()
			ui.exit <- errors.New("signal: killed")
		})
		return nil
	}
	c := Child{Channel: ours, Wait: func() error { return <-ui.exit }, Kill: kill}
	if f.sleeps {
		c.Stop = func() error {
			ui.stops.Add(1)
			ui.mu.Lock()
			ui.asleep = make(chan struct{})
			ui.mu.Unlock()
			return nil
		}
		c.Continue = func() error {
			if f.contGate != nil {
				f.conting <- struct{}{}
				<-f.contGate
			}
			ui.conts.Add(1)
			ui.mu.Lock()
			if ui.asleep != nil {
				close(ui.asleep)
				ui.asleep = nil
			}
			ui.mu.Unlock()
			return nil
		}
	}
	return c, nil
}

func (f *fakeProcs) next(t *testing.T) *fakeProc {
	t.Helper()
	select {
	case ui := <-f.started:
		return ui
	case <-time.After(5 * time.Second):
		t.Fatal("no UI process was started")
		return nil
	}
}

// newUI is a UIProcess over processes the test drives (newFakeProcs):
// o with its Start set to theirs.
func newUI(o Options) (*fakeProcs, *UIProcess) {
	f := newFakeProcs()
	o.Start = f.start
	return f, New(o)
}

// showFirst asks the question id (its Markdown: markdown) through the
// inbox bound to u (showDraft, no draft) and returns the UI process started
// for it, once it got the window's Show, and what the test hears of the
// question.
func showFirst(t *testing.T, f *fakeProcs, u *UIProcess, id, markdown string) (*fakeProc, *hookLog) {
	t.Helper()
	l, h := newHooks()
	showDraft(t, u, wire.Question{ID: id, Prompts: []wire.Prompt{{Markdown: markdown}}}, nil, h)
	ui := f.next(t)
	expect[uiproto.Show](t, ui)
	return ui, l
}

// anyStarted takes a UI process started that the test has not taken
// (next), and says whether there was one.
func (f *fakeProcs) anyStarted() bool {
	select {
	case <-f.started:
		return true
	default:
		return false
	}
}

// lingering says whether u's linger timer runs.
func lingering(u *UIProcess) bool {
	u.mu.Lock()
	defer u.mu.Unlock()
	return u.linger != nil
}

// expect returns ui's next command, which must be a T.
func expect[T uiproto.Command](t *testing.T, ui *fakeProc) T {
	t.Helper()
	var want T
	select {
	case m := <-ui.cmds:
		got, ok := m.(T)
		if !ok {
			t.Fatalf("command %q (%+v), want %q", m.Type(), m, want.Type())
		}
		return got
	case <-time.After(5 * time.Second):
		t.Fatalf("no %q command", want.Type())
		return want
	}
}

func (ui *fakeProc) send(t *testing.T, m uiproto.Event) {
	t.Helper()
	if err := ui.conn.Send(m); err != nil {
		t.Fatalf("sending %s: %v", m.Type(), err)
	}
}

// crash ends the fake process as a crash would: its channel closes.
func (ui *fakeProc) crash() {
	ui.conn.Close()
	ui.exit <- errors.New("signal: killed")
}

// hookLog is what a test hears of one question shown through the inbox
// bound to a UIProcess (showDraft): its window on screen, its drafts as
// the inbox records them, its outcome.
type hookLog struct {
	shown  chan struct{}
	drafts chan wire.Draft
	done   chan wire.Answer
}

func newHooks() (*hookLog, *hookLog) {
	l := &hookLog{shown: make(chan struct{}, 8), drafts: make(chan wire.Draft, 8), done: make(chan wire.Answer, 8)}
	return l, l
}

// uiHarness is the inbox that owns a UIProcess's windows in a test, with
// a database of drafts that reports each draft written.
type uiHarness struct {
	in   *core.Inbox
	host core.Host   // the inbox as its features have it (grab)
	sent chan string // the id of each ShowWindow passed on to the UIProcess

	mu     sync.Mutex
	logs   map[string]*hookLog
	drafts map[string]wire.Draft // restored when a question opens
	asks   map[string]context.CancelFunc
}

// harnessPresenter passes the inbox's calls on to the UIProcess and says
// when a ShowWindow has been handed over.
type harnessPresenter struct {
	*UIProcess
	sent chan string
}

func (p harnessPresenter) ShowWindow(m uiproto.Show) {
	p.UIProcess.ShowWindow(m)
	p.sent <- m.Question.ID
}

// grab is a feature that only keeps the Host it is given: the test acts
// as a feature would (SetAside, BringBack: package snooze's part).
type grab struct{ h *uiHarness }

func (g grab) Attach(h core.Host) core.Hooks {
	g.h.host = h
	return core.Hooks{}
}

// harnessDB is the harness's Store.
type harnessDB struct {
	core.Store
	h *uiHarness
}

func (d harnessDB) Draft(id string) (wire.Draft, bool, error) {
	d.h.mu.Lock()
	defer d.h.mu.Unlock()
	dr, ok := d.h.drafts[id]
	return dr, ok, nil
}

func (d harnessDB) SaveDraft(id string, dr wire.Draft) error {
	d.h.mu.Lock()
	l := d.h.logs[id]
	d.h.mu.Unlock()
	if l != nil {
		l.drafts <- dr
	}
	return nil
}

var harnesses sync.Map // *UIProcess → *uiHarness

// harnessOf is the inbox bound to u (made at the first call, with u's clock).
func harnessOf(u *UIProcess) *uiHarness {
	if h, ok := harnesses.Load(u); ok {
		return h.(*uiHarness)
	}
	return harnessWith(u, core.Options{})
}

// harnessWith makes the inbox bound to u from o, with u's clock; before
// harnessOf's first call.
func harnessWith(u *UIProcess, o core.Options) *uiHarness {
	h := &uiHarness{sent: make(chan string, 64), logs: map[string]*hookLog{}, drafts: map[string]wire.Draft{}, asks: map[string]context.CancelFunc{}}
	o.Presenter = harnessPresenter{u, h.sent}
	o.Open = func() (core.Store, error) { return harnessDB{Store: core.NewMemoryStore(), h: h}, nil }
	o.Clock = u.clock
	o.Features = append(o.Features, grab{h})
	h.in = core.New(o)
	h.in.Start()
	harnesses.Store(u, h)
	return h
}

// showDraft asks q through the inbox bound to u, draft (if not nil)
// restored from its database, and returns once the inbox has handed its
// window to u; l hears what becomes of it.
func showDraft(t *testing.T, u *UIProcess, q wire.Question, draft *wire.Draft, l *hookLog) {
	t.Helper()
	h := harnessOf(u)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	h.mu.Lock()
	if draft != nil {
		h.drafts[q.ID] = *draft
	}
	h.logs[q.ID] = l
	h.asks[q.ID] = cancel
	h.mu.Unlock()
	go func() {
		a, err := h.in.Ask(ctx, wire.Ask{Question: q}, func(ev wire.Event) {
			if ev.Type == wire.EventShown {
				l.shown <- struct{}{}
			}
		})
		if err == nil {
			l.done <- a
		}
	}()
	select {
	case id := <-h.sent:
		if id != q.ID {
			t.Fatalf("the inbox showed %q, want %q", id, q.ID)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("the inbox did not show %q", q.ID)
	}
}

// withdraw has the caller of question id go away: the inbox withdraws it.
func withdraw(u *UIProcess, id string) {
	h := harnessOf(u)
	h.mu.Lock()
	cancel := h.asks[id]
	h.mu.Unlock()
	cancel()
}

// windowsOpen is how many windows the inbox bound to u has shown.
func windowsOpen(u *UIProcess) int { return harnessOf(u).in.WindowsOpen() }

func receive[T any](t *testing.T, c chan T, what string) T {
	t.Helper()
	select {
	case v := <-c:
		return v
	case <-time.After(5 * time.Second):
		t.Fatalf("no %s", what)
		var zero T
		return zero
	}
}

// draftEvent is the event a UI process sends for d, the first draft of
// window id.
func draftEvent(id string, d wire.Draft) uiproto.DraftChanged {
	var e uiproto.DraftEncoder
	return e.Encode(id, d)
}

func draftOf(text string) wire.Draft {
	return wire.Draft{Replies: []wire.Reply{{Text: text}}}
}

// A window's whole life crosses the channel: the UI process is started for
// it, and its shown, draft and outcome reach the inbox's hooks.
func TestUIProcessShowsAndReports(t *testing.T) {
	f, u := newUI(Options{Linger: time.Hour})
	defer u.Close(time.Second)
	l, h := newHooks()
	q := wire.Question{ID: "q1", Prompts: []wire.Prompt{{Markdown: "Go?"}}}
	showDraft(t, u, q, nil, h)
	ui := f.next(t)
	if m := expect[uiproto.Show](t, ui); m.Question.ID != "q1" || m.Question.Prompts[0].Markdown != "Go?" || m.Draft != nil || m.Countdown != nil {
		t.Fatalf("show = %+v", m)
	}
	ui.send(t, uiproto.Shown{ID: "q1"})
	receive(t, l.shown, "shown")
	ui.send(t, draftEvent("q1", wire.Draft{Replies: []wire.Reply{{Text: "ha"}}}))
	if d := receive(t, l.drafts, "draft"); d.Replies[0].Text != "ha" {
		t.Errorf("draft = %+v", d)
	}
	ui.send(t, uiproto.Done{ID: "q1", Answer: wire.Answer{Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: "yes"}}}})
	if a := receive(t, l.done, "answer"); a.QuestionID != "q1" || a.Replies[0].Text != "yes" {
		t.Errorf("answer = %+v", a)
	}
	if windowsOpen(u) != 0 {
		t.Errorf("%d windows open after the answer", windowsOpen(u))
	}
	// A second question goes to the same, still running, process.
	showDraft(t, u, wire.Question{ID: "q2", Prompts: []wire.Prompt{{Markdown: "And?"}}}, nil, h)
	expect[uiproto.Show](t, ui)
	if f.anyStarted() {
		t.Error("a second UI process was started while the first runs")
	}
}

// The UI process dying with windows open is not the end of them: a new
// one shows each again, with its latest draft and its countdown as it was.
func TestUIProcessCrashShowsWindowsAgain(t *testing.T) {
	f, u := newUI(Options{Linger: time.Hour})
	defer u.Close(time.Second)
	l1, h1 := newHooks()
	_, h2 := newHooks()
	showDraft(t, u, wire.Question{ID: "a", Prompts: []wire.Prompt{{Markdown: "A"}}}, nil, h1)
	restored := draftOf("restored at first")
	showDraft(t, u, wire.Question{ID: "b", Prompts: []wire.Prompt{{Markdown: "B"}}}, &restored, h2)
	ui := f.next(t)
	expect[uiproto.Show](t, ui)
	expect[uiproto.Show](t, ui)
	deadline := time.Date(2030, 1, 1, 12, 0, 0, 0, time.UTC)
	ui.send(t, uiproto.Shown{ID: "a"})
	ui.send(t, uiproto.CountdownChanged{ID: "a", Countdown: wire.Countdown{Deadline: deadline}})
	typed := draftOf("half a sentence")
	ui.send(t, draftEvent("a", typed))
	receive(t, l1.drafts, "draft")
	ui.crash()

	ui2 := f.next(t)
	got := map[string]uiproto.Show{}
	for range 2 {
		m := expect[uiproto.Show](t, ui2)
		got[m.Question.ID] = m
	}
	if m := got["a"]; m.Draft == nil || m.Draft.Replies[0].Text != "half a sentence" || m.Countdown == nil || !m.Countdown.Deadline.Equal(deadline) {
		t.Errorf("window a shown again as %+v (draft %+v, countdown %+v); want its draft and its countdown", m, m.Draft, m.Countdown)
	}
	if m := got["b"]; m.Draft == nil || m.Draft.Replies[0].Text != "restored at first" || m.Countdown != nil {
		t.Errorf("window b shown again as %+v; want the draft it was shown with and a fresh countdown", m)
	}
	for id, m := range got {
		if !m.Quiet {
			t.Errorf("window %s shown again taking the focus; want it quiet", id)
		}
	}
	// It still answers through the same hooks.
	ui2.send(t, uiproto.Done{ID: "a", Answer: wire.Answer{Status: wire.StatusDismissed}})
	if a := receive(t, l1.done, "answer"); a.Status != wire.StatusDismissed {
		t.Errorf("answer = %+v", a)
	}
}

// A crash with no window open starts nothing; the next question does.
func TestUIProcessCrashWithoutWindows(t *testing.T) {
	f, u := newUI(Options{Linger: time.Hour})
	defer u.Close(time.Second)
	ui, h := showFirst(t, f, u, "a", "A")
	withdraw(u, "a")
	expect[uiproto.Withdraw](t, ui)
	ui.crash()
	<-ui.gone
	for deadline := time.Now().Add(5 * time.Second); u.Running(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("the crashed process still counts as running")
		}
	}
	if f.anyStarted() {
		t.Fatal("a UI process was started with no window to show")
	}
	showDraft(t, u, wire.Question{ID: "c", Prompts: []wire.Prompt{{Markdown: "C"}}}, nil, h)
	expect[uiproto.Show](t, f.next(t))
}

// After its last window the UI process stays for the linger time, then is
// told to exit; the next question starts a new one.
func TestUIProcessLingersThenExits(t *testing.T) {
	f, u := newUI(Options{Linger: 20 * time.Millisecond})
	defer u.Close(time.Second)
	ui, l := showFirst(t, f, u, "a", "A")
	ui.send(t, uiproto.Done{ID: "a", Answer: wire.Answer{Status: wire.StatusAnswered}})
	receive(t, l.done, "answer")
	expect[uiproto.Exit](t, ui)
	<-ui.gone
	if u.Running() {
		t.Error("the UI process counts as running after it was told to exit")
	}
	showDraft(t, u, wire.Question{ID: "b", Prompts: []wire.Prompt{{Markdown: "B"}}}, nil, l)
	expect[uiproto.Show](t, f.next(t))
}

// A question arriving during the linger keeps the process: no exit.
func TestUIProcessLingerCancelledByAQuestion(t *testing.T) {
	f, u := newUI(Options{Linger: time.Hour})
	defer u.Close(time.Second)
	ui, h := showFirst(t, f, u, "a", "A")
	withdraw(u, "a")
	expect[uiproto.Withdraw](t, ui)
	if !lingering(u) {
		t.Fatal("no linger timer after the last window closed")
	}
	showDraft(t, u, wire.Question{ID: "b", Prompts: []wire.Prompt{{Markdown: "B"}}}, nil, h)
	expect[uiproto.Show](t, ui)
	if lingering(u) {
		t.Error("the linger timer still runs with a window open")
	}
}

// A withdrawn window's last draft, reported as it closes, still reaches
// the inbox.
func TestUIProcessDraftAfterWithdraw(t *testing.T) {
	f, u := newUI(Options{Linger: time.Hour})
	defer u.Close(time.Second)
	ui, l := showFirst(t, f, u, "a", "A")
	withdraw(u, "a")
	expect[uiproto.Withdraw](t, ui)
	last := draftOf("the last keys")
	ui.send(t, draftEvent("a", last))
	ui.send(t, uiproto.Closed{ID: "a"})
	if d := receive(t, l.drafts, "draft"); d.Replies[0].Text != "the last keys" {
		t.Errorf("draft = %+v", d)
	}
}

// Quit asks the UI process and relays the user's answer; a UI process that
// dies meanwhile is ErrNoUI, not a yes.
func TestUIProcessConfirmQuit(t *testing.T) {
	f, u := newUI(Options{Linger: time.Hour})
	defer u.Close(time.Second)
	type result struct {
		yes bool
		err error
	}
	ask := func() chan result {
		c := make(chan result, 1)
		go func() { yes, err := u.ConfirmQuit(2); c <- result{yes, err} }()
		return c
	}
	c := ask()
	ui := f.next(t)
	if m := expect[uiproto.ConfirmQuit](t, ui); m.Open != 2 {
		t.Errorf("confirm_quit = %+v", m)
	}
	ui.send(t, uiproto.QuitAnswer{Confirmed: true})
	if r := receive(t, c, "quit answer"); !r.yes || r.err != nil {
		t.Errorf("ConfirmQuit = %v, %v; want true", r.yes, r.err)
	}
	c = ask()
	expect[uiproto.ConfirmQuit](t, ui)
	ui.send(t, uiproto.QuitAnswer{Confirmed: false})
	if r := receive(t, c, "quit answer"); r.yes || r.err != nil {
		t.Errorf("ConfirmQuit = %v, %v; want false", r.yes, r.err)
	}
	c = ask()
	expect[uiproto.ConfirmQuit](t, ui)
	ui.crash()
	if r := receive(t, c, "quit answer"); r.yes || !errors.Is(r.err, ErrNoUI) {
		t.Errorf("ConfirmQuit after a crash = %v, %v; want ErrNoUI", r.yes, r.err)
	}
}

// Close has the UI process close its windows, waiting for their last
// drafts, and shows nothing afterwards.
func TestUIProcessClose(t *testing.T) {
	f, u := newUI(Options{Linger: time.Hour})
	ui, l := showFirst(t, f, u, "a", "A")
	go func() {
		m := <-ui.cmds // the exit: report the draft first, as the windows close
		if _, ok := m.(uiproto.Exit); !ok {
			t.Errorf("command %q, want exit", m.Type())
		}
	}()
	// The fake's reader closes its end after exit; send the draft before.
	last := draftOf("typed before quitting")
	ui.send(t, draftEvent("a", last))
	u.Close(2 * time.Second)
	if d := receive(t, l.drafts, "draft"); d.Replies[0].Text != "typed before quitting" {
		t.Errorf("draft = %+v", d)
	}
	showDraft(t, u, wire.Question{ID: "b", Prompts: []wire.Prompt{{Markdown: "B"}}}, nil, l)
	if f.anyStarted() {
		t.Error("a UI process was started after Close")
	}
}

// A UI process that cannot be started is retried with a backoff; the
// windows are shown once it starts.
func TestUIProcessStartFailureRetries(t *testing.T) {
	f, u := newUI(Options{Linger: time.Hour})
	f.fail.Store(true) // before the first start, which the first question makes
	defer u.Close(time.Second)
	_, h := newHooks()
	showDraft(t, u, wire.Question{ID: "a", Prompts: []wire.Prompt{{Markdown: "A"}}}, nil, h)
	waitUntil(t, "a retry scheduled after a failed start", func() bool {
		u.mu.Lock()
		defer u.mu.Unlock()
		return u.restart != nil
	})
	f.fail.Store(false)
	if m := expect[uiproto.Show](t, f.next(t)); m.Question.ID != "a" {
		t.Errorf("show = %+v", m)
	}
}

// Prewarm starts the UI process with no window and has it prepare its
// first window (Warm); it lingers and exits like one whose last window
// closed, and a window then opens in it.
func TestUIProcessPrewarm(t *testing.T) {
	f, u := newUI(Options{Linger: time.Hour})
	defer u.Close(time.Second)
	u.Prewarm()
	ui := f.next(t)
	expect[uiproto.Warm](t, ui)
	u.Prewarm() // running: nothing more
	_, h := newHooks()
	showDraft(t, u, wire.Question{ID: "a", Prompts: []wire.Prompt{{Markdown: "A"}}}, nil, h)
	expect[uiproto.Show](t, ui)
	if f.anyStarted() {
		t.Error("a second UI process was started")
	}
	if lingering(u) {
		t.Error("the linger timer runs with a window open")
	}
}

// A window that ends before the user typed in it or edited it — withdrawn,
// or timed out, whether it opened with the focus or without — is
// reported; one the user typed in (found) or edited (a draft) is not, nor
// one shown with a restored draft.
func TestUIProcessUnseenEnd(t *testing.T) {
	type end struct {
		id       string
		timedOut bool
	}
	ends := make(chan end, 8)
	f, u := newUI(Options{Linger: time.Hour})
	defer u.Close(time.Second)
	harnessWith(u, core.Options{OnUnseenEnd: func(q wire.Question, timedOut bool) { ends <- end{q.ID, timedOut} }})
	_, h := newHooks()
	ids := []string{"withdrawn", "timedout", "found", "focused", "edited", "restored"}
	for _, id := range ids {
		var d *wire.Draft
		if id == "restored" {
			d = &wire.Draft{Replies: []wire.Reply{{Text: "typed before a restart"}}}
		}
		showDraft(t, u, wire.Question{ID: id, Prompts: []wire.Prompt{{Markdown: id}}}, d, h)
	}
	ui := f.next(t)
	for range ids {
		expect[uiproto.Show](t, ui)
	}
	for _, id := range []string{"withdrawn", "timedout", "found"} {
		ui.send(t, uiproto.Shown{ID: id, Unfocused: true})
	}
	for _, id := range []string{"focused", "edited", "restored"} {
		ui.send(t, uiproto.Shown{ID: id})
	}
	ui.send(t, uiproto.Found{ID: "found"})
	ui.send(t, draftEvent("edited", wire.Draft{Replies: []wire.Reply{{Selected: []string{"a"}}}}))
	ui.send(t, uiproto.Done{ID: "timedout", Answer: wire.Answer{Status: wire.StatusTimeout}})
	if e := receive(t, ends, "unseen end"); e != (end{"timedout", true}) {
		t.Errorf("end = %+v, want timedout timed out", e)
	}
	// A window that opened with the focus and timed out untouched was not
	// seen either: the user was away.
	ui.send(t, uiproto.Done{ID: "focused", Answer: wire.Answer{Status: wire.StatusTimeout}})
	if e := receive(t, ends, "unseen end"); e != (end{"focused", true}) {
		t.Errorf("end = %+v, want focused timed out", e)
	}
	// The events are applied in order: a done after found, or after a draft, is seen.
	for _, id := range []string{"found", "edited", "restored"} {
		ui.send(t, uiproto.Done{ID: id, Answer: wire.Answer{Status: wire.StatusTimeout}})
	}
	for windowsOpen(u) != 1 { // the done events handled (each reports before it counts)
		time.Sleep(time.Millisecond)
	}
	withdraw(u, "withdrawn")
	if e := receive(t, ends, "unseen end"); e != (end{"withdrawn", false}) {
		t.Errorf("end = %+v, want withdrawn", e)
	}
	select {
	case e := <-ends:
		t.Errorf("unexpected end %+v: the found, edited and restored windows were seen", e)
	default:
	}
}

// The UI process gone after its linger time, the app is idle: OnIdle.
func TestUIProcessOnIdle(t *testing.T) {
	idle := make(chan struct{}, 2)
	f, u := newUI(Options{Linger: 10 * time.Millisecond, OnIdle: func() { idle <- struct{}{} }})
	defer u.Close(time.Second)
	ui, _ := showFirst(t, f, u, "a", "A")
	select {
	case <-idle:
		t.Fatal("idle with a window open")
	default:
	}
	ui.send(t, uiproto.Done{ID: "a", Answer: wire.Answer{Status: wire.StatusAnswered}})
	expect[uiproto.Exit](t, ui)
	receive(t, idle, "idle")
}

// The user came to a window (uiproto.Found): the app hears it once per
// event, with the question, so that its notification goes.
func TestUIProcessFoundIsReported(t *testing.T) {
	found := make(chan string, 4)
	f, u := newUI(Options{Linger: time.Hour})
	defer u.Close(time.Second)
	harnessWith(u, core.Options{OnFound: func(q wire.Question) { found <- q.ID }})
	_, h := newHooks()
	showDraft(t, u, wire.Question{ID: "q", Prompts: []wire.Prompt{{Markdown: "q"}}}, nil, h)
	ui := f.next(t)
	expect[uiproto.Show](t, ui)
	ui.send(t, uiproto.Shown{ID: "q", Unfocused: true})
	ui.send(t, uiproto.Found{ID: "q"})
	if id := receive(t, found, "found"); id != "q" {
		t.Errorf("found %q, want q", id)
	}
	ui.send(t, uiproto.Found{ID: "gone"}) // no such window: nothing
	select {
	case id := <-found:
		t.Errorf("found %q for a window that is not shown", id)
	case <-time.After(100 * time.Millisecond):
	}
}
