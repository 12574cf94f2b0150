//go:build windows

package ipc

import (
	"context"
	"errors"
	"fmt"
	"net"
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
// exists with a looser ACL. It is created as the first instance
// (FILE_FLAG_FIRST_PIPE_INSTANCE in go-winio), which fails if the name
// exists: a second app gets an error wrapping ErrAlreadyRunning when its
// dial reaches the first one, and an *EndpointError when the pipe belongs to
// someone else (a squatter). A pipe disappears with the last handle to it,
// so unlike a Unix socket there is never a stale endpoint to remove.
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
	l, err := winio.ListenPipe(path, &winio.PipeConfig{
		SecurityDescriptor: sddl,
		InputBufferSize:    64 << 10,
		OutputBufferSize:   64 << 10,
	})
	if err == nil {
		return l, nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	c, derr := dialEndpoint(ctx, path)
	switch {
	case derr == nil:
		c.Close()
		return nil, fmt.Errorf("%w (something answers on %s)", ErrAlreadyRunning, path)
	case errors.Is(derr, ErrUntrustedEndpoint):
		return nil, derr
	}
	return nil, fmt.Errorf("ipc: listen on %s: %w", path, err)
}

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
