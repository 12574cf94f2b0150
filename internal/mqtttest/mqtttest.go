// Package mqtttest starts a real mosquitto for the tests of the relay (its
// unit tests in ipc/relay and the end-to-end tests in e2e): a free loopback
// port, a password file, persistence, and a subscriber that sees what anyone
// on the broker sees. Only tests import it.
package mqtttest

import (
	"bufio"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// Broker is a real mosquitto (Debian's package; scripts/deps.sh test
// installs it) on a free loopback port, with a password file holding the
// users Start was given. Persistence is on, so Stop and Start restart it on
// the same port and data with the sessions kept.
type Broker struct {
	Port int
	// TLSPort is a second listener's, with TLS (StartTLS; 0 otherwise);
	// TLS its certificate authority and certificate.
	TLSPort int
	TLS     TLS
	t       testing.TB
	dir     string
	conf    string
	bin     string
	pass    map[string]string // user → password
	cmd     *exec.Cmd
}

// Start starts mosquitto for the test and stops it when the test ends;
// users are the password file's users (each gets a fresh password,
// Password), extraConf lines go at the end of mosquitto.conf. The test is
// skipped, saying so, when mosquitto is not installed (make test and make
// e2e install it, so CI never skips).
func Start(t testing.TB, users []string, extraConf ...string) *Broker {
	t.Helper()
	return start(t, users, false, extraConf)
}

// StartTLS is Start with a second listener, on TLSPort, that speaks TLS
// with a certificate for 127.0.0.1 and localhost signed by a certificate
// authority of the test's (TLS.CAFile: give it to a client as
// SSL_CERT_FILE).
func StartTLS(t testing.TB, users []string, extraConf ...string) *Broker {
	t.Helper()
	return start(t, users, true, extraConf)
}

func start(t testing.TB, users []string, withTLS bool, extraConf []string) *Broker {
	t.Helper()
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		bin = "/usr/sbin/mosquitto" // Debian's, not on a user's PATH
		if _, err := os.Stat(bin); err != nil {
			t.Skip("mosquitto is not installed (Debian: mosquitto mosquitto-clients; scripts/deps.sh test installs them)")
		}
	}
	dir := t.TempDir()
	b := &Broker{t: t, dir: dir, bin: bin, pass: map[string]string{}}
	pw := filepath.Join(dir, "passwd")
	for i, u := range users {
		b.pass[u] = u + "-" + randomHex(t)
		args := []string{"-b", pw, u, b.pass[u]}
		if i == 0 {
			args = []string{"-b", "-c", pw, u, b.pass[u]}
		}
		if out, err := exec.Command("mosquitto_passwd", args...).CombinedOutput(); err != nil {
			t.Fatalf("mosquitto_passwd: %v: %s", err, out)
		}
	}
	b.Port = FreePort(t)
	var tlsConf string
	if withTLS {
		b.TLSPort = FreePort(t)
		b.TLS = NewTLS(t, dir, "127.0.0.1", "localhost")
		tlsConf = fmt.Sprintf("listener %d 127.0.0.1\ncertfile %s\nkeyfile %s\n", b.TLSPort, b.TLS.CertFile, b.TLS.KeyFile)
	}
	// Run as root, mosquitto drops to the user "mosquitto", who cannot
	// read the test's files: keep it as whoever runs the test.
	me, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	b.conf = filepath.Join(dir, "mosquitto.conf")
	conf := fmt.Sprintf("user %s\nlistener %d 127.0.0.1\n%sallow_anonymous false\npassword_file %s\npersistence true\npersistence_location %s/\nlog_dest stderr\n%s\n",
		me.Username, b.Port, tlsConf, pw, dir, strings.Join(extraConf, "\n"))
	if err := os.WriteFile(b.conf, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	b.Start()
	t.Cleanup(b.Stop)
	return b
}

// FreePort is a TCP port free on 127.0.0.1 a moment ago.
func FreePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// randomHex is 8 random bytes in hex: a password no other test shares.
func randomHex(t testing.TB) string {
	var p [8]byte
	if _, err := rand.Read(p[:]); err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(p[:])
}

// Password is user's password (one of Start's users).
func (b *Broker) Password(user string) string {
	p, ok := b.pass[user]
	if !ok {
		b.t.Fatalf("mqtttest: the broker has no user %q", user)
	}
	return p
}

// URL is the broker's URL with userinfo ("desk", or "desk:password"), as
// the relay's settings take it; `feedback relay pair --broker` refuses a
// password in it (give it on standard input).
func (b *Broker) URL(userinfo string) string {
	return fmt.Sprintf("mqtt://%s@127.0.0.1:%d", userinfo, b.Port)
}

// TLSURL is URL for the TLS listener (StartTLS): mqtts://.
func (b *Broker) TLSURL(userinfo string) string {
	if b.TLSPort == 0 {
		b.t.Fatal("mqtttest: the broker has no TLS listener (StartTLS)")
	}
	return fmt.Sprintf("mqtts://%s@127.0.0.1:%d", userinfo, b.TLSPort)
}

// Start starts mosquitto (again, after Stop) and waits until it accepts
// connections; its output goes to mosquitto.log in its directory.
func (b *Broker) Start() {
	b.t.Helper()
	b.cmd = exec.Command(b.bin, "-c", b.conf)
	log, _ := os.OpenFile(filepath.Join(b.dir, "mosquitto.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	b.cmd.Stdout, b.cmd.Stderr = log, log
	if err := b.cmd.Start(); err != nil {
		b.t.Fatal(err)
	}
	deadline := time.Now().Add(10 * time.Second)
	for {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", b.Port))
		if err == nil {
			c.Close()
			return
		}
		if time.Now().After(deadline) {
			b.t.Fatalf("mosquitto did not listen on %d within 10s", b.Port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop stops mosquitto (SIGINT: it saves its sessions) and waits for it;
// it does nothing when mosquitto is not running.
func (b *Broker) Stop() {
	if b.cmd == nil || b.cmd.Process == nil {
		return
	}
	b.cmd.Process.Signal(os.Interrupt)
	b.cmd.Wait()
	b.cmd = nil
}

// Capture runs `mosquitto_sub -t '#' -v` as user (what anyone on the
// broker sees) until the test ends, once it has seen a marker published
// after it started; the returned func gives what it printed so far.
func (b *Broker) Capture(t testing.TB, user string) func() string {
	t.Helper()
	auth := []string{"-h", "127.0.0.1", "-p", fmt.Sprint(b.Port), "-u", user, "-P", b.Password(user)}
	cmd := exec.Command("mosquitto_sub", append(auth, "-t", "#", "-v")...)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var buf strings.Builder
	done := make(chan struct{})
	go func() {
		defer close(done)
		r := bufio.NewReader(out)
		chunk := make([]byte, 32<<10)
		for {
			n, err := r.Read(chunk)
			mu.Lock()
			buf.Write(chunk[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait(); <-done })
	got := func() string { mu.Lock(); defer mu.Unlock(); return buf.String() }
	// mosquitto_sub says nothing once subscribed: publish a marker until it shows.
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(got(), "capture-ready") {
		if time.Now().After(deadline) {
			t.Fatal("mosquitto_sub never saw the marker within 10s")
		}
		exec.Command("mosquitto_pub", append(auth, "-t", "test/marker", "-m", "capture-ready")...).Run()
		time.Sleep(100 * time.Millisecond)
	}
	return got
}
