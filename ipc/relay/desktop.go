package relay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"feedback/ipc/wire"
)

// grace is added to an ask's wait before it is stale: the clocks of the
// two hosts differ, and a message takes time to arrive.
const grace = 2 * time.Minute

// DesktopOptions configure a Desktop.
type DesktopOptions struct {
	// Asker answers the questions: the app's inbox, as for the socket.
	Asker wire.Asker
	// StorePath, PasswordPath and StatusPath are the relay's files
	// (StoreFile, PasswordFile, StatusFile in the config directory).
	StorePath, PasswordPath, StatusPath string
	Logger                              *slog.Logger
	// Poll is how often the store is checked for changes; 0 means 500 ms.
	Poll time.Duration
	// GoneGrace is how long a remote process whose will the broker
	// published may come back and go on waiting on its questions (a
	// broken connection that reconnects); 0 means 10 s. Its questions are
	// never withdrawn for its will: they stay open in the app, as after
	// "call again", for the next identical call (see Desktop).
	GoneGrace time.Duration
}

// Desktop is the app's side of the relay: it keeps the broker
// connection the store names, hands the questions of its pairings to the
// Asker, and sends their events back, sealed.
//
// A remote process that vanishes (the broker publishes its will) is
// treated as a local shim whose wait ran out, not as one that cancelled:
// its calls are handed off (a second, attach-only caller with a short
// wait joins each window before the call's own ask ends, so the app
// keeps the window open, and then its answer, for the next ask with its
// id: the restarted shim's identical call). If the process comes back
// within GoneGrace (its connection broke and reconnected) its calls
// attach to their windows again and go on. An explicit cancellation
// (kindCancel) or a revocation still withdraws the window.
type Desktop struct {
	opts DesktopOptions
	log  *slog.Logger
	bg   sync.WaitGroup // the hand-offs and withdrawals of held questions under way
	// refusals bounds the refusals sent (per reply topic, and in all),
	// floodLog the lines logged for frames refused or dropped: both are
	// what a broker user without keys can ask for at will.
	refusals *limiter
	floodLog *logLimit
	// holding is what every pairing's guard may hold together of frames
	// waiting (out of order, or parts of a message not whole yet).
	holding *budget

	mu       sync.Mutex // guards everything below
	stamp    string     // the store file's size and time when last read
	state    State
	broker   string // the broker connected to (State.Broker), with its password's stamp
	client   mqtt.Client
	pairings map[string]*peer // by question topic
	revoked  map[string]Revoked
	calls    map[string]*dcall       // by pairing topic + stream
	remotes  map[string]*remoteState // by reply topic: remote processes whose will came
	handed   map[string]wire.Answer  // by pairing topic + question id: answers a handed-off caller got (handOff)
	held     map[string][]wire.Ask   // by pairing topic: questions of vanished remotes the app keeps open (forgetGone), at most maxHeld
	status   Status
}

// remoteState is what the desktop knows of one remote process.
type remoteState struct {
	conn     uint64      // the latest connection that said it is back
	goneConn uint64      // the connection whose will came last
	gone     *time.Timer // its will came: the withdrawal, unless it comes back first
}

// peer is a live pairing.
type peer struct {
	p       Pairing
	topics  Topics
	seal    *sealer
	guard   *guard
	revoked bool // removed from the pairings (d.mu): a hand-off still under way withdraws its window
}

// dcall is a question asked through the relay, open on the desktop.
type dcall struct {
	peer     *peer
	topic    string   // the pairing's question topic
	ask      wire.Ask // as the Asker is asked (namespaced)
	origID   string   // the question's id as the remote asked it
	stream   string
	deadline time.Time // when the remote's wait runs out; zero: no wait
	reply    string
	// Guarded by Desktop.mu: the running ask's cancel and generation,
	// and whether the call is handed off (its remote vanished).
	cancel    context.CancelFunc
	run       int
	suspended bool
	mu        sync.Mutex // guards seq
	seq       uint64
	sent      bool // seq 0 used
}

