package relay

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"

	"feedback/ipc/wire"
)

// EnvToken names the environment variable that holds a remote's token;
// EnvPasswordFile the file with the broker password of the remote's
// broker user (default: PasswordFile in feedback's config directory).
const (
	EnvToken        = "FEEDBACK_RELAY"
	EnvPasswordFile = "FEEDBACK_RELAY_PASSWORD_FILE"
)

// ErrBrokerDown is matched by Dial's error when the broker cannot be
// reached or refuses the remote's credentials.
var ErrBrokerDown = errors.New("relay: the broker cannot be reached")

// Remote is a remote host's side of one pairing: a wire.Asker that sends
// each question to the desktop through the broker and waits for its
// events. One Remote serves every call of a process; it is safe for
// concurrent use.
type Remote struct {
	tok    Token
	topics Topics
	seal   *sealer
	reply  string // this process's reply topic
	origin Origin
	client mqtt.Client
	log    *slog.Logger
	guard  *guard
	// floodLog bounds the lines logged for frames that do not open and
	// refusals that do not verify: anyone on the broker can send them.
	floodLog *logLimit

	mu    sync.Mutex // guards calls
	calls map[string]*rcall
}

// rcall is one call waiting for its events.
type rcall struct {
	events  chan envelope
	refused chan string
	pong    chan struct{} // a Ping's; nil for an Ask
	mu      sync.Mutex    // guards seq, started and nonces
	seq     uint64
	started bool // seq 0 used
	// nonces are those of the frames the call sent: a refusal names the
	// frame it refuses by its nonce.
	nonces map[[nonceSize]byte]bool
}

// sent reports whether the call sent the frame of nonce.
func (c *rcall) sent(nonce []byte) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.nonces[[nonceSize]byte(nonce)]
}

// RemoteOptions configure Dial.
type RemoteOptions struct {
	Password string
	Host     string // the remote's host name, shown in the window ("" is os.Hostname)
	Logger   *slog.Logger
	// ConnectTimeout bounds reaching the broker; 0 means 10 s.
	ConnectTimeout time.Duration
}

// Dial connects to tok's broker and listens for the desktop's replies. A
// broker that cannot be reached within the timeout is an error matching
// ErrBrokerDown, never a wait.
func Dial(ctx context.Context, tok Token, opts RemoteOptions) (*Remote, error) {
	b, err := BrokerAddress(tok.Broker)
	if err != nil {
		return nil, err
	}
	log := opts.Logger
	if log == nil {
		log = slog.New(slog.DiscardHandler)
	}
	host := opts.Host
	if host == "" {
		host, _ = os.Hostname()
	}
	timeout := opts.ConnectTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	log = log.With("part", "relay")
	r := &Remote{tok: tok, topics: TopicsOf(tok.ID), origin: Origin{Host: host}, log: log, floodLog: newLogLimit(log, floodLogBurst, floodLogEvery),
		seal: newSealer(tok.ID, tok.DesktopPublic, tok.RemotePrivate, toDesktop), guard: newGuard(), calls: map[string]*rcall{}}
	r.reply = r.topics.NewReplyTopic()
	// A persistent session: the desktop's events sent while the broker
	// restarts are kept for us and delivered when we are back.
	o := clientOptions(b, opts.Password, "fbr-"+newStreamID()[:20], false).SetConnectTimeout(timeout)
	// The will, sealed for each connection: if this process vanishes, the
	// broker tells the desktop, which withdraws its open questions. Each
	// connection says it is back, so that a will of an earlier one (a
	// broker restart publishes it) is ignored.
	var conn atomic.Uint64
	will := func(n uint64) []byte {
		f, _ := r.seal.seal(envelope{Stream: newStreamID(), Kind: kindGone, Reply: r.reply, Conn: n}, r.reply, func() uint64 { return 0 })
		return f[0]
	}
	conn.Store(1)
	o.SetBinaryWill(r.topics.Questions, will(1), 1, false)
	o.SetReconnectingHandler(func(_ mqtt.Client, opts *mqtt.ClientOptions) {
		n := conn.Add(1)
		opts.SetBinaryWill(r.topics.Questions, will(n), 1, false)
	})
	o.SetOnConnectHandler(func(c mqtt.Client) {
		c.Subscribe(r.reply, 1, r.onMessage) // again after a reconnect: the broker may have lost the session
		n := conn.Load()
		sayBack := func() {
			back, _ := r.seal.seal(envelope{Stream: newStreamID(), Kind: kindBack, Reply: r.reply, Conn: n}, r.reply, func() uint64 { return 0 })
			c.Publish(r.topics.Questions, 0, false, back[0])
		}
		// QoS 0: paho re-sends the QoS 1 messages of its store from
		// another goroutine as it connects, and one published here would
		// race with that (seen with -race). A QoS 0 message reaches only a
		// desktop connected now, and after a broker restart the desktop may
		// reconnect after this shim: "back" is said again within the
		// desktop's grace for a vanished remote (10 s), so that the calls
		// it handed off at the will the restart published resume (and an
		// answer given meanwhile reaches them).
		sayBack()
		go func() {
			for _, after := range backAgain {
				time.Sleep(after)
				if !c.IsConnectionOpen() || conn.Load() != n {
					return
				}
				sayBack()
			}
		}()
	})
	o.SetConnectionLostHandler(func(_ mqtt.Client, err error) { r.log.Warn("relay: lost the broker; reconnecting", "err", err) })
	r.client = mqtt.NewClient(o)
	tok2 := r.client.Connect()
	if !waitToken(ctx, tok2, timeout) {
		r.client.Disconnect(0)
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, fmt.Errorf("%w: %s did not answer within %v", ErrBrokerDown, b.Display, timeout)
	}
	if err := tok2.Error(); err != nil {
		return nil, brokerError(b, err)
	}
	sub := r.client.Subscribe(r.reply, 1, r.onMessage)
	if !waitToken(ctx, sub, timeout) || sub.Error() != nil {
		r.client.Disconnect(0)
		return nil, fmt.Errorf("%w: %s: subscribing failed: %v", ErrBrokerDown, b.Display, sub.Error())
	}
	return r, nil
}

