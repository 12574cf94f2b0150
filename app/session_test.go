//go:build linux

package app

import (
	"bufio"
	"io"
	"log/slog"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/godbus/dbus/v5"
)

// A session bus that drops the app's first connection in its handshake (a
// bus busy as the session starts: "connection reset by peer") is watched
// all the same: the app connects again, and when the bus then goes away it
// hears of it. (It used to give up at the first failure and never noticed
// the session's end.)
func TestWatchBusSurvivesADroppedFirstConnection(t *testing.T) {
	daemon, err := exec.LookPath("dbus-daemon")
	if err != nil {
		t.Skip("needs dbus-daemon")
	}
	dir, err := os.MkdirTemp("", "fbbus") // short: socket paths
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(dir)
	real := filepath.Join(dir, "bus")
	bus := exec.Command(daemon, "--session", "--nofork", "--nopidfile", "--print-address", "--address=unix:path="+real)
	out, _ := bus.StdoutPipe()
	if err := bus.Start(); err != nil {
		t.Fatal(err)
	}
	defer bus.Process.Kill()
	if _, err := bufio.NewReader(out).ReadString('\n'); err != nil { // listening once it prints its address
		t.Fatalf("dbus-daemon said no address: %v", err)
	}

	// The address the app is given: a proxy that drops the first connection
	// and passes the others to the bus.
	front := filepath.Join(dir, "front")
	l, err := net.Listen("unix", front)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	var conns atomic.Int32
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			if conns.Add(1) == 1 {
				c.Close()
				continue
			}
			go func() {
				b, err := net.Dial("unix", real)
				if err != nil {
					c.Close()
					return
				}
				go func() { io.Copy(b, c); b.Close() }()
				io.Copy(c, b)
				c.Close()
			}()
		}
	}()
	t.Setenv("DBUS_SESSION_BUS_ADDRESS", "unix:path="+front)

	logged := &lockedWriter{}
	gone := make(chan error, 1)
	stop := watchBus(slog.New(slog.NewTextHandler(logged, nil)), func(err error) { gone <- err })
	defer stop()
	for deadline := time.Now().Add(10 * time.Second); conns.Load() < 2; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the app did not connect again after its first connection was dropped; it logged: %s", logged.String())
		}
	}
	// The app is on the bus (a second unique name beside this test's):
	// the bus goes away.
	me, err := dbus.Connect("unix:path=" + real)
	if err != nil {
		t.Fatal(err)
	}
	defer me.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		var names []string
		me.BusObject().Call("org.freedesktop.DBus.ListNames", 0).Store(&names)
		unique := 0
		for _, n := range names {
			if strings.HasPrefix(n, ":") {
				unique++
			}
		}
		if unique >= 2 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("the app is not on the bus; it logged: %s", logged.String())
		}
	}
	bus.Process.Kill()
	select {
	case err := <-gone:
		if err == nil || !strings.Contains(err.Error(), "disconnected") {
			t.Errorf("gone(%v)", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatalf("the bus went away unnoticed; the app logged: %s", logged.String())
	}
}

// lockedWriter is a log the watcher's goroutine writes as the test reads.
type lockedWriter struct {
	mu sync.Mutex
	b  strings.Builder
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedWriter) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}
