package mcpshim

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"feedback/ipc/wire"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// progressInterval is how often a call that carries a progressToken is
// sent notifications/progress while it waits, unless
// Options.ProgressInterval says otherwise. A variable for tests.
var progressInterval = 10 * time.Second

// heartbeat sends notifications/progress for one call until stop.
type heartbeat struct {
	stopCh chan struct{}
	wg     sync.WaitGroup
}

// progressToken returns the call's progressToken, or nil.
func progressToken(req mcp.CallToolRequest) mcp.ProgressToken {
	if req.Params.Meta == nil {
		return nil
	}
	return req.Params.Meta.ProgressToken
}

// startHeartbeat starts sending progress for the call in ctx every interval
// (0: progressInterval) when token is not nil: progress is the seconds waited
// (increasing, ms precision, no total), the message says what the call waits for. status returns
// what is open ("window open", "form open") and since when (zero: no
// duration is said), or "" while nothing is shown yet. stop must be called before the result is returned.
func startHeartbeat(ctx context.Context, interval time.Duration, token mcp.ProgressToken, status func() (string, time.Time), log *slog.Logger) *heartbeat {
	hb := &heartbeat{stopCh: make(chan struct{})}
	send := progressSender(ctx)
	if token == nil || send == nil {
		return hb
	}
	start := time.Now()
	hb.wg.Add(1)
	go func() {
		defer hb.wg.Done()
		if interval <= 0 {
			interval = progressInterval
		}
		tick := time.NewTicker(interval)
		defer tick.Stop()
		for {
			select {
			case <-hb.stopCh:
				return
			case <-ctx.Done():
				return
			case <-tick.C:
			}
			waited := time.Since(start).Round(time.Second)
			msg := "waiting for the feedback window to open — " + formatSeconds(waited)
			if what, since := status(); what != "" {
				msg = "waiting for the user — " + what
				if !since.IsZero() {
					msg += " " + formatSeconds(time.Since(since))
				}
			}
			err := send(map[string]any{
				"progressToken": token,
				"progress":      math.Round(time.Since(start).Seconds()*1000) / 1000, // increasing
				"message":       msg,
			})
			if err != nil {
				log.Debug("progress notification not sent", "err", err)
			}
		}
	}()
	return hb
}

// stop ends the heartbeat and returns once its sender has exited. Served
// over ServeStdio, every progress notification it sent is then written
// (stdioStream.notify writes before it returns), so the result returned
// after stop follows them on the wire.
func (hb *heartbeat) stop() {
	select {
	case <-hb.stopCh:
		return
	default:
	}
	close(hb.stopCh)
	hb.wg.Wait()
}

// streamKey is the context key of the call's *stdioStream.
type streamKey struct{}

// progressSender returns how the call in ctx sends a progress
// notification: written at once by the stdio stream when served over
// ServeStdio; else queued by mcp-go (another transport, where the order
// with the result is mcp-go's); nil without an MCP server.
func progressSender(ctx context.Context) func(params map[string]any) error {
	if s, ok := ctx.Value(streamKey{}).(*stdioStream); ok {
		return func(params map[string]any) error {
			return s.notify(string(mcp.MethodNotificationProgress), params)
		}
	}
	if srv := server.ServerFromContext(ctx); srv != nil {
		return func(params map[string]any) error {
			return srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), params)
		}
	}
	return nil
}

// formatSeconds is "40 s", or "3 min 5 s" from a minute on.
func formatSeconds(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s < 60 {
		return fmt.Sprintf("%d s", s)
	}
	return fmt.Sprintf("%d min %d s", s/60, s%60)
}

// windowStatus is a heartbeat's status of a call whose question's window
// was shown (at shown, as this call saw it): "window open" since then,
// unless the question was snoozed (s) when the call joined it — its
// window is closed until the snooze ends, then open since the end.
func windowStatus(shown time.Time, s *wire.Snooze, now time.Time) (string, time.Time) {
	switch {
	case s == nil:
		return "window open", shown
	case s.UntilBack:
		return "question snoozed until the user is back (its window is closed)", time.Time{}
	case now.Before(s.Until):
		return "question snoozed until " + s.Until.UTC().Format("15:04 UTC") + " (its window is closed)", time.Time{}
	}
	return "window open", s.Until
}
