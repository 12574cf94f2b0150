//go:build unix

package launch

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"feedback/ipc"
	"feedback/ipc/wire"
)

// answerAll answers every question at once.
var answerAll = askerFunc(func(_ context.Context, a wire.Ask, _ func(wire.Event)) (wire.Answer, error) {
	return wire.Answer{QuestionID: a.Question.ID, Status: wire.StatusAnswered}, nil
})

// socketPath returns a socket path in a fresh private directory, short
// enough for a Unix socket (t.TempDir() can be too long).
func socketPath(t *testing.T) string {
	t.Helper()
	dir, err := os.MkdirTemp("", "fbl")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	return filepath.Join(dir, "s.sock")
}

// serve serves an app that answers everything at path until the test ends.
func serve(t *testing.T, path string) {
	t.Helper()
	l, err := ipc.Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	s := ipc.NewServer(answerAll, ipc.ServerOptions{})
	done := make(chan error, 1)
	go func() { done <- s.Serve(l) }()
	t.Cleanup(func() {
		s.Shutdown(context.Background())
		<-done
	})
}

func TestConnectAlreadyRunning(t *testing.T) {
	path := socketPath(t)
	serve(t, path)
	start := func() error { t.Error("start called for a running app"); return nil }
	if _, err := connectAt(context.Background(), path, start, time.Second); err != nil {
		t.Fatal(err)
	}
}

// serveLater has s serve at path a little later, as a real app started
// in another process comes up; Serve's result goes to served.
func serveLater(path string, s *ipc.Server, served chan<- error) {
	time.AfterFunc(100*time.Millisecond, func() {
		l, err := ipc.Listen(path)
		if err != nil {
			served <- err
			return
		}
		served <- s.Serve(l)
	})
}

func TestConnectStartsApp(t *testing.T) {
	path := socketPath(t)
	s := ipc.NewServer(answerAll, ipc.ServerOptions{})
	served := make(chan error, 1)
	t.Cleanup(func() {
		s.Shutdown(context.Background())
		<-served
	})
	var starts atomic.Int32
	start := func() error {
		starts.Add(1)
		serveLater(path, s, served)
		return nil
	}
	c, err := connectAt(context.Background(), path, start, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := starts.Load(); n != 1 {
		t.Errorf("start called %d times, want 1", n)
	}
	q := wire.Ask{Question: wire.Question{ID: "q", Prompts: []wire.Prompt{{Markdown: "Proceed?"}}}}
	if _, err := c.Ask(context.Background(), q, nil); err != nil {
		t.Errorf("Ask after Connect: %v", err)
	}
}

func TestConnectFails(t *testing.T) {
	errStart := errors.New("no such program")
	tests := []struct {
		name    string
		start   func() error
		wantErr error
	}{
		{"no start", nil, ErrNotRunning},
		{"start fails", func() error { return errStart }, errStart},
		{"app never comes up", func() error { return nil }, ErrNotRunning},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := socketPath(t)
			const wait = 200 * time.Millisecond
			begin := time.Now()
			_, err := connectAt(context.Background(), path, tt.start, wait)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("connectAt() error = %v, want %v", err, tt.wantErr)
			}
			if d := time.Since(begin); d > wait+5*time.Second {
				t.Errorf("connectAt took %v with wait %v", d, wait)
			}
		})
	}
}

func TestConnectContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	start := func() error { cancel(); return nil }
	_, err := connectAt(ctx, socketPath(t), start, time.Hour)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("connectAt() error = %v, want context.Canceled", err)
	}
}

func TestStartDetached(t *testing.T) {
	if _, err := os.Stat("/proc/self/stat"); err != nil {
		t.Skip("needs /proc")
	}
	logPath := filepath.Join(filepath.Dir(socketPath(t)), "logs", "app.log")
	if err := os.MkdirAll(filepath.Dir(logPath), 0o700); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(logPath, []byte("earlier\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	script := `echo out; echo err >&2; read -r line && echo "stdin: $line"; ` +
		`echo "session $(cut -d' ' -f6 /proc/$$/stat) pid $$"; echo "env $FEEDBACK_TEST_ENV"; echo done`
	t.Setenv("FEEDBACK_TEST_ENV", "inherited")
	if err := StartDetached("/bin/sh", []string{"-c", script}, logPath); err != nil {
		t.Fatal(err)
	}

	var log string // the child is another process: poll its log, with a bound
	for deadline := time.Now().Add(10 * time.Second); !strings.HasSuffix(log, "done\n"); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the child did not finish; log so far: %q", log)
		}
		b, _ := os.ReadFile(logPath)
		log = string(b)
	}
	for _, want := range []string{"earlier\nout\n", "err\n", "env inherited\n"} {
		if !strings.Contains(log, want) {
			t.Errorf("log %q lacks %q", log, want)
		}
	}
	if strings.Contains(log, "stdin:") {
		t.Errorf("stdin was not empty: %q", log)
	}
	var sid, pid int
	for _, line := range strings.Split(log, "\n") {
		if strings.HasPrefix(line, "session ") {
			fmt.Sscanf(line, "session %d pid %d", &sid, &pid)
		}
	}
	if sid == 0 || sid != pid {
		t.Errorf("child is not a session leader (session %d, pid %d)", sid, pid)
	}
}

