package mcpshim

import (
	"context"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
)

// Issue 30: a call made again for a snoozed question waits with no window
// open: its progress says the question is snoozed and until when, never
// "window open N s".
func TestProgressOfASnoozedQuestion(t *testing.T) {
	old := progressInterval
	progressInterval = 50 * time.Millisecond
	t.Cleanup(func() { progressInterval = old })
	until := time.Now().Add(20 * time.Minute)
	beat := make(chan string, 16)
	app := askFunc(func(ctx context.Context, q wire.Question, onEvent func(wire.Event)) (wire.Answer, error) {
		onEvent(wire.Event{Type: wire.EventShown, Snooze: &wire.Snooze{Until: until}})
		<-ctx.Done()
		return wire.Answer{}, ctx.Err()
	})
	c := startShim(t, Options{Connect: connectTo(app)})
	c.OnNotification(func(n mcp.JSONRPCNotification) {
		if m, ok := n.Params.AdditionalFields["message"].(string); ok && n.Method == "notifications/progress" {
			select {
			case beat <- m:
			default:
			}
		}
	})
	req := mcp.CallToolRequest{}
	req.Params.Name = "interactive_feedback"
	req.Params.Arguments = map[string]any{"message": "snoozed?"}
	req.Params.Meta = &mcp.Meta{ProgressToken: "tok-s"}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() { defer close(done); c.CallTool(ctx, req) }() //nolint:errcheck // cancelled below
	defer func() { cancel(); <-done }()
	select {
	case m := <-beat:
		want := "question snoozed until " + until.UTC().Format("15:04 UTC")
		if !strings.Contains(m, want) || strings.Contains(m, "window open") {
			t.Errorf("progress %q, want it to say %q and no window open", m, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no progress")
	}
}

// A snooze that has ended opens the window again: open since its end.
func TestWindowStatus(t *testing.T) {
	now := time.Date(2026, 12, 4, 17, 0, 0, 0, time.UTC)
	shown := now.Add(-time.Hour)
	for _, tc := range []struct {
		s     *wire.Snooze
		what  string
		since time.Time
	}{
		{nil, "window open", shown},
		{&wire.Snooze{Until: now.Add(37 * time.Minute)}, "question snoozed until 17:37 UTC (its window is closed)", time.Time{}},
		{&wire.Snooze{UntilBack: true}, "question snoozed until the user is back (its window is closed)", time.Time{}},
		{&wire.Snooze{Until: now.Add(-time.Minute)}, "window open", now.Add(-time.Minute)},
	} {
		if what, since := windowStatus(shown, tc.s, now); what != tc.what || !since.Equal(tc.since) {
			t.Errorf("snooze %+v: %q since %v, want %q since %v", tc.s, what, since, tc.what, tc.since)
		}
	}
}
