package relay

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	mqtt "github.com/eclipse/paho.mqtt.golang"
	"golang.org/x/crypto/nacl/box"

	"feedback/ipc/wire"
)

// Every stream has keys of its own, made by its own handshake: two streams
// of a pairing share neither key nor ephemeral key; a reply made for
// another stream does not read; the remote wipes its ephemeral private key
// once it has read the desktop's reply, and a reply that does not read
// (anyone on the broker can send one with the stream's tag, even one whose
// ephemeral key is a point of low order) leaves the real one readable.
func TestChannelKeysPerStream(t *testing.T) {
	remote, desktop, _, _ := pair(t)
	u1, u2 := remote.openStream(), remote.openStream()
	if u1.up == u2.up || u1.tag() == u2.tag() {
		t.Fatal("two streams share a key or an ephemeral key")
	}
	d1, err := desktop.answer(u1.hs1)
	if err != nil {
		t.Fatal(err)
	}
	d2, err := desktop.answer(u2.hs1)
	if err != nil {
		t.Fatal(err)
	}
	if d1.down == d2.down || bytes.Equal(d1.hs2[:32], d2.hs2[:32]) {
		t.Fatal("the desktop's two answers share a key or an ephemeral key")
	}
	if _, err := remote.downKey(u1, d2.hs2); !errors.Is(err, ErrTampered) {
		t.Fatalf("another stream's reply: %v, want ErrTampered", err)
	}
	low := bytes.Clone(d1.hs2)
	clear(low[:32]) // an ephemeral key X25519 refuses
	if _, err := remote.downKey(u1, low); !errors.Is(err, ErrTampered) {
		t.Fatalf("a reply with a low-order key: %v, want ErrTampered", err)
	}
	if u1.eph == nil {
		t.Fatal("the ephemeral key went before the desktop's reply was read")
	}
	if down, err := remote.downKey(u1, d1.hs2); err != nil || down != d1.down {
		t.Fatalf("the stream's own reply after two that did not read: %v", err)
	}
	if u1.eph != nil {
		t.Error("the remote keeps its ephemeral private key after the desktop's reply")
	}
	if _, err := remote.downKey(u1, d2.hs2); !errors.Is(err, ErrTampered) {
		t.Fatalf("a second, other reply on the stream: %v, want ErrTampered", err)
	}
	if down, err := remote.downKey(u1, d1.hs2); err != nil || down != d1.down {
		t.Fatalf("the same reply again (every frame carries it): %v", err)
	}
}

// captured is what a broker user kept of the relay's traffic.
type captured struct {
	topic   string
	payload []byte
}

