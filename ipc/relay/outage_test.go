package relay

import (
	"sync"
	"testing"
	"time"

	"feedback/app/core"
	"feedback/app/core/coretest"
	"feedback/ipc/wire"
)

// screen is the app's windows for the tests that run the real inbox
// (app/core), on the core's test presenter: it shows nothing, and the test
// answers the open window as the user would.
type screen struct {
	ui    *coretest.UI
	mu    sync.Mutex // guards open
	open  map[string]bool
	shown chan string // the ids shown, in order
}

// answer answers the one open window with text.
func (s *screen) answer(t *testing.T, text string) {
	t.Helper()
	s.mu.Lock()
	var id string
	for id = range s.open {
	}
	delete(s.open, id)
	s.mu.Unlock()
	s.ui.Answer(id, wire.Answer{QuestionID: id, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: text}}})
}

// inbox is the app's real inbox on a screen of the test's.
func inbox(t *testing.T) (*core.Inbox, *screen) {
	s := &screen{ui: coretest.NewUI(), open: map[string]bool{}, shown: make(chan string, 16)}
	in := core.New(core.Options{Presenter: s.ui, Log: testLogger(t)})
	in.Start()
	t.Cleanup(func() { in.Close(time.Second) })
	ctx := t.Context()
	go func() {
		for ctx.Err() == nil {
			id := s.ui.NextShown(100 * time.Millisecond)
			if id == "" {
				continue
			}
			s.mu.Lock()
			s.open[id] = true
			s.mu.Unlock()
			s.shown <- id
		}
	}()
	return in, s
}

// handedOff reports whether the desktop handed off a call of the remote
// listening on reply (its will came).
func handedOff(d *Desktop, reply string) bool {
	d.mu.Lock()
	defer d.mu.Unlock()
	for _, dc := range d.calls {
		if dc.reply == reply && dc.suspended {
			return true
		}
	}
	return false
}

// The remote's network goes and the broker restarts meanwhile, for longer
// than the desktop once waited for a vanished remote: the will the broker
// publishes makes the desktop hand the call off, the user answers while
// nothing is connected, and when the remote is back its call, still
// waiting, gets that answer (it waited for its whole wait, and the next
// identical call opened a new window).
func TestRelayAnswerGivenDuringALongOutageReachesTheWaitingCall(t *testing.T) {
	b := startBroker(t)
	in, scr := inbox(t)
	ds := startDesk(t, b, in)
	tok := ds.pair(t, "box")
	px := b.Proxy(t) // the remote's network
	tok.Broker = px.URL("desk")
	r := dial(t, b, tok)
	res := askQueued(t, r, question("q-long", "Which region?", 10*time.Minute))
	within(t, scr.shown, 10*time.Second, "the question did not open")

	px.Cut() // the broker publishes the remote's will
	waitFor(t, "the desktop to hand the call off", func() bool { return handedOff(ds.d, r.reply) })
	b.Stop()
	time.Sleep(12 * time.Second) // longer than the 10 s the desktop used to wait for the remote
	scr.answer(t, "eu-west-3")   // while nothing is connected
	b.Start()
	waitFor(t, "the desktop to reconnect", func() bool { return ds.d.Status().Connected })
	px.Restore()
	o := within(t, res, 30*time.Second, "the call still waiting never got the answer given during the outage")
	if o.err != nil || len(o.a.Replies) != 1 || o.a.Replies[0].Text != "eu-west-3" {
		t.Fatalf("the call ended with %+v, %v; want the answer given during the outage", o.a, o.err)
	}
	waitFor(t, "the desktop to forget the remote process, its calls over", func() bool {
		ds.d.mu.Lock()
		defer ds.d.mu.Unlock()
		return len(ds.d.remotes) == 0 && len(ds.d.calls) == 0
	})
}

// The desktop's network goes first, then the remote's: the remote's will
// waits for the desktop at the broker. The remote comes back long before
// the desktop does: its word that it is back must wait for the desktop
// too (it was said at QoS 0, lost for a desktop away), or the call the
// will handed off never goes on and the answer given then never reaches it.
func TestRelayRemoteBackBeforeTheDesktopGoesOn(t *testing.T) {
	b := startBroker(t)
	in, scr := inbox(t)
	pd, pr := b.Proxy(t), b.Proxy(t) // the desktop's network, the remote's
	ds := startDeskAt(t, pd.URL("desk"), b.Password("desk"), in, nil)
	tok := ds.pair(t, "box")
	tok.Broker = pr.URL("desk")
	r := dial(t, b, tok)
	res := askQueued(t, r, question("q-back", "Which region?", 10*time.Minute))
	within(t, scr.shown, 10*time.Second, "the question did not open")

	pd.Cut()
	waitFor(t, "the desktop to see the broker gone", func() bool { return !ds.d.Status().Connected })
	pr.Cut() // the remote's will waits for the desktop at the broker
	waitFor(t, "the remote to see the broker gone", func() bool { return !r.client.IsConnectionOpen() })
	pr.Restore()
	waitFor(t, "the remote to reconnect", func() bool { return r.client.IsConnectionOpen() })
	time.Sleep(8 * time.Second) // the desktop comes back long after
	pd.Restore()
	waitFor(t, "the desktop to reconnect", func() bool { return ds.d.Status().Connected })
	scr.answer(t, "us-east-2")
	o := within(t, res, 30*time.Second, "the call never got the answer given after the desktop came back")
	if o.err != nil || len(o.a.Replies) != 1 || o.a.Replies[0].Text != "us-east-2" {
		t.Fatalf("the call ended with %+v, %v; want the answer", o.a, o.err)
	}
}
