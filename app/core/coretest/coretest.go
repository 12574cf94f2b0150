// Package coretest is the inbox as the tests of its features drive it: a
// fake UI that shows its windows and answers them as the user would, asks
// made in the background, the SQLite database as its Store.
package coretest

import (
	"context"
	"log/slog"
	"sync"
	"testing"
	"time"

	"feedback/app/core"
	"feedback/app/store"
	"feedback/ipc/uiproto"
	"feedback/ipc/wire"
)

// UI is a Presenter that records what the inbox has it do and lets
// the test answer as the user would.
type UI struct {
	mu        sync.Mutex
	owner     core.WindowOwner
	restored  map[string]*wire.Draft // the draft each window was shown with
	shows     int
	withdrawn []string
	focused   []string
	shown     chan string // the id of every window shown
	closed    chan string // the id of every window withdrawn
}

var _ core.Presenter = (*UI)(nil)

// NewUI returns a UI that has shown nothing.
func NewUI() *UI {
	return &UI{restored: map[string]*wire.Draft{}, shown: make(chan string, 64), closed: make(chan string, 64)}
}

// Bind implements core.Presenter.
func (f *UI) Bind(o core.WindowOwner) {
	f.mu.Lock()
	f.owner = o
	f.mu.Unlock()
}

// ShowWindow implements core.Presenter: the window is on screen at
// once.
func (f *UI) ShowWindow(m uiproto.Show) {
	f.mu.Lock()
	f.restored[m.Question.ID] = m.Draft
	f.shows++
	o := f.owner
	f.mu.Unlock()
	o.WindowEvent(uiproto.Shown{ID: m.Question.ID})
	f.shown <- m.Question.ID
}

// Withdraw implements core.Presenter.
func (f *UI) Withdraw(id string) {
	f.mu.Lock()
	f.withdrawn = append(f.withdrawn, id)
	f.mu.Unlock()
	select {
	case f.closed <- id:
	default: // nobody waits for so many
	}
}

// Focus implements core.Presenter.
func (f *UI) Focus(id string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.focused = append(f.focused, id)
}

// Answer ends question id as the user would in its window.
func (f *UI) Answer(id string, a wire.Answer) { f.Event(uiproto.Done{ID: id, Answer: a}) }

// Event reports ev of a window, as the UI process would.
func (f *UI) Event(ev uiproto.Event) {
	f.mu.Lock()
	o := f.owner
	f.mu.Unlock()
	o.WindowEvent(ev)
}

// Draft reports d as the user's draft of question id, as the window would.
func (f *UI) Draft(id string, d wire.Draft) {
	f.mu.Lock()
	o := f.owner
	f.mu.Unlock()
	var enc uiproto.DraftEncoder // a first draft: its images cross
	o.WindowDraft(enc.Encode(id, d))
}

// WaitShown waits until the next window shown is id's.
func (f *UI) WaitShown(t testing.TB, id string) {
	t.Helper()
	select {
	case got := <-f.shown:
		if got != id {
			t.Fatalf("shown %q, want %q", got, id)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%q was not shown", id)
	}
}

// NextShown is the id of the next window shown, "" if none is within
// wait.
func (f *UI) NextShown(wait time.Duration) string {
	select {
	case id := <-f.shown: // shown already: before a timer of no wait
		return id
	default:
	}
	select {
	case id := <-f.shown:
		return id
	case <-time.After(wait):
		return ""
	}
}

// NoShow fails if a window was shown and not waited for.
func (f *UI) NoShow(t testing.TB) {
	t.Helper()
	select {
	case id := <-f.shown:
		t.Fatalf("%q was shown", id)
	default:
	}
}

// WaitWithdrawn waits for the next window withdrawn and returns its id.
func (f *UI) WaitWithdrawn(t testing.TB) string {
	t.Helper()
	select {
	case id := <-f.closed:
		return id
	case <-time.After(5 * time.Second):
		t.Fatal("no window was withdrawn")
		return ""
	}
}

// Shows counts the windows shown.
func (f *UI) Shows() int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.shows
}

// Restored is the draft the last window of id was shown with.
func (f *UI) Restored(id string) *wire.Draft {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.restored[id]
}

// Withdrawn lists the windows withdrawn, in order.
func (f *UI) Withdrawn() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.withdrawn...)
}

// Focused lists the windows raised, in order.
func (f *UI) Focused() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]string(nil), f.focused...)
}

// Result is what an ask returned, and the events it emitted.
type Result struct {
	A      wire.Answer
	Err    error
	Events []wire.Event
}

// Ask asks r of in in the background.
func Ask(ctx context.Context, in *core.Inbox, r wire.Ask) <-chan Result {
	ch := make(chan Result, 1)
	go func() {
		var res Result
		res.A, res.Err = in.Ask(ctx, r, func(e wire.Event) { res.Events = append(res.Events, e) })
		ch <- res
	}()
	return ch
}

// Wait waits for an ask's result, failing after 5 s.
func Wait(t testing.TB, ch <-chan Result) Result {
	t.Helper()
	select {
	case r := <-ch:
		return r
	case <-time.After(5 * time.Second):
		t.Fatal("Ask did not return")
		return Result{}
	}
}

// Q is a question of one prompt, "question <id>".
func Q(id string) wire.Ask {
	return wire.Ask{Question: wire.Question{ID: id, Prompts: []wire.Prompt{{Markdown: "question " + id}}}}
}

// Eventually waits until cond holds, failing after 5 s.
func Eventually(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); time.Sleep(2 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
	}
}

// SQLite is the database of package store as the inbox's Store, as
// package app adapts it.
type SQLite struct{ *store.Store }

// LeftOpen implements core.Store.
func (s SQLite) LeftOpen() ([]core.Left, error) {
	left, err := s.Store.LeftOpen()
	ls := make([]core.Left, len(left))
	for i, l := range left {
		ls[i] = core.Left(l)
	}
	return ls, err
}

// OpenSQLite opens the database at path as the inbox's Store.
func OpenSQLite(path string) (core.Store, error) {
	s, err := store.Open(path, slog.New(slog.DiscardHandler))
	if err != nil {
		return nil, err
	}
	return SQLite{s}, nil
}
