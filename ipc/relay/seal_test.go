package relay

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"feedback/ipc/wire"
)

// pair returns the two sealers of a fresh pairing: the remote's and the
// desktop's.
func pair(t *testing.T) (remote, desktop *sealer, st State, tok Token) {
	t.Helper()
	st = State{Broker: "mqtt://u@127.0.0.1:1883"}
	tok, err := st.Pair("box")
	if err != nil {
		t.Fatal(err)
	}
	p := st.Pairings[0]
	return newSealer(tok.ID, tok.DesktopPublic, tok.RemotePrivate, toDesktop),
		newSealer(p.ID, p.RemotePublic, p.DesktopPrivate, toRemote), st, tok
}

func counter() func() uint64 {
	n := uint64(0)
	first := true
	return func() uint64 {
		if first {
			first = false
			return 0
		}
		n++
		return n
	}
}

func askEnvelope(stream, text string) envelope {
	return envelope{Stream: stream, Kind: kindAsk, Reply: "", Ask: &wire.Ask{Wait: time.Minute,
		Question: wire.Question{ID: "q1", Prompts: []wire.Prompt{{Markdown: text}}}}}
}

// open opens f as s's side does: the desktop reads its hs1, the remote
// finds its stream's keys (among keys) by the frame's tag.
func open(s *sealer, f frame, keys ...*upKeys) (envelope, error) {
	if s.out == toRemote {
		return s.openUp(f)
	}
	return s.openDown(f, func(tag [tagSize]byte) *upKeys {
		for _, k := range keys {
			if k.tag() == tag {
				return k
			}
		}
		return nil
	})
}

func openAll(t *testing.T, s *sealer, g *guard, frames [][]byte, keys ...*upKeys) (envelope, error) {
	t.Helper()
	now := time.Now()
	var out envelope
	for _, b := range frames {
		f, err := parseFrame(b)
		if err != nil {
			return envelope{}, err
		}
		e, err := open(s, f, keys...)
		if err != nil {
			return envelope{}, err
		}
		msgs, err := g.admit(e, now, now.Add(-time.Hour), now.Add(time.Hour))
		if err != nil {
			return envelope{}, err
		}
		if len(msgs) > 0 {
			out = msgs[len(msgs)-1]
		}
	}
	return out, nil
}

func TestSealRoundTripHidesTheText(t *testing.T) {
	remote, desktop, _, _ := pair(t)
	frames, err := remote.seal(remote.openStream().sealUp, askEnvelope("s1", "the secret question"), "", counter())
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(frames[0], []byte("secret")) {
		t.Fatal("the frame carries the question in clear")
	}
	e, err := openAll(t, desktop, newGuard(), frames)
	if err != nil {
		t.Fatal(err)
	}
	if e.Ask.Question.Prompts[0].Markdown != "the secret question" {
		t.Fatalf("opened %+v", e.Ask.Question)
	}
}

