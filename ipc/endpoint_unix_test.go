//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly

package ipc

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// nobody is the uid (and gid) the tests that run as root give to "another
// user".
const nobody = 65534

// envForeignListener makes the test binary a listener that reports what it
// received (see runForeignListener): the other user of TestClientRefusesAListenerOfAnotherUser.
const envForeignListener = "IPC_TEST_FOREIGN_LISTENER"

func init() {
	if path := os.Getenv(envForeignListener); path != "" {
		os.Exit(runForeignListener(path))
	}
}

// runForeignListener listens at path, prints "listening", then for the one
// connection it accepts prints how many bytes arrived before the caller
// closed it.
func runForeignListener(path string) int {
	l, err := net.Listen("unix", path)
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	fmt.Println("listening")
	c, err := l.Accept()
	if err != nil {
		fmt.Println("error:", err)
		return 1
	}
	n, _ := io.Copy(io.Discard, c)
	fmt.Printf("received %d bytes\n", n)
	return 0
}

// byteCounter listens at path like an app would, and reports on got how many
// bytes each connection sent before it was closed.
func byteCounter(t *testing.T, path string) (got <-chan int64) {
	t.Helper()
	l, err := net.Listen("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	ch := make(chan int64, 16)
	go func() {
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				n, _ := io.Copy(io.Discard, c)
				ch <- n
			}()
		}
	}()
	return ch
}

// mustRefuse runs Hello with c and returns its refusal, failing the test
// unless it is an *EndpointError that matches ErrUntrustedEndpoint and
// names wantPath.
func mustRefuse(t *testing.T, c *Client, wantPath string) *EndpointError {
	t.Helper()
	// The listeners here never answer: a client that talks to them would
	// wait for good.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := c.Hello(ctx)
	var ee *EndpointError
	if !errors.As(err, &ee) || !errors.Is(err, ErrUntrustedEndpoint) {
		t.Fatalf("Hello = %v, want an *EndpointError (ErrUntrustedEndpoint)", err)
	}
	if ee.Path != wantPath || !strings.Contains(err.Error(), wantPath) {
		t.Errorf("refusal %q names %q, want %q", err, ee.Path, wantPath)
	}
	return ee
}

func needRoot(t *testing.T) {
	t.Helper()
	if os.Getuid() != 0 {
		t.Skip("needs root to act as another user")
	}
}

// A client refuses, before sending anything, an endpoint that another user
// could control, and says which path and whose it is.
func TestClientRefusesUntrustedEndpoints(t *testing.T) {
	me := os.Getuid()
	tests := []struct {
		name string
		// setup turns the live endpoint at path into the case and returns
		// the client to try, and the path the refusal must name.
		setup     func(t *testing.T, path string) (c *Client, refused string)
		wantOwner int
		wantInErr string
	}{
		{"directory of another user (the client runs as someone else)", func(t *testing.T, path string) (*Client, string) {
			other := me + 1
			return &Client{Path: path, uid: &other}, filepath.Dir(path)
		}, me, fmt.Sprintf("owned by uid %d, not by you (uid %d)", me, me+1)},
		{"directory of another user (chown)", func(t *testing.T, path string) (*Client, string) {
			needRoot(t)
			chown(t, filepath.Dir(path), nobody)
			return &Client{Path: path}, filepath.Dir(path)
		}, nobody, "owned by uid 65534"},
		{"directory open to others", func(t *testing.T, path string) (*Client, string) {
			chmod(t, filepath.Dir(path), 0o750)
			return &Client{Path: path}, filepath.Dir(path)
		}, -1, "open to other users"},
		{"directory shared like /tmp", func(t *testing.T, path string) (*Client, string) {
			chmod(t, filepath.Dir(path), 0o777|os.ModeSticky)
			return &Client{Path: path}, filepath.Dir(path)
		}, -1, "shared"},
		{"directory is a symbolic link", func(t *testing.T, path string) (*Client, string) {
			link := filepath.Join(filepath.Dir(socketPath(t)), "link")
			if err := os.Symlink(filepath.Dir(path), link); err != nil {
				t.Fatal(err)
			}
			return &Client{Path: filepath.Join(link, filepath.Base(path))}, link
		}, -1, "symbolic link"},
		{"socket is a symbolic link", func(t *testing.T, path string) (*Client, string) {
			link := filepath.Join(filepath.Dir(path), "link.sock")
			if err := os.Symlink(path, link); err != nil {
				t.Fatal(err)
			}
			return &Client{Path: link}, link
		}, -1, "not a socket"},
		{"socket is a regular file", func(t *testing.T, path string) (*Client, string) {
			file := filepath.Join(filepath.Dir(path), "file.sock")
			if err := os.WriteFile(file, nil, 0o600); err != nil {
				t.Fatal(err)
			}
			return &Client{Path: file}, file
		}, -1, "not a socket"},
		{"socket of another user", func(t *testing.T, path string) (*Client, string) {
			needRoot(t)
			chown(t, path, nobody)
			return &Client{Path: path}, path
		}, nobody, "socket is owned by uid 65534"},
		{"listener of another user (the client runs as someone else)", func(t *testing.T, path string) (*Client, string) {
			// Directory and socket are the other user's, as they would be
			// for them; the process listening is not (it is this test).
			needRoot(t)
			chown(t, filepath.Dir(path), nobody)
			chown(t, path, nobody)
			other := nobody
			return &Client{Path: path, uid: &other}, path
		}, me, fmt.Sprintf("runs as uid %d, not as you (uid %d)", me, nobody)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := socketPath(t)
			got := byteCounter(t, path)
			c, refused := tt.setup(t, path)
			ee := mustRefuse(t, c, refused)
			if ee.Owner != tt.wantOwner {
				t.Errorf("Owner = %d, want %d", ee.Owner, tt.wantOwner)
			}
			if !strings.Contains(ee.Error(), tt.wantInErr) {
				t.Errorf("refusal %q does not say %q", ee, tt.wantInErr)
			}
			select {
			case n := <-got:
				if n != 0 {
					t.Errorf("the listener received %d bytes", n)
				}
			default: // refused before connecting
			}
		})
	}
}