// waitToken waits for t at most d or until ctx ends; true if it completed.
func waitToken(ctx context.Context, t mqtt.Token, d time.Duration) bool {
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-t.Done():
		return true
	case <-timer.C:
	case <-ctx.Done():
	}
	return false
}

// Shutdown disconnects from the broker.
func (r *Remote) Shutdown() { r.client.Disconnect(250) }

// onMessage takes a frame on the reply topic.
func (r *Remote) onMessage(_ mqtt.Client, m mqtt.Message) {
	if len(m.Payload()) > MaxFrameBytes { // no desktop sends one: never opened, never kept
		r.floodLog.logAt(slog.LevelInfo, "relay: frame over the largest size dropped", "bytes", len(m.Payload()), "max", MaxFrameBytes)
		return
	}
	f, err := parseFrame(m.Payload())
	if errors.Is(err, ErrVersion) {
		r.floodLog.logAt(slog.LevelWarn, "relay: a frame from the desktop dropped", "err", err, "version", f.version, "ours", frameVersion)
		return
	}
	if err != nil {
		r.floodLog.logAt(slog.LevelInfo, "relay: frame dropped", "err", err)
		return
	}
	if f.kind == frameRefused {
		// Not sealed: anyone on the broker can send one. Only a refusal
		// made with the pairing's refusal key, of a frame this call sent,
		// ends that call; any other is noted and ignored.
		if !r.seal.verifyRefusal(f, r.reply) {
			r.floodLog.logAt(slog.LevelWarn, "relay: a refusal that does not verify (forged, or sent by a desktop whose keys differ from this token's) ignored",
				"reason", reasonCode(f.reason))
			return
		}
		r.mu.Lock()
		for _, c := range r.calls {
			if c.sent(f.nonce) {
				select {
				case c.refused <- f.reason:
				default:
				}
			}
		}
		r.mu.Unlock()
		return
	}
	e, err := r.seal.open(f)
	if err != nil {
		r.floodLog.logAt(slog.LevelWarn, "relay: message refused", "err", err) // anyone on the broker can send these
		return
	}
	r.mu.Lock()
	c := r.calls[e.Stream]
	r.mu.Unlock()
	if c == nil {
		r.log.Debug("relay: event for no call dropped")
		return
	}
	now := time.Now()
	msgs, err := r.guard.admit(e, now, now.Add(-wire.MaxWait-grace), now.Add(wire.MaxWait+grace))
	if err != nil {
		r.log.Warn("relay: message refused", "err", err)
	}
	for _, e := range msgs {
		if e.Kind == kindPong && c.pong != nil {
			select {
			case c.pong <- struct{}{}:
			default:
			}
			continue
		}
		if e.Kind != kindEvent || e.Event == nil {
			continue
		}
		select {
		case c.events <- e:
		default:
			r.log.Warn("relay: too many events waiting; one dropped")
		}
	}
}

