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
		{"wrong password", b.URL("desk"), "wrong", `refused user "desk"`},
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
			t.Log(err)
		})
	}
}
