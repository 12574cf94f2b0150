package relay

import (
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	"golang.org/x/crypto/curve25519"
	"golang.org/x/crypto/nacl/box"

	"feedback/ipc/wire"
)

// Key is 32 bytes: a pairing id, or an X25519 key. In JSON it is base64url.
type Key [32]byte

// IsZero reports whether k is all zeros (unset).
func (k Key) IsZero() bool { return k == Key{} }

func (k Key) MarshalJSON() ([]byte, error) {
	return json.Marshal(base64.RawURLEncoding.EncodeToString(k[:]))
}

func (k *Key) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return err
	}
	raw, err := base64.RawURLEncoding.DecodeString(s)
	if err != nil || len(raw) != len(k) {
		return errors.New("a key must be 32 bytes of base64url")
	}
	copy(k[:], raw)
	return nil
}

// randomKey returns 32 random bytes.
func randomKey() Key {
	var k Key
	if _, err := rand.Read(k[:]); err != nil {
		panic(err) // crypto/rand never fails on supported systems
	}
	return k
}

// publicOf returns the X25519 public key of priv.
func publicOf(priv Key) Key {
	pub, err := curve25519.X25519(priv[:], curve25519.Basepoint)
	if err != nil {
		panic(err) // only for a low-order point; priv is never one
	}
	var k Key
	copy(k[:], pub)
	return k
}

// Topics are a pairing's MQTT topics: opaque, derived from a hash of the
// pairing id, so the broker learns nothing but which messages belong
// together.
type Topics struct {
	Questions string // the desktop subscribes; remotes publish
	replies   string // prefix of the remotes' reply topics
}

// TopicsOf derives a pairing's topics from its id.
func TopicsOf(id Key) Topics {
	h := sha256.Sum256(append([]byte("feedback relay v1 topic\x00"), id[:]...))
	base := "fbr/" + hex.EncodeToString(h[:12])
	return Topics{Questions: base + "/q", replies: base + "/r/"}
}

// NewReplyTopic returns a random reply topic of the pairing.
func (t Topics) NewReplyTopic() string {
	var b [12]byte
	rand.Read(b[:])
	return t.replies + hex.EncodeToString(b[:])
}

// IsReplyTopic reports whether topic is one of the pairing's reply topics.
func (t Topics) IsReplyTopic(topic string) bool {
	rest, ok := strings.CutPrefix(topic, t.replies)
	return ok && len(rest) == 24 && !strings.ContainsAny(rest, "/+#")
}

// Direction of a message.
const (
	toDesktop = "q"
	toRemote  = "a"
)

// Kinds of message.
const (
	kindAsk    = "ask"    // remote → desktop: Ask and Origin set; seq 0
	kindCancel = "cancel" // remote → desktop: the caller went away
	kindEvent  = "event"  // desktop → remote: Event set
	kindPart   = "part"   // a piece of a message too large for one frame
	// kindGone: remote → desktop, the remote process's MQTT will: the
	// broker publishes it when the process vanishes without a goodbye
	// (killed, crashed, cut off): its calls end, as a local shim's do.
	kindGone = "gone"
	// kindBack: remote → desktop, sent on each connection: a will of an
	// earlier connection of the same process (a broker restart publishes
	// it) is then ignored.
	kindBack = "back"
	// kindPing: remote → desktop, `feedback doctor` asking whether the
	// pairing is live; the desktop answers kindPong on its stream (a
	// revoked pairing's ping gets the refusal instead).
	kindPing = "ping"
	kindPong = "pong"
)

// Origin is what the remote says of itself; the window shows it beside
// the pairing's name (which the desktop takes from its own store).
type Origin struct {
	Host    string `json:"host,omitempty"`
	Project string `json:"project,omitempty"`
}

// envelope is the sealed plaintext of every message.
type envelope struct {
	Pairing Key    `json:"p"`
	Dir     string `json:"d"`
	Stream  string `json:"s"` // one call: random, hex
	Seq     uint64 `json:"n"` // 0, 1, 2… per stream and direction
	Time    int64  `json:"t"` // when sent, Unix milliseconds
	Kind    string `json:"k"`

	Reply  string      `json:"reply,omitempty"` // on an ask: where the events go
	Ask    *wire.Ask   `json:"ask,omitempty"`
	Origin *Origin     `json:"o,omitempty"`
	Event  *wire.Event `json:"ev,omitempty"`
	Part   *part       `json:"part,omitempty"`
	// Conn numbers the remote process's connections, on kindGone and
	// kindBack.
	Conn uint64 `json:"c,omitempty"`

	size int // the sealed frame's size, as received (open): what holding it costs
}

