package relay

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"os"
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
	// published has to come back before its questions are withdrawn (a
	// broken connection that reconnects keeps them); 0 means 10 s.
	GoneGrace time.Duration
}

// Desktop is the app's side of the relay: it keeps the broker
// connection the store names, hands the questions of its pairings to the
// Asker, and sends their events back, sealed.
type Desktop struct {
	opts DesktopOptions
	log  *slog.Logger

	mu       sync.Mutex // guards everything below
	stamp    string     // the store file's size and time when last read
	state    State
	broker   string // the broker connected to (State.Broker), with its password's stamp
	client   mqtt.Client
	pairings map[string]*peer // by question topic
	revoked  map[string]Revoked
	calls    map[string]*dcall       // by pairing topic + stream
	remotes  map[string]*remoteState // by reply topic: remote processes whose will came
	status   Status
}

// remoteState is what the desktop knows of one remote process.
type remoteState struct {
	conn uint64      // the latest connection that said it is back
	gone *time.Timer // its will came: the withdrawal, unless it comes back first
}

// peer is a live pairing.
type peer struct {
	p      Pairing
	topics Topics
	seal   *sealer
	guard  *guard
}

// dcall is a question asked through the relay, open on the desktop.
type dcall struct {
	peer   *peer
	cancel context.CancelFunc
	reply  string
	mu     sync.Mutex // guards seq
	seq    uint64
	sent   bool // seq 0 used
}

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
	return &Desktop{opts: opts, log: log.With("part", "relay"), pairings: map[string]*peer{}, revoked: map[string]Revoked{}, calls: map[string]*dcall{}, remotes: map[string]*remoteState{}}
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
				c.cancel()
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
		live[tp.Questions] = &peer{p: p, topics: tp, seal: newSealer(p.ID, p.RemotePublic, p.DesktopPrivate, toRemote), guard: newGuard()}
	}
	for topic, old := range d.pairings {
		if live[topic] == nil {
			d.log.Info("relay: pairing removed: its questions are withdrawn", "pairing", old.p.Name)
			for k, c := range d.calls {
				if c.peer == old {
					c.cancel()
					delete(d.calls, k)
					if d.client != nil { // its caller hears it now, not when its wait runs out
						d.client.Publish(c.reply, 1, false, refusal("revoked"))
					}
				}
			}
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
	f, err := parseFrame(m.Payload())
	if err != nil || f.kind != frameSealed {
		d.log.Info("relay: frame dropped", "topic", m.Topic(), "err", err)
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
		d.log.Warn("relay: message refused", "topic", m.Topic(), "err", err)
		if (p != nil && p.topics.IsReplyTopic(f.reply)) || (isRevoked && TopicsOf(r.ID).IsReplyTopic(f.reply)) {
			c.Publish(f.reply, 1, false, refusal(reason))
		}
	}
	switch {
	case p == nil && isRevoked:
		refuse("revoked", fmt.Errorf("%w: %s", ErrRevoked, r.Name))
		return
	case p == nil:
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
		ctx, cancel := context.WithCancel(context.Background())
		dc := &dcall{peer: p, cancel: cancel, reply: e.Reply}
		d.mu.Lock()
		if d.pairings[topic] != p { // revoked meanwhile
			d.mu.Unlock()
			cancel()
			return
		}
		d.calls[key] = dc
		d.mu.Unlock()
		go d.ask(ctx, c, key, dc, e)
	case kindBack:
		d.mu.Lock()
		if rs := d.remotes[e.Reply]; rs != nil && rs.gone != nil {
			rs.gone.Stop()
			rs.gone = nil
			d.log.Info("relay: a remote shim reconnected: its questions stay", "pairing", p.p.Name)
		}
		if !d.hasCallsLocked(e.Reply) { // nothing a will could withdraw: nothing to remember
			delete(d.remotes, e.Reply)
			d.mu.Unlock()
			return
		}
		rs := d.remote(e.Reply)
		rs.conn = max(rs.conn, e.Conn)
		d.mu.Unlock()
	case kindGone: // the remote process vanished: its calls end, their windows close
		d.mu.Lock()
		defer d.mu.Unlock()
		if !d.hasCallsLocked(e.Reply) {
			return
		}
		rs := d.remote(e.Reply)
		if e.Conn < rs.conn || rs.gone != nil { // a will of an earlier connection: it is back since
			return
		}
		rs.gone = time.AfterFunc(d.opts.GoneGrace, func() { d.withdrawGone(p, e.Reply) })
	case kindCancel:
		d.mu.Lock()
		dc := d.calls[key]
		d.mu.Unlock()
		d.log.Debug("relay: cancel", "pairing", p.p.Name, "open", dc != nil)
		if dc != nil {
			dc.cancel()
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

// withdrawGone ends the calls of the remote process listening on reply,
// whose will the broker published and which did not come back.
func (d *Desktop) withdrawGone(p *peer, reply string) {
	d.mu.Lock()
	var gone []*dcall
	for k, dc := range d.calls {
		if dc.peer == p && dc.reply == reply {
			gone = append(gone, dc)
			delete(d.calls, k)
		}
	}
	delete(d.remotes, reply)
	d.mu.Unlock()
	d.log.Info("relay: a remote shim went away: its questions are withdrawn", "pairing", p.p.Name, "questions", len(gone))
	for _, dc := range gone {
		dc.cancel()
	}
}

// ask asks e's question of the Asker and sends its events back.
func (d *Desktop) ask(ctx context.Context, c mqtt.Client, key string, dc *dcall, e envelope) {
	defer func() {
		dc.cancel()
		d.mu.Lock()
		if d.calls[key] == dc {
			delete(d.calls, key)
		}
		d.mu.Unlock()
	}()
	a := *e.Ask
	origID := a.Question.ID
	a.Question = remoteQuestion(a.Question, dc.peer.p, e.Origin)
	if a.Key != "" {
		a.Key = namespaced(dc.peer.p, a.Key)
	}
	if a.Session != "" {
		a.Session = namespaced(dc.peer.p, a.Session)
	}
	send := func(ev wire.Event) {
		if ev.Answer != nil {
			ans := *ev.Answer
			ans.QuestionID = origID
			ev.Answer = &ans
		}
		d.send(c, dc, e.Stream, ev)
	}
	log := d.log.With("pairing", dc.peer.p.Name, "id", a.Question.ID)
	if err := a.Validate(); err != nil {
		var we *wire.Error
		if !errors.As(err, &we) {
			we = &wire.Error{Code: wire.CodeInvalid, Message: err.Error()}
		}
		send(wire.Event{Type: wire.EventError, Error: we})
		return
	}
	send(wire.Event{Type: wire.EventQueued})
	log.Info("relay: question open")
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
		log.Info("relay: question withdrawn")
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
func (d *Desktop) send(c mqtt.Client, dc *dcall, stream string, ev wire.Event) {
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

// remoteQuestion marks q as asked from a remote host: its client names
// the pairing, a context line says where it comes from, and its id (and
// so every window it attaches to) lives in the pairing's own namespace,
// so a remote never attaches to a local question.
func remoteQuestion(q wire.Question, p Pairing, o *Origin) wire.Question {
	q.ID = namespaced(p, q.ID)
	client := q.Client
	if client == "" {
		client = "agent"
	}
	q.Client = fmt.Sprintf("%s via relay %s", client, p.Name)
	where := "pairing " + p.Name
	if o != nil && o.Host != "" {
		where += ", host " + clip(o.Host, 64)
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
