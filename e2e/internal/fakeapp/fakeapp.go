// Package fakeapp is the feedback app without its windows, for load tests
// and benchmarks: the real socket (ipc.Listen), the real server
// (ipc.NewServer) and the real inbox (core.New), with a Presenter test
// double in place of the UI process. The double "shows" a question's window
// by recording it and answers it with a reply derived from the question
// (see Reply), at once, after a delay, or when the caller says so, through
// the window events a UI process sends.
//
// It starts no GUI: it links the core, not the app package or Fyne, and
// needs no display.
package fakeapp

import (
	"context"
	"errors"
	"fmt"
	"net"
	"path/filepath"
	"sync"
	"sync/atomic"
	"time"

	"feedback/app/core"
	"feedback/ipc"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// Reply is the answer text the double gives to q: its first prompt's
// Markdown reversed, then "#" and its ID. A caller can check that the
// answer it got is its own and not another caller's.
func Reply(q wire.Question) string {
	md := ""
	if len(q.Prompts) > 0 {
		md = q.Prompts[0].Markdown
	}
	return ReplyFor(md, q.ID)
}

// ReplyFor is Reply for a question of Markdown md and ID id.
func ReplyFor(md, id string) string {
	r := []rune(md)
	for i, j := 0, len(r)-1; i < j; i, j = i+1, j-1 {
		r[i], r[j] = r[j], r[i]
	}
	return string(r) + " #" + id
}

// Presenter is a core.Presenter that shows no window and answers by
// itself, as a UI process whose user answered at once would: each window
// it is given is reported shown (uiproto.Shown) to the inbox that owns it,
// then answered (uiproto.Done) with a reply derived from the question; a
// window withdrawn is reported closed (uiproto.Closed). The inbox runs its
// one path for it, deadlines included, as for the app's UI process. Its
// zero value answers every question at once; set Delay to answer later, or
// Hold to answer only through Answer. Set the fields before the first
// window.
type Presenter struct {
	// Delay, if not nil, is how long to wait before answering q.
	Delay func(q wire.Question) time.Duration
	// Hold keeps every question open until Answer is called.
	Hold bool

	mu        sync.Mutex       // guards every field below
	owner     core.WindowOwner // Bind
	shown     map[string]wire.Question
	order     []string               // ids in the order shown
	pending   map[string]*question   // shown, neither answered nor withdrawn
	shows     map[string]int         // windows shown per id
	withdrawn map[string]bool        // ids withdrawn before their answer
	answered  map[string]wire.Answer // ids answered, with the answer given
	changed   chan struct{}          // closed and replaced on every window shown
}

type question struct {
	q     wire.Question
	since time.Time
	timer *time.Timer
}

var _ core.Presenter = (*Presenter)(nil)

func (p *Presenter) initLocked() {
	if p.shown == nil {
		p.shown = make(map[string]wire.Question)
		p.pending = make(map[string]*question)
		p.shows = make(map[string]int)
		p.withdrawn = make(map[string]bool)
		p.answered = make(map[string]wire.Answer)
		p.changed = make(chan struct{})
	}
}

// Bind implements core.Presenter.
func (p *Presenter) Bind(o core.WindowOwner) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.owner = o
}

// ShowWindow records m's question, reports its window shown, and answers
// it unless Hold is set.
func (p *Presenter) ShowWindow(m uiproto.Show) {
	q := m.Question
	p.mu.Lock()
	p.initLocked()
	if _, ok := p.shown[q.ID]; !ok {
		p.order = append(p.order, q.ID)
	}
	p.shown[q.ID] = q
	p.shows[q.ID]++
	pq := &question{q: q, since: time.Now()}
	p.pending[q.ID] = pq
	close(p.changed)
	p.changed = make(chan struct{})
	if !p.Hold {
		var d time.Duration
		if p.Delay != nil {
			d = p.Delay(q)
		}
		// Answered from another goroutine, as a window's button would be.
		pq.timer = time.AfterFunc(d, func() { p.answer(q.ID) })
	}
	owner := p.owner
	p.mu.Unlock()
	owner.WindowEvent(uiproto.Shown{ID: q.ID})
}

// Withdraw forgets question id without answering it, and reports its
// window closed.
func (p *Presenter) Withdraw(id string) {
	p.mu.Lock()
	p.initLocked()
	if pq, ok := p.pending[id]; ok {
		if pq.timer != nil {
			pq.timer.Stop()
		}
		delete(p.pending, id)
		p.withdrawn[id] = true
	}
	owner := p.owner
	p.mu.Unlock()
	owner.WindowEvent(uiproto.Closed{ID: id})
}

// Focus does nothing.
func (p *Presenter) Focus(id string) {}

