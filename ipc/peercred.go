package ipc

import (
	"fmt"
	"net"
	"syscall"
)

// Each system supplies checkPeer(c net.Conn, uid int) error, which reports an
// error unless the process at the other end of c runs as uid: a *peerError
// when it runs as someone else, another error when the system cannot tell
// (a caller refuses the connection then). The server checks its callers with
// it, a Client the app it dialled (for a connected socket the system reports
// the credentials of the process that called listen).

// peerError is checkPeer's refusal of a peer that runs as another user.
type peerError struct {
	UID  int // the peer's uid
	PID  int // the peer's pid; -1 where the system does not tell
	Want int // the uid it had to be
}

func (e *peerError) Error() string {
	if e.PID < 0 {
		return fmt.Sprintf("the peer runs as uid %d, not uid %d", e.UID, e.Want)
	}
	return fmt.Sprintf("the peer (pid %d) runs as uid %d, not uid %d", e.PID, e.UID, e.Want)
}

// comparePeer is the verdict of checkPeer once the system has told who the
// peer is.
func comparePeer(uid, pid, want int) error {
	if uid != want {
		return &peerError{UID: uid, PID: pid, Want: want}
	}
	return nil
}

// readPeer calls read with c's descriptor, to read its peer's
// credentials; read's error is the system's refusal to tell.
func readPeer(c net.Conn, read func(fd int) error) error {
	sc, ok := c.(syscall.Conn)
	if !ok {
		return fmt.Errorf("cannot read the peer credentials of a %T", c)
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return err
	}
	var readErr error
	if err := raw.Control(func(fd uintptr) { readErr = read(int(fd)) }); err != nil {
		return err
	}
	if readErr != nil {
		return fmt.Errorf("read peer credentials: %w", readErr)
	}
	return nil
}
