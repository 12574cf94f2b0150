package ipc

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

func TestConnectAlreadyRunning(t *testing.T) {
	c := startServer(t, answerAll, ServerOptions{})
	start := func() error { t.Error("start called for a running app"); return nil }
	if _, err := Connect(context.Background(), c.Path, start, time.Second); err != nil {
		t.Fatal(err)
	}
}

func TestConnectStartsApp(t *testing.T) {
	path := socketPath(t)
	s := NewServer(answerAll, ServerOptions{})
	served := make(chan error, 1)
	t.Cleanup(func() {
		s.Shutdown(context.Background())
		<-served
	})
	var starts atomic.Int32
	start := func() error {
		starts.Add(1)
		// Like a real app: up a little later, in another "process".
		time.AfterFunc(100*time.Millisecond, func() {
			l, err := Listen(path)
			if err != nil {
				served <- err
				return
			}
			served <- s.Serve(l)
		})
		return nil
	}
	c, err := Connect(context.Background(), path, start, 10*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if n := starts.Load(); n != 1 {
		t.Errorf("start called %d times, want 1", n)
	}
	if _, err := c.Ask(context.Background(), question("q"), nil); err != nil {
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
			_, err := Connect(context.Background(), path, tt.start, wait)
			if !errors.Is(err, tt.wantErr) {
				t.Errorf("Connect() error = %v, want %v", err, tt.wantErr)
			}
			if d := time.Since(begin); d > wait+5*time.Second {
				t.Errorf("Connect took %v with wait %v", d, wait)
			}
		})
	}
}

func TestConnectContextEnds(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	start := func() error { cancel(); return nil }
	_, err := Connect(ctx, socketPath(t), start, time.Hour)
	if !errors.Is(err, context.Canceled) {
		t.Errorf("Connect() error = %v, want context.Canceled", err)
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
