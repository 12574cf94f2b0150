package mcpshim

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"feedback/ipc"
	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// fakeMessenger is an app that takes messages (and asks nothing).
type fakeMessenger struct {
	wire.Asker
	mu   sync.Mutex
	got  []wire.Message
	recv func(wire.Message) (ipc.Receipt, error)
}

func (f *fakeMessenger) Message(_ context.Context, m wire.Message) (ipc.Receipt, error) {
	f.mu.Lock()
	f.got = append(f.got, m)
	f.mu.Unlock()
	return f.recv(m)
}

// notify sends the message with the client's name, returns at once with
// what became of it (shown, recorded, not shown) in words an agent acts
// on, never an error that invites a retry; bad arguments are an isError
// saying what to fix.
func TestNotifyTool(t *testing.T) {
	app := &fakeMessenger{}
	c, _ := startShimAt(t, Options{Connect: func(context.Context) (wire.Asker, error) { return app, nil }}, testProtocolVersion, "notify-agent")
	ctx := context.Background()
	status := func(args map[string]any) (string, string) {
		t.Helper()
		res, err := callCtx(ctx, c, "notify", args)
		if err != nil {
			t.Fatal(err)
		}
		if res.IsError {
			return "isError", allText(res)
		}
		first := res.Content[0].(mcp.TextContent).Text
		var r notifyResult
		if err := json.Unmarshal([]byte(first), &r); err != nil {
			t.Fatalf("result %q: %v", first, err)
		}
		return r.Status, r.Message
	}
	for _, tc := range []struct {
		recv       func(wire.Message) (ipc.Receipt, error)
		want, says string
	}{
		{func(wire.Message) (ipc.Receipt, error) { return ipc.Receipt{ID: "m1", Notified: true}, nil }, "shown", "No answer will come"},
		{func(wire.Message) (ipc.Receipt, error) { return ipc.Receipt{ID: "m2"}, nil }, "recorded", "do not disturb"},
		{func(wire.Message) (ipc.Receipt, error) {
			return ipc.Receipt{}, &wire.Error{Code: wire.CodeRateLimited, Message: "the next one is shown in 7 s"}
		}, "not_shown", "Do not resend"},
		{func(wire.Message) (ipc.Receipt, error) { return ipc.Receipt{}, ipc.ErrAppGone }, "not_shown", "Do not retry"},
	} {
		app.recv = tc.recv
		got, says := status(map[string]any{"message": " tests green, PR opened ", "title": "PR", "urgent": true})
		if got != tc.want || !strings.Contains(says, tc.says) {
			t.Errorf("status %q (%q), want %q saying %q", got, says, tc.want, tc.says)
		}
	}
	app.mu.Lock()
	m := app.got[0]
	app.mu.Unlock()
	if m.Text != "tests green, PR opened" || m.Title != "PR" || !m.Urgent || m.Client != "notify-agent" {
		t.Errorf("the app got %+v", m)
	}
	for _, bad := range []map[string]any{{}, {"message": "  "}, {"message": strings.Repeat("x", 2001)}, {"message": "ok", "urgent": "yes"}} {
		if got, says := status(bad); got != "isError" || !strings.Contains(says, "Invalid arguments for notify") {
			t.Errorf("notify(%.30v) = %q %q, want an isError saying what to fix", bad, got, says)
		}
	}
}
