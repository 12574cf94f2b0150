package launch

import (
	"context"
	"errors"
	"testing"
	"time"

	"feedback/ipc"
	"feedback/wire"
)

type askerFunc func(ctx context.Context, q wire.Question, onEvent func(ipc.Event)) (wire.Answer, error)

func (f askerFunc) Ask(ctx context.Context, q wire.Question, onEvent func(ipc.Event)) (wire.Answer, error) {
	return f(ctx, q, onEvent)
}

// After a crash the same question is asked again with what is left of the
// caller's wait, never more; a failure to connect at first is a
// *NotReachedError.
func TestAskRestartingKeepsTheWait(t *testing.T) {
	old := RestartBackoff
	RestartBackoff = []time.Duration{20 * time.Millisecond}
	t.Cleanup(func() { RestartBackoff = old })
	var waits []int64
	app := askerFunc(func(_ context.Context, q wire.Question, _ func(ipc.Event)) (wire.Answer, error) {
		waits = append(waits, q.WaitMS)
		if len(waits) == 1 {
			return wire.Answer{}, ipc.ErrAppGone
		}
		return wire.Answer{}, ipc.ErrPending
	})
	connect := func(context.Context) (Asker, error) { return app, nil }
	_, err := AskRestarting(context.Background(), connect, wire.Question{ID: "w", WaitMS: 1000}, nil, nil)
	if !errors.Is(err, ipc.ErrPending) {
		t.Fatalf("err = %v, want ErrPending", err)
	}
	if len(waits) != 2 || waits[0] != 1000 || waits[1] >= 1000-20 || waits[1] < 1 {
		t.Errorf("waits asked = %v; want 1000, then what was left", waits)
	}

	down := func(context.Context) (Asker, error) { return nil, errors.New("refused") }
	var nr *NotReachedError
	if _, err := AskRestarting(context.Background(), down, wire.Question{ID: "d"}, nil, nil); !errors.As(err, &nr) {
		t.Errorf("err = %v, want *NotReachedError", err)
	}
}
