//go:build windows

package ipc

import (
	"context"
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/Microsoft/go-winio"
	"golang.org/x/sys/windows"
)

// systemSocketPath returns the user's pipe (pipePath): on Windows the
// endpoint is never a file, so XDG_RUNTIME_DIR and the cache directory do not
// apply. FEEDBACK_SOCKET, checked before this, may name another pipe.
func systemSocketPath() (string, bool, error) {
	sid, err := currentSID()
	if err != nil {
		return "", true, err
	}
	p, err := pipePath(sid.String())
	return p, true, err
}

// currentSID is the security identifier of the user this process runs as.
func currentSID() (*windows.SID, error) {
	tu, err := windows.GetCurrentProcessToken().GetTokenUser()
	if err != nil {
		return nil, fmt.Errorf("ipc: who am I: %w", err)
	}
	return tu.User.Sid, nil
}

// Listen listens on the named pipe path for the current user only.
//
// The pipe is created with the security descriptor of pipeSDDL: owned by the
// user, and a DACL that grants the user's SID alone, so the kernel refuses
// every other account at open time; there is no window in which the pipe
// exists with a looser ACL. A pipe disappears with the last handle to it,
// so unlike a Unix socket there is never a stale endpoint to remove.
//
// Listen first looks whether the name is taken (checkFree): a running app
// gives an error wrapping ErrAlreadyRunning, a pipe someone else owns an
// *EndpointError, and a pipe held by a process that does not answer as the
// app a *NameTakenError. Only then is the pipe created, as the first
// instance (FILE_FLAG_FIRST_PIPE_INSTANCE in go-winio), which on Windows
// also settles a race between two apps starting at once. The look comes
// first because wine (8.0) ignores that flag: there a second ListenPipe on
// a taken name succeeds, and two apps would share the name.
func Listen(path string) (net.Listener, error) {
	if !isPipePath(path) {
		return nil, fmt.Errorf(`ipc: %s is not a named pipe; on Windows %s must look like \\.\pipe\NAME`, path, EnvSocket)
	}
	sid, err := currentSID()
	if err != nil {
		return nil, err
	}
	sddl, err := pipeSDDL(sid.String())
	if err != nil {
		return nil, err
	}
	if err := checkFree(path); err != nil {
		return nil, err
	}
	l, err := winio.ListenPipe(path, &winio.PipeConfig{
		SecurityDescriptor: sddl,
		InputBufferSize:    64 << 10,
		OutputBufferSize:   64 << 10,
	})
	if err == nil {
		return plugFirstInstance(l, path)
	}
	if ferr := checkFree(path); ferr != nil {
		return nil, ferr // another app was quicker
	}
	return nil, fmt.Errorf("ipc: listen on %s: %w", path, err)
}

// freeWait bounds checkFree's look: an app that is busy still answers a
// hello well within it.
const freeWait = 5 * time.Second

// checkFree returns nil when no pipe is named path; else why it cannot be
// listened on: ErrAlreadyRunning (wrapped) when the app answers there, an
// *EndpointError when another user owns the pipe, a *NameTakenError when
// its holder does not answer as the app within freeWait.
func checkFree(path string) error {
	ctx, cancel := context.WithTimeout(context.Background(), freeWait)
	defer cancel()
	_, err := (&Client{Path: path}).Hello(ctx)
	switch {
	case err == nil, errors.Is(err, ErrProtocolMismatch):
		return fmt.Errorf("%w (something answers on %s)", ErrAlreadyRunning, path)
	case errors.Is(err, ErrUntrustedEndpoint):
		return err
	case NotListening(err):
		return nil
	}
	return &NameTakenError{Path: path, Err: Reason(err)}
}

// NameTakenError: the pipe's name is held by a process that does not
// answer as the feedback app (a name collision, or a squatter of the
// user's own account).
type NameTakenError struct {
	Path string
	Err  error // what answering it gave
}

func (e *NameTakenError) Error() string {
	return fmt.Sprintf("ipc: %s is held by a process that does not answer as the feedback app (%v): "+
		"end that process, or set %s to another pipe name", e.Path, e.Err, EnvSocket)
}

