package approvecmd

import (
	"bytes"
	"context"
	"io"
	"testing"
	"time"

	"feedback/internal/hookio"
	"feedback/ipc/wire"
)

type ctxAsker func(ctx context.Context, a wire.Ask) (wire.Answer, error)

func (f ctxAsker) Ask(ctx context.Context, a wire.Ask, _ func(wire.Event)) (wire.Answer, error) {
	return f(ctx, a)
}

// When the client stops waiting while the window is open — here it closes
// the hook's input, kept open after the event — the hook withdraws the
// question (its ask's context ends: the app closes the window) and ends at
// once, printing no decision, for nobody reads it.
func TestApproveHookClientGone(t *testing.T) {
	r, w := io.Pipe()
	defer w.Close()
	go w.Write([]byte(permissionRequest + "\n"))
	shown := make(chan struct{})
	withdrawn := make(chan struct{})
	asker := ctxAsker(func(ctx context.Context, a wire.Ask) (wire.Answer, error) {
		close(shown)
		<-ctx.Done() // the window stays open until the caller goes
		close(withdrawn)
		return wire.Answer{}, ctx.Err()
	})
	var out, errb bytes.Buffer
	env := Env{Stdin: r, Stdout: &out, Stderr: &errb, NewID: func() string { return "q1" },
		Connect: func(context.Context) (wire.Asker, error) { return asker, nil },
		ClientGone: func(ctx context.Context, inputEnded <-chan struct{}) <-chan error {
			return hookio.ClientGone(ctx, inputEnded, nil)
		}}
	code := make(chan int, 1)
	go func() { code <- Run(context.Background(), []string{"--from", "claude-code"}, env) }()
	select {
	case <-shown:
	case <-time.After(5 * time.Second):
		t.Fatal("the question was not asked")
	}
	time.Sleep(hookio.EventEndGrace) // the client waits a while, then answers in its own prompt
	w.Close()
	select {
	case <-withdrawn:
	case <-time.After(2 * time.Second):
		t.Fatal("the question was not withdrawn when the client closed the hook's input")
	}
	select {
	case c := <-code:
		if c != 0 || out.Len() > 0 {
			t.Errorf("exit %d, printed %q; want 0 and nothing", c, out.String())
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the hook did not end")
	}
	if !bytes.Contains(errb.Bytes(), []byte(hookio.ErrInputEnded.Error())) {
		t.Errorf("stderr %q does not say why", errb.String())
	}
}

// An answer that came before the client left is printed as ever.
func TestApproveHookAnswerBeforeGone(t *testing.T) {
	never := func(context.Context, <-chan struct{}) <-chan error { return nil }
	var out bytes.Buffer
	env := Env{Stdin: bytes.NewReader([]byte(permissionRequest)), Stdout: &out, Stderr: io.Discard, NewID: func() string { return "q1" },
		Connect: func(context.Context) (wire.Asker, error) {
			return ctxAsker(func(context.Context, wire.Ask) (wire.Answer, error) {
				return wire.Answer{Status: wire.StatusTimeout}, nil
			}), nil
		}, ClientGone: never}
	Run(context.Background(), []string{"--from", "claude-code"}, env)
	if d := decision(t, out.String()); d["behavior"] != "deny" {
		t.Errorf("decision %v", d)
	}
}