// Ask sends a to the desktop and waits for its outcome, as an ipc.Client
// does: emit gets the events, the final one ends the call. A call whose
// desktop is offline waits until a.Wait runs out and ends pending
// (wire.ErrPending: the question waits at the broker, and asking again
// attaches to it); a refusal is a *wire.Error, so the caller asks without
// the window: CodeRevoked for a revoked pairing, else CodeNoDisplay (the
// token not matching, another release).
func (r *Remote) Ask(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
	if emit == nil {
		emit = func(wire.Event) {}
	}
	stream := newStreamID()
	c := &rcall{events: make(chan envelope, 64), refused: make(chan string, 1), nonces: map[[nonceSize]byte]bool{}}
	r.mu.Lock()
	r.calls[stream] = c
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.calls, stream)
		r.mu.Unlock()
		r.guard.forget(stream)
	}()
	o := r.origin
	o.Project = a.Question.Project
	withdraw := func() { // the caller went away: the desktop closes the window
		cctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		if err := r.send(cctx, c, envelope{Stream: stream, Kind: kindCancel}); err != nil {
			r.log.Warn("relay: the withdrawal was not sent", "err", err)
		}
	}
	if err := r.send(ctx, c, envelope{Stream: stream, Kind: kindAsk, Reply: r.reply, Ask: &a, Origin: &o}); err != nil {
		if ctx.Err() != nil { // the ask may have reached the broker already
			withdraw()
		}
		return wire.Answer{}, err
	}
	var deadline <-chan time.Time
	if a.Wait > 0 {
		t := time.NewTimer(a.Wait + 5*time.Second) // the desktop ends it at a.Wait; this is for a desktop that is away
		defer t.Stop()
		deadline = t.C
	}
	for {
		select {
		case <-ctx.Done():
			withdraw()
			return wire.Answer{}, ctx.Err()
		case reason := <-c.refused:
			return wire.Answer{}, refusalError(reason)
		case <-deadline:
			r.log.Info("relay: no outcome from the desktop within the wait (offline?): the question waits at the broker")
			return wire.Answer{QuestionID: a.Question.ID, CallerData: a.Question.CallerData}, wire.ErrPending
		case e := <-c.events:
			ev := *e.Event
			emit(ev)
			switch ev.Type {
			case wire.EventAnswer:
				if ev.Answer == nil {
					return wire.Answer{}, errors.New("relay: an answer event without an answer")
				}
				return *ev.Answer, nil
			case wire.EventPending:
				return wire.Answer{QuestionID: a.Question.ID, CallerData: ev.CallerData, Snooze: ev.Snooze}, wire.ErrPending
			case wire.EventError:
				if ev.Error == nil {
					return wire.Answer{}, errors.New("relay: an error event without an error")
				}
				return wire.Answer{}, ev.Error
			}
		}
	}
}

// ErrNoAnswer is matched by Ping's error when the desktop did not answer
// in time: its app is not running or not connected to the broker, or is
// of a release before Ping.
var ErrNoAnswer = errors.New("relay: the desktop did not answer")

