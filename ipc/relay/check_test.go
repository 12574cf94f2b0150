package relay

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"feedback/internal/mqtttest"
)

// CheckBroker logs in as the desktop will and says what to fix when it
// cannot: a TLS URL for a plain listener, a wrong password, a port where
// nothing listens.
func TestCheckBroker(t *testing.T) {
	b := mqtttest.StartTLS(t, []string{"desk"})
	acl := filepath.Join(t.TempDir(), "acl")
	if err := os.WriteFile(acl, []byte("user desk\ntopic readwrite other/#\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	aclBroker := startBroker(t, "acl_file "+acl)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := l.Addr().(*net.TCPAddr).Port
	l.Close()
	for _, tc := range []struct {
		name, url, password, want string
	}{
		{"good", b.URL("desk"), b.Password("desk"), ""},
		{"TLS against a plain listener", strings.Replace(b.URL("desk"), "mqtt://", "mqtts://", 1), b.Password("desk"), "does not speak TLS"},
		{"plain against a TLS listener", strings.Replace(b.TLSURL("desk"), "mqtts://", "mqtt://", 1), b.Password("desk"), "TLS listener (then mqtts://)"},
		{"a certificate not trusted here", b.TLSURL("desk"), b.Password("desk"), "not trusted"},
		{"wrong password", b.URL("desk"), "wrong", `refused user "desk"`}, // and ErrLoginRefused, below
		{"no user", fmt.Sprintf("mqtt://127.0.0.1:%d", b.Port), "", "wants a user"},
		{"an ACL without fbr/#", aclBroker.URL("desk"), aclBroker.Password("desk"), "ACL"},
		{"nothing listens", fmt.Sprintf("mqtt://desk@127.0.0.1:%d", closed), "x", "nothing listens"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			err := CheckBroker(context.Background(), tc.url, tc.password, 5*time.Second)
			switch {
			case tc.want == "" && err != nil:
				t.Fatalf("CheckBroker: %v", err)
			case tc.want != "" && (!errors.Is(err, ErrBrokerDown) || !strings.Contains(err.Error(), tc.want)):
				t.Fatalf("CheckBroker: %v; want ErrBrokerDown saying %q", err, tc.want)
			}
			if login := strings.Contains(tc.want, "refused user") || strings.Contains(tc.want, "wants a user"); errors.Is(err, ErrLoginRefused) != login {
				t.Fatalf("CheckBroker: %v; matches ErrLoginRefused: %v, want %v", err, !login, login)
			}
		})
	}
}

// Ping tells a live pairing (the desktop answers, sealed), a revoked one
// (ErrRevoked) and a desktop that is away (ErrNoAnswer) apart, and asks
// the app nothing.
func TestRelayPing(t *testing.T) {
	b := startBroker(t)
	fa := &fakeAsker{answer: echo}
	ds := startDesk(t, b, fa)
	tok := ds.pair(t, "box")
	r := dial(t, b, tok)
	if err := r.Ping(context.Background(), 5*time.Second); err != nil {
		t.Fatalf("a live pairing: %v", err)
	}
	// Another secret: the desktop's answer does not open, its refusal says why.
	forged := tok
	forged.RemotePrivate[0] ^= 0x20 // not a bit X25519 clamps away
	if err := dial(t, b, forged).Ping(context.Background(), 5*time.Second); err == nil || errors.Is(err, ErrNoAnswer) || !strings.Contains(err.Error(), "do not open") {
		t.Fatalf("a token with another secret: %v", err)
	}
	ds.revoke(t, "box")
	if err := r.Ping(context.Background(), 5*time.Second); !errors.Is(err, ErrRevoked) || !strings.Contains(err.Error(), "pair again") {
		t.Fatalf("a revoked pairing: %v; want ErrRevoked saying to pair again", err)
	}
	other := ds.pair(t, "other")
	ds.stop()
	start := time.Now()
	if err := dial(t, b, other).Ping(context.Background(), time.Second); !errors.Is(err, ErrNoAnswer) {
		t.Fatalf("the desktop away: %v; want ErrNoAnswer", err)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("the ping waited %v", d)
	}
	if len(fa.asked) != 0 {
		t.Fatalf("a ping reached the inbox: %+v", fa.asked)
	}
}