// part is one piece of a message sealed in several frames.
type part struct {
	Index int    `json:"i"`
	Count int    `json:"c"`
	Data  []byte `json:"b"`
}

// Frame layout: version, kind, reply-topic length and reply topic (on
// frames to the desktop, in clear so that a refusal can be sent back
// without opening the frame), then a 24-byte nonce and the box; or, for
// a refusal, the nonce of the frame refused, a MAC and the reason code
// (see refusal). Those first parts and the refusal keep this
// layout in every version of the relay: a side that meets a frame of
// another version refuses it ("version:N", the version it speaks), and
// the other side can read why, whatever its version.
const (
	frameVersion = 1
	frameSealed  = 1
	frameRefused = 2
	nonceSize    = 24
	macSize      = sha256.Size
	// MaxFrameBytes is the largest frame sent: a message larger than
	// this is sent in parts (up to maxParts), each sealed on its own.
	// 256 KiB is the smallest limit of common hosted brokers.
	MaxFrameBytes = 256 << 10
	maxParts      = 128 // 32 MiB
	maxMessage    = maxParts * (MaxFrameBytes - 1024)
)

// Errors of opening a frame; each matches ErrRefused.
var (
	ErrRefused  = errors.New("relay: message refused")
	ErrTampered = fmt.Errorf("%w: it does not open with this pairing's keys (tampered, or sealed for another pairing)", ErrRefused)
	ErrReplay   = fmt.Errorf("%w: replayed (its sequence number was seen already)", ErrRefused)
	ErrReorder  = fmt.Errorf("%w: too far out of order (too many messages before it are missing)", ErrRefused)
	ErrStale    = fmt.Errorf("%w: too old or dated in the future", ErrRefused)
	ErrMisdir   = fmt.Errorf("%w: misdirected (wrong pairing or direction)", ErrRefused)
	ErrRevoked  = fmt.Errorf("%w: the pairing was revoked on the desktop", ErrRefused)
	ErrUnknown  = fmt.Errorf("%w: the desktop knows no such pairing", ErrRefused)
	ErrMalform  = fmt.Errorf("%w: malformed", ErrRefused)
	ErrVersion  = fmt.Errorf("%w: of another version of the relay (install the same feedback release on both machines)", ErrRefused)
)

// sealer seals and opens one pairing's messages in one direction each way.
type sealer struct {
	id      Key
	shared  [32]byte // box.Precompute of the peer's public key and our private key
	out     string   // the direction we send in
	refusal Key      // the pairing's refusal key (refusalKeyOf)
}

func newSealer(id Key, peerPublic, ownPrivate Key, out string) *sealer {
	s := &sealer{id: id, out: out}
	pub, priv := [32]byte(peerPublic), [32]byte(ownPrivate)
	box.Precompute(&s.shared, &pub, &priv)
	desktopPublic := peerPublic // the remote's sealer
	if out == toRemote {
		desktopPublic = publicOf(ownPrivate)
	}
	s.refusal = refusalKeyOf(id, desktopPublic)
	return s
}

// seal returns the frames of e (one, or parts when it is large), with
// reply in clear. next gives each frame its sequence number.
func (s *sealer) seal(e envelope, reply string, next func() uint64) ([][]byte, error) {
	e.Pairing, e.Dir, e.Time = s.id, s.out, time.Now().UnixMilli()
	e.Seq = next()
	plain, err := json.Marshal(e)
	if err != nil {
		return nil, err
	}
	if len(plain)+len(reply)+nonceSize+box.Overhead+3 <= MaxFrameBytes {
		return [][]byte{s.sealOne(plain, reply)}, nil
	}
	if len(plain) > maxMessage {
		return nil, &wire.Error{Code: wire.CodeInvalid, Message: fmt.Sprintf("the message is %d bytes; the relay carries at most %d", len(plain), maxMessage)}
	}
	// Parts: the whole envelope, cut; each piece in an envelope of its own
	// with its own sequence number (the first is e's).
	chunk := (MaxFrameBytes - 1024 - len(reply)) * 3 / 4 // base64 in JSON
	count := (len(plain) + chunk - 1) / chunk
	frames := make([][]byte, 0, count)
	for i := 0; i < count; i++ {
		p := envelope{Pairing: s.id, Dir: s.out, Stream: e.Stream, Time: e.Time, Kind: kindPart,
			Part: &part{Index: i, Count: count, Data: plain[i*chunk : min(len(plain), (i+1)*chunk)]}}
		if i == 0 {
			p.Seq = e.Seq
		} else {
			p.Seq = next()
		}
		b, _ := json.Marshal(p)
		frames = append(frames, s.sealOne(b, reply))
	}
	return frames, nil
}