func TestSealRefuses(t *testing.T) {
	remote, desktop, _, _ := pair(t)
	u := remote.openStream()
	frames, err := remote.seal(u.sealUp, askEnvelope("s1", "q"), "", counter())
	if err != nil {
		t.Fatal(err)
	}
	_, other, _, _ := pair(t) // another pairing's desktop keys
	tampered := bytes.Clone(frames[0])
	tampered[len(tampered)-5] ^= 1

	t.Run("tampered", func(t *testing.T) {
		if _, err := openAll(t, desktop, newGuard(), [][]byte{tampered}); !errors.Is(err, ErrTampered) {
			t.Fatalf("got %v, want ErrTampered", err)
		}
	})
	t.Run("wrong key", func(t *testing.T) {
		if _, err := openAll(t, other, newGuard(), frames); !errors.Is(err, ErrTampered) {
			t.Fatalf("got %v, want ErrTampered", err)
		}
	})
	t.Run("replay", func(t *testing.T) {
		g := newGuard()
		if _, err := openAll(t, desktop, g, frames); err != nil {
			t.Fatal(err)
		}
		if _, err := openAll(t, desktop, g, frames); !errors.Is(err, ErrReplay) {
			t.Fatalf("got %v, want ErrReplay", err)
		}
	})
	t.Run("reorder", func(t *testing.T) { // never taken out of order: held until the gap fills
		next, u := counter(), remote.openStream()
		a, _ := remote.seal(u.sealUp, askEnvelope("s2", "q"), "", next)
		b, _ := remote.seal(u.sealUp, envelope{Stream: "s2", Kind: kindCancel}, "", next)
		c, _ := remote.seal(u.sealUp, envelope{Stream: "s2", Kind: kindCancel}, "", next)
		open1 := func(g *guard, frames [][]byte) ([]envelope, error) {
			f, _ := parseFrame(frames[0])
			e, err := desktop.openUp(f)
			if err != nil {
				t.Fatal(err)
			}
			now := time.Now()
			return g.admit(e, now, now.Add(-time.Hour), now.Add(time.Hour))
		}
		g := newGuard()
		if got, err := open1(g, c); err != nil || len(got) != 0 {
			t.Fatalf("seq 2 first: got %d message(s), %v; want it held", len(got), err)
		}
		if got, err := open1(g, a); err != nil || len(got) != 1 || got[0].Seq != 0 {
			t.Fatalf("seq 0: got %+v, %v", got, err)
		}
		got, err := open1(g, b)
		if err != nil || len(got) != 2 || got[0].Seq != 1 || got[1].Seq != 2 {
			t.Fatalf("seq 1 fills the gap: got %+v, %v; want 1 then 2", got, err)
		}
		if _, err := open1(g, c); !errors.Is(err, ErrReplay) {
			t.Fatalf("seq 2 again: got %v, want ErrReplay", err)
		}
		// Too many held: refused.
		g2 := newGuard()
		var last error
		for i := 0; i <= maxAhead; i++ {
			fr, _ := remote.seal(u.sealUp, envelope{Stream: "s3", Kind: kindCancel}, "", func() uint64 { return uint64(i + 1) })
			_, last = open1(g2, fr)
		}
		if !errors.Is(last, ErrReorder) {
			t.Fatalf("more than %d ahead: got %v, want ErrReorder", maxAhead, last)
		}
	})
	t.Run("reflected", func(t *testing.T) { // the remote's own frame sent back to it
		if _, err := openAll(t, remote, newGuard(), frames, u); !errors.Is(err, ErrTampered) {
			t.Fatalf("got %v, want ErrTampered", err)
		}
		plain, _ := json.Marshal(envelope{Pairing: remote.id, Dir: toDesktop, Stream: "s", Kind: kindCancel})
		if _, err := remote.check(plain, frame{}); !errors.Is(err, ErrMisdir) {
			t.Fatalf("an envelope toward the desktop, opened by the remote: got %v, want ErrMisdir", err)
		}
	})
	t.Run("stale", func(t *testing.T) {
		now := time.Now()
		f, _ := parseFrame(frames[0])
		e, err := desktop.openUp(f)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := newGuard().admit(e, now.Add(2*time.Hour), now.Add(time.Hour), now.Add(3*time.Hour)); !errors.Is(err, ErrStale) {
			t.Fatalf("an old message: got %v, want ErrStale", err)
		}
		if _, err := newGuard().admit(e, now.Add(-time.Hour), now.Add(-2*time.Hour), now); !errors.Is(err, ErrStale) {
			t.Fatalf("a message from the future: got %v, want ErrStale", err)
		}
	})
	t.Run("reply topic swapped", func(t *testing.T) {
		tp := TopicsOf(remote.id)
		fr, _ := remote.seal(u.sealUp, envelope{Stream: "s3", Kind: kindAsk, Reply: tp.NewReplyTopic(), Ask: askEnvelope("", "q").Ask}, tp.NewReplyTopic(), counter())
		if _, err := openAll(t, desktop, newGuard(), fr); !errors.Is(err, ErrTampered) {
			t.Fatalf("got %v, want ErrTampered", err)
		}
		// The clear reply topic changed on the way (by someone on the
		// broker): it is sealed in with the frame.
		reply := tp.NewReplyTopic()
		fr, _ = remote.seal(u.sealUp, envelope{Stream: "s4", Kind: kindCancel}, reply, counter())
		copy(fr[0][3:], tp.NewReplyTopic())
		if _, err := openAll(t, desktop, newGuard(), fr); !errors.Is(err, ErrTampered) {
			t.Fatalf("another clear reply topic: got %v, want ErrTampered", err)
		}
	})
}