// Someone keeps every frame the broker carried for a call, and later gets
// the pairing's keys: the token (it leaks from the remote host) and the
// desktop's relay.json. With the token alone, nothing of the past opens;
// with the desktop's key too, the question does (it was sealed to a
// desktop that may have been asleep: no handshake could take place), but
// the answer does not. Version 1 of the relay sealed every frame with the
// two static keys: either key opened all of it.
func TestRelayLeakedKeysDoNotOpenRecordedTraffic(t *testing.T) {
	b := startBroker(t)
	fa := &fakeAsker{answer: echo}
	ds := startDesk(t, b, fa)
	tok := ds.pair(t, "box")
	var mu sync.Mutex
	var kept []captured
	c := brokerUser(t, b)
	if st := c.Subscribe("fbr/#", 1, func(_ mqtt.Client, m mqtt.Message) {
		mu.Lock()
		kept = append(kept, captured{m.Topic(), bytes.Clone(m.Payload())})
		mu.Unlock()
	}); !st.WaitTimeout(10*time.Second) || st.Error() != nil {
		t.Fatal(st.Error())
	}
	r := dial(t, b, tok)
	if _, err := r.Ask(context.Background(), question("q-leak", "Rotate the prod-db-7731 credentials?", time.Minute), nil); err != nil {
		t.Fatal(err)
	}
	r.Shutdown()
	waitFor(t, "the capture to hold the desktop's three frames (queued, shown, answer)", func() bool {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, k := range kept {
			if TopicsOf(tok.ID).IsReplyTopic(k.topic) {
				n++
			}
		}
		return n >= 3
	})

	// Later: the keys leak.
	st, err := LoadState(ds.store)
	if err != nil {
		t.Fatal(err)
	}
	p := st.Pairings[0]
	var static [32]byte // what version 1 sealed every frame with
	box.Precompute(&static, (*[32]byte)(&tok.DesktopPublic), (*[32]byte)(&tok.RemotePrivate))
	desktopKeys := newSealer(p.ID, p.RemotePublic, p.DesktopPrivate, toRemote)
	tokenKeys := newSealer(tok.ID, tok.DesktopPublic, tok.RemotePrivate, toDesktop)

	mu.Lock()
	defer mu.Unlock()
	var questions, answers int
	for _, k := range kept {
		f, err := parseFrame(k.payload)
		if err != nil || f.kind != frameSealed {
			continue
		}
		if plain, ok := box.OpenAfterPrecomputation(nil, f.body[nonceSize:], (*[24]byte)(f.body[:nonceSize]), &static); ok {
			t.Fatalf("a frame opens with the static keys alone: %.80q", plain)
		}
		if k.topic == TopicsOf(tok.ID).Questions {
			e, err := desktopKeys.openUp(f)
			if err != nil {
				t.Fatalf("a question frame does not open with the desktop's key: %v", err)
			}
			if e.Kind == kindAsk {
				questions++
				if !strings.Contains(e.Ask.Question.Prompts[0].Markdown, "prod-db-7731") {
					t.Fatalf("opened %+v", e.Ask)
				}
			}
			// The token alone: its holder can only start a handshake of
			// its own, with another ephemeral key.
			if _, err := tokenKeys.upKey(f.raw[len(f.raw)-len(f.body)+nonceSize:][:hsSize]); err == nil {
				t.Fatal("the token reads the desktop's side of a question's handshake")
			}
			continue
		}
		answers++
		// Both keys, and the stream's up key read from its question:
		// still not the ephemeral private key the remote wiped.
		at := len(f.raw) - len(f.body) + nonceSize
		var tag [tagSize]byte
		copy(tag[:], f.raw[at:])
		for _, q := range kept {
			fq, err := parseFrame(q.payload)
			if err != nil || fq.kind != frameSealed || q.topic != TopicsOf(tok.ID).Questions {
				continue
			}
			hs1 := fq.raw[len(fq.raw)-len(fq.body)+nonceSize:][:hsSize]
			if !bytes.Equal(hs1[:tagSize], tag[:]) {
				continue
			}
			up, err := desktopKeys.upKey(hs1)
			if err != nil {
				t.Fatal(err)
			}
			eph := randomKey()
			guess := &upKeys{hs1: hs1, up: up, eph: eph[:]}
			if _, err := tokenKeys.openDown(f, func([tagSize]byte) *upKeys { return guess }); err == nil {
				t.Fatal("an answer frame opens with the leaked keys")
			}
		}
	}
	if questions == 0 || answers == 0 {
		t.Fatalf("the capture holds %d question(s) and %d answer frame(s)", questions, answers)
	}
}

// A question too large for one frame travels in parts, each carrying the
// call's first handshake message: the desktop answers it on the keys of
// that handshake.
func TestRelayLargeQuestionArrivesInParts(t *testing.T) {
	b := startBroker(t, "message_size_limit 300000")
	fa := &fakeAsker{answer: func(ctx context.Context, a wire.Ask, emit func(wire.Event)) (wire.Answer, error) {
		return wire.Answer{QuestionID: a.Question.ID, Status: wire.StatusAnswered, Replies: []wire.Reply{{Text: fmt.Sprint(len(a.Question.Prompts[0].Markdown))}}}, nil
	}}
	ds := startDesk(t, b, fa)
	r := dial(t, b, ds.pair(t, "box"))
	text := strings.Repeat("a long diff line\n", 60000) // 1 MB
	a, err := r.Ask(context.Background(), question("q-big", text, time.Minute), nil)
	if err != nil {
		t.Fatal(err)
	}
	if a.Replies[0].Text != fmt.Sprint(len(text)) {
		t.Fatalf("the desktop got %s bytes of %d", a.Replies[0].Text, len(text))
	}
}