func (s *sealer) sealOne(plain []byte, reply string) []byte {
	var nonce [nonceSize]byte
	rand.Read(nonce[:])
	out := make([]byte, 0, 3+len(reply)+nonceSize+len(plain)+box.Overhead)
	out = append(out, frameVersion, frameSealed, byte(len(reply)))
	out = append(out, reply...)
	out = append(out, nonce[:]...)
	return box.SealAfterPrecomputation(out, plain, &nonce, &s.shared)
}

// frame is a frame's clear part.
type frame struct {
	version, kind byte
	reply         string
	body          []byte // nonce and box, or a refusal's reason
	reason        string
	nonce, mac    []byte // a refusal's: the nonce of the frame refused, its MAC
}

// parseFrame splits a frame into its clear parts.
// A frame of another version is returned with ErrVersion, its version
// and reply topic set (a refusal of any version is read).
func parseFrame(b []byte) (frame, error) {
	if len(b) < 3 {
		return frame{}, ErrMalform
	}
	f := frame{version: b[0], kind: b[1]}
	n := int(b[2])
	if len(b) < 3+n {
		return frame{}, ErrMalform
	}
	f.reply, f.body = string(b[3:3+n]), b[3+n:]
	if f.version != frameVersion && f.kind != frameRefused {
		return f, ErrVersion
	}
	switch f.kind {
	case frameSealed:
		if len(f.body) < nonceSize+box.Overhead {
			return frame{}, ErrMalform
		}
	case frameRefused:
		// A refusal of the first release carried its reason alone, which
		// nothing verifies: kept as such (verifyRefusal fails).
		if len(f.body) >= nonceSize+macSize {
			f.nonce, f.mac = f.body[:nonceSize], f.body[nonceSize:nonceSize+macSize]
			f.body = f.body[nonceSize+macSize:]
		}
		f.reason = string(f.body[:min(len(f.body), 64)])
	default:
		return frame{}, ErrMalform
	}
	return f, nil
}

// refusal is the clear frame the desktop sends back for a frame it
// cannot accept: the only message not sealed, since it answers frames
// that may not open. Anyone on the broker can publish one, so it is
// authenticated: it echoes the refused frame's nonce and carries an
// HMAC-SHA256, under the pairing's refusal key (refusalKeyOf), of the
// reply topic it goes to, that nonce and its reason code. A remote ends
// a call on a refusal only when the MAC holds and the nonce is one the
// call sent (verifyRefusal): a forged refusal, or one replayed from
// another call, ends nothing. The reason is a code, never free text.
func refusal(key Key, reply string, nonce []byte, reason string) []byte {
	out := append([]byte{frameVersion, frameRefused, 0}, nonce...)
	out = append(out, refusalMAC(key, reply, nonce, reason)...)
	return append(out, reason...)
}

func refusalMAC(key Key, reply string, nonce []byte, reason string) []byte {
	m := hmac.New(sha256.New, key[:])
	m.Write([]byte("feedback relay refusal\x00"))
	m.Write([]byte(reply))
	m.Write([]byte{0})
	m.Write(nonce)
	m.Write([]byte(reason))
	return m.Sum(nil)
}

// refusalKeyOf is the key of the refusals of pairing id, whose desktop's
// public key is desktopPublic. Both are in the token and nowhere on the
// broker in clear (topics are a hash of the id; the id travels sealed), so
// the key is the desktop's and the token holder's alone, yet a remote
// whose token holds another secret can still verify that the desktop
// refuses it. The desktop keeps it when it revokes the pairing (Revoked),
// so a revoked remote is still told so, verifiably: it makes refusals of
// that pairing and nothing else (it opens and seals no message).
func refusalKeyOf(id, desktopPublic Key) Key {
	h := sha256.New()
	h.Write([]byte("feedback relay v1 refusal key\x00"))
	h.Write(id[:])
	h.Write(desktopPublic[:])
	return Key(h.Sum(nil))
}

// verifyRefusal reports whether the refusal f, received on reply, was
// made with this pairing's refusal key.
func (s *sealer) verifyRefusal(f frame, reply string) bool {
	if len(f.mac) != macSize || len(f.nonce) != nonceSize {
		return false
	}
	return hmac.Equal(f.mac, refusalMAC(s.refusal, reply, f.nonce, f.reason))
}

// frameNonce is the nonce of a sealed frame of ours.
func frameNonce(f []byte) []byte {
	n := 3 + int(f[2])
	return f[n : n+nonceSize]
}