// Answer answers the open question id with its Reply; it reports whether
// id was open.
func (p *Presenter) Answer(id string) bool { return p.answer(id) }

func (p *Presenter) answer(id string) bool {
	p.mu.Lock()
	p.initLocked()
	pq, ok := p.pending[id]
	if !ok {
		p.mu.Unlock()
		return false
	}
	delete(p.pending, id)
	a := wire.Answer{
		QuestionID: id,
		Status:     wire.StatusAnswered,
		Replies:    []wire.Reply{{Text: Reply(pq.q)}},
		ElapsedMS:  time.Since(pq.since).Milliseconds(),
	}
	p.answered[id] = a
	owner := p.owner
	p.mu.Unlock()
	owner.WindowEvent(uiproto.Done{ID: id, Answer: a}) // outside the lock: the inbox calls back into Withdraw
	return true
}

// WaitShown waits until n distinct questions have been shown, or ctx ends,
// and returns their ids in the order shown.
func (p *Presenter) WaitShown(ctx context.Context, n int) ([]string, error) {
	for {
		p.mu.Lock()
		p.initLocked()
		got, ch := len(p.order), p.changed
		ids := append([]string(nil), p.order...)
		p.mu.Unlock()
		if got >= n {
			return ids, nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ids, fmt.Errorf("%d of %d questions shown: %w", got, n, ctx.Err())
		}
	}
}

// Stats is what the double saw.
type Stats struct {
	Shown     map[string]wire.Question // every question shown, by id
	Shows     map[string]int           // windows shown per id (1 unless one came back)
	Pending   []string                 // shown and still open
	Withdrawn []string                 // withdrawn before an answer
	Answered  map[string]wire.Answer   // answers given, by id
}

// Stats returns a copy of what the double saw.
func (p *Presenter) Stats() Stats {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.initLocked()
	s := Stats{Shown: make(map[string]wire.Question, len(p.shown)), Shows: make(map[string]int, len(p.shows)),
		Answered: make(map[string]wire.Answer, len(p.answered))}
	for id, q := range p.shown {
		s.Shown[id] = q
	}
	for id, n := range p.shows {
		s.Shows[id] = n
	}
	for id := range p.pending {
		s.Pending = append(s.Pending, id)
	}
	for id := range p.withdrawn {
		s.Withdrawn = append(s.Withdrawn, id)
	}
	for id, a := range p.answered {
		s.Answered[id] = a
	}
	return s
}

// App is a running fake app.
type App struct {
	Socket    string
	Presenter *Presenter
	Inbox     *core.Inbox

	conns     *countingListener
	srv       *ipc.Server
	served    chan error
	closeOnce sync.Once
	closeErr  error
}

// Start listens on dir/feedback.sock (dir must be private to the user, such
// as a fresh temporary directory with a short path) and serves the inbox of
// p there. opts is passed to ipc.NewServer; its Logger, if set, also
// receives the inbox's logs.
func Start(dir string, p *Presenter, opts ipc.ServerOptions) (*App, error) {
	path := filepath.Join(dir, "feedback.sock")
	l, err := ipc.Listen(path)
	if err != nil {
		return nil, err
	}
	cl := &countingListener{Listener: l}
	a := &App{Socket: path, Presenter: p, Inbox: core.New(core.Options{Presenter: p, Log: opts.Logger}), conns: cl,
		served: make(chan error, 1)}
	a.Inbox.Start()
	a.srv = ipc.NewServer(a.Inbox, opts)
	go func() { a.served <- a.srv.Serve(cl) }()
	return a, nil
}

// Conns reports the connections accepted so far and those still open.
func (a *App) Conns() (accepted, open int64) {
	return a.conns.accepted.Load(), a.conns.open.Load()
}

// Close shuts the server down (withdrawing any open question) and removes
// the socket. Later calls return the first call's result.
func (a *App) Close() error {
	a.closeOnce.Do(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		a.closeErr = a.srv.Shutdown(ctx)
		if err := <-a.served; err != nil && !errors.Is(err, net.ErrClosed) {
			a.closeErr = errors.Join(a.closeErr, err)
		}
	})
	return a.closeErr
}

// countingListener counts the connections it accepts and those still open.
type countingListener struct {
	net.Listener
	accepted, open atomic.Int64
}

func (l *countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err != nil {
		return nil, err
	}
	l.accepted.Add(1)
	l.open.Add(1)
	return &countedConn{Conn: c, open: &l.open}, nil
}

type countedConn struct {
	net.Conn
	once sync.Once
	open *atomic.Int64
}

func (c *countedConn) Close() error {
	c.once.Do(func() { c.open.Add(-1) })
	return c.Conn.Close()
}