// Bounds on what frames that earn a refusal cost: per reply topic 3
// refusals, then one every 10 s; in all 20, then one a second, over at
// most 1,024 reply topics remembered; 10 log lines, then one every 6 s.
// A remote with a stale token still learns why at once: its first
// messages are refused aloud.
const (
	refusalBurst   = 3
	refusalEvery   = 10 * time.Second
	refusalsBurst  = 20
	refusalsEvery  = time.Second
	maxRefusalKeys = 1024
	floodLogBurst  = 10
	floodLogEvery  = 6 * time.Second
)

// NewDesktop returns a Desktop; Run runs it.
func NewDesktop(opts DesktopOptions) *Desktop {
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	if opts.Poll <= 0 {
		opts.Poll = 500 * time.Millisecond
	}
	if opts.GoneGrace <= 0 {
		opts.GoneGrace = 10 * time.Second
	}
	log = log.With("part", "relay")
	return &Desktop{opts: opts, log: log, refusals: newLimiter(refusalBurst, refusalEvery, refusalsBurst, refusalsEvery, maxRefusalKeys),
		floodLog: newLogLimit(log, floodLogBurst, floodLogEvery), holding: newBudget(maxAllHeldFrames, maxAllHeldBytes), pairings: map[string]*peer{}, revoked: map[string]Revoked{}, calls: map[string]*dcall{}, remotes: map[string]*remoteState{}, handed: map[string]wire.Answer{}, held: map[string][]wire.Ask{}}
}

// Run follows the store until ctx ends: it connects to the broker it
// names (reconnecting when it changes), subscribes to its pairings, and
// drops a revoked pairing's questions at once. It disconnects on return.
func (d *Desktop) Run(ctx context.Context) {
	t := time.NewTicker(d.opts.Poll)
	defer t.Stop()
	for {
		d.reload(ctx)
		select {
		case <-ctx.Done():
			d.mu.Lock()
			c := d.client
			d.client = nil
			for _, c := range d.calls {
				c.cancel() // a handed-off one's window stays, as the app's questions do
			}
			for _, rs := range d.remotes {
				if rs.gone != nil {
					rs.gone.Stop()
				}
			}
			d.mu.Unlock()
			if c != nil {
				c.Disconnect(500)
			}
			d.bg.Wait() // hand-offs and withdrawals end within seconds
			return
		case <-t.C:
		}
	}
}

// stampOf names the version of the files: size and time of each.
func stampOf(paths ...string) string {
	var b strings.Builder
	for _, p := range paths {
		if fi, err := os.Stat(p); err == nil {
			fmt.Fprintf(&b, "%d/%d;", fi.Size(), fi.ModTime().UnixNano())
		} else {
			b.WriteString("-;")
		}
	}
	return b.String()
}

// reload reads the store when it changed and applies it.
func (d *Desktop) reload(ctx context.Context) {
	stamp := stampOf(d.opts.StorePath, d.opts.PasswordPath)
	d.mu.Lock()
	defer d.mu.Unlock()
	if stamp == d.stamp {
		return
	}
	st, err := LoadState(d.opts.StorePath)
	if err != nil {
		d.log.Warn("relay: the pairings file cannot be read; keeping the last one", "err", err)
		d.setStatus(func(s *Status) { s.LastError = err.Error() })
		return
	}
	d.stamp, d.state = stamp, st
	// Pairings: add the new, drop the revoked (their calls end now).
	live := map[string]*peer{}
	for _, p := range st.Pairings {
		tp := TopicsOf(p.ID)
		if old := d.pairings[tp.Questions]; old != nil && old.p == p {
			live[tp.Questions] = old
			continue
		}
		live[tp.Questions] = &peer{p: p, topics: tp, seal: newSealer(p.ID, p.RemotePublic, p.DesktopPrivate, toRemote), guard: newGuardIn(d.holding)}
	}
	for topic, old := range d.pairings {
		if live[topic] == nil {
			d.log.Info("relay: pairing removed: its questions are withdrawn", "pairing", old.p.Name)
			old.revoked = true
			for k, c := range d.calls {
				if c.peer == old {
					d.endLocked(c)
					delete(d.calls, k)
					if d.client != nil { // its caller hears it now, not when its wait runs out: sealed, on its own stream
						d.send(d.client, c, wire.Event{Type: wire.EventError, Error: refusalError("revoked")})
					}
				}
			}
			for _, a := range d.held[topic] { // the windows kept for vanished remotes go too
				d.bg.Go(func() { d.withdrawHeld(a) })
			}
			delete(d.held, topic)
		}
	}
	d.pairings = live
	d.revoked = map[string]Revoked{}
	for _, r := range st.Revoked {
		d.revoked[TopicsOf(r.ID).Questions] = r
	}
	// The broker: (re)connect when it or its password changed.
	key := st.Broker + "|" + st.ClientID + "|" + stampOf(d.opts.PasswordPath)
	if key != d.broker || d.client == nil {
		if d.client != nil {
			go d.client.Disconnect(250)
			d.client = nil
		}
		d.broker = key
		if st.Broker != "" {
			d.connect(ctx, st)
		} else {
			d.setStatus(func(s *Status) { *s = Status{} })
		}
		return
	}
	if d.client != nil && d.client.IsConnectionOpen() {
		d.subscribeAll(d.client)
	}
}

