package ipc

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// An Asker returning ErrPending ends the stream with EventPending carrying
// the caller data; Client.Ask returns ErrPending with it.
func TestPendingReachesTheCaller(t *testing.T) {
	var gotWait time.Duration
	c := startServer(t, askFunc(func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		gotWait = a.Wait
		emit(wire.Event{Type: wire.EventPending}) // a final event from the Asker is dropped
		return wire.Answer{QuestionID: a.Question.ID, CallerData: a.Question.CallerData}, wire.ErrPending
	}), ServerOptions{})
	q := question("p")
	q.Wait = 1500 * time.Millisecond
	q.Question.CallerData = []byte(`{"choices":["a"]}`)
	var events []wire.EventType
	a, err := c.Ask(context.Background(), q, func(e wire.Event) { events = append(events, e.Type) })
	if !errors.Is(err, wire.ErrPending) || a.QuestionID != "p" || string(a.CallerData) != `{"choices":["a"]}` {
		t.Fatalf("Ask = %+v, %v; want ErrPending with the caller data", a, err)
	}
	if gotWait != 1500*time.Millisecond {
		t.Errorf("the Asker saw a wait of %v", gotWait)
	}
	if len(events) != 2 || events[0] != wire.EventQueued || events[1] != wire.EventPending {
		t.Errorf("events = %v, want queued, pending", events)
	}
}

func TestValidateWaitAndCallerData(t *testing.T) {
	q := question("v")
	q.Wait = -time.Millisecond
	if err := q.Validate(); err == nil || !strings.Contains(err.Error(), "wait_ms") {
		t.Errorf("negative wait: %v", err)
	}
	q = question("v")
	q.Question.CallerData = []byte(`"` + strings.Repeat("x", wire.MaxCallerDataBytes) + `"`)
	if err := q.Validate(); err == nil || !strings.Contains(err.Error(), "caller_data: at most") {
		t.Errorf("large caller data: %v", err)
	}
}