func TestSealLargeMessageInParts(t *testing.T) {
	remote, desktop, _, _ := pair(t)
	img := bytes.Repeat([]byte{0xAB, 0xCD, 0x01}, 400<<10) // 1.2 MB
	ev := wire.Event{Type: wire.EventAnswer, Answer: &wire.Answer{QuestionID: "q", Status: wire.StatusAnswered,
		Images: []wire.Image{{MIME: "image/png", Data: img}}}}
	u := remote.openStream()
	d, err := desktop.answer(u.hs1)
	if err != nil {
		t.Fatal(err)
	}
	frames, err := desktop.seal(d.sealDown, envelope{Stream: "s", Kind: kindEvent, Event: &ev}, "", counter())
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) < 2 {
		t.Fatalf("%d frame(s), want parts", len(frames))
	}
	for i, f := range frames {
		if len(f) > MaxFrameBytes {
			t.Fatalf("frame %d is %d bytes > %d", i, len(f), MaxFrameBytes)
		}
	}
	e, err := openAll(t, remote, newGuard(), frames, u)
	if err != nil {
		t.Fatal(err)
	}
	if e.Event == nil || !bytes.Equal(e.Event.Answer.Images[0].Data, img) {
		t.Fatal("the image did not come back whole")
	}
	// Parts arriving out of order: nothing until the missing one comes,
	// then the whole.
	g := newGuard()
	reordered := append([][]byte{frames[0]}, frames[2:]...)
	if e, err := openAll(t, remote, g, reordered, u); err != nil || e.Event != nil {
		t.Fatalf("with part 1 missing: got %+v, %v; want nothing yet", e.Event, err)
	}
	if g.own.frames != len(frames)-1 {
		t.Errorf("with part 1 missing the guard counts %d frames held, want %d", g.own.frames, len(frames)-1)
	}
	if e, err := openAll(t, remote, g, frames[1:2], u); err != nil || e.Event == nil || !bytes.Equal(e.Event.Answer.Images[0].Data, img) {
		t.Fatalf("part 1 arrived: %v", err)
	}
	if g.own.frames != 0 || g.own.bytes != 0 {
		t.Errorf("once whole the guard still counts %d frames, %d bytes held", g.own.frames, g.own.bytes)
	}
	// Too large even in parts: refused with a clear error.
	huge := wire.Event{Type: wire.EventAnswer, Answer: &wire.Answer{Images: []wire.Image{{Data: make([]byte, maxMessage)}}}}
	_, err = desktop.seal(d.sealDown, envelope{Stream: "s", Kind: kindEvent, Event: &huge}, "", counter())
	var we *wire.Error
	if !errors.As(err, &we) || !strings.Contains(we.Message, "at most") {
		t.Fatalf("got %v, want a wire.Error naming the limit", err)
	}
}

func TestTokenRoundTripAndTamper(t *testing.T) {
	st := State{Broker: "mqtts://alice@broker.example:8883"}
	tok, err := st.Pair("build-box")
	if err != nil {
		t.Fatal(err)
	}
	s := tok.String()
	got, err := ParseToken(s)
	if err != nil {
		t.Fatal(err)
	}
	if got != tok {
		t.Fatalf("round trip: %+v != %+v", got, tok)
	}
	raw, _ := json.Marshal(tok)
	if strings.Contains(string(raw), "password") {
		t.Fatal("token mentions a password")
	}
	for i := len(TokenPrefix); i < len(s); i += 7 {
		c := byte('A')
		if s[i] == 'A' {
			c = 'B'
		}
		bad := s[:i] + string(c) + s[i+1:]
		if _, err := ParseToken(bad); !errors.Is(err, ErrBadToken) {
			t.Fatalf("altered at %d: got %v, want ErrBadToken", i, err)
		}
	}
	if _, err := ParseToken(s[:len(s)-3]); !errors.Is(err, ErrBadToken) {
		t.Fatalf("cut: got %v", err)
	}
}

func TestBrokerAddressNeverKeepsThePassword(t *testing.T) {
	b, err := BrokerAddress("mqtts://alice:s3cret@broker.example")
	if err != nil {
		t.Fatal(err)
	}
	if b.URL != "ssl://broker.example:8883" || b.User != "alice" || strings.Contains(b.Display, "s3cret") {
		t.Fatalf("%+v", b)
	}
	if pw, ok := ParseBrokerPassword("mqtts://alice:s3cret@broker.example"); !ok || pw != "s3cret" {
		t.Fatal("password not parsed")
	}
	if _, err := BrokerAddress("http://x"); err == nil {
		t.Fatal("http accepted")
	}
}