// connect starts the client of st's broker; it retries on its own.
func (d *Desktop) connect(ctx context.Context, st State) {
	b, err := BrokerAddress(st.Broker)
	if err != nil {
		d.setStatus(func(s *Status) { s.Broker, s.Connected, s.LastError = st.Broker, false, err.Error() })
		return
	}
	pw, err := ReadPassword(d.opts.PasswordPath)
	if err != nil && !errors.Is(err, os.ErrNotExist) {
		d.setStatus(func(s *Status) { s.Broker, s.Connected, s.LastError = st.Broker, false, err.Error() })
		return
	}
	id := st.ClientID
	if id == "" {
		id = "fbd-" + newStreamID()[:16]
	}
	o := clientOptions(b, pw, id, false).SetConnectRetry(true).SetConnectRetryInterval(2 * time.Second)
	// A persistent session delivers what was queued for it before
	// subscribeAll runs: the default handler takes those messages.
	o.SetDefaultPublishHandler(d.onMessage)
	o.SetOnConnectHandler(func(c mqtt.Client) {
		d.mu.Lock()
		defer d.mu.Unlock()
		if c != d.client {
			return
		}
		d.log.Info("relay: connected to the broker", "broker", b.Display, "pairings", len(d.pairings))
		d.subscribeAll(c)
		d.setStatus(func(s *Status) { s.Connected, s.Since, s.LastError = true, time.Now().UTC(), "" })
	})
	o.SetConnectionLostHandler(func(c mqtt.Client, err error) {
		d.log.Warn("relay: lost the broker; reconnecting", "err", err)
		d.mu.Lock()
		defer d.mu.Unlock()
		if c == d.client {
			d.setStatus(func(s *Status) { s.Connected, s.Since, s.LastError = false, time.Now().UTC(), err.Error() })
		}
	})
	o.SetReconnectingHandler(func(c mqtt.Client, _ *mqtt.ClientOptions) {})
	c := mqtt.NewClient(o)
	d.client = c
	d.status = Status{Broker: b.Display}
	d.setStatus(func(*Status) {})
	tok := c.Connect()
	go func() { // with ConnectRetry the token ends only when connected (or given up)
		if tok.WaitTimeout(15*time.Second) && tok.Error() != nil {
			d.mu.Lock()
			defer d.mu.Unlock()
			if c == d.client {
				d.setStatus(func(s *Status) { s.Connected, s.LastError = false, tok.Error().Error() })
			}
		} else if !tok.WaitTimeout(0) {
			d.mu.Lock()
			defer d.mu.Unlock()
			if c == d.client && !c.IsConnectionOpen() {
				d.setStatus(func(s *Status) { s.LastError = "cannot reach the broker (still trying)" })
			}
		}
	}()
}

