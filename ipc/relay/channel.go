package relay

import (
	"bytes"
	"crypto/rand"
	"sync"

	"github.com/flynn/noise"
	"golang.org/x/crypto/chacha20poly1305"
)

// The channel. Every stream (a call, or a one-frame stream: a will, a
// "back") has keys of its own, agreed by a Noise KK handshake
// (Noise_KK_25519_ChaChaPoly_SHA256, github.com/flynn/noise) between the
// pairing's static keys, which each side knows of the other since the
// pairing:
//
//	-> e, es, ss   hs1: the remote's first frame of the stream, carrying up
//	<- e, ee, se   hs2: the desktop's first frame back, carrying down
//
// The remote makes hs1 alone (the desktop may be asleep: the broker keeps
// the question), with a fresh ephemeral key e and a random key up as its
// payload; each frame of the stream carries hs1 and is sealed under up.
// The desktop answers with hs2, a fresh ephemeral key of its own and a
// random key down as its payload; each of its frames carries hs2 and is
// sealed under down. Both ephemeral private keys are forgotten as soon as
// hs2 is written (desktop) and read (remote).
//
// What that gives, by Noise's own analysis of KK's payloads: up is sealed
// to the desktop's static key and an ephemeral one (es, ss): a token that
// leaks later opens no question of the past, a desktop key that leaks
// does. down is sealed with both ephemeral keys (ee): once a call has its
// answer, neither key, nor both, opens what the desktop sent (the user's
// replies, images, drafts). A first message can be replayed: the guard and
// the record of questions taken (seen.go) refuse copies. Frames themselves
// are XChaCha20-Poly1305 (golang.org/x/crypto) under up or down with a
// random nonce, the frame's clear parts (header, reply topic, handshake
// message) authenticated with it.

// noiseSuite is the handshake's cipher suite.
var noiseSuite = noise.NewCipherSuite(noise.DH25519, noise.CipherChaChaPoly, noise.HashSHA256)

// hsSize is the size of hs1 and of hs2: an ephemeral public key, and a
// 32-byte key sealed (with its tag).
const hsSize = 32 + 32 + 16

// tagSize is the size of the stream's name on the desktop's frames: the
// remote's ephemeral public key (hs1's first bytes).
const tagSize = 32

// handshake starts the stream handshake of the pairing of s, as its
// initiator (the remote) or responder; rng gives the ephemeral key.
func (s *sealer) handshake(initiator bool, rng *bytes.Reader) (*noise.HandshakeState, error) {
	c := noise.Config{CipherSuite: noiseSuite, Pattern: noise.HandshakeKK, Initiator: initiator,
		Prologue: append([]byte("feedback relay v2\x00"), s.id[:]...), StaticKeypair: s.static, PeerStatic: s.peer[:]}
	if rng != nil {
		c.Random = rng
	}
	return noise.NewHandshakeState(c)
}

// upKeys are the keys of a stream the remote opens: hs1, which each of its
// frames carries, and up, which seals them. Until the desktop's hs2 is
// read, the ephemeral private key is kept to read it; then it is wiped
// and down kept.
type upKeys struct {
	hs1 []byte
	up  Key

	mu   sync.Mutex // guards eph, hs2 and down
	eph  []byte     // nil once hs2 is read
	hs2  []byte
	down Key
}

// openStream makes the keys of a new stream of the remote.
func (s *sealer) openStream() *upKeys {
	u := &upKeys{up: randomKey(), eph: make([]byte, 32)}
	rand.Read(u.eph)
	hs, err := s.handshake(true, bytes.NewReader(u.eph))
	if err == nil {
		u.hs1, _, _, err = hs.WriteMessage(nil, u.up[:])
	}
	if err != nil {
		panic(err) // only for a key of the wrong size, which the pairing never makes
	}
	return u
}

// tag is the stream's name on the desktop's frames.
func (u *upKeys) tag() [tagSize]byte { return [tagSize]byte(u.hs1[:tagSize]) }