// versionRefusal is the reason of a refusal of a frame of another version.
var versionRefusal = fmt.Sprintf("version:%d", frameVersion)

// open opens a sealed frame's body and checks its header: the pairing and
// the direction (toward us). The guard checks the rest.
func (s *sealer) open(f frame) (envelope, error) {
	var nonce [nonceSize]byte
	copy(nonce[:], f.body[:nonceSize])
	plain, ok := box.OpenAfterPrecomputation(nil, f.body[nonceSize:], &nonce, &s.shared)
	if !ok {
		return envelope{}, ErrTampered
	}
	var e envelope
	if err := json.Unmarshal(plain, &e); err != nil {
		return envelope{}, ErrMalform
	}
	e.size = len(f.body)
	in := toDesktop
	if s.out == toDesktop {
		in = toRemote
	}
	if e.Pairing != s.id || e.Dir != in {
		return envelope{}, ErrMisdir
	}
	if e.Stream == "" || len(e.Stream) > 64 {
		return envelope{}, ErrMalform
	}
	if (e.Kind == kindAsk || e.Kind == kindGone || e.Kind == kindBack || e.Kind == kindPing) && e.Reply != f.reply { // the clear reply topic is the sealed one
		return envelope{}, ErrTampered
	}
	return e, nil
}

// MaxSkew is how far in the future a message may be dated (clocks differ).
const MaxSkew = 5 * time.Minute

// guard refuses replayed and stale messages of one receiver and puts
// each stream back in order: a stream's sequence numbers are 0, 1, 2…; a
// number seen already is refused, one ahead of the next expected is held
// (at most maxAhead per stream) until the ones before it arrive, so a
// message is never taken out of order, and one reordered in flight (as a
// reconnection may) is not lost either. A stream is forgotten once it
// expires; then a replay of it is stale by its date.
//
// What it holds (messages ahead of a gap, parts of a message not whole
// yet) is bounded across all its streams by its own budget (one
// pairing's: maxHeldFrames, maxHeldBytes) and by all, shared by every
// pairing of the relay when not nil: whoever holds a token can open
// streams at will, each with a gap that never fills.
type guard struct {
	mu      sync.Mutex // guards streams
	streams map[string]*streamState
	own     *budget
	all     *budget
}

// Bounds on what one pairing's guard holds, and on what the desktop's
// guards hold together: one message of the largest size (maxParts parts)
// fits in either, with room for the usual traffic besides.
const (
	maxHeldFrames    = 3 * maxParts
	maxHeldBytes     = 48 << 20
	maxAllHeldFrames = 8 * maxParts
	maxAllHeldBytes  = 128 << 20
)

// ErrHeldTooMuch: a message that would have to wait was refused, as the
// pairing (or the relay) holds as much waiting as it may.
var ErrHeldTooMuch = fmt.Errorf("%w: too much waiting for earlier messages already", ErrRefused)

// budget counts frames and bytes held against bounds; safe for
// concurrent use (guards of several pairings share the relay's).
type budget struct {
	mu                  sync.Mutex // guards frames and bytes
	frames, bytes       int
	maxFrames, maxBytes int
}

func newBudget(frames, bytes int) *budget { return &budget{maxFrames: frames, maxBytes: bytes} }

// reserve takes one frame of n bytes, or reports false when it does not fit.
func (b *budget) reserve(n int) bool {
	if b == nil {
		return true
	}
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.frames+1 > b.maxFrames || b.bytes+n > b.maxBytes {
		return false
	}
	b.frames++
	b.bytes += n
	return true
}

// release gives back frames frames of n bytes in all.
func (b *budget) release(frames, n int) {
	if b == nil || frames == 0 {
		return
	}
	b.mu.Lock()
	b.frames -= frames
	b.bytes -= n
	b.mu.Unlock()
}

// maxAhead bounds the messages held per stream waiting for an earlier one.
const maxAhead = 2 * maxParts

type streamState struct {
	next    uint64 // the sequence number expected next
	expires time.Time
	ahead   map[uint64]envelope // arrived early, by sequence number
	parts   [][]byte            // the pieces of a message being reassembled
	// frames and bytes are what the stream holds against the budgets:
	// the messages ahead and the parts (partFrames, partBytes of it).
	frames, bytes         int
	partFrames, partBytes int
}

// newGuard is a guard with one pairing's budget alone (a remote's: only
// its desktop can open its streams).
func newGuard() *guard { return newGuardIn(nil) }

// newGuardIn is a guard with one pairing's budget, within all.
func newGuardIn(all *budget) *guard {
	return &guard{streams: map[string]*streamState{}, own: newBudget(maxHeldFrames, maxHeldBytes), all: all}
}