// subscribeAll subscribes to the question topics of every pairing, live
// or revoked (a revoked one's questions get a refusal). Called with d.mu.
func (d *Desktop) subscribeAll(c mqtt.Client) {
	filters := map[string]byte{}
	for t := range d.pairings {
		filters[t] = 1
	}
	for t := range d.revoked {
		filters[t] = 1
	}
	if len(filters) == 0 {
		return
	}
	n := len(d.pairings)
	tok := c.SubscribeMultiple(filters, d.onMessage)
	go func() { // Status.Pairings counts the pairings subscribed to
		if tok.WaitTimeout(30*time.Second) && tok.Error() == nil {
			d.mu.Lock()
			defer d.mu.Unlock()
			if c == d.client {
				d.setStatus(func(s *Status) { s.Pairings = n })
			}
		}
	}()
}

// setStatus changes the status and writes it. Called with d.mu.
func (d *Desktop) setStatus(f func(*Status)) {
	f(&d.status)
	d.status.Updated, d.status.PID = time.Now().UTC(), os.Getpid()
	if d.opts.StatusPath != "" {
		if err := d.status.save(d.opts.StatusPath); err != nil {
			d.log.Warn("relay: status not written", "err", err)
		}
	}
}

// Status returns the connection's state.
func (d *Desktop) Status() Status {
	d.mu.Lock()
	defer d.mu.Unlock()
	return d.status
}

// onMessage takes a frame from a question topic. It never blocks: a
// question is asked on a goroutine of its own.
func (d *Desktop) onMessage(c mqtt.Client, m mqtt.Message) {
	d.log.Debug("relay: frame", "topic", m.Topic(), "bytes", len(m.Payload()))
	if len(m.Payload()) > MaxFrameBytes {
		// No relay sends one: never opened, never kept. (A broker with
		// max_packet_size set keeps it from reaching us at all.)
		d.floodLog.logAt(slog.LevelInfo, "relay: frame over the largest size dropped", "topic", m.Topic(), "bytes", len(m.Payload()), "max", MaxFrameBytes)
		return
	}
	f, err := parseFrame(m.Payload())
	otherVersion := errors.Is(err, ErrVersion)
	if (err != nil || f.kind != frameSealed) && !otherVersion {
		d.floodLog.logAt(slog.LevelInfo, "relay: frame dropped", "topic", m.Topic(), "err", err)
		return
	}
	// The store may have changed a moment ago (a revoke): read it first,
	// so a revoked pairing is refused at once, not at the next poll.
	d.reload(context.Background())
	d.mu.Lock()
	p := d.pairings[m.Topic()]
	r, isRevoked := d.revoked[m.Topic()]
	d.mu.Unlock()
	refuse := func(reason string, err error) {
		// Anyone on the broker can send frames that earn a refusal: the
		// refusals (per reply topic and in all) and their log lines are
		// rate-limited, so a flood costs neither a publish nor a line each.
		d.floodLog.logAt(slog.LevelWarn, "relay: message refused", "topic", m.Topic(), "err", err)
		// The refusal is made with the pairing's refusal key (kept for a
		// revoked one; a pairing revoked by an older release has none: its
		// remote is not told) and names the frame refused by its nonce.
		var key Key
		switch {
		case p != nil && p.topics.IsReplyTopic(f.reply):
			key = p.seal.refusal
		case isRevoked && TopicsOf(r.ID).IsReplyTopic(f.reply):
			key = r.RefusalKey
		}
		if key.IsZero() || len(f.body) < nonceSize {
			return
		}
		if ok, _ := d.refusals.allow(f.reply, time.Now()); ok {
			c.Publish(f.reply, 1, false, refusal(key, f.reply, f.body[:nonceSize], reason))
		}
	}
	switch {
	case p == nil && isRevoked:
		refuse("revoked", fmt.Errorf("%w: %s", ErrRevoked, r.Name))
		return
	case p == nil:
		return
	case otherVersion:
		refuse(versionRefusal, fmt.Errorf("%w: the remote speaks version %d, this desktop %d", ErrVersion, f.version, frameVersion))
		return
	}
	e, err := p.seal.open(f)
	if err != nil {
		refuse("tampered", err)
		return
	}
	now := time.Now()
	msgs, err := p.guard.admit(e, now, now.Add(-wire.MaxWait-grace), now.Add(wire.MaxWait+grace))
	if err != nil {
		if errors.Is(err, ErrReplay) { // QoS 1 delivers again after a reconnect: expected
			d.log.Debug("relay: duplicate dropped", "pairing", p.p.Name, "err", err)
		} else {
			refuse("refused", err)
		}
	}
	for _, e := range msgs {
		d.take(c, m.Topic(), p, e, now, refuse)
	}
}