// downKey reads the desktop's hs2 of the stream, the first time: the key
// its frames are sealed under. A later hs2 must be the same. A frame
// whose hs2 does not read (anyone on the broker can send one, the tag is
// in clear) changes nothing: each try starts the handshake again from the
// ephemeral key kept.
func (s *sealer) downKey(u *upKeys, hs2 []byte) (Key, error) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.hs2 != nil {
		if !bytes.Equal(u.hs2, hs2) {
			return Key{}, ErrTampered
		}
		return u.down, nil
	}
	hs, err := s.handshake(true, bytes.NewReader(u.eph))
	if err != nil {
		return Key{}, ErrTampered
	}
	if hs1, _, _, err := hs.WriteMessage(nil, u.up[:]); err != nil || !bytes.Equal(hs1, u.hs1) {
		return Key{}, ErrTampered
	}
	down, _, _, err := hs.ReadMessage(nil, hs2)
	if err != nil || len(down) != len(u.down) {
		return Key{}, ErrTampered
	}
	copy(u.down[:], down)
	u.hs2 = bytes.Clone(hs2)
	clear(u.eph)
	u.eph = nil
	return u.down, nil
}

// downKeys are the keys of a stream the desktop answers: the stream's tag,
// hs2, which each of its frames carries, and down, which seals them.
type downKeys struct {
	tag  [tagSize]byte
	hs2  []byte
	down Key
}

// upKey reads a remote stream's hs1: the key its frames are sealed under.
// It reads it afresh each time: a frame costs two X25519 operations.
func (s *sealer) upKey(hs1 []byte) (Key, error) {
	hs, err := s.handshake(false, nil)
	if err != nil {
		return Key{}, ErrTampered
	}
	up, _, _, err := hs.ReadMessage(nil, hs1)
	if err != nil || len(up) != len(Key{}) {
		return Key{}, ErrTampered
	}
	return Key(up), nil
}

// answer makes the desktop's keys of the remote stream whose hs1 it is;
// the desktop's ephemeral private key goes with the handshake state.
func (s *sealer) answer(hs1 []byte) (*downKeys, error) {
	hs, err := s.handshake(false, nil)
	if err != nil {
		return nil, ErrTampered
	}
	if up, _, _, err := hs.ReadMessage(nil, hs1); err != nil || len(up) != len(Key{}) {
		return nil, ErrTampered
	}
	d := &downKeys{tag: [tagSize]byte(hs1[:tagSize]), down: randomKey()}
	if d.hs2, _, _, err = hs.WriteMessage(nil, d.down[:]); err != nil {
		return nil, ErrTampered
	}
	return d, nil
}

// sealFrame seals plain under key with a random nonce: the frame's header
// (reply in clear), the nonce, clear (tag and handshake message, as this
// direction carries them), and the sealed plain, all of the clear part
// authenticated with it.
func sealFrame(key Key, clearPart []byte, plain []byte, reply string) []byte {
	var nonce [nonceSize]byte
	rand.Read(nonce[:])
	out := make([]byte, 0, 3+len(reply)+nonceSize+len(clearPart)+len(plain)+chacha20poly1305.Overhead)
	out = append(out, frameVersion, frameSealed, byte(len(reply)))
	out = append(out, reply...)
	out = append(out, nonce[:]...)
	out = append(out, clearPart...)
	aead, _ := chacha20poly1305.NewX(key[:])
	return aead.Seal(out, nonce[:], plain, bytes.Clone(out))
}

// openFrame opens the sealed part of raw, whose clear part ends at
// sealedAt, under key.
func openFrame(key Key, raw []byte, sealedAt int) ([]byte, error) {
	aead, _ := chacha20poly1305.NewX(key[:])
	at := 3 + int(raw[2])
	plain, err := aead.Open(nil, raw[at:at+nonceSize], raw[sealedAt:], raw[:sealedAt])
	if err != nil {
		return nil, ErrTampered
	}
	return plain, nil
}

// sealUp seals a frame of the remote's stream u.
func (u *upKeys) sealUp(plain []byte, reply string) []byte {
	return sealFrame(u.up, u.hs1, plain, reply)
}

// sealDown seals a frame of the desktop's answer d.
func (d *downKeys) sealDown(plain []byte, reply string) []byte {
	return sealFrame(d.down, append(d.tag[:], d.hs2...), plain, reply)
}
