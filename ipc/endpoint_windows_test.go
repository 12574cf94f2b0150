//go:build windows

package ipc

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

var pipeSeq atomic.Int64

// testPipe is a pipe name no other test or process uses.
func testPipe() string {
	return fmt.Sprintf(`\\.\pipe\feedback-test-%d-%d`, os.Getpid(), pipeSeq.Add(1))
}

func TestWindowsSocketPathIsTheUsersPipe(t *testing.T) {
	t.Setenv(EnvSocket, "")
	p, err := SocketPath()
	if err != nil {
		t.Fatal(err)
	}
	sid, err := currentSID()
	if err != nil {
		t.Fatal(err)
	}
	if want := `\\.\pipe\feedback-` + sid.String(); p != want {
		t.Errorf("SocketPath() = %q, want %q", p, want)
	}
}

func TestWindowsPipeRoundTripAndSingleInstance(t *testing.T) {
	path := testPipe()
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	s := NewServer(answerAll, ServerOptions{})
	done := make(chan error, 1)
	go func() { done <- s.Serve(l) }()
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		s.Shutdown(ctx)
		<-done
	}()

	c := &Client{Path: path}
	defer c.Close()
	if _, err := c.Hello(context.Background()); err != nil {
		t.Fatalf("Hello over the pipe: %v", err)
	}
	if _, err := Listen(path); !errors.Is(err, ErrAlreadyRunning) {
		t.Fatalf("second Listen: %v, want ErrAlreadyRunning", err)
	}
}

func TestWindowsPipeGrantsOnlyTheUser(t *testing.T) {
	path := testPipe()
	l, err := Listen(path)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() { // a client reaches only an instance that is accepting
		if c, err := l.Accept(); err == nil {
			defer c.Close()
			io.Copy(io.Discard, c)
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	conn, err := dialEndpoint(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	h := windows.Handle(conn.(interface{ Fd() uintptr }).Fd())
	sd, err := windows.GetSecurityInfo(h, windows.SE_KERNEL_OBJECT,
		windows.OWNER_SECURITY_INFORMATION|windows.DACL_SECURITY_INFORMATION)
	if err != nil {
		t.Fatal(err)
	}
	me, _ := currentSID()
	owner, _, err := sd.Owner()
	if err != nil || !owner.Equals(me) {
		t.Errorf("owner = %v (%v), want %v", owner, err, me)
	}
	dacl, _, err := sd.DACL()
	if err != nil {
		t.Fatal(err)
	}
	if dacl.AceCount != 1 {
		t.Errorf("the DACL has %d entries, want 1: %s", dacl.AceCount, sd)
	}
	if !strings.Contains(sd.String(), ";;;"+me.String()+")") {
		t.Errorf("the DACL does not name the user: %s", sd)
	}
}

func TestWindowsDialRefusesAPipeOwnedBySomeoneElse(t *testing.T) {
	// A pipe owned by the Administrators group stands in for another user's
	// (a process can make its own groups the owner of what it creates only
	// when elevated, so skip otherwise).
	path := testPipe()
	me, _ := currentSID()
	l, err := winio.ListenPipe(path, &winio.PipeConfig{SecurityDescriptor: "O:BAD:P(A;;GA;;;" + me.String() + ")"})
	if err != nil {
		t.Skipf("cannot create a pipe owned by another principal here: %v", err)
	}
	defer l.Close()
	go acceptAll(l) // clients reach only an instance that is accepting
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	_, err = dialEndpoint(ctx, path)
	if !errors.Is(err, ErrUntrustedEndpoint) {
		t.Fatalf("dial: %v, want ErrUntrustedEndpoint", err)
	}
	if _, err := Listen(path); !errors.Is(err, ErrUntrustedEndpoint) {
		t.Fatalf("Listen on a squatted name: %v, want ErrUntrustedEndpoint", err)
	}
}

// A missing pipe is an app that is not running: launch starts it.
func TestWindowsNoPipeIsNotListening(t *testing.T) {
	_, err := (&Client{Path: testPipe()}).Hello(context.Background())
	if !NotListening(err) {
		t.Fatalf("Hello on a missing pipe: %v, want one that NotListening sees", err)
	}
}

// acceptAll accepts connections on l and holds them until l is closed.
func acceptAll(l net.Listener) {
	for {
		c, err := l.Accept()
		if err != nil {
			return
		}
		defer c.Close()
	}
}