// take acts on a message of p, admitted and in order.
func (d *Desktop) take(c mqtt.Client, topic string, p *peer, e envelope, now time.Time, refuse func(string, error)) {
	key := topic + "|" + e.Stream
	switch e.Kind {
	case kindAsk:
		if e.Ask == nil || !p.topics.IsReplyTopic(e.Reply) {
			refuse("malformed", ErrMalform)
			return
		}
		if sent := time.UnixMilli(e.Time); now.After(sent.Add(e.Ask.Wait + grace)) {
			d.log.Info("relay: a question arrived after its caller stopped waiting; dropped", "pairing", p.p.Name, "sent", sent)
			return
		}
		dc, err := d.newCall(topic, p, e, now)
		if err != nil {
			d.send(c, dc, wire.Event{Type: wire.EventError, Error: err})
			return
		}
		d.mu.Lock()
		if d.pairings[topic] != p { // revoked meanwhile
			d.mu.Unlock()
			return
		}
		d.calls[key] = dc
		ctx := d.startLocked(dc)
		d.mu.Unlock()
		d.send(c, dc, wire.Event{Type: wire.EventQueued})
		d.log.Info("relay: question open", "pairing", p.p.Name, "id", dc.ask.Question.ID)
		go d.ask(ctx, c, key, dc, dc.ask)
	case kindBack:
		d.mu.Lock()
		if rs := d.remotes[e.Reply]; rs != nil {
			if e.Conn <= rs.goneConn {
				// A "back" of the connection whose will came (said again a
				// moment after it connected, and delivered after the will):
				// that connection is gone, only a later one comes back.
				d.mu.Unlock()
				return
			}
			if rs.gone != nil {
				rs.gone.Stop()
				rs.gone = nil
				d.log.Info("relay: a remote shim reconnected: its questions go on", "pairing", p.p.Name)
			}
		}
		for k, dc := range d.calls { // handed off at its will: attach again
			if dc.reply == e.Reply && dc.suspended {
				d.resumeLocked(c, k, dc)
			}
		}
		if !d.hasCallsLocked(e.Reply) { // nothing a will could hand off: nothing to remember
			delete(d.remotes, e.Reply)
			d.mu.Unlock()
			return
		}
		rs := d.remote(e.Reply)
		rs.conn = max(rs.conn, e.Conn)
		d.mu.Unlock()
	case kindGone: // the remote process vanished: its calls are handed off, their windows stay
		d.mu.Lock()
		if !d.hasCallsLocked(e.Reply) {
			d.mu.Unlock()
			return
		}
		rs := d.remote(e.Reply)
		if e.Conn < rs.conn { // a will of an earlier connection: it is back since
			d.mu.Unlock()
			return
		}
		// Remembered even while an earlier will's grace runs: a late
		// "back" of this connection is not a return either.
		rs.goneConn = max(rs.goneConn, e.Conn)
		if rs.gone != nil { // handed off already
			d.mu.Unlock()
			return
		}
		rs.gone = time.AfterFunc(d.opts.GoneGrace, func() { d.forgetGone(p, e.Reply) })
		n := 0
		for _, dc := range d.calls {
			if dc.reply == e.Reply && !dc.suspended {
				dc.suspended = true
				cancel := dc.cancel
				d.bg.Go(func() { d.handOff(dc, cancel) })
				n++
			}
		}
		d.mu.Unlock()
		d.log.Info("relay: a remote shim went away: its questions stay open for its next call", "pairing", p.p.Name, "questions", n)
	case kindPing: // the pairing is live and this desktop connected: say so, sealed
		if !p.topics.IsReplyTopic(e.Reply) {
			refuse("malformed", ErrMalform)
			return
		}
		frames, err := p.seal.seal(envelope{Stream: e.Stream, Kind: kindPong}, "", func() uint64 { return 0 })
		if err == nil {
			c.Publish(e.Reply, 0, false, frames[0])
		}
	case kindCancel:
		d.mu.Lock()
		dc := d.calls[key]
		d.mu.Unlock()
		d.log.Debug("relay: cancel", "pairing", p.p.Name, "open", dc != nil)
		if dc != nil {
			d.mu.Lock()
			d.endLocked(dc)
			if d.calls[key] == dc {
				delete(d.calls, key)
			}
			d.mu.Unlock()
		}
	default:
		d.log.Info("relay: unexpected message dropped", "kind", e.Kind)
	}
}