// The same checks let the user's own endpoint through.
func TestClientAcceptsOwnEndpoint(t *testing.T) {
	c := startServer(t, answerAll, ServerOptions{})
	me := os.Getuid()
	c.uid = &me
	if _, err := c.Hello(context.Background()); err != nil {
		t.Fatal(err)
	}
}

// A listener run by another user, whose socket sits in the client's own
// private directory, is refused by the peer check on the connected socket,
// for real: another process, running as nobody.
func TestClientRefusesAListenerOfAnotherUser(t *testing.T) {
	needRoot(t)
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	// The other user must be able to run the test binary and listen in a
	// directory of their own.
	public, err := os.MkdirTemp("", "fbpub")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(public) })
	chmod(t, public, 0o755)
	helper := filepath.Join(public, "helper")
	copyFile(t, exe, helper, 0o755)
	theirs := filepath.Dir(socketPath(t))
	chown(t, theirs, nobody)

	cmd := exec.Command(helper)
	cmd.Env = append(os.Environ(), envForeignListener+"="+filepath.Join(theirs, "s.sock"))
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: nobody, Gid: nobody}}
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := bufio.NewScanner(out)
	if !lines.Scan() || lines.Text() != "listening" {
		t.Fatalf("helper: %q, %v", lines.Text(), lines.Err())
	}

	// Their socket, moved into our private directory and given to us: only
	// the peer check can tell.
	path := socketPath(t)
	if err := os.Rename(filepath.Join(theirs, "s.sock"), path); err != nil {
		t.Fatal(err)
	}
	chown(t, path, os.Getuid())
	ee := mustRefuse(t, &Client{Path: path}, path)
	if ee.Owner != nobody || !strings.Contains(ee.Error(), "runs as uid 65534") {
		t.Errorf("refusal %q (Owner %d) does not name uid 65534", ee, ee.Owner)
	}
	if !lines.Scan() || lines.Text() != "received 0 bytes" {
		t.Errorf("helper: %q, %v; want it to have received nothing", lines.Text(), lines.Err())
	}
}

// Seen from the client, the peer of a connected socket is the process that
// listens: checkPeer names its uid.
func TestCheckPeerOfTheListener(t *testing.T) {
	path := socketPath(t)
	byteCounter(t, path)
	c, err := net.Dial("unix", path)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := checkPeer(c, os.Getuid()); err != nil {
		t.Fatalf("checkPeer(own listener) = %v", err)
	}
	err = checkPeer(c, os.Getuid()+1)
	var pe *peerError
	if !errors.As(err, &pe) || pe.UID != os.Getuid() {
		t.Fatalf("checkPeer(as someone else) = %v, want a *peerError naming uid %d", err, os.Getuid())
	}
}

// Listen never follows a symbolic link for the socket directory: it refuses
// it and leaves the target alone (it used to make the target, a user's
// home, 0700).
func TestListenRefusesSymlinkedDirectory(t *testing.T) {
	target := filepath.Dir(socketPath(t))
	chmod(t, target, 0o755)
	link := filepath.Join(filepath.Dir(socketPath(t)), "link")
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
	l, err := Listen(filepath.Join(link, "feedback.sock"))
	if err == nil {
		l.Close()
		t.Fatal("Listen accepted a symbolic link as its directory")
	}
	if !errors.Is(err, ErrUntrustedEndpoint) || !strings.Contains(err.Error(), link) || !strings.Contains(err.Error(), "symbolic link") {
		t.Errorf("error %q does not refuse the link by name", err)
	}
	assertPerm(t, target, 0o755)
	if entries, _ := os.ReadDir(target); len(entries) != 0 {
		t.Errorf("Listen wrote into the link's target: %v", entries)
	}
}

func chmod(t *testing.T, path string, mode os.FileMode) {
	t.Helper()
	if err := os.Chmod(path, mode); err != nil {
		t.Fatal(err)
	}
}

func chown(t *testing.T, path string, uid int) {
	t.Helper()
	if err := os.Lchown(path, uid, uid); err != nil {
		t.Fatal(err)
	}
}

func copyFile(t *testing.T, from, to string, mode os.FileMode) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, mode); err != nil {
		t.Fatal(err)
	}
}
