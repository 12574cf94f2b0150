package launch

import (
	"context"
	"errors"
	"testing"
	"time"

	"feedback/ipc"
	"feedback/ipc/wire"
)

type askerFunc func(ctx context.Context, a wire.Ask, onEvent func(wire.Event)) (wire.Answer, error)

func (f askerFunc) Ask(ctx context.Context, a wire.Ask, onEvent func(wire.Event)) (wire.Answer, error) {
	return f(ctx, a, onEvent)
}

// After a crash the same question is asked again with what is left of the
// caller's wait, never more; a failure to connect at first is a
// *NotReachedError.
func TestAskRestartingKeepsTheWait(t *testing.T) {
	old := RestartBackoff
	RestartBackoff = []time.Duration{20 * time.Millisecond}
	t.Cleanup(func() { RestartBackoff = old })
	var waits []time.Duration
	app := askerFunc(func(_ context.Context, a wire.Ask, _ func(wire.Event)) (wire.Answer, error) {
		waits = append(waits, a.Wait)
		if len(waits) == 1 {
			return wire.Answer{}, ipc.ErrAppGone
		}
		return wire.Answer{}, wire.ErrPending
	})
	connect := func(context.Context) (wire.Asker, error) { return app, nil }
	_, err := AskRestarting(context.Background(), connect, wire.Ask{Question: wire.Question{ID: "w"}, Wait: time.Second}, nil, nil)
	if !errors.Is(err, wire.ErrPending) {
		t.Fatalf("err = %v, want ErrPending", err)
	}
	if len(waits) != 2 || waits[0] != time.Second || waits[1] >= time.Second-20*time.Millisecond || waits[1] < time.Millisecond {
		t.Errorf("waits asked = %v; want 1000, then what was left", waits)
	}

	down := func(context.Context) (wire.Asker, error) { return nil, errors.New("refused") }
	var nr *NotReachedError
	if _, err := AskRestarting(context.Background(), down, wire.Ask{Question: wire.Question{ID: "d"}}, nil, nil); !errors.As(err, &nr) {
		t.Errorf("err = %v, want *NotReachedError", err)
	}
}