func TestRevokeRemovesKeys(t *testing.T) {
	st := State{Broker: "mqtt://u@h"}
	tok, _ := st.Pair("a")
	if err := st.Revoke("a"); err != nil {
		t.Fatal(err)
	}
	if len(st.Pairings) != 0 || len(st.Revoked) != 1 || st.Revoked[0].ID != tok.ID {
		t.Fatalf("%+v", st)
	}
	b, _ := json.Marshal(st)
	if strings.Contains(string(b), "desktop_private") {
		t.Fatal("a revoked pairing keeps its key")
	}
	if err := st.Revoke("a"); !errors.Is(err, ErrNoPairing) {
		t.Fatalf("got %v", err)
	}
}

func TestStatusRunning(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("alive is a guess there (alive_other.go)")
	}
	if !(Status{PID: os.Getpid()}).Running() {
		t.Fatal("this process is not running?")
	}
	if (Status{PID: 0}).Running() || (Status{PID: 1 << 30}).Running() {
		t.Fatal("a status with no live app says it runs")
	}
}

// The clear header and the refusal keep their layout in every version:
// a sealed frame of another version is ErrVersion with its reply topic
// (so that the desktop can say why), a refusal of any version is read,
// and a frame too short to have the header is malformed.
func TestParseFrameAcrossVersions(t *testing.T) {
	remote, _, _, _ := pair(t)
	sealed := remote.openStream().sealUp([]byte(`{}`), "fbr/x/r/1")
	other := append([]byte{9}, sealed[1:]...)
	for _, tc := range []struct {
		name   string
		frame  []byte
		err    error
		reply  string
		reason string
	}{
		{"this version, sealed", sealed, nil, "fbr/x/r/1", ""},
		{"another version, sealed", other, ErrVersion, "fbr/x/r/1", ""},
		{"this version's refusal", refusal(Key{1}, "fbr/x/r/1", sealed[len(sealed)-nonceSize:], "revoked"), nil, "", "revoked"},
		{"the first release's refusal (unverified)", append([]byte{1, frameRefused, 0}, "revoked"...), nil, "", "revoked"},
		{"another version's refusal", append([]byte{9, frameRefused, 0}, "version:9"...), nil, "", "version:9"},
		{"another version, too short", []byte{9, frameSealed}, ErrMalform, "", ""},
		{"another version, reply cut", []byte{9, frameSealed, 40, 'f'}, ErrMalform, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f, err := parseFrame(tc.frame)
			if !errors.Is(err, tc.err) || err == nil && tc.err != nil {
				t.Fatalf("err %v, want %v", err, tc.err)
			}
			if f.reply != tc.reply || f.reason != tc.reason {
				t.Errorf("reply %q reason %q, want %q %q", f.reply, f.reason, tc.reply, tc.reason)
			}
		})
	}
	if got := refusalText("version:3"); !strings.Contains(got, "speaks version 3 of the relay, this one version 2") || !strings.Contains(got, "install the same feedback release") {
		t.Errorf("a newer desktop's refusal reads %q", got)
	}
}

// A refusal verifies only with the pairing's refusal key, on the reply
// topic it was made for, for the nonce and reason it was made with.
func TestRefusalVerifies(t *testing.T) {
	remote, desktop, _, _ := pair(t)
	nonce := make([]byte, nonceSize)
	nonce[0] = 7
	const reply = "fbr/x/r/1"
	good := refusal(desktop.refusal, reply, nonce, "revoked")
	check := func(name string, b []byte, onReply string, want bool) {
		t.Helper()
		f, err := parseFrame(b)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := remote.verifyRefusal(f, onReply); got != want {
			t.Errorf("%s: verifies %v, want %v", name, got, want)
		}
	}
	check("made by the desktop", good, reply, true)
	check("on another reply topic", good, "fbr/x/r/2", false)
	otherReason := append(append([]byte{}, good[:len(good)-len("revoked")]...), "tampered"...)
	check("another reason", otherReason, reply, false)
	otherNonce := append([]byte{}, good...)
	otherNonce[3] ^= 1
	check("another nonce", otherNonce, reply, false)
	check("another key", refusal(Key{1}, reply, nonce, "revoked"), reply, false)
	check("the first release's", append([]byte{1, frameRefused, 0}, "revoked"...), reply, false)
	if remote.refusal != desktop.refusal {
		t.Error("the two sides derive different refusal keys")
	}
	// A token with another secret (same pairing, same desktop key) still
	// verifies the desktop's refusal: it is told its messages do not open.
	_, _, _, tok := pair(t)
	bad := tok
	bad.RemotePrivate[3] ^= 0x40
	if a, b := newSealer(tok.ID, tok.DesktopPublic, tok.RemotePrivate, toDesktop), newSealer(bad.ID, bad.DesktopPublic, bad.RemotePrivate, toDesktop); a.refusal != b.refusal {
		t.Error("a token with another secret derives another refusal key")
	}
}

