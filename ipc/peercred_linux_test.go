package ipc

import (
	"bytes"
	"io"
	"log/slog"
	"net"
	"os"
	"strings"
	"sync"
	"testing"
	"time"
)

func TestAcceptRefusesOtherUser(t *testing.T) {
	path := socketPath(t)
	nl, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	l := nl.(*listener)
	l.uid = os.Getuid() + 1 // as if the test ran as someone else
	var logs syncBuffer
	l.setLogger(slog.New(slog.NewTextHandler(&logs, nil)))

	accepted := make(chan net.Conn, 1)
	go func() {
		c, err := l.Accept()
		if err == nil {
			accepted <- c
		}
		close(accepted)
	}()

	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetReadDeadline(time.Now().Add(10 * time.Second))
	if n, err := c.Read(make([]byte, 1)); err != io.EOF {
		t.Fatalf("Read on a refused connection = %d, %v; want EOF", n, err)
	}
	l.Close()
	if c, ok := <-accepted; ok {
		c.Close()
		t.Fatal("Accept returned a connection from another uid")
	}
	if !strings.Contains(logs.String(), "refused a connection") {
		t.Errorf("refusal not logged: %q", logs.String())
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent use.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
