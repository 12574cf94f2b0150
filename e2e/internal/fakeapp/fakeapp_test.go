package fakeapp

import (
	"context"
	"fmt"
	"os"
	"sync"
	"testing"
	"time"

	"feedback/ipc"
	"feedback/ipc/wire"
)

func TestReply(t *testing.T) {
	if got, want := ReplyFor("abc é", "id1"), "é cba #id1"; got != want {
		t.Errorf("ReplyFor = %q, want %q", got, want)
	}
}

// startApp starts a fake app in a short private directory (socket paths
// are limited to 108 bytes, and t.TempDir() can be longer).
func startApp(t *testing.T, p *Presenter) *App {
	t.Helper()
	dir, err := os.MkdirTemp("", "fbfake")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	a, err := Start(dir, p, ipc.ServerOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { a.Close() })
	return a
}

func testQuestion(i int) wire.Question {
	return wire.Question{ID: fmt.Sprintf("q%02d", i), Prompts: []wire.Prompt{{Markdown: fmt.Sprintf("question %02d", i)}}}
}

// The double answers every caller with its own reply, held or not, and the
// server's cap refuses the 65th open question.
func TestConcurrentAsks(t *testing.T) {
	for _, hold := range []bool{false, true} {
		t.Run(fmt.Sprintf("hold=%v", hold), func(t *testing.T) {
			p := &Presenter{Hold: hold}
			a := startApp(t, p)
			c := &ipc.Client{Path: a.Socket}
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			const n = 64
			answers := make([]wire.Answer, n)
			errs := make([]error, n)
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() { answers[i], errs[i] = c.Ask(ctx, wire.Ask{Question: testQuestion(i)}, nil) })
			}
			if hold {
				ids, err := p.WaitShown(ctx, n)
				if err != nil {
					t.Fatal(err)
				}
				_, err = c.Ask(ctx, wire.Ask{Question: testQuestion(n)}, nil)
				if !isTooMany(err) {
					t.Errorf("the 65th open question: err = %v, want too_many", err)
				}
				for i := len(ids) - 1; i >= 0; i-- {
					if !p.Answer(ids[i]) {
						t.Errorf("Answer(%s): not open", ids[i])
					}
				}
			}
			wg.Wait()
			for i := range n {
				q := testQuestion(i)
				if errs[i] != nil {
					t.Errorf("%s: %v", q.ID, errs[i])
					continue
				}
				if got := answers[i].Replies[0].Text; got != Reply(q) {
					t.Errorf("%s: reply %q, want %q", q.ID, got, Reply(q))
				}
			}
			if st := p.Stats(); len(st.Shown) != n || len(st.Pending) != 0 || len(st.Withdrawn) != 0 {
				t.Errorf("shown %d, pending %v, withdrawn %v", len(st.Shown), st.Pending, st.Withdrawn)
			}
		})
	}
}

func isTooMany(err error) bool {
	e, ok := err.(*wire.Error)
	return ok && e.Code == wire.CodeTooMany
}