// remote returns what is known of the remote process listening on reply.
// Called with d.mu.
func (d *Desktop) remote(reply string) *remoteState {
	rs := d.remotes[reply]
	if rs == nil {
		rs = &remoteState{}
		d.remotes[reply] = rs
	}
	return rs
}

// hasCallsLocked reports whether a call listening on reply is open.
func (d *Desktop) hasCallsLocked(reply string) bool {
	for _, dc := range d.calls {
		if dc.reply == reply {
			return true
		}
	}
	return false
}

// maxHanded bounds the answers kept here for a handed-off question's
// next call (handOff): only an answer given in the second of a hand-off.
const maxHanded = 256

// maxHeld bounds the questions of vanished remotes remembered per
// pairing (the app keeps at most 64 open in all).
const maxHeld = 64

// forgetGone forgets the handed-off calls of the remote process
// listening on reply, whose will the broker published and which did not
// come back: their windows stay open in the app, their answers kept there
// for the next identical call; only the questions are remembered, for a
// revocation to withdraw them.
func (d *Desktop) forgetGone(p *peer, reply string) {
	d.mu.Lock()
	defer d.mu.Unlock()
	n := 0
	for k, dc := range d.calls {
		if dc.peer == p && dc.reply == reply && dc.suspended {
			delete(d.calls, k)
			n++
			h := append(d.held[dc.topic], dc.ask) // a revocation withdraws it
			if len(h) > maxHeld {
				h = h[len(h)-maxHeld:]
			}
			d.held[dc.topic] = h
		}
	}
	delete(d.remotes, reply)
	d.log.Info("relay: a remote shim did not come back: its questions wait for its next call", "pairing", p.p.Name, "questions", n)
}

// newCall makes the call of e's question, namespaced for its pairing;
// the error is the question's (sent back to the remote), with a call to
// send it on.
func (d *Desktop) newCall(topic string, p *peer, e envelope, now time.Time) (*dcall, *wire.Error) {
	a := *e.Ask
	dc := &dcall{peer: p, topic: topic, origID: a.Question.ID, stream: e.Stream, reply: e.Reply}
	a.Question = remoteQuestion(a.Question, p.p, e.Origin)
	if a.Key != "" {
		a.Key = namespaced(p.p, a.Key)
	}
	if a.Session != "" {
		a.Session = namespaced(p.p, a.Session)
	}
	if a.Wait > 0 {
		dc.deadline = now.Add(a.Wait)
	}
	dc.ask = a
	if err := a.Validate(); err != nil {
		var we *wire.Error
		if !errors.As(err, &we) {
			we = &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
		}
		return dc, we
	}
	return dc, nil
}

// startLocked starts a run of dc's ask: its context, cancelled by
// dc.cancel. Called with d.mu.
func (d *Desktop) startLocked(dc *dcall) context.Context {
	ctx, cancel := context.WithCancel(context.Background())
	dc.cancel, dc.suspended = cancel, false
	dc.run++
	return ctx
}

// endLocked ends dc as its caller cancelling does: its window is
// withdrawn, also when dc is handed off. Called with d.mu.
func (d *Desktop) endLocked(dc *dcall) {
	dc.cancel()
	if dc.suspended {
		dc.suspended = false
		a := dc.ask
		d.bg.Go(func() { d.withdrawHeld(a) })
	}
}

// handoffWait is the wait of the caller handOff attaches: long enough for
// the call's own ask to end first. handoffAttach bounds how long handOff
// waits to see it attached.
const (
	handoffWait   = time.Second
	handoffAttach = 500 * time.Millisecond
)