func (e *NameTakenError) Unwrap() error { return e.Err }

// verifyEndpoint has nothing to check before a dial on Windows: the pipe is
// not a file in a directory. dialEndpoint checks the pipe's owner instead.
func verifyEndpoint(path string, _ int) error {
	if !isPipePath(path) {
		return fmt.Errorf(`ipc: %s is not a named pipe; on Windows %s must look like \\.\pipe\NAME`, path, EnvSocket)
	}
	return nil
}

// dialEndpoint connects to the pipe at path and makes sure the current user
// owns it: any user can create a pipe under any free name, so a pipe that
// someone else created before the app started is refused with an
// *EndpointError rather than sent questions.
func dialEndpoint(ctx context.Context, path string) (net.Conn, error) {
	c, err := winio.DialPipeContext(ctx, path)
	if err != nil {
		return nil, err
	}
	if err := checkPipeOwner(c, path); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// checkPipeOwner fails unless the pipe behind c is owned by the current user.
func checkPipeOwner(c net.Conn, path string) error {
	fc, ok := c.(interface{ Fd() uintptr })
	if !ok {
		return &EndpointError{Path: path, Owner: -1, Reason: fmt.Sprintf("cannot tell who owns it (a %T)", c)}
	}
	sd, err := windows.GetSecurityInfo(windows.Handle(fc.Fd()), windows.SE_KERNEL_OBJECT, windows.OWNER_SECURITY_INFORMATION)
	if err != nil {
		return &EndpointError{Path: path, Owner: -1, Reason: fmt.Sprintf("cannot tell who owns it: %v", err)}
	}
	owner, _, err := sd.Owner()
	if err != nil || owner == nil {
		return &EndpointError{Path: path, Owner: -1, Reason: fmt.Sprintf("it has no owner (%v)", err)}
	}
	me, err := currentSID()
	if err != nil {
		return err
	}
	if !owner.Equals(me) {
		return &EndpointError{Path: path, Owner: -1,
			Reason: fmt.Sprintf("the pipe is owned by %s, not by you (%s): another user created it first and could read the questions sent there. Sign that user out or restart Windows, or set %s to another pipe name",
				owner, me, EnvSocket)}
	}
	return nil
}

// plugFirstInstance makes sure no client can reach the first instance of
// the pipe that go-winio's ListenPipe creates and never serves.
//
// go-winio opens that instance with no read or write access, which on
// Windows leaves it disconnected: clients get ERROR_PIPE_BUSY from it and
// retry until an instance that is accepting comes. Wine (seen with 8.0)
// does not: it hands a client the first instance whenever no Accept is
// pending (before the first, and between an accepted connection and the
// next), and that client then waits for an answer forever. So this
// connects to the pipe once, right after ListenPipe, while that unserved
// instance is the only one: under wine the plug takes it, on Windows the
// open fails with ERROR_PIPE_BUSY and there is nothing to hold. The plug is
// closed with the listener.
func plugFirstInstance(l net.Listener, path string) (net.Listener, error) {
	p16, err := windows.UTF16PtrFromString(path)
	if err != nil {
		l.Close()
		return nil, fmt.Errorf("ipc: pipe name %q: %w", path, err)
	}
	h, err := windows.CreateFile(p16, 0, 0, nil, windows.OPEN_EXISTING,
		windows.SECURITY_SQOS_PRESENT|windows.SECURITY_ANONYMOUS, 0)
	switch {
	case err == nil:
		return &pluggedListener{Listener: l, plug: h}, nil
	case errors.Is(err, windows.ERROR_PIPE_BUSY):
		return l, nil // Windows: the first instance refuses clients
	}
	l.Close()
	return nil, fmt.Errorf("ipc: listen on %s: checking its first instance: %w", path, err)
}

// pluggedListener holds the client end that plugs the first instance.
type pluggedListener struct {
	net.Listener
	plug windows.Handle
	once sync.Once
}

func (l *pluggedListener) Close() error {
	err := l.Listener.Close()
	l.once.Do(func() { windows.CloseHandle(l.plug) })
	return err
}
