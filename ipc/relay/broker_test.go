package relay

import (
	"bufio"
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

// testBroker is a real mosquitto on a free port with a password file and
// persistence, as the e2e tests start it. Stop and Start restart it on the
// same port and data.
type testBroker struct {
	t          *testing.T
	dir, conf  string
	Port       int
	User, Pass string
	cmd        *exec.Cmd
}

// startBroker starts mosquitto; the test is skipped, saying why, when the
// binary is missing (make test installs it).
func startBroker(t *testing.T, extra ...string) *testBroker {
	t.Helper()
	bin := "/usr/sbin/mosquitto"
	if _, err := os.Stat(bin); err != nil {
		if bin, err = exec.LookPath("mosquitto"); err != nil {
			t.Skip("mosquitto is not installed (apt-get install mosquitto mosquitto-clients; make test does)")
		}
	}
	dir := t.TempDir()
	b := &testBroker{t: t, dir: dir, User: "desk", Pass: "pw-" + newStreamID()[:8]}
	pwfile := filepath.Join(dir, "passwd")
	if out, err := exec.Command("mosquitto_passwd", "-b", "-c", pwfile, b.User, b.Pass).CombinedOutput(); err != nil {
		t.Fatalf("mosquitto_passwd: %v: %s", err, out)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b.Port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	b.conf = filepath.Join(dir, "mosquitto.conf")
	// Run as root, mosquitto drops to the user "mosquitto", who cannot
	// read the test's files: keep it as whoever runs the test.
	me, _ := user.Current()
	conf := fmt.Sprintf("user %s\nlistener %d 127.0.0.1\nallow_anonymous false\npassword_file %s\npersistence true\npersistence_location %s/\nautosave_interval 1\nlog_dest stderr\n%s\n",
		me.Username, b.Port, pwfile, dir, strings.Join(extra, "\n"))
	if err := os.WriteFile(b.conf, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	b.bin(bin)
	b.Start()
	t.Cleanup(b.Stop)
	return b
}

var mosquittoBin string

func (b *testBroker) bin(p string) { mosquittoBin = p }

// URL is the broker's URL with its user, without the password.
func (b *testBroker) URL() string { return fmt.Sprintf("mqtt://%s@127.0.0.1:%d", b.User, b.Port) }

// Start starts mosquitto and waits until it accepts connections.
func (b *testBroker) Start() {
	b.t.Helper()
	b.cmd = exec.Command(mosquittoBin, "-c", b.conf)
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
			b.t.Fatalf("mosquitto did not listen on %d", b.Port)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Stop stops mosquitto (SIGTERM: it saves its sessions) and waits for it.
func (b *testBroker) Stop() {
	if b.cmd == nil || b.cmd.Process == nil {
		return
	}
	b.cmd.Process.Signal(os.Interrupt)
	b.cmd.Wait()
	b.cmd = nil
}

// capture runs mosquitto_sub -t '#' -v as the broker's user (what anyone
// on the broker sees) until the test ends; the returned func gives what it
// printed so far.
func (b *testBroker) capture(t *testing.T) func() string {
	t.Helper()
	cmd := exec.Command("mosquitto_sub", "-h", "127.0.0.1", "-p", fmt.Sprint(b.Port), "-u", b.User, "-P", b.Pass, "-t", "#", "-v")
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
			t.Fatal("mosquitto_sub never saw the marker")
		}
		exec.Command("mosquitto_pub", "-h", "127.0.0.1", "-p", fmt.Sprint(b.Port), "-u", b.User, "-P", b.Pass, "-t", "test/marker", "-m", "capture-ready").Run()
		time.Sleep(100 * time.Millisecond)
	}
	return got
}