// handOff keeps dc's question open in the app after its remote process
// vanished, as the shim's handOff does for a task's at its exit: a
// second, attach-only caller with a short wait joins the window, then
// dc's own ask ends; when that caller's wait runs out the app keeps the
// window open (and then its answer) for the next ask with its id. An
// answer that reaches that caller is kept here for that ask (handed).
// cancel ends the run of dc's ask that was waiting; dc is marked
// suspended by the caller.
func (d *Desktop) handOff(dc *dcall, cancel context.CancelFunc) {
	attached := make(chan struct{})
	var once sync.Once
	done := func() { once.Do(func() { close(attached) }) }
	a := dc.ask
	a.Wait, a.AttachOnly, a.KeepOpen = handoffWait, true, false
	d.bg.Go(func() {
		defer done()
		ctx, stop := context.WithTimeout(context.Background(), handoffWait+5*time.Second)
		defer stop()
		ans, err := d.opts.Asker.Ask(ctx, a, func(ev wire.Event) {
			if ev.Type == wire.EventShown {
				done()
			}
		})
		switch {
		case err == nil: // answered in the instant between: keep it for the next call
			d.mu.Lock()
			if len(d.handed) < maxHanded {
				d.handed[dc.topic+"|"+a.Question.ID] = ans
			}
			d.mu.Unlock()
			d.log.Info("relay: a handed-off question was answered: kept for its next call", "id", a.Question.ID)
		case errors.Is(err, wire.ErrPending):
			d.mu.Lock()
			revoked := dc.peer.revoked
			d.mu.Unlock()
			if revoked { // revoked while this caller held the window: withdrawHeld could not close it
				d.log.Info("relay: a handed-off question of a revoked pairing: withdrawn", "id", a.Question.ID)
				d.withdrawHeld(dc.ask)
				return
			}
			d.log.Debug("relay: question kept open for the remote's next call", "id", a.Question.ID)
		default:
			d.log.Info("relay: question not handed off", "id", a.Question.ID, "err", err)
		}
	})
	select {
	case <-attached:
	case <-time.After(handoffAttach):
	}
	cancel()
}

// resumeLocked attaches dc, handed off, to its window again: its remote
// process came back. Called with d.mu.
func (d *Desktop) resumeLocked(c mqtt.Client, key string, dc *dcall) {
	a := dc.ask
	a.AttachOnly = true
	if !dc.deadline.IsZero() {
		a.Wait = max(time.Until(dc.deadline), time.Millisecond)
	}
	ctx := d.startLocked(dc)
	go d.ask(ctx, c, key, dc, a)
}

// withdrawHeld withdraws the window of a, which no caller waits on (it
// was handed off): a caller attaches to it and goes away.
func (d *Desktop) withdrawHeld(a wire.Ask) {
	// A wait longer than the attach: the caller goes away by cancelling
	// (which withdraws a window nobody else waits on), never by its wait
	// running out first (which keeps it open, as for a call again).
	a.AttachOnly, a.Wait, a.KeepOpen = true, time.Minute, false
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	d.opts.Asker.Ask(ctx, a, func(ev wire.Event) {
		if ev.Type == wire.EventShown {
			cancel()
		}
	})
}

// takeHanded returns, once, the answer a handed-off caller of a got.
func (d *Desktop) takeHanded(topic string, a wire.Ask) (wire.Answer, bool) {
	d.mu.Lock()
	defer d.mu.Unlock()
	k := topic + "|" + a.Question.ID
	ans, ok := d.handed[k]
	delete(d.handed, k)
	return ans, ok
}