// reserve takes a frame of n bytes from both budgets for st.
func (g *guard) reserve(st *streamState, n int) bool {
	if !g.own.reserve(n) {
		return false
	}
	if !g.all.reserve(n) {
		g.own.release(1, n)
		return false
	}
	st.frames++
	st.bytes += n
	return true
}

// give gives back frames frames of n bytes in all that st held.
func (g *guard) give(st *streamState, frames, n int) {
	g.own.release(frames, n)
	g.all.release(frames, n)
	st.frames -= frames
	st.bytes -= n
}

// drop forgets st, giving back all it holds.
func (g *guard) drop(key string, st *streamState) {
	g.own.release(st.frames, st.bytes)
	g.all.release(st.frames, st.bytes)
	delete(g.streams, key)
}

// admit checks e against what its stream has seen: a new stream must be
// dated no earlier than oldest; it is remembered until expires. It
// returns the messages now complete and in order: none while e waits for
// an earlier one or for the rest of its parts; e and the held messages
// that follow it when e was the one missing. A message that would wait
// beyond the budgets is refused (ErrHeldTooMuch).
func (g *guard) admit(e envelope, now, oldest, expires time.Time) ([]envelope, error) {
	t := time.UnixMilli(e.Time)
	if t.After(now.Add(MaxSkew)) {
		return nil, ErrStale
	}
	g.mu.Lock()
	defer g.mu.Unlock()
	for k, st := range g.streams {
		if now.After(st.expires) {
			g.drop(k, st)
		}
	}
	st := g.streams[e.Stream]
	if st == nil {
		if t.Before(oldest) {
			return nil, ErrStale
		}
		st = &streamState{expires: expires, ahead: map[uint64]envelope{}}
		g.streams[e.Stream] = st
	}
	switch {
	case e.Seq < st.next:
		return nil, ErrReplay
	case e.Seq > st.next:
		if _, dup := st.ahead[e.Seq]; dup {
			return nil, ErrReplay
		}
		if len(st.ahead) >= maxAhead {
			return nil, ErrReorder
		}
		if !g.reserve(st, e.size) {
			return nil, ErrHeldTooMuch
		}
		st.ahead[e.Seq] = e
		return nil, nil
	}
	var out []envelope
	// cur is the message taken next; reserved: it holds a reservation
	// (it waited ahead, or is a part), which passes to the parts or is
	// given back.
	cur, reserved := e, false
	for {
		if cur.Kind == kindPart && !reserved {
			if !g.reserve(st, cur.size) {
				return out, ErrHeldTooMuch
			}
			reserved = true
		}
		st.next++
		whole, done, err := st.take(cur)
		if err == nil && !done && cur.Kind == kindPart { // kept among the parts until the message is whole
			st.partFrames++
			st.partBytes += cur.size
		} else if reserved {
			g.give(st, 1, cur.size)
		}
		if err != nil || done { // the parts are joined, or thrown away
			g.give(st, st.partFrames, st.partBytes)
			st.partFrames, st.partBytes, st.parts = 0, 0, nil
		}
		if err != nil {
			return out, err
		}
		if done {
			out = append(out, whole)
		}
		next, ok := st.ahead[st.next]
		if !ok {
			return out, nil
		}
		delete(st.ahead, st.next)
		cur, reserved = next, true
	}
}

// take adds e, the stream's next message, to what is being reassembled;
// done with the whole message once it is complete.
func (st *streamState) take(e envelope) (envelope, bool, error) {
	if e.Kind != kindPart {
		if len(st.parts) > 0 {
			return envelope{}, false, ErrMalform
		}
		return e, true, nil
	}
	p := e.Part
	if p == nil || p.Count < 2 || p.Count > maxParts || p.Index != len(st.parts) {
		return envelope{}, false, ErrMalform
	}
	st.parts = append(st.parts, p.Data)
	if len(st.parts) < p.Count {
		return envelope{}, false, nil
	}
	var whole []byte
	for _, b := range st.parts {
		whole = append(whole, b...)
	}
	st.parts = nil
	var inner envelope
	if err := json.Unmarshal(whole, &inner); err != nil || inner.Kind == kindPart || inner.Stream != e.Stream ||
		inner.Pairing != e.Pairing || inner.Dir != e.Dir {
		return envelope{}, false, ErrMalform
	}
	return inner, true, nil
}

// forget drops a stream (its call ended).
func (g *guard) forget(stream string) {
	g.mu.Lock()
	if st := g.streams[stream]; st != nil {
		g.drop(stream, st)
	}
	g.mu.Unlock()
}

// newStreamID returns a random stream id.
func newStreamID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
