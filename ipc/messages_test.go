package ipc

import (
	"context"
	"errors"
	"strings"
	"testing"

	"feedback/ipc/wire"
)

// messengerFunc adapts a function to Messenger.
type messengerFunc func(context.Context, wire.Message) (Receipt, error)

func (f messengerFunc) Message(ctx context.Context, m wire.Message) (Receipt, error) {
	return f(ctx, m)
}

// A message reaches the app's Messenger and its receipt comes back; a
// malformed one is refused before it, with what to fix; the Messenger's
// refusal (rate limited) reaches the caller as the app's *wire.Error; an
// app without a Messenger says so.
func TestMessages(t *testing.T) {
	got := make(chan wire.Message, 4)
	c := startServer(t, nil, ServerOptions{Messenger: messengerFunc(func(_ context.Context, m wire.Message) (Receipt, error) {
		if m.Client == "flood" {
			return Receipt{}, &wire.Error{Code: wire.CodeRateLimited, Message: "too many messages: wait 10 s"}
		}
		got <- m
		return Receipt{ID: "m1", Notified: true}, nil
	})})
	ctx := context.Background()
	rec, err := c.Message(ctx, wire.Message{Client: "claude-code", Text: "tests green, PR opened"})
	if err != nil || rec != (Receipt{ID: "m1", Notified: true}) {
		t.Fatalf("Message = %+v, %v", rec, err)
	}
	if m := <-got; m.Text != "tests green, PR opened" || m.Client != "claude-code" {
		t.Errorf("the Messenger got %+v", m)
	}
	for _, bad := range []wire.Message{{Text: "  "}, {Text: strings.Repeat("x", wire.MaxMessageRunes+1)}, {Text: "ok", Title: strings.Repeat("t", 201)}} {
		_, err := c.Message(ctx, bad)
		if !errors.Is(err, &wire.Error{Code: wire.CodeInvalid}) {
			t.Errorf("Message(%.20q…) = %v, want invalid", bad.Text, err)
		}
	}
	if _, err := c.Message(ctx, wire.Message{Client: "flood", Text: "again"}); !errors.Is(err, &wire.Error{Code: wire.CodeRateLimited}) || !strings.Contains(err.Error(), "wait 10 s") {
		t.Errorf("rate limited: %v", err)
	}
	if len(got) != 0 {
		t.Error("a refused message reached the Messenger")
	}

	bare := startServer(t, nil, ServerOptions{})
	if _, err := bare.Message(ctx, wire.Message{Text: "hi"}); !errors.Is(err, &wire.Error{Code: wire.CodeProtocol}) {
		t.Errorf("an app without a Messenger: %v", err)
	}
}
