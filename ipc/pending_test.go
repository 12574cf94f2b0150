package ipc

import (
	"context"
	"errors"
	"feedback/wire"
	"strings"
	"testing"
)

// An Asker returning ErrPending ends the stream with EventPending carrying
// the caller data; Client.Ask returns ErrPending with it.
func TestPendingReachesTheCaller(t *testing.T) {
	var gotWait int64
	c := startServer(t, askFunc(func(ctx context.Context, q wire.Question, emit func(Event)) (wire.Answer, error) {
		gotWait = q.WaitMS
		emit(Event{Type: EventPending}) // a final event from the Asker is dropped
		return wire.Answer{QuestionID: q.ID, CallerData: q.CallerData}, ErrPending
	}), ServerOptions{})
	q := question("p")
	q.WaitMS = 1500
	q.CallerData = []byte(`{"choices":["a"]}`)
	var events []EventType
	a, err := c.Ask(context.Background(), q, func(e Event) { events = append(events, e.Type) })
	if !errors.Is(err, ErrPending) || a.QuestionID != "p" || string(a.CallerData) != `{"choices":["a"]}` {
		t.Fatalf("Ask = %+v, %v; want ErrPending with the caller data", a, err)
	}
	if gotWait != 1500 {
		t.Errorf("the Asker saw wait_ms %d", gotWait)
	}
	if len(events) != 2 || events[0] != EventQueued || events[1] != EventPending {
		t.Errorf("events = %v, want queued, pending", events)
	}
}

func TestValidateWaitAndCallerData(t *testing.T) {
	q := question("v")
	q.WaitMS = -1
	if err := q.Validate(); err == nil || !strings.Contains(err.Error(), "wait_ms") {
		t.Errorf("negative wait: %v", err)
	}
	q = question("v")
	q.CallerData = []byte(`"` + strings.Repeat("x", wire.MaxCallerDataBytes) + `"`)
	if err := q.Validate(); err == nil || !strings.Contains(err.Error(), "caller_data: at most") {
		t.Errorf("large caller data: %v", err)
	}
}
