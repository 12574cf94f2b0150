package supervisor

import (
	"feedback/app/clock/clocktest"
	"feedback/app/core/coretest"
	"testing"
	"time"

	"feedback/ipc/uiproto"
)

// The heartbeat and the reader share each process's state (missed,
// asleep, sleepAsked) under UIProcess.mu, and read it nowhere else: a Pong
// that arrives as the heartbeat gives up on a process that missed its
// pings is no data race (go test -race found the heartbeat reading missed
// for its log line after the unlock while the reader reset it). Each round
// lets a deaf process miss two pings, then fires the third tick and sends a
// Pong at once, which the reader handles while the heartbeat logs.
func TestHeartbeatAndReaderShareNothingUnlocked(t *testing.T) {
	const rounds = 20
	killed := 0
	for range rounds {
		f := newFakeProcs()
		f.deaf = true
		c := clocktest.New()
		u := New(Options{Start: f.start, Heartbeat: time.Second, HeartbeatMisses: 2, Clock: c})
		u.Prewarm()
		ui := f.next(t)
		expect[uiproto.Warm](t, ui)
		coretest.Eventually(t, "it", func() bool { return c.Tickers() == 1 }) // the heartbeat runs
		for i := int32(1); i <= 2; i++ {
			c.Advance(time.Second)
			coretest.Eventually(t, "it", func() bool { return ui.pings.Load() == i })
		}
		c.Advance(time.Second) // the third tick: two missed, it gives up
		ui.conn.Send(uiproto.Pong{})
		select {
		case <-ui.killed:
			killed++
		case <-time.After(time.Second): // the Pong came first: it lives
		}
		u.Close(time.Second)
	}
	if killed == 0 {
		t.Errorf("in %d rounds the heartbeat never gave up on the deaf process", rounds)
	}
	t.Logf("the heartbeat gave up in %d of %d rounds", killed, rounds)
}
