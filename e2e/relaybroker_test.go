package e2e

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

// mqttBroker is a real mosquitto (Debian's package; scripts/deps.sh test
// installs it) on a free loopback port, with a password file holding two
// users: the desktop's and the remote host's. Persistence is on, so a
// restart keeps the sessions.
type mqttBroker struct {
	dir, conf, bin string
	port           int
	deskPass       string // user "desk"
	remotePass     string // user "remote"
	cmd            *exec.Cmd
}

// startMQTTBroker starts mosquitto for the test; it skips, saying so, when
// the binary is missing (make e2e installs it, so CI never skips).
func startMQTTBroker(t *testing.T, extraConf ...string) *mqttBroker {
	t.Helper()
	bin, err := exec.LookPath("mosquitto")
	if err != nil {
		bin = "/usr/sbin/mosquitto"
		if _, err := os.Stat(bin); err != nil {
			t.Skip("mosquitto is not installed (Debian: mosquitto mosquitto-clients; scripts/deps.sh test installs them)")
		}
	}
	dir := t.TempDir()
	b := &mqttBroker{dir: dir, bin: bin, deskPass: "d-" + fmt.Sprint(time.Now().UnixNano()), remotePass: "r-" + fmt.Sprint(time.Now().UnixNano()%99991)}
	pw := filepath.Join(dir, "passwd")
	for i, u := range [][2]string{{"desk", b.deskPass}, {"remote", b.remotePass}} {
		args := []string{"-b", pw, u[0], u[1]}
		if i == 0 {
			args = []string{"-b", "-c", pw, u[0], u[1]}
		}
		if out, err := exec.Command("mosquitto_passwd", args...).CombinedOutput(); err != nil {
			t.Fatalf("mosquitto_passwd: %v: %s", err, out)
		}
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	b.port = l.Addr().(*net.TCPAddr).Port
	l.Close()
	me, _ := user.Current() // run as root, mosquitto would become "mosquitto", who cannot read these files
	b.conf = filepath.Join(dir, "mosquitto.conf")
	conf := fmt.Sprintf("user %s\nlistener %d 127.0.0.1\nallow_anonymous false\npassword_file %s\npersistence true\npersistence_location %s/\nlog_dest stderr\n%s\n",
		me.Username, b.port, pw, dir, strings.Join(extraConf, "\n"))
	if err := os.WriteFile(b.conf, []byte(conf), 0o600); err != nil {
		t.Fatal(err)
	}
	b.start(t)
	t.Cleanup(b.stop)
	return b
}

func (b *mqttBroker) start(t *testing.T) {
	t.Helper()
	b.cmd = exec.Command(b.bin, "-c", b.conf)
	log, _ := os.OpenFile(filepath.Join(b.dir, "mosquitto.log"), os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o600)
	b.cmd.Stdout, b.cmd.Stderr = log, log
	if err := b.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitFor(t, "mosquitto to listen", 10*time.Second, func() bool {
		c, err := net.Dial("tcp", fmt.Sprintf("127.0.0.1:%d", b.port))
		if err == nil {
			c.Close()
		}
		return err == nil
	})
}

func (b *mqttBroker) stop() {
	if b.cmd != nil && b.cmd.Process != nil {
		b.cmd.Process.Signal(os.Interrupt)
		b.cmd.Wait()
		b.cmd = nil
	}
}

// deskURL is the URL `feedback relay pair --broker` takes, password included.
func (b *mqttBroker) deskURL() string {
	return fmt.Sprintf("mqtt://desk:%s@127.0.0.1:%d", b.deskPass, b.port)
}

// capture runs `mosquitto_sub -t '#' -v` (what anyone on the broker
// sees) until the test ends, once it has seen a marker published after
// it started; the func returns what it printed so far.
func (b *mqttBroker) capture(t *testing.T) func() string {
	t.Helper()
	auth := []string{"-h", "127.0.0.1", "-p", fmt.Sprint(b.port), "-u", "desk", "-P", b.deskPass}
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
	waitFor(t, "mosquitto_sub to see a marker", 10*time.Second, func() bool {
		exec.Command("mosquitto_pub", append(auth, "-t", "test/marker", "-m", "capture-ready")...).Run()
		return strings.Contains(got(), "capture-ready")
	})
	return got
}