// Ping asks the desktop whether this pairing is live, waiting at most
// timeout: nil when it answered (sealed with the pairing's keys), an error
// matching ErrRevoked when it refused the pairing as revoked, ErrNoAnswer
// when nothing came, else the refusal (a token not matching, another
// release). The ping is sent at QoS 0: a desktop offline now never gets it
// later.
func (r *Remote) Ping(ctx context.Context, timeout time.Duration) error {
	stream := newStreamID()
	c := &rcall{refused: make(chan string, 1), pong: make(chan struct{}, 1), nonces: map[[nonceSize]byte]bool{}}
	r.mu.Lock()
	r.calls[stream] = c
	r.mu.Unlock()
	defer func() {
		r.mu.Lock()
		delete(r.calls, stream)
		r.mu.Unlock()
		r.guard.forget(stream)
	}()
	frames, err := r.seal.seal(envelope{Stream: stream, Kind: kindPing, Reply: r.reply}, r.reply, func() uint64 { return 0 })
	if err != nil {
		return err
	}
	c.mu.Lock()
	c.nonces[[nonceSize]byte(frameNonce(frames[0]))] = true
	c.mu.Unlock()
	t := r.client.Publish(r.topics.Questions, 0, false, frames[0])
	if !waitToken(ctx, t, timeout) || t.Error() != nil {
		return fmt.Errorf("%w: the ping was not sent: %v", ErrBrokerDown, t.Error())
	}
	timer := time.NewTimer(timeout)
	defer timer.Stop()
	select {
	case <-c.pong:
		return nil
	case reason := <-c.refused:
		if reason == "revoked" {
			return fmt.Errorf("%w: %s", ErrRevoked, refusalText(reason))
		}
		return errors.New(refusalText(reason))
	case <-timer.C:
		return fmt.Errorf("%w within %v", ErrNoAnswer, timeout)
	case <-ctx.Done():
		return ctx.Err()
	}
}

// reasonCode is a refusal's reason as a log may show it: one of the
// codes, or "other" (a refusal's text is never shown as it came).
func reasonCode(reason string) string {
	switch {
	case reason == "revoked", reason == "tampered", reason == "refused", reason == "malformed":
		return reason
	case versionOf(reason) != "":
		return reason
	}
	return "other"
}

// versionOf is the version a "version:N" reason names (digits only, at
// most 8), or "".
func versionOf(reason string) string {
	v, ok := strings.CutPrefix(reason, "version:")
	if !ok || v == "" || len(v) > 8 || strings.Trim(v, "0123456789") != "" {
		return ""
	}
	return v
}

// refusalText explains a refusal's reason code; it holds nothing of the
// reason beyond a version number.
func refusalText(reason string) string {
	switch reason {
	case "revoked":
		return "this pairing was revoked on the desktop; pair again (`feedback relay pair` on the desktop, then `feedback-headless setup CLIENT --relay TOKEN` here)"
	case "tampered":
		return "the desktop refused this relay pairing: its messages do not open with the desktop's keys (the token is wrong or was altered)"
	default:
		if v := versionOf(reason); v != "" {
			return fmt.Sprintf("the desktop's feedback speaks version %s of the relay, this one version %d: install the same feedback release on both machines", v, frameVersion)
		}
		return "the desktop refused the message (" + reasonCode(reason) + ")"
	}
}

// refusalError is the error a call refused for reason ends with.
func refusalError(reason string) *wire.Error {
	if reason == "revoked" {
		return &wire.Error{Code: wire.CodeRevoked, Message: refusalText(reason)}
	}
	return &wire.Error{Code: wire.CodeNoDisplay, Message: refusalText(reason)}
}

// send seals e and publishes it, waiting (bounded) for the broker to take it.
func (r *Remote) send(ctx context.Context, c *rcall, e envelope) error {
	c.mu.Lock()
	next := func() uint64 {
		if !c.started {
			c.started = true
			return 0
		}
		c.seq++
		return c.seq
	}
	frames, err := r.seal.seal(e, r.reply, next)
	for _, f := range frames {
		c.nonces[[nonceSize]byte(frameNonce(f))] = true
	}
	c.mu.Unlock()
	if err != nil {
		return err
	}
	for _, f := range frames {
		t := r.client.Publish(r.topics.Questions, 1, false, f)
		if !waitToken(ctx, t, 15*time.Second) {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return &wire.Error{Code: wire.CodeNoDisplay, Message: "the relay's broker did not take the question within 15 s (is it down?)"}
		}
		if err := t.Error(); err != nil {
			return &wire.Error{Code: wire.CodeNoDisplay, Message: fmt.Sprintf("the relay's broker refused the question: %v", err)}
		}
	}
	return nil
}

// backAgain is when a remote says "back" again after connecting, each
// after the one before: within the desktop's grace for a vanished remote.
var backAgain = []time.Duration{time.Second, 2 * time.Second, 3 * time.Second}