// ask asks a (dc's question) of the Asker and sends its events back.
func (d *Desktop) ask(ctx context.Context, c mqtt.Client, key string, dc *dcall, a wire.Ask) {
	d.mu.Lock()
	run := dc.run
	d.mu.Unlock()
	defer func() {
		d.mu.Lock()
		if dc.run == run {
			dc.cancel()
			if d.calls[key] == dc && !dc.suspended {
				delete(d.calls, key)
			}
		}
		d.mu.Unlock()
	}()
	send := func(ev wire.Event) { d.send(c, dc, ev) }
	log := d.log.With("pairing", dc.peer.p.Name, "id", a.Question.ID)
	if ans, ok := d.takeHanded(dc.topic, a); ok {
		send(wire.Event{Type: wire.EventAnswer, Answer: &ans})
		log.Info("relay: question closed (answered while its remote was away)", "status", ans.Status)
		return
	}
	ans, err := d.opts.Asker.Ask(ctx, a, func(ev wire.Event) {
		switch ev.Type {
		case wire.EventAnswer, wire.EventError, wire.EventPending:
			return
		}
		if ctx.Err() == nil {
			send(ev)
		}
	})
	switch {
	case ctx.Err() != nil:
		log.Info("relay: question left (withdrawn, or handed off)")
	case errors.Is(err, wire.ErrPending):
		send(wire.Event{Type: wire.EventPending, CallerData: ans.CallerData, Snooze: ans.Snooze})
	case err != nil:
		var we *wire.Error
		if !errors.As(err, &we) {
			we = &wire.Error{Code: wire.CodeInternal, Message: err.Error()}
		}
		send(wire.Event{Type: wire.EventError, Error: we})
	default:
		send(wire.Event{Type: wire.EventAnswer, Answer: &ans})
		log.Info("relay: question closed", "status", ans.Status)
	}
}

// send seals ev for the call's remote and publishes it (QoS 1: kept by the
// client while the broker is away, and sent when it is back).
func (d *Desktop) send(c mqtt.Client, dc *dcall, ev wire.Event) {
	if ev.Answer != nil { // the remote knows its question by its own id
		ans := *ev.Answer
		ans.QuestionID = dc.origID
		ev.Answer = &ans
	}
	stream := dc.stream
	dc.mu.Lock()
	defer dc.mu.Unlock()
	next := func() uint64 {
		if !dc.sent {
			dc.sent = true
			return 0
		}
		dc.seq++
		return dc.seq
	}
	frames, err := dc.peer.seal.seal(envelope{Stream: stream, Kind: kindEvent, Event: &ev}, "", next)
	if err != nil {
		var we *wire.Error
		if errors.As(err, &we) && ev.Answer != nil { // too large even in parts: say so
			frames, err = dc.peer.seal.seal(envelope{Stream: stream, Kind: kindEvent, Event: &wire.Event{Type: wire.EventError, Error: we}}, "", next)
		}
		if err != nil {
			d.log.Error("relay: event not sealed", "err", err)
			return
		}
	}
	for _, f := range frames {
		c.Publish(dc.reply, 1, false, f)
	}
}

// remoteQuestion marks q as asked from a remote host: its id (and so
// every window it attaches to) lives in the pairing's own namespace, so a
// remote never attaches to a local question; its From line and a Remote
// context line say where it comes from.
//
// Only the pairing is the desktop's knowledge (its keys opened the
// frame); the client and host names are the remote's words, which may
// claim anything ("claude-code via relay laptop"). So the pairing comes
// first and the remote's words follow quoted (Go quoting: a quote,
// newline or control character in them cannot end the quotation), never
// mixed into what the desktop vouches for.
func remoteQuestion(q wire.Question, p Pairing, o *Origin) wire.Question {
	q.ID = namespaced(p, q.ID)
	client := "relay " + p.Name
	if c := strings.TrimSpace(q.Client); c != "" {
		client += ": " + strconv.Quote(clip(c, 64))
	}
	q.Client = client
	where := "pairing " + p.Name
	if o != nil && o.Host != "" {
		where += ", host " + strconv.Quote(clip(o.Host, 64)) + " (as the remote says)"
	}
	q.Context = append([]wire.Field{{Label: "Remote", Value: where}}, q.Context...)
	return q
}

// namespaced prefixes s with the pairing's short hash, hashing s when the
// result would be too long for an id.
func namespaced(p Pairing, s string) string {
	h := sha256.Sum256(p.ID[:])
	out := "relay-" + hex.EncodeToString(h[:4]) + ":" + s
	if len(out) > wire.MaxKeyBytes {
		sum := sha256.Sum256([]byte(s))
		out = "relay-" + hex.EncodeToString(h[:4]) + ":#" + hex.EncodeToString(sum[:16])
	}
	return out
}

func clip(s string, n int) string {
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