// The guards of several pairings share the relay's budget: one that
// holds what the whole relay may makes the others refuse to hold more;
// a stream forgotten gives back what it held.
func TestGuardsShareTheRelaysBudget(t *testing.T) {
	remote, desktop, _, _ := pair(t)
	all := newBudget(3, 1<<30)
	g1, g2 := newGuardIn(all), newGuardIn(all)
	ahead := func(stream string) envelope {
		f, _ := parseFrame(remote.openStream().sealUp(mustJSON(t, envelope{Pairing: remote.id, Dir: toDesktop, Stream: stream, Seq: 1, Time: time.Now().UnixMilli(), Kind: kindCancel}), ""))
		e, err := desktop.openUp(f)
		if err != nil {
			t.Fatal(err)
		}
		return e
	}
	now := time.Now()
	for _, s := range []string{"a", "b", "c"} {
		if _, err := g1.admit(ahead(s), now, now.Add(-time.Hour), now.Add(time.Hour)); err != nil {
			t.Fatal(err)
		}
	}
	if _, err := g2.admit(ahead("d"), now, now.Add(-time.Hour), now.Add(time.Hour)); !errors.Is(err, ErrHeldTooMuch) {
		t.Fatalf("another pairing's guard beyond the relay's budget: %v, want ErrHeldTooMuch", err)
	}
	g1.forget("a")
	if _, err := g2.admit(ahead("d"), now, now.Add(-time.Hour), now.Add(time.Hour)); err != nil {
		t.Fatalf("after a stream was forgotten: %v", err)
	}
	if all.frames != 3 {
		t.Errorf("the relay counts %d frames held, want 3", all.frames)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Whoever holds a token can open streams by the thousand, a frame each:
// the streams one pairing's guard remembers are bounded, and those of all
// the guards together; expired ones make room again.
func TestGuardStreamsAreBounded(t *testing.T) {
	now := time.Now()
	all := newBudget(maxAllStreams, 0)
	guards := make([]*guard, 5)
	for i := range guards {
		guards[i] = newGuardIn(nil)
		guards[i].allStreams = all
	}
	admit := func(g *guard, stream string, at time.Time) error {
		_, err := g.admit(envelope{Stream: stream, Time: at.UnixMilli(), Kind: kindCancel}, at, at.Add(-time.Hour), at.Add(time.Hour))
		return err
	}
	fill := func(g *guard, n int) (refused int) {
		for i := range n {
			if err := admit(g, fmt.Sprintf("%p-%d", g, i), now); errors.Is(err, ErrTooManyStreams) {
				refused++
			} else if err != nil {
				t.Fatal(err)
			}
		}
		return refused
	}
	if n := fill(guards[0], maxStreams+100); n != 100 || len(guards[0].streams) != maxStreams {
		t.Errorf("one pairing: %d streams remembered, %d refused; want %d and 100", len(guards[0].streams), n, maxStreams)
	}
	total := len(guards[0].streams)
	for _, g := range guards[1:] {
		fill(g, maxStreams)
		total += len(g.streams)
	}
	if total != maxAllStreams {
		t.Errorf("all pairings remember %d streams, want at most %d", total, maxAllStreams)
	}
	later := now.Add(2 * time.Hour)
	for _, g := range guards { // as the desktop does each minute
		g.expire(later)
	}
	if admit(guards[4], "after", later) != nil {
		t.Error("a new stream is refused once the others have expired")
	}
}
