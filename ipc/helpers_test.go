package ipc

import (
	"context"
	"net/http"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// askFunc adapts a function to Asker.
type askFunc func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error)

func (f askFunc) Ask(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
	return f(ctx, a, emit)
}

// answerAll answers every question at once.
var answerAll = askFunc(func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
	return wire.Answer{QuestionID: a.Question.ID, Status: wire.StatusAnswered}, nil
})

// socketPath returns a fresh endpoint for one test: a socket path in a
// private directory, or on Windows a pipe name (testEndpoint).
func socketPath(t *testing.T) string {
	t.Helper()
	return testEndpoint(t)
}

// startServer serves a on a fresh socket until the test ends and returns a
// client for it.
func startServer(t *testing.T, a wire.Asker, opts ServerOptions) *Client {
	t.Helper()
	path := socketPath(t)
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer(a, opts)
	done := make(chan error, 1)
	go func() { done <- s.Serve(l) }()
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := s.Shutdown(ctx); err != nil {
			t.Errorf("Shutdown: %v", err)
		}
		if err := <-done; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return &Client{Path: path}
}

// serveFake serves h on a plain endpoint (no Listen, no Server) until the
// test ends, and returns its path.
func serveFake(t *testing.T, h http.Handler) string {
	t.Helper()
	path := socketPath(t)
	l, err := listenPlain(path)
	if err != nil {
		t.Fatal(err)
	}
	hs := &http.Server{Handler: h}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	return path
}

// question returns the ask of a valid question with the given id.
func question(id string) wire.Ask {
	return wire.Ask{Question: wire.Question{ID: id, Prompts: []wire.Prompt{{Markdown: "Proceed?", Kind: wire.KindYesNo}}}}
}

// within fails the test unless ch delivers within a generous bound.
func within[T any](t *testing.T, ch <-chan T, what string) T {
	t.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(10 * time.Second):
		t.Fatalf("timed out waiting for %s", what)
		var zero T
		return zero
	}
}
