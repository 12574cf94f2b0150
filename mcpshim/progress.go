package mcpshim

import (
	"context"
	"fmt"
	"log/slog"
	"math"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// progressInterval is how often a call that carries a progressToken is
// sent notifications/progress while it waits, unless
// Options.ProgressInterval says otherwise. A variable for tests.
var progressInterval = 10 * time.Second

// progressDrain bounds the wait for mcp-go to write the notifications
// already queued when a heartbeat stops (they are written by another
// goroutine, and must not arrive after the result).
const progressDrain = 250 * time.Millisecond

// heartbeat sends notifications/progress for one call until stop.
type heartbeat struct {
	stopCh chan struct{}
	wg     sync.WaitGroup
	queued func() int // notifications mcp-go has queued; nil without a token
	sent   bool       // written by the sender, read after wg.Wait
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
// what is open ("window open", "form open") and since when, or "" while
// nothing is shown yet. stop must be called before the result is returned.
func startHeartbeat(ctx context.Context, interval time.Duration, token mcp.ProgressToken, status func() (string, time.Time), log *slog.Logger) *heartbeat {
	hb := &heartbeat{stopCh: make(chan struct{})}
	srv := server.ServerFromContext(ctx)
	if token == nil || srv == nil {
		return hb
	}
	session := server.ClientSessionFromContext(ctx)
	if session != nil {
		ch := session.NotificationChannel()
		hb.queued = func() int { return len(ch) }
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
				msg = "waiting for the user — " + what + " " + formatSeconds(time.Since(since))
			}
			err := srv.SendNotificationToClient(ctx, string(mcp.MethodNotificationProgress), map[string]any{
				"progressToken": token,
				"progress":      math.Round(time.Since(start).Seconds()*1000) / 1000, // increasing
				"message":       msg,
			})
			if err != nil {
				log.Debug("progress notification not sent", "err", err)
			}
			hb.sent = true
		}
	}()
	return hb
}

// stop ends the heartbeat and returns once no progress notification of it
// can still be written: the sender has exited and mcp-go's queue has been
// drained (bounded by progressDrain), then a few ms for the write in
// flight. After stop the result can be returned.
func (hb *heartbeat) stop() {
	select {
	case <-hb.stopCh:
		return
	default:
	}
	close(hb.stopCh)
	hb.wg.Wait()
	if hb.queued == nil || !hb.sent {
		return
	}
	for deadline := time.Now().Add(progressDrain); hb.queued() > 0 && time.Now().Before(deadline); {
		time.Sleep(2 * time.Millisecond)
	}
	time.Sleep(5 * time.Millisecond)
}

// formatSeconds is "40 s", or "3 min 5 s" from a minute on.
func formatSeconds(d time.Duration) string {
	s := int(d.Round(time.Second).Seconds())
	if s < 60 {
		return fmt.Sprintf("%d s", s)
	}
	return fmt.Sprintf("%d min %d s", s/60, s%60)
}