// An app of another protocol version (one left running across an upgrade)
// is refused at once with a mismatch that names both versions: nothing is
// started, nothing waited for, no question sent.
func TestConnectAtRefusesAnotherProtocol(t *testing.T) {
	path := socketPath(t)
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	var asked atomic.Int32
	hs := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		asked.Add(1)
		w.Header().Set(ipc.HeaderProtocol, "1")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"code":"protocol","message":"no such path: `+r.URL.Path+`"}`)
	})}
	go hs.Serve(l)
	t.Cleanup(func() { hs.Close() })
	start := func() error { t.Error("start called for a running app of another protocol"); return nil }
	_, err = connectAt(context.Background(), path, start, time.Minute)
	if !errors.Is(err, ipc.ErrProtocolMismatch) || !strings.Contains(err.Error(), "speaks protocol 1") {
		t.Fatalf("connectAt = %v, want ErrProtocolMismatch naming protocol 1", err)
	}
	if n := asked.Load(); n != 1 {
		t.Errorf("%d requests reached the app, want the one hello", n)
	}
}

// Greet(true), the shim's greeting with ui_prewarm, starts the app when
// none runs and greets it; with a call connecting at the same moment the
// app is started once. Greet(false) starts nothing.
func TestGreetStartsTheApp(t *testing.T) {
	path := socketPath(t)
	t.Setenv(ipc.EnvSocket, path)
	greeted := make(chan struct{}, 4)
	s := ipc.NewServer(answerAll, ipc.ServerOptions{OnGreet: func() { greeted <- struct{}{} }})
	served := make(chan error, 1)
	var starts atomic.Int32
	saved := Starter
	t.Cleanup(func() { Starter = saved })
	Starter = func() error {
		if starts.Add(1) == 1 {
			serveLater(path, s, served)
		}
		return nil
	}

	Greet(false)
	if n := starts.Load(); n != 0 {
		t.Fatalf("Greet(false) started the app %d times", n)
	}
	called := make(chan error, 1)
	go func() {
		time.Sleep(10 * time.Millisecond) // the first call, while the greeting waits for the app
		_, err := Connect(context.Background())
		called <- err
	}()
	Greet(true)
	if err := <-called; err != nil {
		t.Fatalf("the call's Connect: %v", err)
	}
	t.Cleanup(func() {
		s.Shutdown(context.Background())
		<-served
	})
	select {
	case <-greeted:
	case <-time.After(5 * time.Second):
		t.Fatal("the started app was not greeted")
	}
	if n := starts.Load(); n != 1 {
		t.Errorf("the app was started %d times, want once", n)
	}
}

// A started app that exits without answering (it found another instance,
// or could not listen where the session record said: a stale record) is
// found out at once, not after the whole wait for it.
func TestConnectStartedAppExits(t *testing.T) {
	path := socketPath(t)
	logPath := filepath.Join(t.TempDir(), "app.log")
	start := func() error {
		return StartDetached("/bin/sh", []string{"-c", "echo 'listening on /gone/feedback.sock: no such directory' >&2; exit 1"}, logPath)
	}
	const wait = 15 * time.Second
	begin := time.Now()
	_, err := connectAt(context.Background(), path, start, wait)
	if d := time.Since(begin); d > 3*time.Second {
		t.Errorf("connectAt took %v for an app that exited at once (wait %v)", d, wait)
	}
	if !errors.Is(err, ErrNotRunning) || !strings.Contains(err.Error(), "exited") {
		t.Errorf("connectAt() error = %v, want ErrNotRunning saying the started app exited", err)
	}
}
